// A stream's queue walked once (queue_of): its statistics and its bounded chart against the same
// quantities computed from every change, on random queues (the chart as the summary drew it when
// it kept every change: per time bucket the maximum at the bucket's first change, then the length
// the bucket ended at when it differs).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/analysis/queue_length.h"

namespace tw {
namespace {

std::vector<QueuePoint> chart_from_changes(const std::vector<QueuePoint>& s, size_t points) {
  std::vector<QueuePoint> out;
  if (s.empty()) return out;
  const int64_t t0 = s.front().ts_ns, t1 = s.back().ts_ns;
  const int64_t width = std::max<int64_t>(1, (t1 - t0) / int64_t(points / 2) + 1);
  size_t i = 0;
  while (i < s.size()) {
    const int64_t b = (s[i].ts_ns - t0) / width;
    const int64_t first_ts = s[i].ts_ns;
    int32_t most = s[i].length;
    size_t last = i;
    for (++i; i < s.size() && (s[i].ts_ns - t0) / width == b; ++i) most = std::max(most, s[i].length), last = i;
    out.push_back({first_ts, most});
    if (s[last].length != most) out.push_back(s[last]);
  }
  return out;
}

// Every change of the queue, built apart from queue_of: (time, +1 / -1) events sorted by time,
// enqueues first at equal times, summed.
std::vector<QueuePoint> changes_of(const std::vector<int64_t>& enq, const std::vector<int64_t>& deq) {
  std::vector<std::pair<int64_t, int>> events;  // (ts, 0 = enqueue, 1 = dequeue)
  for (int64_t t : enq) events.push_back({t, 0});
  for (int64_t t : deq) events.push_back({t, 1});
  std::sort(events.begin(), events.end());
  std::vector<QueuePoint> out;
  int32_t len = 0;
  for (const auto& [t, kind] : events) out.push_back({t, len += kind == 0 ? 1 : -1});
  return out;
}

TEST_CASE("queue_of: statistics and chart as computed from every change, on random queues") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    // Launches in order, each op starting some time after its call (a FIFO stream), with ties.
    const int n = 1 + int(rng() % (round < 100 ? 20 : 3000));
    const size_t points = round % 10 == 0 ? size_t(round / 10 % 4) : 4 + rng() % 200;  // 0..3 too
    std::vector<int64_t> enq, deq;
    int64_t t = int64_t(rng() % 1000) - 500, last_op = INT64_MIN;
    for (int k = 0; k < n; ++k) {
      t += int64_t(rng() % 50);
      enq.push_back(t);
      last_op = std::max(last_op, t + int64_t(rng() % 400));
      deq.push_back(last_op);
    }
    std::shuffle(enq.begin() + n / 2, enq.end(), rng);  // out of order, as several threads launch
    const std::vector<QueuePoint> want_series = changes_of(enq, deq);
    std::vector<int64_t> enq2 = enq, deq2 = deq;
    const StreamQueue q = queue_of(3, 9, enq, deq, points, true);
    const StreamQueue lean = queue_of(3, 9, enq2, deq2, points, false);
    CAPTURE(round);
    REQUIRE(q.series.size() == want_series.size());
    for (size_t k = 0; k < want_series.size(); ++k) {
      CHECK(q.series[k].ts_ns == want_series[k].ts_ns);
      CHECK(q.series[k].length == want_series[k].length);
    }
    CHECK(lean.series.empty());
    CHECK(q.changes == size_t(2 * n));
    CHECK(lean.changes == q.changes);
    int32_t most = 0;
    double sum = 0, weighted = 0;
    int64_t at_max = 0;
    for (const QueuePoint& p : want_series) most = std::max(most, p.length), sum += p.length;
    for (size_t k = 0; k + 1 < want_series.size(); ++k) {
      const int64_t d = want_series[k + 1].ts_ns - want_series[k].ts_ns;
      weighted += double(d) * want_series[k].length;
      if (want_series[k].length == most) at_max += d;
    }
    const int64_t span = want_series.back().ts_ns - want_series.front().ts_ns;
    CHECK(lean.max_length == most);
    CHECK(lean.mean == sum / double(want_series.size()));  // the same sums in the same order
    CHECK(lean.time_at_max_ns == at_max);
    CHECK(lean.time_weighted_mean == (span > 0 ? weighted / double(span) : 0));
    CHECK(queue_time_at_least(q, most) == at_max);
    const std::vector<QueuePoint> want = chart_from_changes(want_series, std::max<size_t>(points, 2));
    REQUIRE(lean.chart.size() == want.size());
    CHECK(lean.chart.size() <= std::max<size_t>(points, 2));
    for (size_t k = 0; k < want.size(); ++k) {
      CHECK(lean.chart[k].ts_ns == want[k].ts_ns);
      CHECK(lean.chart[k].length == want[k].length);
    }
  }
}

TEST_CASE("queue_of: no launches, no queue") {
  std::vector<int64_t> none;
  const StreamQueue q = queue_of(0, 1, none, none, 100, true);
  CHECK(q.changes == 0);
  CHECK(q.chart.empty());
  CHECK(q.max_length == 0);
  CHECK(q.mean == 0);
}

}  // namespace
}  // namespace tw
