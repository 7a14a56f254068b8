#include "core/job/job_json.h"

#include <algorithm>

namespace tw {

namespace {

using nlohmann::json;

json rank_id(const std::vector<RankRecord>& records, const JobRank& r) {
  const RankRecord& rec = records[r.record];
  return rec.has_rank ? json(rec.rank) : json(nullptr);
}

json step_or_null(int64_t step) { return step == kNoStep ? json(nullptr) : json(step); }

json instance_head(const CollectiveInstance& in) {
  return {{"group", in.group}, {"op", in.op}, {"step", step_or_null(in.step)}, {"n", in.n}, {"by_seq", in.by_seq}};
}

}  // namespace

void add_job_analysis_json(const std::vector<RankRecord>& records, const JobAnalysis& a, json& job) {
  json ranks = json::array();
  for (const JobRank& r : a.ranks) {
    const RankRecord& rec = records[r.record];
    ranks.push_back({{"rank", rank_id(records, r)},
                     {"label", r.label},
                     {"file", rec.file},
                     {"aligned", r.aligned},
                     {"clock_offset_ns", r.clock_offset_ns},
                     {"clock_residual_ns", r.clock_residual_ns >= 0 ? json(r.clock_residual_ns) : json(nullptr)},
                     {"collectives", r.collectives},
                     {"last_arrivals", r.last_arrivals},
                     {"late_ns", r.collectives ? json(r.late_ns / static_cast<int64_t>(r.collectives)) : json(nullptr)},
                     {"wait_ns", r.wait_ns},
                     {"transfer_ns", r.transfer_ns},
                     {"step_ns", r.step_ns >= 0 ? json(r.step_ns) : json(nullptr)},
                     {"limiter", rec.limiter.empty() ? json(nullptr) : json(rec.limiter)}});
  }
  job["ranks"] = std::move(ranks);
  job["clock"] = {{"aligned", a.aligned},
                  {"method", a.aligned ? "collective_ends" : "as_written"},
                  {"reference", a.ranks.empty() ? json(nullptr) : json(a.ranks[0].label)}};

  json stragglers = json::array();
  for (const Straggler& s : a.stragglers) {
    json steps = json::array();
    for (const StepLateness& st : s.steps) steps.push_back({{"number", st.number}, {"late_ns", st.late_ns}});
    stragglers.push_back({{"rank", rank_id(records, a.ranks[s.rank])},
                          {"label", a.ranks[s.rank].label},
                          {"metric", s.metric},
                          {"value", s.value},
                          {"median", s.median},
                          {"cause", s.cause},
                          {"reason", s.reason},
                          {"steps", steps}});
  }
  job["stragglers"] = std::move(stragglers);
  job["straggler_rule"] = {{"k", kStragglerK},
                           {"late_floor_ns", kLateFloorNs},
                           {"tie_ns", kJobTieNs},
                           {"step_margin_share", kStepMarginShare}};

  json by = json::array();
  for (const OpGroupStat& s : a.by_op_group)
    by.push_back({{"group", s.group},
                  {"op", s.op},
                  {"count", s.count},
                  {"group_size", s.group_size},
                  {"bytes", s.bytes},
                  {"sized", s.sized},
                  {"mean_transfer_ns", s.transfer_ns / static_cast<int64_t>(s.count)},
                  {"mean_skew_ns", s.skew_ns / static_cast<int64_t>(s.count)},
                  {"max_skew_ns", s.max_skew_ns},
                  {"algbw_gbps", s.sized_transfer_ns > 0 ? json(s.algbw_gbps) : json(nullptr)},
                  {"busbw_gbps", s.sized_transfer_ns > 0 ? json(s.busbw_gbps) : json(nullptr)}});
  json mismatches = json::array();
  std::vector<const CollectiveInstance*> matched;
  for (const CollectiveInstance& in : a.instances) {
    if (in.status == CollectiveInstance::kMismatched && mismatches.size() < kJobMismatchesShown) {
      json m = instance_head(in);
      m["problem"] = in.problem;
      mismatches.push_back(std::move(m));
    }
    if (in.status == CollectiveInstance::kMatched && in.ranks.size() >= 2) matched.push_back(&in);
  }
  // The heatmap's columns: the largest skews (ties: earlier first), shown in time order.
  const size_t keep = std::min(matched.size(), kJobWorstInstances);
  std::partial_sort(matched.begin(), matched.begin() + static_cast<std::ptrdiff_t>(keep), matched.end(),
                    [](const CollectiveInstance* x, const CollectiveInstance* y) {
                      return x->skew_ns != y->skew_ns ? x->skew_ns > y->skew_ns
                                                      : x->first_arrival_ns < y->first_arrival_ns;
                    });
  matched.resize(keep);
  std::stable_sort(matched.begin(), matched.end(), [](const CollectiveInstance* x, const CollectiveInstance* y) {
    return x->first_arrival_ns < y->first_arrival_ns;
  });
  json worst = json::array();
  for (const CollectiveInstance* in : matched) {
    json waits(a.ranks.size(), nullptr);
    for (size_t k = 0; k < in->ranks.size(); ++k) {
      const JobRank& r = a.ranks[in->ranks[k]];
      const CollectiveCall& c = records[r.record].calls[in->calls[k]];
      const int64_t arrive = c.begin_ns - r.clock_offset_ns;
      waits[in->ranks[k]] = std::clamp<int64_t>(in->last_arrival_ns - arrive, 0, c.end_ns - c.begin_ns);
    }
    json w = instance_head(*in);
    w["begin_ns"] = in->first_arrival_ns;
    w["end_ns"] = in->end_ns;
    w["skew_ns"] = in->skew_ns;
    w["transfer_ns"] = in->transfer_ns;
    w["bytes"] = in->bytes >= 0 ? json(in->bytes) : json(nullptr);
    w["last"] = a.ranks[in->last_rank].label;
    w["waits_ns"] = std::move(waits);
    worst.push_back(std::move(w));
  }
  job["collectives"] = {{"instances", a.instances.size()},
                        {"matched", a.matched},
                        {"mismatched", a.mismatched},
                        {"partial", a.partial},
                        {"by_op_group", by},
                        {"mismatches", mismatches},
                        {"worst", worst}};
  job["notes"] = a.notes;
}

}  // namespace tw
