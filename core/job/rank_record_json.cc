#include "core/job/rank_record_json.h"

#include "core/job/job_analysis.h"

#include <unordered_map>

namespace tw {

namespace {

using nlohmann::json;

json or_null(bool known, int64_t v) { return known ? json(v) : json(nullptr); }

bool int_of(const json& j, int64_t* v) {
  if (!j.is_number_integer()) return false;
  *v = j.get<int64_t>();
  return true;
}

// A nullable integer field: absent or null leaves `otherwise`.
bool opt_int(const json& j, const char* key, int64_t otherwise, int64_t* v, bool* present = nullptr) {
  *v = otherwise;
  if (present) *present = false;
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  if (present) *present = true;
  return int_of(*it, v);
}

}  // namespace

json rank_record_json(const RankRecord& r) {
  json steps = json::array();
  for (const RankStep& s : r.steps) {
    json row = {s.number, s.begin_ns, s.end_ns};
    for (int64_t ns : s.category_ns) row.push_back(ns);
    steps.push_back(std::move(row));
  }
  std::vector<std::string> strings;
  std::unordered_map<std::string, size_t> index;
  auto id = [&](const std::string& s) {
    auto [it, fresh] = index.emplace(s, strings.size());
    if (fresh) strings.push_back(s);
    return it->second;
  };
  json calls = json::array();
  for (const CollectiveCall& c : r.calls)
    calls.push_back({id(c.group), id(c.op), id(c.dtype), c.seq, c.nelems, c.bytes, c.group_size,
                     c.step == kNoStep ? json(nullptr) : json(c.step), c.begin_ns, c.end_ns});
  return {{"schema", "tracewise.rank/1"},
          {"file", r.file},
          {"rank", or_null(r.has_rank, r.rank)},
          {"world_size", or_null(r.world_size >= 0, r.world_size)},
          {"gpu_span_ns", or_null(r.gpu_span_ns >= 0, r.gpu_span_ns)},
          {"limiter", r.limiter.empty() ? json(nullptr) : json(r.limiter)},
          {"steps", steps},
          {"strings", strings},
          {"calls", calls}};
}

bool rank_record_from_json(const json& j, RankRecord* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = why;
    return false;
  };
  if (!j.is_object() || j.value("schema", "") != "tracewise.rank/1") return fail("not a tracewise.rank/1 record");
  RankRecord r;
  if (j.contains("file") && j["file"].is_string()) r.file = j["file"].get<std::string>();
  if (!opt_int(j, "rank", 0, &r.rank, &r.has_rank) || !opt_int(j, "world_size", -1, &r.world_size) ||
      !opt_int(j, "gpu_span_ns", -1, &r.gpu_span_ns))
    return fail("rank, world_size and gpu_span_ns are integers or null");
  if (j.contains("limiter") && j["limiter"].is_string()) r.limiter = j["limiter"].get<std::string>();
  const json& steps = j.contains("steps") ? j["steps"] : json::array();
  const json& strings = j.contains("strings") ? j["strings"] : json::array();
  const json& calls = j.contains("calls") ? j["calls"] : json::array();
  if (!steps.is_array() || !strings.is_array() || !calls.is_array()) return fail("steps, strings and calls are arrays");
  for (const json& row : steps) {
    if (!row.is_array() || row.size() != 3 + kStepCategoryCount) return fail("a step has 11 numbers");
    RankStep s;
    bool ok = int_of(row[0], &s.number) && int_of(row[1], &s.begin_ns) && int_of(row[2], &s.end_ns);
    for (int c = 0; c < kStepCategoryCount; ++c) ok = ok && int_of(row[3 + c], &s.category_ns[c]);
    if (!ok) return fail("a step has 11 integers");
    if (s.begin_ns > s.end_ns || s.begin_ns < -kJobTimeLimitNs || s.end_ns > kJobTimeLimitNs)
      return fail("a step ends before it begins or lies beyond 2^61 ns");
    r.steps.push_back(s);
  }
  for (const json& s : strings)
    if (!s.is_string()) return fail("strings holds strings");
  auto str = [&](const json& v, std::string* s) {
    int64_t i = 0;
    if (!int_of(v, &i) || i < 0 || static_cast<size_t>(i) >= strings.size()) return false;
    *s = strings[static_cast<size_t>(i)].get<std::string>();
    return true;
  };
  for (const json& row : calls) {
    if (!row.is_array() || row.size() != 10) return fail("a call has 10 fields");
    CollectiveCall c;
    int64_t group_size = 0;
    bool ok = str(row[0], &c.group) && str(row[1], &c.op) && str(row[2], &c.dtype) && int_of(row[3], &c.seq) &&
              int_of(row[4], &c.nelems) && int_of(row[5], &c.bytes) && int_of(row[6], &group_size) &&
              (row[7].is_null() || int_of(row[7], &c.step)) && int_of(row[8], &c.begin_ns) && int_of(row[9], &c.end_ns);
    if (!ok || group_size < 0 || group_size > INT32_MAX || c.end_ns < c.begin_ns) return fail("a call is malformed");
    c.group_size = static_cast<int32_t>(group_size);
    r.calls.push_back(std::move(c));
  }
  *out = std::move(r);
  return true;
}

bool rank_records_from_json(std::string_view text, std::vector<RankRecord>* out, std::string* error) {
  const json arr = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (arr.is_discarded() || !arr.is_array()) {
    *error = "not a JSON array of rank records";
    return false;
  }
  out->clear();
  for (const json& j : arr) {
    RankRecord r;
    if (!rank_record_from_json(j, &r, error)) return false;
    out->push_back(std::move(r));
  }
  return true;
}

}  // namespace tw
