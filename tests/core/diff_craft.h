// Crafted candidate traces for the run comparison tests (docs/diff-schema.md): a real Kineto trace with
// a KNOWN change, so that a test knows exactly what `tracewise diff` has to find.
//   - slow kernel: every GPU kernel (cat "kernel", any case) whose name contains a substring runs F times
//     longer, and the extra time is inserted: each timestamp t moves by the extra time of the selected
//     kernels that ended at or before t. Events that span such an end (a ProfilerStep, a synchronising
//     runtime call) stretch by it; an end exactly at it moves too, like any timestamp at that instant.
//     GPU ops (kernels, memcpy, memset) keep their own duration, so a kernel on another stream that
//     overlaps a slowed one is not slowed with it: only the selected kernels' totals change.
//   - jitter: each CPU-side ProfilerStep#N window is stretched by a factor in [1 - p, 1 + p] drawn
//     from the seed and N (splitmix64, the same on every standard library); everything in the window
//     scales around its start, everything after it moves by the change. Run-to-run noise, no change.
// Both may be combined (the jitter applies to the slowed trace).
//
// Only the "ts" and "dur" numbers that change are rewritten (as microseconds with 3 decimals, from
// int64 nanoseconds: never through a double); every other byte of the base is copied as it was.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/steps.h"
#include "core/base/decimal.h"
#include "tests/core/job_craft.h"

namespace tw::diff_test {

struct DiffCraft {
  std::string slow_kernel;       // substring of the kernel names to slow down; empty: none
  int64_t factor_ppm = 1000000;  // F in millionths (1.2 -> 1200000), at least 1
  int64_t jitter_ppm = 0;        // p in millionths of the step (3 % -> 30000), below 1; 0: no jitter
  uint64_t seed = 0;
};

struct CraftReport {
  size_t slowed = 0;        // kernels made slower
  int64_t inserted_ns = 0;  // their summed extra time
  size_t jittered = 0;      // step windows stretched
};

// One element of the events array as found in the text: where its "ts" and "dur" numbers are, their
// values in ns, and the strings the crafting looks at.
struct ScannedEvent {
  size_t ts_at = 0, ts_len = 0, dur_at = 0, dur_len = 0;  // len 0: absent or not a number
  int64_t ts = 0, dur = 0;
  std::string ph, cat, name;
};

// Locates the events' top-level members in a whole trace (object form or bare array); the values stay
// text. It expects valid JSON: it throws where the text ends early or plainly is not JSON, no more.
class EventScanner {
 public:
  explicit EventScanner(std::string_view text) : s_(text) {}

  std::vector<ScannedEvent> events() {
    std::vector<ScannedEvent> out;
    if (!find_events()) throw std::runtime_error("diff_craft: no traceEvents array");
    for (ws(); peek() != ']'; ws()) {
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (peek() != '{') {
        value();
        continue;
      }
      out.push_back(event());
    }
    return out;
  }

 private:
  char peek() {
    if (i_ >= s_.size()) throw std::runtime_error("diff_craft: the trace ends early");
    return s_[i_];
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  void expect(char c) {
    ws();
    if (peek() != c) throw std::runtime_error(std::string("diff_craft: expected ") + c);
    ++i_;
  }
  static bool delimiter(char c) { return std::string_view(",:}] \n\r\t").find(c) != std::string_view::npos; }
  // Skips one value (its strings whole, whatever they hold); returns its text.
  std::string_view value() {
    ws();
    const size_t begin = i_;
    int depth = 0;
    do {
      const char c = peek();
      if (c == '"') {
        for (++i_; peek() != '"'; ++i_)
          if (s_[i_] == '\\') ++i_;
        ++i_;
      } else if (c == '{' || c == '[') {
        ++depth, ++i_;
      } else if (c == '}' || c == ']' || depth > 0) {
        depth -= c == '}' || c == ']';
        ++i_;
      } else {
        while (i_ < s_.size() && !delimiter(s_[i_])) ++i_;  // a number or literal
        if (i_ == begin) throw std::runtime_error("diff_craft: not JSON");
      }
    } while (depth > 0);
    return s_.substr(begin, i_ - begin);
  }
  static std::string text_of(std::string_view token) {
    if (token.size() < 2 || token.front() != '"') return std::string();
    if (token.find('\\') == std::string_view::npos) return std::string(token.substr(1, token.size() - 2));
    return nlohmann::json::parse(token).get<std::string>();
  }
  bool find_events() {
    ws();
    if (peek() == '[') return ++i_, true;  // the bare array form
    expect('{');
    for (ws(); peek() != '}'; ws()) {
      if (peek() == ',') ++i_;
      const std::string key = text_of(value());
      expect(':');
      ws();
      if (key == "traceEvents" && peek() == '[') return ++i_, true;
      value();
    }
    return false;
  }
  ScannedEvent event() {
    ScannedEvent e;
    for (++i_, ws(); peek() != '}'; ws()) {
      if (peek() == ',') ++i_;
      const std::string key = text_of(value());
      expect(':');
      ws();
      const size_t at = i_;
      const std::string_view v = value();
      const bool number = !v.empty() && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'));
      if (key == "ts" && number && parse_us_to_ns(v, e.ts)) e.ts_at = at, e.ts_len = v.size();
      else if (key == "dur" && number && parse_us_to_ns(v, e.dur)) e.dur_at = at, e.dur_len = v.size();
      else if (key == "ph") e.ph = text_of(v);
      else if (key == "cat") e.cat = text_of(v);
      else if (key == "name") e.name = text_of(v);
    }
    ++i_;
    return e;
  }

  std::string_view s_;
  size_t i_ = 0;
};

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// round(v * ppm / 10^6), half away from zero, without overflow.
inline int64_t scale_ppm(int64_t v, int64_t ppm) {
  const __int128 p = static_cast<__int128>(v) * ppm;
  return static_cast<int64_t>(p >= 0 ? (p + 500000) / 1000000 : -((-p + 500000) / 1000000));
}

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The stretch of step N in millionths, uniform in [-p, p] (the modulo's bias is below 10^-12).
inline int64_t step_jitter_ppm(uint64_t seed, int64_t number, int64_t p) {
  const uint64_t draw = splitmix64(seed ^ splitmix64(static_cast<uint64_t>(number)));
  return static_cast<int64_t>(draw % static_cast<uint64_t>(2 * p + 1)) - p;
}

// Whether an event is GPU work whose duration is its own (it does not wait for other streams).
inline bool is_gpu_op(const ScannedEvent& e) {
  const std::string c = lower(e.cat);
  return c == "kernel" || c == "gpu_memcpy" || c == "gpu_memset" || c == "memcpy" || c == "memset";
}

inline bool has_dur(const ScannedEvent& e) { return e.dur_len > 0; }

// Inserts the extra time of the selected kernels (see the top of this file).
inline void slow_kernels(std::vector<ScannedEvent>& events, const DiffCraft& o, CraftReport& report) {
  std::vector<std::pair<int64_t, int64_t>> marks;  // (original end, extra ns) of each selected kernel
  std::vector<int64_t> extra(events.size(), 0);
  for (size_t i = 0; i < events.size(); ++i) {
    const ScannedEvent& e = events[i];
    if (!e.ts_len || !has_dur(e) || lower(e.cat) != "kernel") continue;
    if (e.name.find(o.slow_kernel) == std::string::npos) continue;
    extra[i] = scale_ppm(e.dur, o.factor_ppm - 1000000);
    marks.emplace_back(e.ts + e.dur, extra[i]);
    report.inserted_ns += extra[i];
    ++report.slowed;
  }
  std::sort(marks.begin(), marks.end());
  std::vector<int64_t> ends(marks.size()), before(marks.size() + 1, 0);  // before[k]: sum of marks[0..k)
  for (size_t k = 0; k < marks.size(); ++k) ends[k] = marks[k].first, before[k + 1] = before[k] + marks[k].second;
  const auto moved = [&](int64_t t) {
    return t + before[std::upper_bound(ends.begin(), ends.end(), t) - ends.begin()];
  };
  for (size_t i = 0; i < events.size(); ++i) {
    ScannedEvent& e = events[i];
    if (!e.ts_len) continue;
    const int64_t ts = moved(e.ts);
    if (has_dur(e)) e.dur = is_gpu_op(e) ? e.dur + extra[i] : moved(e.ts + e.dur) - ts;
    e.ts = ts;
  }
}

// Stretches each step window (see the top of this file).
inline void jitter_steps(std::vector<ScannedEvent>& events, const DiffCraft& o, CraftReport& report) {
  struct Window {
    int64_t begin, end, ppm, shift;  // shift: what earlier windows added before this one
  };
  std::vector<Window> windows;
  for (const ScannedEvent& e : events) {
    int64_t n = 0;
    if (e.ph != "X" || !e.ts_len || !has_dur(e) || e.cat == "gpu_user_annotation") continue;
    if (!parse_profiler_step_name(e.name, &n)) continue;
    windows.push_back({e.ts, e.ts + e.dur, 1000000 + step_jitter_ppm(o.seed, n, o.jitter_ppm), 0});
  }
  std::sort(windows.begin(), windows.end(), [](const Window& a, const Window& b) { return a.begin < b.begin; });
  // A window that overlaps an earlier one (the same step on another thread) is left to that one.
  std::vector<Window> kept;
  for (const Window& w : windows)
    if (kept.empty() || w.begin >= kept.back().end) kept.push_back(w);
  for (size_t k = 1; k < kept.size(); ++k) {
    const Window& p = kept[k - 1];
    kept[k].shift = p.shift + scale_ppm(p.end - p.begin, p.ppm) - (p.end - p.begin);
  }
  report.jittered = kept.size();
  const auto moved = [&](int64_t t) {
    auto it = std::upper_bound(kept.begin(), kept.end(), t, [](int64_t x, const Window& w) { return x < w.begin; });
    if (it == kept.begin()) return t;
    const Window& w = *--it;
    if (t <= w.end) return w.begin + w.shift + scale_ppm(t - w.begin, w.ppm);
    return t + w.shift + scale_ppm(w.end - w.begin, w.ppm) - (w.end - w.begin);
  };
  for (ScannedEvent& e : events) {
    if (!e.ts_len) continue;
    const int64_t ts = moved(e.ts);
    if (has_dur(e)) e.dur = moved(e.ts + e.dur) - ts;
    e.ts = ts;
  }
}

// The crafted candidate: `base` with the changes of `o`, byte-identical elsewhere.
inline std::string craft_diff(std::string_view base, const DiffCraft& o, CraftReport* report = nullptr) {
  if (o.factor_ppm < 1000000) throw std::invalid_argument("diff_craft: the factor must be at least 1");
  if (o.jitter_ppm < 0 || o.jitter_ppm >= 1000000) throw std::invalid_argument("diff_craft: jitter in [0, 100) %");
  std::vector<ScannedEvent> events = EventScanner(base).events();
  std::vector<std::pair<int64_t, int64_t>> original(events.size());  // (ts, dur) as in the base
  for (size_t i = 0; i < events.size(); ++i) original[i] = {events[i].ts, events[i].dur};
  CraftReport r;
  if (!o.slow_kernel.empty()) slow_kernels(events, o, r);
  if (o.jitter_ppm > 0) jitter_steps(events, o, r);
  if (report) *report = r;

  std::string out;
  out.reserve(base.size() + base.size() / 16);
  size_t copied = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const ScannedEvent& e = events[i];
    struct Change {
      size_t at, len;
      int64_t ns;
    } changes[2];
    size_t n = 0;
    if (e.ts_len && e.ts != original[i].first) changes[n++] = {e.ts_at, e.ts_len, e.ts};
    if (has_dur(e) && e.dur != original[i].second) changes[n++] = {e.dur_at, e.dur_len, e.dur};
    if (n == 2 && changes[1].at < changes[0].at) std::swap(changes[0], changes[1]);  // written in text order
    for (size_t k = 0; k < n; ++k) {
      out.append(base.substr(copied, changes[k].at - copied));
      out += job_test::ns_to_us_text(changes[k].ns);
      copied = changes[k].at + changes[k].len;
    }
  }
  out.append(base.substr(copied));
  return out;
}

}  // namespace tw::diff_test
