// Crafted multi-rank jobs for the job analysis tests: one real rank's Kineto trace copied to every
// rank of a job, with KNOWN clock offsets, one straggler's delay and a dropped collective, so that a
// test knows the exact skew, offsets and missing collective the analysis has to find.
//
// The straggler model is a synchronous job where one rank S is late by d before every collective:
// with the base's collective kernels i = 0..n-1 (start s_i, end e_i), a timestamp t moves by
//   on S:            d * #{i : s_i <= t}   (its collective i starts (i+1)*d later, same duration)
//   on other ranks:  d * #{i : e_i <= t}   (collective i starts i*d later and waits d longer)
// so on the aligned clock every collective ends together on all ranks and S arrives d after the others.
// Then each rank's clock offset is added to all its timestamps.
//
// Timestamps are exact: "ts"/"dur" are read from their decimal text (never through a double, which
// cannot hold a Kineto timestamp to the ns) and written back as microseconds with 3 decimals.
#pragma once
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/decimal.h"

namespace tw::job_test {

struct CraftRank {
  int64_t rank = 0;             // written to distributedInfo.rank
  int64_t clock_offset_ns = 0;  // added to every timestamp of this rank (its clock runs ahead by this much)
  int64_t delay_ns = 0;         // injected before EVERY collective on this rank (at most one rank of a job)
  int drop_collective = -1;     // index (in start order) of one collective kernel to remove on this rank, -1 none
};

using Json = nlohmann::ordered_json;  // ordered, so that a crafted trace keeps the base's key order

// Builds the document like nlohmann's own DOM parser, except that an event's "ts" and "dur" are kept
// as int64 nanoseconds parsed from the number's text.
class ExactTraceSax : public nlohmann::json_sax<Json> {
 public:
  Json root;

  bool null() override { return add(nullptr); }
  bool boolean(bool v) override { return add(v); }
  bool number_integer(number_integer_t v) override { return timestamp() ? add(v * 1000) : add(v); }
  bool number_unsigned(number_unsigned_t v) override {
    return timestamp() ? add(static_cast<int64_t>(v) * 1000) : add(v);
  }
  bool number_float(number_float_t v, const string_t& text) override {
    if (!timestamp()) return add(v);
    int64_t ns = 0;
    if (!tw::parse_us_to_ns(text, ns)) throw std::runtime_error("job_craft: bad timestamp " + text);
    return add(ns);
  }
  bool string(string_t& v) override { return add(std::move(v)); }
  bool binary(binary_t&) override { return false; }  // JSON text has no binary values
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool key(string_t& k) override {
    key_ = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    const bool events = stack_.size() == 1 && key_ == "traceEvents";
    open(Json::array());
    if (events) events_ = stack_.back();
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    throw std::runtime_error(std::string("job_craft: ") + e.what());
  }

 private:
  // A value directly in an object of the traceEvents array, under the key "ts" or "dur".
  bool timestamp() const {
    return stack_.size() == 3 && stack_[1] == events_ && stack_[2]->is_object() && (key_ == "ts" || key_ == "dur");
  }
  Json* place(Json&& v) {
    if (stack_.empty()) return &(root = std::move(v));
    Json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    return &(top[key_] = std::move(v));
  }
  bool add(Json&& v) {
    place(std::move(v));
    return true;
  }
  // A container's address stays valid while it is open: only the innermost open container grows.
  bool open(Json&& v) {
    stack_.push_back(place(std::move(v)));
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  std::vector<Json*> stack_;
  Json* events_ = nullptr;
  std::string key_;
};

// A Kineto trace as JSON whose events' "ts" and "dur" are int64 nanoseconds (exact).
inline Json parse_trace_ns(std::string_view text) {
  ExactTraceSax sax;
  if (!Json::sax_parse(text, &sax)) throw std::runtime_error("job_craft: not JSON");
  if (!sax.root.is_object() || !sax.root.contains("traceEvents") || !sax.root["traceEvents"].is_array()) {
    throw std::runtime_error("job_craft: no traceEvents array");
  }
  return std::move(sax.root);
}

// ns -> microseconds with exactly 3 decimals, in integers ("4458677009853.422").
inline std::string ns_to_us_text(int64_t ns) {
  const uint64_t mag = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  std::string frac = std::to_string(mag % 1000);
  return (ns < 0 ? "-" : "") + std::to_string(mag / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

inline bool is_collective_kernel(const Json& e) {
  if (!e.is_object() || e.value("cat", "") != "kernel") return false;
  const auto args = e.find("args");
  if (args != e.end() && args->is_object() && args->contains("Collective name")) return true;
  std::string name = e.value("name", "").substr(0, 4);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name == "nccl";
}

struct CollectiveKernel {
  int64_t start = 0, end = 0;
  size_t event = 0;  // index in traceEvents
};

// The collective kernels (with a ts) of a parse_trace_ns() document, in start order.
inline std::vector<CollectiveKernel> collective_kernels(const Json& trace) {
  std::vector<CollectiveKernel> out;
  const Json& events = trace["traceEvents"];
  for (size_t i = 0; i < events.size(); ++i) {
    const Json& e = events[i];
    if (!is_collective_kernel(e) || !e.contains("ts")) continue;
    const int64_t ts = e["ts"].get<int64_t>();
    out.push_back({ts, ts + e.value("dur", int64_t{0}), i});
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
  return out;
}

// The collective kernels of a trace, in start order: (start ns, end ns).
// (An overload on Json would be ambiguous: a std::string converts to both string_view and Json.)
inline std::vector<std::pair<int64_t, int64_t>> collective_spans(const Json& trace) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const CollectiveKernel& k : collective_kernels(trace)) out.emplace_back(k.start, k.end);
  return out;
}
inline std::vector<std::pair<int64_t, int64_t>> craft_collectives(std::string_view trace_json) {
  return collective_spans(parse_trace_ns(trace_json));
}

// Writes a parse_trace_ns() document back as text, its events' ns "ts"/"dur" as decimal microseconds.
inline std::string write_trace_ns(const Json& trace) {
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : trace.items()) {
    if (!first) out += ",";
    first = false;
    out += Json(key).dump() + ":";
    if (key != "traceEvents") {
      out += value.dump();
      continue;
    }
    out += "[";
    for (size_t i = 0; i < value.size(); ++i) {
      if (i) out += ",\n";
      const Json& e = value[i];
      if (!e.is_object()) {
        out += e.dump();
        continue;
      }
      out += "{";
      bool first_field = true;
      for (const auto& [k, v] : e.items()) {
        if (!first_field) out += ",";
        first_field = false;
        out += Json(k).dump() + ":";
        out += (k == "ts" || k == "dur") && v.is_number_integer() ? ns_to_us_text(v.get<int64_t>()) : v.dump();
      }
      out += "}";
    }
    out += "]";
  }
  return out + "}";
}

// A larger rank from a small one: the base's events tiled `copies` times in time, copy k shifted by
// k * (the base's span + gap_ns), as bench/gen_trace.py does for one file. Per copy k:
//   - "id" / "bind_id" (flows) and args "correlation" / "External id" + k * id stride (the next power
//     of ten above the largest of them), so flows and launches link within their copy only;
//   - "ProfilerStep#N" -> N + k * (the base's step count by number), so every step stays distinct
//     (the core keeps one step per number);
//   - metadata ("M") and events without a ts are written once, in copy 0.
// Apply it before craft_job_parsed(): the delays then follow every collective of the tiled trace.
inline Json repeat_trace(const Json& base, int copies, int64_t gap_ns = 1000000) {
  if (copies < 1) throw std::invalid_argument("job_craft: repeat needs at least one copy");
  const Json& events = base["traceEvents"];
  static constexpr const char* kTopIds[] = {"id", "bind_id"};
  static constexpr const char* kArgIds[] = {"correlation", "External id"};
  const auto is_int = [](const Json& v) { return v.is_number_integer(); };
  int64_t lo = INT64_MAX, hi = INT64_MIN, max_id = 0, min_step = INT64_MAX, max_step = INT64_MIN;
  const auto step_of = [](const Json& e, int64_t* n) {
    static constexpr std::string_view kPrefix = "ProfilerStep#";
    const auto it = e.find("name");
    if (it == e.end() || !it->is_string()) return false;
    const std::string& name = it->get_ref<const std::string&>();
    if (name.size() <= kPrefix.size() || name.compare(0, kPrefix.size(), kPrefix) != 0) return false;
    const std::string digits = name.substr(kPrefix.size());
    if (digits.size() > 18 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
    *n = std::stoll(digits);
    return true;
  };
  for (const Json& e : events) {
    if (!e.is_object()) continue;
    if (const auto ts = e.find("ts"); ts != e.end() && is_int(*ts)) {
      const int64_t t = ts->get<int64_t>();
      const auto dur = e.find("dur");
      lo = std::min(lo, t);
      hi = std::max(hi, t + (dur != e.end() && is_int(*dur) ? dur->get<int64_t>() : 0));
    }
    for (const char* k : kTopIds)
      if (const auto v = e.find(k); v != e.end() && is_int(*v)) max_id = std::max(max_id, v->get<int64_t>());
    if (const auto args = e.find("args"); args != e.end() && args->is_object())
      for (const char* k : kArgIds)
        if (const auto v = args->find(k); v != args->end() && is_int(*v)) max_id = std::max(max_id, v->get<int64_t>());
    if (int64_t n = 0; step_of(e, &n)) min_step = std::min(min_step, n), max_step = std::max(max_step, n);
  }
  const int64_t shift = lo <= hi ? hi - lo + gap_ns : gap_ns;
  int64_t id_stride = 10;
  while (id_stride <= max_id) id_stride *= 10;
  const int64_t step_stride = min_step <= max_step ? max_step - min_step + 1 : 0;

  Json out = base;
  Json& tiled = out["traceEvents"];
  tiled = Json::array();
  for (int64_t k = 0; k < copies; ++k) {
    for (const Json& e : events) {
      const bool timed = e.is_object() && e.contains("ts") && is_int(e["ts"]);
      if (k > 0 && (!timed || e.value("ph", "") == "M")) continue;
      tiled.push_back(e);
      if (k == 0 || !e.is_object()) continue;
      Json& c = tiled.back();
      c["ts"] = c["ts"].get<int64_t>() + k * shift;
      for (const char* key : kTopIds)
        if (const auto v = c.find(key); v != c.end() && is_int(*v)) *v = v->get<int64_t>() + k * id_stride;
      if (const auto args = c.find("args"); args != c.end() && args->is_object())
        for (const char* key : kArgIds)
          if (const auto v = args->find(key); v != args->end() && is_int(*v)) *v = v->get<int64_t>() + k * id_stride;
      if (int64_t n = 0; step_of(c, &n)) c["name"] = "ProfilerStep#" + std::to_string(n + k * step_stride);
    }
  }
  return out;
}

// craft_job_parsed() one rank at a time: `each(r, text)` gets rank r's trace as soon as it is made
// (a tool writing large ranks need not hold them all).
template <typename Each>
void craft_job_each(const Json& base, const std::vector<CraftRank>& ranks, int64_t world_size, Each each) {
  const std::vector<CollectiveKernel> collectives = collective_kernels(base);
  std::vector<int64_t> starts, ends;  // sorted each, for the counts #{s_i <= t} and #{e_i <= t}
  for (const CollectiveKernel& k : collectives) {
    starts.push_back(k.start);
    ends.push_back(k.end);
  }
  std::sort(ends.begin(), ends.end());
  int64_t delay = 0;
  int stragglers = 0;
  for (const CraftRank& r : ranks) {
    if (r.delay_ns != 0) delay = r.delay_ns, ++stragglers;
  }
  if (stragglers > 1) throw std::invalid_argument("job_craft: at most one rank may have a delay");

  for (size_t index = 0; index < ranks.size(); ++index) {
    const CraftRank& r = ranks[index];
    // The straggler is late at each collective start; the others catch up at each collective end.
    const std::vector<int64_t>& marks = r.delay_ns != 0 ? starts : ends;
    const auto moved = [&](int64_t t) {
      const auto passed = std::upper_bound(marks.begin(), marks.end(), t) - marks.begin();
      return t + delay * static_cast<int64_t>(passed) + r.clock_offset_ns;
    };
    Json trace = base;
    Json& events = trace["traceEvents"];
    for (Json& e : events) {
      if (!e.is_object() || !e.contains("ts") || !e["ts"].is_number_integer()) continue;
      const int64_t ts = e["ts"].get<int64_t>();
      if (e.value("ph", "") == "X" && e.contains("dur") && e["dur"].is_number_integer()) {
        // Both ends move, so the work of an event that spans a collective start stretches with it.
        const int64_t end = ts + e["dur"].get<int64_t>();
        e["dur"] = moved(end) - moved(ts);
      }
      e["ts"] = moved(ts);
    }
    if (r.drop_collective >= 0) {
      if (static_cast<size_t>(r.drop_collective) >= collectives.size()) {
        throw std::out_of_range("job_craft: drop_collective past the last collective");
      }
      // Only the kernel goes: its CPU launch stays, as when a rank never ran that collective.
      events.erase(events.begin() + static_cast<std::ptrdiff_t>(collectives[r.drop_collective].event));
    }
    Json& info = trace["distributedInfo"];
    if (!info.is_object()) info = Json::object();
    info["rank"] = r.rank;
    info["world_size"] = world_size;
    each(index, write_trace_ns(trace));
  }
}

// craft_job() over a base already read by parse_trace_ns(), for tests that craft several jobs from one
// base (parsing a large trace costs more than crafting from it).
inline std::vector<std::string> craft_job_parsed(const Json& base, const std::vector<CraftRank>& ranks,
                                                 int64_t world_size) {
  std::vector<std::string> out;
  craft_job_each(base, ranks, world_size, [&out](size_t, std::string&& text) { out.push_back(std::move(text)); });
  return out;
}

// The base trace -> one trace text per rank of `ranks` (see the model at the top of this file).
inline std::vector<std::string> craft_job(std::string_view base_trace_json, const std::vector<CraftRank>& ranks,
                                          int64_t world_size) {
  return craft_job_parsed(parse_trace_ns(base_trace_json), ranks, world_size);
}

}  // namespace tw::job_test
