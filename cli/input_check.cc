#include "cli/input_check.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace tw {

InputCheck check_input(const std::string& path) {
  InputCheck c;
  struct stat st;
  // stat follows a symbolic link (/dev/stdin, a link to a trace): what is read is what it points to.
  int rc = path == "-" ? fstat(0, &st) : stat(path.c_str(), &st);
  if (rc != 0) {
    c.error = "cannot open " + path + ": " + std::strerror(errno);
    return c;
  }
  if (S_ISREG(st.st_mode)) {
    c.kind = InputKind::kRegular;
  } else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    c.kind = InputKind::kStream;
  } else if (path == "-" && S_ISCHR(st.st_mode)) {
    // A terminal as standard input: read until end of input, like any filter. (Standard input
    // from a device such as /dev/zero is capped like a pipe: stdin cannot be refused by name.)
    c.kind = InputKind::kStream;
  } else if (S_ISDIR(st.st_mode)) {
    c.error = path + ": is a directory, not a trace file";
  } else {
    c.error = path + ": not a regular file (a device may never end, so it is not read)";
  }
  return c;
}

bool parse_byte_count(const std::string& text, uint64_t& bytes) {
  uint64_t v = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (i == 0) return false;
  int shift = 0;
  if (i + 1 == text.size()) {
    char s = text[i];
    shift = s == 'K' || s == 'k' ? 10 : s == 'M' || s == 'm' ? 20 : s == 'G' || s == 'g' ? 30 : -1;
    if (shift < 0) return false;
  } else if (i != text.size()) {
    return false;
  }
  if (shift && v > (UINT64_MAX >> shift)) return false;
  bytes = v << shift;
  return bytes > 0;
}

}  // namespace tw
