#include "core/regex/linear_regex.h"

#include <algorithm>

#include "core/regex/regex_parse.h"
#include "core/regex/regex_syntax.h"

namespace tw {

namespace {

using Node = RegexNode;

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
        if (icase_) fold_ascii_case(s);
        return add_class(s);
      }
      case Node::kAssert: {
        static const LinearRegex::Op kOp[] = {LinearRegex::kBol, LinearRegex::kEol, LinearRegex::kWordB,
                                              LinearRegex::kNotWordB};
        push({kOp[n.assertion]});
        return true;
      }
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
  RegexNode root;
  if (!parse_regex(pattern, icase, &root, error)) return false;
  if (!Compiler(prog_, classes_, icase).emit(root) || prog_.size() > kMaxProgram) {
    prog_.clear();
    *error = "the regular expression is too large (repeat counts expand it)";
    return false;
  }
  prog_.push_back({kMatch});
  mark_.assign(prog_.size(), 0);
  gen_ = 0;
  find_first_bytes();
  return true;
}

void LinearRegex::find_first_bytes() {
  first_.reset();
  use_first_ = true;
  std::vector<bool> seen(prog_.size(), false);
  std::vector<uint32_t> stack{0};
  while (!stack.empty() && use_first_) {
    const uint32_t pc = stack.back();
    stack.pop_back();
    if (seen[pc]) continue;
    seen[pc] = true;
    const Inst& in = prog_[pc];
    switch (in.op) {
      case kMatch: use_first_ = false; break;  // an empty match: any position may match
      case kJmp: stack.push_back(in.x); break;
      case kSplit: stack.push_back(in.x), stack.push_back(in.y); break;
      case kBol:
      case kEol:
      case kWordB:
      case kNotWordB: stack.push_back(pc + 1); break;  // may pass
      case kByte: first_.set(in.byte); break;
      case kClass: first_ |= classes_[in.x]; break;
    }
  }
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
    auto word_at = [&](size_t k) { return k < text.size() && is_regex_word_byte(static_cast<unsigned char>(text[k])); };
    auto boundary = [&] { return (pos > 0 && word_at(pos - 1)) != word_at(pos); };
    switch (in.op) {
      case kMatch: return true;
      case kJmp: stack_.push_back(in.x); break;
      case kSplit: stack_.push_back(in.y), stack_.push_back(in.x); break;
      case kBol:
        if (pos == 0) stack_.push_back(pc + 1);
        break;
      case kEol:
        if (pos == text.size()) stack_.push_back(pc + 1);
        break;
      case kWordB:
        if (boundary()) stack_.push_back(pc + 1);
        break;
      case kNotWordB:
        if (!boundary()) stack_.push_back(pc + 1);
        break;
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
    if (cur_.empty() && use_first_) {
      // No thread alive: one started where the byte cannot begin a match would die at once.
      const size_t from = pos;
      while (pos < text.size() && !first_[static_cast<unsigned char>(text[pos])]) ++pos;
      if (pos == text.size()) return false;  // every match consumes a byte
      if (pos != from) next_generation();    // the marks were for another position
    }
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
