#include "core/analysis/intervals.h"

#include <algorithm>

#include "core/base/run_sort.h"

namespace tw {

namespace {

// Fitted to its size unless that wastes little: a fit is a copy, briefly beside the original.
void fit_room(std::vector<Interval>& v) {
  if (v.capacity() - v.size() > v.capacity() / 8) v.shrink_to_fit();
}

}  // namespace

IntervalSet IntervalSet::union_of(std::vector<Interval> raw) {
  // Callers gather intervals track by track (each track already in start order): merge those runs.
  sort_runs(raw, [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  IntervalSet s;
  s.v_.reserve(raw.size());  // no regrowth (each copies what is built so far); freed with the set
  for (const Interval& iv : raw) {
    if (iv.end <= iv.begin) continue;
    if (!s.v_.empty() && iv.begin <= s.v_.back().end) {
      s.v_.back().end = std::max(s.v_.back().end, iv.end);
    } else {
      s.v_.push_back(iv);
    }
  }
  return s;
}

int64_t IntervalSet::total() const {
  int64_t t = 0;
  for (const Interval& iv : v_) t += iv.length();
  return t;
}

// The two sets merged by start and coalesced in one pass, into storage reserved once (the time
// analyses unite sets of ~100 k intervals: a merged copy first, or regrowth, doubled the copying).
IntervalSet IntervalSet::unite(const IntervalSet& o) const {
  IntervalSet s;
  s.v_.reserve(v_.size() + o.v_.size());
  auto add = [&s](const Interval& iv) {
    if (!s.v_.empty() && iv.begin <= s.v_.back().end) s.v_.back().end = std::max(s.v_.back().end, iv.end);
    else s.v_.push_back(iv);
  };
  size_t i = 0, j = 0;
  while (i < v_.size() && j < o.v_.size()) add(o.v_[j].begin < v_[i].begin ? o.v_[j++] : v_[i++]);
  for (; i < v_.size(); ++i) add(v_[i]);
  for (; j < o.v_.size(); ++j) add(o.v_[j]);
  return s;
}

int64_t IntervalSet::intersect_total(const IntervalSet& o) const {
  int64_t t = 0;
  size_t i = 0, j = 0;
  while (i < v_.size() && j < o.v_.size()) {
    const int64_t b = std::max(v_[i].begin, o.v_[j].begin);
    const int64_t e = std::min(v_[i].end, o.v_[j].end);
    if (b < e) t += e - b;
    if (v_[i].end < o.v_[j].end) ++i;
    else ++j;
  }
  return t;
}

void SortedUnion::add(const Interval& iv) {
  add_in_start_order(iv, open_, cur_, [this] { close(); });
}

void SortedUnion::close() {
  closed_ += cur_.length();
  if (keep_) v_.push_back(cur_);
  open_ = false;
}

IntervalSet SortedUnion::take(bool fit) {
  if (open_) close();
  if (fit) fit_room(v_);
  IntervalSet s;
  s.v_ = std::move(v_);
  v_.clear();
  return s;
}

UnionLengthBefore::UnionLengthBefore(std::vector<Query>& queries, std::vector<int64_t>& out)
    : queries_(queries), out_(out) {
  std::sort(queries_.begin(), queries_.end(),
            [](const Query& a, const Query& b) { return a.ts != b.ts ? a.ts < b.ts : a.slot < b.slot; });
}

void UnionLengthBefore::add(const Interval& iv) {
  add_in_start_order(iv, open_, cur_, [this] { close(); });
}

void UnionLengthBefore::close() {
  // The queries before the closed interval's end: it covers the part of it before them.
  for (; next_ < queries_.size() && queries_[next_].ts < cur_.end; ++next_)
    out_[queries_[next_].slot] = closed_ + std::max<int64_t>(0, queries_[next_].ts - cur_.begin);
  closed_ += cur_.length();
  open_ = false;
}

void UnionLengthBefore::finish() {
  if (open_) close();
  for (; next_ < queries_.size(); ++next_) out_[queries_[next_].slot] = closed_;
}

void IntervalUnion::add(const Interval& iv) {
  if (iv.end <= iv.begin) return;
  if (iv.begin < last_begin_) close_run();
  run_.add(iv);
  last_begin_ = iv.begin;
}

void IntervalUnion::close_run() {
  IntervalSet run;
  if (run_.open_) run_.close();
  std::vector<Interval>& room = run_.v_;
  if (room.size() <= room.capacity() / 4) {
    // A run using little of the reserved room (a run grown by doubling fills half at least): it is
    // copied out and the room kept for the next run.
    run.v_.assign(room.begin(), room.end());
    room.clear();
    run_.closed_ = 0;
  } else {
    run = run_.take(/*fit=*/false);
    run_ = SortedUnion();
  }
  last_begin_ = INT64_MIN;
  if (!run.empty()) stack_.push_back(std::move(run));
  // Merged while the one below is not twice the top: O(log n) unions held, each interval merged
  // O(log n) times.
  while (stack_.size() >= 2 && stack_[stack_.size() - 2].size() <= 2 * stack_.back().size()) merge_top();
}

void IntervalUnion::merge_top() {
  IntervalSet& below = stack_[stack_.size() - 2];
  const size_t both = below.size() + stack_.back().size();
  // The union is symmetric: merged into whichever has the room (the reserved one's, usually).
  if (below.v_.capacity() < both && stack_.back().v_.capacity() >= both) std::swap(below, stack_.back());
  std::vector<Interval>& a = below.v_;
  const std::vector<Interval>& b = stack_.back().v_;
  if (a.capacity() < a.size() + b.size()) {
    below = below.unite(stack_.back());
  } else {
    // In the room below (the first run's, reserved for every interval): merged from the back, then
    // coalesced, with no third block beside the two.
    size_t i = a.size(), j = b.size(), k = i + j;
    a.resize(k);
    while (j > 0) a[--k] = (i > 0 && a[i - 1].begin > b[j - 1].begin) ? a[--i] : b[--j];
    size_t w = 0;
    for (size_t r = 0; r < a.size(); ++r) {
      if (w > 0 && a[r].begin <= a[w - 1].end) a[w - 1].end = std::max(a[w - 1].end, a[r].end);
      else a[w++] = a[r];
    }
    a.resize(w);
  }
  stack_.pop_back();
}

IntervalSet IntervalUnion::take() {
  close_run();
  while (stack_.size() >= 2) merge_top();
  IntervalSet s = stack_.empty() ? IntervalSet() : std::move(stack_.back());
  stack_.clear();
  fit_room(s.v_);  // the runs and merges were left unfitted: one fit, of the result
  return s;
}

IntervalSet IntervalSet::intersect(const IntervalSet& o) const {
  IntervalSet s;
  s.v_.reserve(v_.size() + o.v_.size());  // an upper bound: each output interval ends one of theirs
  size_t i = 0, j = 0;
  while (i < v_.size() && j < o.v_.size()) {
    int64_t b = std::max(v_[i].begin, o.v_[j].begin);
    int64_t e = std::min(v_[i].end, o.v_[j].end);
    if (b < e) s.v_.push_back({b, e});
    if (v_[i].end < o.v_[j].end) ++i;
    else ++j;
  }
  return s;
}

IntervalSet IntervalSet::subtract(const IntervalSet& o) const {
  IntervalSet s;
  s.v_.reserve(v_.size() + o.v_.size());  // an upper bound: each interval of o splits at most one
  each_difference(o, [&s](const Interval& iv) { s.v_.push_back(iv); });
  return s;
}

IntervalSet IntervalSet::clip(int64_t begin, int64_t end) const {
  IntervalSet s;
  auto it = std::lower_bound(v_.begin(), v_.end(), begin, [](const Interval& a, int64_t t) { return a.end <= t; });
  for (; it != v_.end() && it->begin < end; ++it) {
    int64_t b = std::max(it->begin, begin), e = std::min(it->end, end);
    if (b < e) s.v_.push_back({b, e});
  }
  return s;
}

int64_t IntervalSet::total_within(int64_t begin, int64_t end) const {
  int64_t t = 0;
  auto it = std::lower_bound(v_.begin(), v_.end(), begin, [](const Interval& a, int64_t x) { return a.end <= x; });
  for (; it != v_.end() && it->begin < end; ++it) t += std::min(it->end, end) - std::max(it->begin, begin);
  return t;
}

IntervalSet IntervalSet::gaps(int64_t begin, int64_t end) const {
  IntervalSet whole;
  if (begin < end) whole.v_.push_back({begin, end});
  return whole.subtract(*this);
}

}  // namespace tw
