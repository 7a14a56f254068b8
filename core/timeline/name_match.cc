#include "core/timeline/name_match.h"

#include "core/regex/linear_regex.h"

namespace tw {

namespace {

char fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

}  // namespace

bool match_names(const StringPool& strings, const NameQuery& q, std::vector<uint32_t>* ids, std::string* error) {
  error->clear();
  if (q.text.size() > kMaxQueryChars) {
    *error = "the search text is too long (over " + std::to_string(kMaxQueryChars) + " characters)";
    return false;
  }
  if (q.text.empty()) return true;
  const uint32_t n = static_cast<uint32_t>(strings.size());
  if (q.regex) {
    LinearRegex re;
    if (!re.compile(q.text, !q.case_sensitive, error)) return false;
    for (uint32_t i = 1; i < n; ++i)
      if (re.search(strings.get(i))) ids->push_back(i);
    return true;
  }
  if (q.case_sensitive) {
    for (uint32_t i = 1; i < n; ++i)
      if (strings.get(i).find(q.text) != std::string_view::npos) ids->push_back(i);
    return true;
  }
  std::string needle = q.text, folded;
  for (char& c : needle) c = fold(c);
  for (uint32_t i = 1; i < n; ++i) {
    std::string_view s = strings.get(i);
    if (s.size() < needle.size()) continue;
    folded.assign(s);
    for (char& c : folded) c = fold(c);
    if (folded.find(needle) != std::string::npos) ids->push_back(i);
  }
  return true;
}

}  // namespace tw
