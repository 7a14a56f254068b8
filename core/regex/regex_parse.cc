#include "core/regex/regex_parse.h"

#include "core/regex/regex_syntax.h"

namespace tw {

void fold_ascii_case(std::bitset<256>& s) {
  for (int c = 'a'; c <= 'z'; ++c)
    if (s[c] || s[c - 32]) s[c] = s[c - 32] = true;
}

bool is_regex_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

namespace {

constexpr int kMaxNesting = 100;  // groups inside groups: keeps the recursive parser shallow

using Node = RegexNode;

std::bitset<256> class_of(char e) {
  std::bitset<256> s;
  for (int c = 0; c < 256; ++c) {
    bool d = c >= '0' && c <= '9';
    bool w = is_regex_word_byte(static_cast<unsigned char>(c));
    bool sp = c == ' ' || (c >= '\t' && c <= '\r');
    switch (e) {
      case 'd': s[c] = d; break;
      case 'D': s[c] = !d; break;
      case 'w': s[c] = w; break;
      case 'W': s[c] = !w; break;
      case 's': s[c] = sp; break;
      case 'S': s[c] = !sp; break;
    }
  }
  return s;
}

// Recursive descent over a pattern that regex_syntax_ok() accepted.
class Parser {
 public:
  Parser(const std::string& p, bool icase, std::string* error) : p_(p), icase_(icase), error_(error) {}

  bool parse(Node* out) {
    *out = alt(0);
    if (!error_->empty()) return false;
    return i_ == p_.size() || fail("unexpected ')'");
  }

 private:
  bool fail(const std::string& why) {
    if (error_->empty()) *error_ = why;
    return false;
  }

  Node alt(int depth) {
    Node first = cat(depth);
    if (i_ >= p_.size() || p_[i_] != '|') return first;
    Node n;
    n.kind = Node::kAlt;
    n.kids.push_back(std::move(first));
    while (i_ < p_.size() && p_[i_] == '|') {
      ++i_;
      n.kids.push_back(cat(depth));
    }
    return n;
  }

  Node cat(int depth) {
    Node n;
    n.kind = Node::kCat;
    while (i_ < p_.size() && p_[i_] != '|' && p_[i_] != ')' && error_->empty()) {
      Node a = atom(depth);
      while (i_ < p_.size() && error_->empty()) {
        int lo = 0, hi = 0;
        char c = p_[i_];
        if (c == '*') lo = 0, hi = -1, ++i_;
        else if (c == '+') lo = 1, hi = -1, ++i_;
        else if (c == '?') lo = 0, hi = 1, ++i_;
        else if (c == '{') brace(&lo, &hi);
        else break;
        if (i_ < p_.size() && p_[i_] == '?') ++i_;  // lazy: same answer to "does it match"
        Node r;
        r.kind = Node::kRepeat;
        r.min = lo, r.max = hi;
        r.kids.push_back(std::move(a));
        a = std::move(r);
      }
      n.kids.push_back(std::move(a));
    }
    return n;
  }

  // "{m}", "{m,}", "{m,n}" (the syntax check accepted it).
  void brace(int* lo, int* hi) {
    ++i_;
    auto number = [&] {
      int v = 0;
      while (i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '9') v = v * 10 + (p_[i_++] - '0');
      return v;
    };
    *lo = number();
    *hi = *lo;
    if (p_[i_] == ',') {
      ++i_;
      *hi = p_[i_] == '}' ? -1 : number();
    }
    ++i_;  // '}'
  }

  Node atom(int depth) {
    Node n;
    char c = p_[i_];
    if (c == '(') {
      if (depth >= kMaxNesting) {
        fail("the pattern nests groups too deeply");
        return n;
      }
      if (p_.compare(i_, 3, "(?=") == 0 || p_.compare(i_, 3, "(?!") == 0) {
        fail("look-ahead (?= (?! is not supported");
        return n;
      }
      i_ += p_.compare(i_, 3, "(?:") == 0 ? 3 : 1;
      n = alt(depth + 1);
      ++i_;  // ')'
      return n;
    }
    ++i_;
    switch (c) {
      case '.':
        n.kind = Node::kClass;
        n.set.set();
        n.set[static_cast<unsigned char>('\n')] = false;
        n.set[static_cast<unsigned char>('\r')] = false;
        return n;
      case '^': n.kind = Node::kAssert, n.assertion = Node::kBol; return n;
      case '$': n.kind = Node::kAssert, n.assertion = Node::kEol; return n;
      case '[': --i_; return bracket();
      case '\\': {
        char e = p_[i_];
        if (e >= '1' && e <= '9') {
          fail("back-references are not supported");
          return n;
        }
        if (e == 'b' || e == 'B') {
          ++i_;
          n.kind = Node::kAssert;
          n.assertion = e == 'b' ? Node::kWordB : Node::kNotWordB;
          return n;
        }
        if (std::string("dDwWsS").find(e) != std::string::npos) {
          ++i_;
          n.kind = Node::kClass;
          n.set = class_of(e);
          return n;
        }
        --i_;
        const bool code_point = e == 'u' || e == 'x';
        return character(regex_escape_value(p_, i_), code_point);
      }
      default:
        n.kind = Node::kByte;
        n.byte = static_cast<unsigned char>(c);
        return n;
    }
  }

  // An escaped character as bytes: a byte (an escaped raw byte stays itself), or for \xHH and
  // \uHHHH beyond ASCII the character's UTF-8 sequence, as names are UTF-8 ("\xe9" matches "é").
  Node character(long cp, bool code_point) {
    Node n;
    n.kind = Node::kByte;
    if (cp < 0x80 || !code_point) {
      n.byte = static_cast<unsigned char>(cp);
      return n;
    }
    unsigned char b[3];
    int len = cp < 0x800 ? 2 : 3;
    if (len == 2) b[0] = 0xC0 | (cp >> 6), b[1] = 0x80 | (cp & 0x3F);
    else b[0] = 0xE0 | (cp >> 12), b[1] = 0x80 | ((cp >> 6) & 0x3F), b[2] = 0x80 | (cp & 0x3F);
    n.kind = Node::kCat;
    for (int k = 0; k < len; ++k) {
      Node byte;
      byte.kind = Node::kByte;
      byte.byte = b[k];
      n.kids.push_back(byte);
    }
    return n;
  }

  // One character inside [ ] at p_[i_] (escapes decoded); -1 after fail() for one beyond a byte.
  int class_char() {
    if (p_[i_] != '\\') return static_cast<unsigned char>(p_[i_++]);
    if (p_[i_ + 1] == 'b') return i_ += 2, '\b';
    const bool code_point = p_[i_ + 1] == 'u' || p_[i_ + 1] == 'x';
    const long v = regex_escape_value(p_, i_);
    if (v >= 0x80 && code_point) return fail("a \\x or \\u escape beyond ASCII inside [ ] is not supported"), -1;
    return static_cast<int>(v);
  }

  Node bracket() {
    Node n;
    n.kind = Node::kClass;
    ++i_;  // '['
    bool negate = i_ < p_.size() && p_[i_] == '^';
    if (negate) ++i_;
    int prev = -1;
    while (p_[i_] != ']' && error_->empty()) {
      if (p_[i_] == '\\' && std::string("dDwWsS").find(p_[i_ + 1]) != std::string::npos) {
        n.set |= class_of(p_[i_ + 1]);
        i_ += 2;
        prev = -1;
        continue;
      }
      const bool dash = p_[i_] == '-';
      const int c = class_char();
      if (c < 0) return n;
      if (dash && prev >= 0 && p_[i_] != ']') {  // a range prev-next
        const int hi = class_char();
        if (hi < 0) return n;
        for (int k = prev; k <= hi; ++k) n.set[k] = true;
        prev = -1;
        continue;
      }
      n.set[c] = true;
      prev = c;
    }
    ++i_;  // ']'
    if (negate && icase_) fold_ascii_case(n.set);
    if (negate) n.set.flip();
    return n;
  }

  const std::string& p_;
  bool icase_;
  std::string* error_;
  size_t i_ = 0;
};

}  // namespace

bool parse_regex(const std::string& pattern, bool icase, RegexNode* out, std::string* error) {
  error->clear();
  return Parser(pattern, icase, error).parse(out);
}

}  // namespace tw
