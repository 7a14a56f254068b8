#include "core/analysis/queue_length.h"

#include <algorithm>

#include "core/base/run_sort.h"

namespace tw {

namespace {

// The chart's time buckets, filled one change at a time (changes come in time order).
class ChartBuilder {
 public:
  // Two points a bucket at most: points / 2 buckets of equal width (a size under 2 counts as 2).
  ChartBuilder(int64_t t0, int64_t t1, size_t points, std::vector<QueuePoint>& out)
      : t0_(t0), width_(std::max<int64_t>(1, (t1 - t0) / int64_t(std::max<size_t>(points, 2) / 2) + 1)), out_(out) {}
  void add(int64_t ts, int32_t len) {
    const int64_t b = (ts - t0_) / width_;
    if (open_ && b == bucket_) {
      most_ = std::max(most_, len);
      last_ = {ts, len};
      return;
    }
    flush();
    open_ = true, bucket_ = b, first_ts_ = ts, most_ = len, last_ = {ts, len};
  }
  void flush() {
    if (!open_) return;
    out_.push_back({first_ts_, most_});
    if (last_.length != most_) out_.push_back(last_);
    open_ = false;
  }

 private:
  int64_t t0_, width_;
  std::vector<QueuePoint>& out_;
  bool open_ = false;
  int64_t bucket_ = 0, first_ts_ = 0;
  int32_t most_ = 0;
  QueuePoint last_{0, 0};
};

}  // namespace

StreamQueue queue_of(int32_t device, int64_t stream, std::vector<int64_t>& enq, std::vector<int64_t>& deq,
                     size_t chart_points, bool keep_changes) {
  StreamQueue q;
  q.device = device;
  q.stream = stream;
  auto less = [](int64_t a, int64_t b) { return a < b; };
  sort_runs(enq, less);
  sort_runs(deq, less);
  if (enq.empty() && deq.empty()) return q;
  const int64_t t0 = std::min(enq.empty() ? deq.front() : enq.front(), deq.empty() ? enq.front() : deq.front());
  const int64_t t1 = std::max(enq.empty() ? deq.back() : enq.back(), deq.empty() ? enq.back() : deq.back());
  ChartBuilder chart(t0, t1, chart_points, q.chart);
  if (keep_changes) q.series.reserve(enq.size() + deq.size());
  // Two walks: the first finds the maximum, which the time at it needs.
  int32_t len = 0;
  double sum = 0, weighted = 0;
  QueuePoint prev{t0, 0};
  auto walk = [&](auto&& at_change) {
    len = 0;
    size_t i = 0, j = 0;
    while (i < enq.size() || j < deq.size()) {
      const bool in = j == deq.size() || (i < enq.size() && enq[i] <= deq[j]);
      const int64_t ts = in ? enq[i++] : deq[j++];
      len += in ? 1 : -1;
      at_change(ts, len);
    }
  };
  walk([&](int64_t, int32_t l) { q.max_length = std::max(q.max_length, l); });
  bool first = true;
  walk([&](int64_t ts, int32_t l) {
    if (!first) {
      const int64_t d = ts - prev.ts_ns;
      weighted += static_cast<double>(d) * prev.length;
      if (prev.length == q.max_length) q.time_at_max_ns += d;
    }
    first = false;
    prev = {ts, l};
    sum += l;
    chart.add(ts, l);
    if (keep_changes) q.series.push_back({ts, l});
  });
  chart.flush();
  q.changes = enq.size() + deq.size();
  q.mean = sum / static_cast<double>(q.changes);
  q.time_weighted_mean = t1 > t0 ? weighted / static_cast<double>(t1 - t0) : 0;
  return q;
}

int64_t queue_time_at_least(const StreamQueue& q, int32_t limit) {
  int64_t t = 0;
  for (size_t k = 0; k + 1 < q.series.size(); ++k)
    if (q.series[k].length >= limit) t += q.series[k + 1].ts_ns - q.series[k].ts_ns;
  return t;
}

}  // namespace tw
