#include "core/timeline/regex_parse.h"

namespace tw {

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

unsigned char escaped_byte(char e) {
  switch (e) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'v': return '\v';
    case '0': return 0;
    default: return static_cast<unsigned char>(e);
  }
}

// Recursive descent over a pattern that regex_syntax_ok() accepted.
class Parser {
 public:
  Parser(const std::string& p, std::string* error) : p_(p), error_(error) {}

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
      if (depth >= kMaxNesting) { fail("the pattern nests groups too deeply"); return n; }
      if (p_.compare(i_, 3, "(?=") == 0 || p_.compare(i_, 3, "(?!") == 0) {
        fail("look-ahead (?= (?! is not supported in search");
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
        char e = p_[i_++];
        if (e >= '1' && e <= '9') { fail("back-references are not supported in search"); return n; }
        if (e == 'b' || e == 'B') {
          n.kind = Node::kAssert;
          n.assertion = e == 'b' ? Node::kWordB : Node::kNotWordB;
          return n;
        }
        if (std::string("dDwWsS").find(e) != std::string::npos) {
          n.kind = Node::kClass;
          n.set = class_of(e);
          return n;
        }
        n.kind = Node::kByte;
        n.byte = escaped_byte(e);
        return n;
      }
      default:
        n.kind = Node::kByte;
        n.byte = static_cast<unsigned char>(c);
        return n;
    }
  }

  Node bracket() {
    Node n;
    n.kind = Node::kClass;
    ++i_;  // '['
    bool negate = i_ < p_.size() && p_[i_] == '^';
    if (negate) ++i_;
    int prev = -1;
    while (p_[i_] != ']') {
      int c;
      if (p_[i_] == '\\') {
        char e = p_[i_ + 1];
        i_ += 2;
        if (std::string("dDwWsS").find(e) != std::string::npos) {
          n.set |= class_of(e);
          prev = -1;
          continue;
        }
        c = e == 'b' ? '\b' : escaped_byte(e);
      } else {
        c = static_cast<unsigned char>(p_[i_++]);
      }
      if (c == '-' && prev >= 0 && p_[i_] != ']') {  // a range prev-next
        int hi;
        if (p_[i_] == '\\') hi = escaped_byte(p_[i_ + 1]), i_ += 2;
        else hi = static_cast<unsigned char>(p_[i_++]);
        for (int k = prev; k <= hi; ++k) n.set[k] = true;
        prev = -1;
        continue;
      }
      n.set[c] = true;
      prev = c;
    }
    ++i_;  // ']'
    if (negate) n.set.flip();
    return n;
  }

  const std::string& p_;
  std::string* error_;
  size_t i_ = 0;
};

}  // namespace

bool parse_regex(const std::string& pattern, RegexNode* out, std::string* error) {
  error->clear();
  return Parser(pattern, error).parse(out);
}

}  // namespace tw
