// The regex syntax tracewise accepts, from users (kernel rules, timeline search) and in its built-in
// rules: an ECMAScript subset, checked by a small validator so that every build agrees on what is
// valid and a bad pattern is a message, never an exception (the wasm build aborts on throw).
#pragma once
#include <cstddef>
#include <string>

namespace tw {

// True when `pattern` is well formed in the accepted subset (at most 4096 characters): literals,
// escapes (\n \t \r \f \v \0 \xHH \uHHHH \d \D \w \W \s \S \b \B and escaped punctuation), ., [classes]
// with ranges, groups ( ) (?: ) (?= ) (?! ), |, ^ $, quantifiers * + ? {m} {m,} {m,n} (optionally
// lazy), back-references to already opened groups. LinearRegex then refuses look-arounds and
// back-references, which need backtracking.
bool regex_syntax_ok(const std::string& pattern);

// The code point of the character escape at p[i] == '\\' (\n \t \r \f \v \0 \xHH \uHHHH, or the
// escaped character itself), advancing i past it; -1 for a malformed \x or \u.
long regex_escape_value(const std::string& p, size_t& i);

}  // namespace tw
