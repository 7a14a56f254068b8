// The project's one regex engine (kernel rules, timeline search): the pattern must pass
// regex_syntax_ok() (so every build agrees on what is valid), and is then compiled to a Thompson
// NFA and run as a Pike VM: cost O(text length x pattern size) whatever the pattern, so matching
// untrusted names can never backtrack catastrophically (a backtracking engine can: "(a+)+b" on a
// long name) nor recurse per character. Look-arounds and back-references need backtracking and
// are refused with a message. Matching is on bytes (UTF-8 literals work; '.' is one byte); case
// folding is ASCII; lazy quantifiers match like greedy ones (only "does it match" is asked).
#pragma once
#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tw {

class LinearRegex {
 public:
  // False (and a one-sentence *error) when the pattern is not accepted.
  bool compile(const std::string& pattern, bool icase, std::string* error);
  // True when the pattern matches anywhere in `text`.
  bool search(std::string_view text) const;

  static constexpr size_t kMaxProgram = 20000;  // instructions, after {m,n} expansion

  enum Op : uint8_t { kByte, kClass, kSplit, kJmp, kMatch, kBol, kEol, kWordB, kNotWordB };
  struct Inst {
    Op op;
    uint8_t byte = 0;
    uint32_t x = 0, y = 0;  // kSplit: both targets; kJmp: x; kClass: x = class index
  };

 private:
  void next_generation() const;
  void find_first_bytes();
  bool add(std::vector<uint32_t>& list, uint32_t pc, std::string_view text, size_t pos) const;

  std::vector<Inst> prog_;
  std::vector<std::bitset<256>> classes_;
  // The bytes a match can start with (assertions passed over), when no empty match is possible:
  // while no thread is alive, positions with other bytes are skipped instead of started from.
  std::bitset<256> first_;
  bool use_first_ = false;
  // Scratch for search(): per-instruction generation marks and an explicit stack.
  mutable std::vector<uint32_t> mark_, stack_, cur_, next_;
  mutable uint32_t gen_ = 0;
};

}  // namespace tw
