// User-supplied regexes without exceptions: std::regex reports a bad pattern by throwing, and the
// wasm build aborts on throw. compile_regex() first checks the syntax with a small validator of the
// ECMAScript subset we accept (so native and wasm agree on what is valid), then builds the regex.
#pragma once
#include <regex>
#include <string>

namespace tw {

// True when `pattern` is a well-formed ECMAScript regex of the accepted subset: literals, escapes,
// ., [classes] with ranges, groups ( ) (?: ) (?= ) (?! ), |, ^ $, quantifiers * + ? {m} {m,} {m,n}
// (optionally lazy), back-references to already opened groups.
bool regex_syntax_ok(const std::string& pattern);

// Builds *out; false (and *out untouched) when the pattern is rejected.
bool compile_regex(const std::string& pattern, std::regex::flag_type flags, std::regex* out);

}  // namespace tw
