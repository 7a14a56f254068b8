// The parsed form of a regex (LinearRegex compiles it). parse_regex() takes a pattern that
// regex_syntax_ok() accepted, so it only has to build the tree, and refuses what a linear-time
// matcher cannot do (back-references, look-ahead) and deep group nesting.
#pragma once
#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

namespace tw {

struct RegexNode {
  enum Kind : uint8_t { kEmpty, kByte, kClass, kAssert, kCat, kAlt, kRepeat } kind = kEmpty;
  enum Assertion : uint8_t { kBol, kEol, kWordB, kNotWordB } assertion = kBol;
  uint8_t byte = 0;
  std::bitset<256> set;  // kClass: the bytes it matches
  int min = 0, max = 0;  // kRepeat; max < 0 = unbounded
  std::vector<RegexNode> kids;
};

// False with a one-sentence *error when the pattern is refused. With `icase`, a negated bracket
// class is folded before it is negated, as ECMAScript does ([^a-z] matches no letter), so that the
// compiler may fold every class afterwards. \xHH and \uHHHH beyond ASCII are the character's UTF-8
// bytes (names are UTF-8); inside [ ] they are refused, since a class holds single bytes.
bool parse_regex(const std::string& pattern, bool icase, RegexNode* out, std::string* error);

bool is_regex_word_byte(unsigned char c);

// Adds to `s` the other ASCII case of every letter in it (case folding is ASCII).
void fold_ascii_case(std::bitset<256>& s);

}  // namespace tw
