// Which interned names a timeline search matches: a substring, or a regular expression run by
// LinearRegex (linear time, so no query can hang the worker on untrusted names). Case-insensitive
// unless asked otherwise (ASCII folding), like the page's search box always was.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/string_pool.h"

namespace tw {

struct NameQuery {
  std::string text;
  bool regex = false;
  bool case_sensitive = false;
};

// Appends the matching StringIds (never 0, the empty name) to *ids. False with a one-sentence
// *error when the query is refused (an invalid or unsupported regex, a query over kMaxQueryChars).
bool match_names(const StringPool& strings, const NameQuery& q, std::vector<uint32_t>* ids, std::string* error);

constexpr size_t kMaxQueryChars = 1000;

}  // namespace tw
