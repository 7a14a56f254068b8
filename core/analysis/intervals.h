// Interval sets over integer nanoseconds: THE primitive of the time analyses (busy time, overlap,
// idle, exposed communication). An IntervalSet is sorted, disjoint, non-empty half-open [begin, end).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

struct Interval {
  int64_t begin;
  int64_t end;
  int64_t length() const { return end - begin; }
  bool operator==(const Interval& o) const { return begin == o.begin && end == o.end; }
};

class IntervalSet {
 public:
  IntervalSet() = default;
  // Builds the union of arbitrary (possibly overlapping, unsorted) intervals; empty ones are dropped.
  static IntervalSet union_of(std::vector<Interval> raw);

  const std::vector<Interval>& intervals() const { return v_; }
  bool empty() const { return v_.empty(); }
  size_t size() const { return v_.size(); }
  int64_t total() const;  // sum of lengths

  IntervalSet unite(const IntervalSet& o) const;
  IntervalSet intersect(const IntervalSet& o) const;
  IntervalSet subtract(const IntervalSet& o) const;
  // Restricts to [begin, end).
  IntervalSet clip(int64_t begin, int64_t end) const;
  // Total length inside [begin, end) without building a set.
  int64_t total_within(int64_t begin, int64_t end) const;
  // The gaps between intervals inside [begin, end).
  IntervalSet gaps(int64_t begin, int64_t end) const;

 private:
  std::vector<Interval> v_;
};

}  // namespace tw
