#include "core/timeline/linear_regex.h"

#include <algorithm>

#include "core/analysis/safe_regex.h"

namespace tw {

namespace {

constexpr int kMaxNesting = 100;  // groups inside groups: keeps the recursive parser shallow

struct Node {
  enum Kind : uint8_t { kEmpty, kByte, kClass, kAssert, kCat, kAlt, kRepeat } kind = kEmpty;
  uint8_t byte = 0;
  LinearRegex::Op assertion = LinearRegex::kBol;
  std::bitset<256> set;
  int min = 0, max = 0;  // kRepeat; max < 0 = unbounded
  std::vector<Node> kids;
};

bool is_word(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

std::bitset<256> class_of(char e) {
  std::bitset<256> s;
  for (int c = 0; c < 256; ++c) {
    bool d = c >= '0' && c <= '9';
    bool w = is_word(static_cast<unsigned char>(c));
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
      case '^': n.kind = Node::kAssert, n.assertion = LinearRegex::kBol; return n;
      case '$': n.kind = Node::kAssert, n.assertion = LinearRegex::kEol; return n;
      case '[': --i_; return bracket();
      case '\\': {
        char e = p_[i_++];
        if (e >= '1' && e <= '9') { fail("back-references are not supported in search"); return n; }
        if (e == 'b' || e == 'B') {
          n.kind = Node::kAssert;
          n.assertion = e == 'b' ? LinearRegex::kWordB : LinearRegex::kNotWordB;
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

class Compiler {
 public:
  Compiler(std::vector<LinearRegex::Inst>& prog, std::vector<std::bitset<256>>& classes, bool icase)
      : prog_(prog), classes_(classes), icase_(icase) {}

  bool emit(const Node& n) {
    if (prog_.size() > LinearRegex::kMaxProgram) return false;
    switch (n.kind) {
      case Node::kEmpty: return true;
      case Node::kByte: {
        unsigned char c = n.byte;
        bool alpha = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
        if (icase_ && alpha) {
          std::bitset<256> s;
          s[c | 0x20] = true;
          s[c & ~0x20] = true;
          return add_class(s);
        }
        push({LinearRegex::kByte, c});
        return true;
      }
      case Node::kClass: {
        std::bitset<256> s = n.set;
        if (icase_)
          for (int c = 'a'; c <= 'z'; ++c)
            if (s[c] || s[c - 32]) s[c] = s[c - 32] = true;
        return add_class(s);
      }
      case Node::kAssert: push({n.assertion}); return true;
      case Node::kCat:
        for (const Node& k : n.kids)
          if (!emit(k)) return false;
        return true;
      case Node::kAlt: {
        std::vector<uint32_t> jumps;
        for (size_t k = 0; k < n.kids.size(); ++k) {
          uint32_t split = 0;
          if (k + 1 < n.kids.size()) split = push({LinearRegex::kSplit});
          if (k + 1 < n.kids.size()) prog_[split].x = here();
          if (!emit(n.kids[k])) return false;
          if (k + 1 < n.kids.size()) {
            jumps.push_back(push({LinearRegex::kJmp}));
            prog_[split].y = here();
          }
        }
        for (uint32_t j : jumps) prog_[j].x = here();
        return true;
      }
      case Node::kRepeat: {
        for (int k = 0; k < n.min; ++k)
          if (!emit(n.kids[0])) return false;
        if (n.max < 0) {  // L: split body, out; body; jmp L
          uint32_t loop = push({LinearRegex::kSplit});
          prog_[loop].x = here();
          if (!emit(n.kids[0])) return false;
          push({LinearRegex::kJmp, 0, loop});
          prog_[loop].y = here();
          return true;
        }
        std::vector<uint32_t> splits;  // each optional copy may be skipped to the end
        for (int k = n.min; k < n.max; ++k) {
          uint32_t split = push({LinearRegex::kSplit});
          prog_[split].x = here();
          splits.push_back(split);
          if (!emit(n.kids[0])) return false;
        }
        for (uint32_t s : splits) prog_[s].y = here();
        return true;
      }
    }
    return true;
  }

 private:
  uint32_t here() const { return static_cast<uint32_t>(prog_.size()); }
  uint32_t push(LinearRegex::Inst i) {
    prog_.push_back(i);
    return here() - 1;
  }
  bool add_class(const std::bitset<256>& s) {
    push({LinearRegex::kClass, 0, static_cast<uint32_t>(classes_.size())});
    classes_.push_back(s);
    return true;
  }

  std::vector<LinearRegex::Inst>& prog_;
  std::vector<std::bitset<256>>& classes_;
  bool icase_;
};

}  // namespace

bool LinearRegex::compile(const std::string& pattern, bool icase, std::string* error) {
  prog_.clear();
  classes_.clear();
  error->clear();
  if (!regex_syntax_ok(pattern)) {
    *error = "not a valid regular expression (or longer than 4096 characters)";
    return false;
  }
  Node root;
  if (!Parser(pattern, error).parse(&root)) return false;
  if (!Compiler(prog_, classes_, icase).emit(root) || prog_.size() > kMaxProgram) {
    prog_.clear();
    *error = "the regular expression is too large (repeat counts expand it)";
    return false;
  }
  prog_.push_back({kMatch});
  mark_.assign(prog_.size(), 0);
  gen_ = 0;
  return true;
}

// Follows jumps, splits and assertions from pc at text position pos; consuming instructions go on
// `list`. True when Match is reachable.
bool LinearRegex::add(std::vector<uint32_t>& list, uint32_t pc0, std::string_view text, size_t pos) const {
  stack_.clear();
  stack_.push_back(pc0);
  while (!stack_.empty()) {
    uint32_t pc = stack_.back();
    stack_.pop_back();
    if (mark_[pc] == gen_) continue;
    mark_[pc] = gen_;
    const Inst& in = prog_[pc];
    auto word_at = [&](size_t k) { return k < text.size() && is_word(static_cast<unsigned char>(text[k])); };
    bool boundary = (pos > 0 && word_at(pos - 1)) != word_at(pos);
    switch (in.op) {
      case kMatch: return true;
      case kJmp: stack_.push_back(in.x); break;
      case kSplit: stack_.push_back(in.y), stack_.push_back(in.x); break;
      case kBol: if (pos == 0) stack_.push_back(pc + 1); break;
      case kEol: if (pos == text.size()) stack_.push_back(pc + 1); break;
      case kWordB: if (boundary) stack_.push_back(pc + 1); break;
      case kNotWordB: if (!boundary) stack_.push_back(pc + 1); break;
      case kByte:
      case kClass: list.push_back(pc); break;
    }
  }
  return false;
}

void LinearRegex::next_generation() const {
  if (++gen_ == 0) {  // wrapped: forget every mark
    std::fill(mark_.begin(), mark_.end(), 0);
    gen_ = 1;
  }
}

bool LinearRegex::search(std::string_view text) const {
  if (prog_.empty()) return false;
  cur_.clear();
  next_generation();
  for (size_t pos = 0;; ++pos) {
    // A new thread starts at every position (unanchored search).
    if (add(cur_, 0, text, pos)) return true;
    if (pos == text.size()) return false;
    next_generation();
    next_.clear();
    unsigned char c = static_cast<unsigned char>(text[pos]);
    for (uint32_t pc : cur_) {
      const Inst& in = prog_[pc];
      bool ok = in.op == kByte ? in.byte == c : classes_[in.x][c];
      if (ok && add(next_, pc + 1, text, pos + 1)) return true;
    }
    cur_.swap(next_);
  }
}

}  // namespace tw
