#include "core/import/import_parts.h"

namespace tw {

namespace {

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

uint64_t likely_event_start(std::string_view w, uint64_t window_offset) {
  for (size_t i = w.find('}'); i != std::string_view::npos; i = w.find('}', i + 1)) {
    size_t j = i + 1;
    while (j < w.size() && is_ws(w[j])) ++j;
    if (j >= w.size() || w[j] != ',') continue;
    ++j;
    while (j < w.size() && is_ws(w[j])) ++j;
    if (j >= w.size() || w[j] != '{') continue;
    size_t brace = j++;
    while (j < w.size() && is_ws(w[j])) ++j;
    if (j < w.size() && w[j] == '"') return window_offset + brace;
  }
  return 0;
}

bool starts_as_object(std::string_view head) {
  size_t i = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (i < head.size() && is_ws(head[i])) ++i;
  return i < head.size() && head[i] == '{';
}

}  // namespace tw
