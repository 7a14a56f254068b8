// Interval sets over integer nanoseconds: THE primitive of the time analyses (busy time, overlap,
// idle, exposed communication). An IntervalSet is sorted, disjoint, non-empty half-open [begin, end).
#pragma once
#include <algorithm>
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

// One interval given in start order, into the open one `cur` (SortedUnion's, UnionLengthBefore's
// and any walk that unites as it goes): it extends `cur` when it starts at or before its end; else
// `cur` is closed and it opens the next. Empty intervals are dropped.
template <class Close>
void add_in_start_order(const Interval& iv, bool& open, Interval& cur, Close close) {
  if (iv.end <= iv.begin) return;
  if (open && iv.begin <= cur.end) {
    cur.end = std::max(cur.end, iv.end);
    return;
  }
  if (open) close();
  cur = iv, open = true;
}

class IntervalSet {
 public:
  IntervalSet() = default;
  // Builds the union of arbitrary (possibly overlapping, unsorted) intervals; empty ones are dropped.
  // For a few intervals gathered in any order (step windows); the model's rows go through
  // SortedUnion or IntervalUnion, which hold no copy of them.
  static IntervalSet union_of(std::vector<Interval> raw);

  const std::vector<Interval>& intervals() const { return v_; }
  bool empty() const { return v_.empty(); }
  size_t size() const { return v_.size(); }
  int64_t total() const;  // sum of lengths

  IntervalSet unite(const IntervalSet& o) const;
  IntervalSet intersect(const IntervalSet& o) const;
  int64_t intersect_total(const IntervalSet& o) const;  // intersect(o).total() without building it
  IntervalSet subtract(const IntervalSet& o) const;
  // Calls f(piece) for each interval of subtract(o), in order, without building it.
  template <class F>
  void each_difference(const IntervalSet& o, F f) const;
  // Restricts to [begin, end).
  IntervalSet clip(int64_t begin, int64_t end) const;
  // Total length inside [begin, end) without building a set.
  int64_t total_within(int64_t begin, int64_t end) const;
  // The gaps between intervals inside [begin, end).
  IntervalSet gaps(int64_t begin, int64_t end) const;

 private:
  friend class SortedUnion;
  friend class IntervalUnion;
  std::vector<Interval> v_;
};

template <class F>
void IntervalSet::each_difference(const IntervalSet& o, F f) const {
  size_t j = 0;
  for (const Interval& iv : v_) {
    while (j < o.v_.size() && o.v_[j].end <= iv.begin) ++j;
    int64_t cur = iv.begin;
    for (size_t k = j; k < o.v_.size() && o.v_[k].begin < iv.end; ++k) {
      if (o.v_[k].begin > cur) f(Interval{cur, o.v_[k].begin});
      cur = std::max(cur, o.v_[k].end);
    }
    if (cur < iv.end) f(Interval{cur, iv.end});
  }
}

// The union of intervals added in start order, built as they come (a track's slices in model order
// are): no copy of the intervals and no sort, which union_of needs. keep = false keeps only the total.
class SortedUnion {
 public:
  explicit SortedUnion(bool keep = true) : keep_(keep) {}
  // Room for n intervals, when the caller knows how many it will add (a track's ops): the union is
  // then one block, never a doubled vector and its fitted copy, which together hold ~2.5x the union
  // (the summary's peak on a busy stream).
  void reserve(size_t n) {
    if (keep_) v_.reserve(n);
  }
  void add(const Interval& iv);  // iv.begin >= the begin of every interval added before it
  int64_t total() const { return closed_ + (open_ ? cur_.length() : 0); }
  // The union (empty when keep = false), its storage fitted to it unless the caller merges it
  // straight away (fit = false: the fit would be a copy thrown away).
  IntervalSet take(bool fit = true);

 private:
  friend class IntervalUnion;  // keeps a run's reserved room for the next run
  void close();
  bool keep_;
  bool open_ = false;
  Interval cur_{0, 0};
  int64_t closed_ = 0;
  std::vector<Interval> v_;
};

// The union's length before given times (queries), for intervals added in start order as
// SortedUnion takes them, answered on the way: the busy time inside many spans of one stream, as
// the difference at each span's two ends, without holding the stream's union (one interval per op
// on a busy stream).
class UnionLengthBefore {
 public:
  struct Query {
    int64_t ts;
    uint32_t slot;  // where the answer goes: out[slot]
  };
  // Sorts `queries`; out must have a slot for each.
  UnionLengthBefore(std::vector<Query>& queries, std::vector<int64_t>& out);
  void add(const Interval& iv);  // iv.begin >= the begin of every interval added before it
  void finish();                 // answers the queries after the last interval

 private:
  void close();
  std::vector<Query>& queries_;
  std::vector<int64_t>& out_;
  size_t next_ = 0;
  int64_t closed_ = 0;  // the length of the union's intervals before the open one
  bool open_ = false;
  Interval cur_{0, 0};
};

// The union of intervals added in any order, built as they come: each ascending run is united on
// the fly (SortedUnion) and the runs' unions are merged like a merge sort's run stack (each held
// union at least twice the next), so it holds about the union, not every interval. The model's
// rows come in few runs (a track's slices are in start order), where union_of needs every
// interval, a sort's scratch and the result at once.
class IntervalUnion {
 public:
  // expected: how many intervals will be added at most, when the caller knows it (0: unknown). Room
  // for them is reserved once and kept for the runs until one fills a quarter of it; the others
  // are copied out, and merged into that room later: a class whose ops are mostly one stream's is
  // united in one block (SortedUnion::reserve), whichever stream comes first.
  explicit IntervalUnion(size_t expected = 0) { run_.reserve(expected); }
  void add(const Interval& iv);
  IntervalSet take();  // the union of everything added, its storage fitted to it

 private:
  void close_run();
  void merge_top();  // the top two of the stack, into the lower one
  SortedUnion run_;
  int64_t last_begin_ = INT64_MIN;
  std::vector<IntervalSet> stack_;
};

}  // namespace tw
