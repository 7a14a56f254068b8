#include "core/summary/job_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "core/analysis/recommendations.h"
#include "core/analysis/verdict.h"
#include "core/job/job_analysis.h"
#include "core/job/job_json.h"
#include "core/job/rank_record_json.h"
#include "core/summary/summary.h"

namespace tw {

namespace {

using nlohmann::json;

constexpr double kJobSlowestShare = 0.01;  // ranks closer than this to the median are not "slowest"

std::string label_of(const json& f, size_t index) {
  if (f.contains("rank") && f["rank"].is_number_integer()) return "rank " + std::to_string(f["rank"].get<int64_t>());
  if (f.contains("name") && f["name"].is_string()) return f["name"].get<std::string>();
  return "file " + std::to_string(index + 1);
}

// A value at a path of objects, or null.
const json* at(const json& j, std::initializer_list<const char*> path) {
  const json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return nullptr;
    p = &(*p)[k];
  }
  return p;
}

std::string limiter_of(const json& f) {
  const json* l = at(f, {"verdict", "limiter"});
  return l && l->is_string() ? l->get<std::string>() : "";
}

// The time one rank takes: its mean step, or its GPU span when no rank has steps.
struct RankTime {
  size_t index = 0;
  int64_t ns = 0;
};

std::vector<RankTime> rank_times(const std::vector<json>& files, const char* const (&path)[2]) {
  std::vector<RankTime> out;
  for (size_t i = 0; i < files.size(); ++i) {
    const json* v = at(files[i], {path[0], path[1]});
    if (!v || !v->is_number_integer()) return {};  // every rank or none: times of different kinds do not compare
    out.push_back({i, v->get<int64_t>()});
  }
  return out;
}

std::string list(const std::vector<std::string>& names, size_t max) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < max; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > max) s += " and " + std::to_string(names.size() - max) + " more";
  return s;
}

}  // namespace

json job_summary(const std::vector<json>& files, const std::vector<RankRecord>* records) {
  // Ranks by limiter, in file order; the limiter most ranks share (ties: the slowest rank's, then
  // the name).
  std::map<std::string, std::vector<std::string>> by_limiter;
  std::vector<std::string> labels;
  size_t judged = 0;  // files with a verdict
  for (size_t i = 0; i < files.size(); ++i) {
    labels.push_back(label_of(files[i], i));
    const std::string l = limiter_of(files[i]);
    if (!l.empty()) by_limiter[l].push_back(labels.back()), ++judged;
  }
  static const char* const kStep[2] = {"step_breakdown", "mean_ns"};
  static const char* const kSpan[2] = {"temporal", "span_ns"};
  std::vector<RankTime> times = rank_times(files, kStep);
  const bool steps = !times.empty();
  if (!steps) times = rank_times(files, kSpan);

  json slowest = nullptr;
  std::string slow_limiter;
  std::string slow_text;
  if (times.size() >= 2) {
    std::vector<int64_t> sorted;
    for (const RankTime& t : times) sorted.push_back(t.ns);
    std::sort(sorted.begin(), sorted.end());
    const int64_t median = sorted[(sorted.size() - 1) / 2];  // the lower median: a time some rank took
    const RankTime worst = *std::max_element(times.begin(), times.end(), [](const RankTime& a, const RankTime& b) {
      return a.ns != b.ns ? a.ns < b.ns : a.index > b.index;  // ties: the first file
    });
    const double over = median > 0 ? double(worst.ns - median) / double(median) : 0.0;
    slowest = {{"label", labels[worst.index]},
               {"ns", worst.ns},
               {"median_ns", median},
               {"over_median", over},
               {"of", steps ? "step_mean" : "gpu_span"}};
    slow_limiter = limiter_of(files[worst.index]);
    // In a synchronous job every rank's step lasts as long as the slowest's: a rank apart by less
    // than this says nothing.
    slow_text = over < kJobSlowestShare
                    ? std::string(" The ranks' ") + (steps ? "mean steps" : "GPU spans") + " agree within " +
                          format_percent(kJobSlowestShare) + " (" + format_duration(median) + ")."
                    : " The slowest is " + labels[worst.index] + ": " + format_duration(worst.ns) +
                          (steps ? " per step" : " of GPU span") + ", " + format_percent(over) +
                          " over the median rank (" + format_duration(median) + ").";
  }

  std::string limiter;
  size_t agree = 0;
  for (const auto& [name, ranks] : by_limiter) {
    if (ranks.size() > agree || (ranks.size() == agree && name == slow_limiter)) {
      limiter = name;
      agree = ranks.size();
    }
  }
  std::string sentence;
  if (!limiter.empty()) {
    const std::string phrase = limiter_phrase(limiter);
    sentence =
        agree == files.size()
            ? (files.size() == 2 ? "Both ranks are " : "All " + std::to_string(agree) + " ranks are ") + phrase + "."
            : std::to_string(agree) + " of " + std::to_string(files.size()) + " ranks are " + phrase + ";";
    if (agree < files.size()) {
      std::string others;
      for (const auto& [name, ranks] : by_limiter) {
        if (name == limiter) continue;
        others += std::string(others.empty() ? " " : "; ") + list(ranks, 4) + (ranks.size() == 1 ? " is " : " are ") +
                  limiter_phrase(name);
      }
      if (judged < files.size())
        others +=
            std::string(others.empty() ? " " : "; ") + std::to_string(files.size() - judged) + " without a verdict";
      sentence += others + ".";
    }
  }
  sentence += slow_text;
  json groups = json::object();
  for (const auto& [name, ranks] : by_limiter) groups[name] = ranks;
  json job = {{"rank_count", files.size()},
              {"verdict",
               {{"limiter", limiter.empty() ? json(nullptr) : json(limiter)},
                {"agree", agree},
                {"by_limiter", groups},
                {"slowest", slowest},
                {"sentence", sentence.empty() ? json(nullptr) : json(sentence.substr(sentence[0] == ' ' ? 1 : 0))}}}};
  if (records && records->size() == files.size()) {
    const JobAnalysis a = analyze_job(*records);
    add_job_analysis_json(*records, a, job);
    // The rank the others wait for says more than step times do: it leads the sentence's end.
    for (const Straggler& s : a.stragglers) {
      if (s.metric != "arrival_late_ns") continue;
      json& sentence_json = job["verdict"]["sentence"];
      std::string text = sentence_json.is_string() ? sentence_json.get<std::string>() + " " : "";
      std::string who = a.ranks[s.rank].label;
      if (who.rfind("rank ", 0) == 0) who[0] = 'R';
      text += who + " holds the others back: it arrives last at " + std::to_string(a.ranks[s.rank].last_arrivals) +
              " of " + std::to_string(a.ranks[s.rank].collectives) + " collectives, " + format_duration(s.value) +
              " after the first rank on average.";
      sentence_json = text;
      break;
    }
  }
  return job;
}

std::string job_summary_json(std::string_view files_json, std::string_view records_json) {
  const json arr = json::parse(files_json.begin(), files_json.end(), nullptr, /*allow_exceptions=*/false);
  if (arr.is_discarded() || !arr.is_array()) return "null";
  std::vector<json> files;
  for (const json& f : arr) {
    if (!f.is_object()) return "null";
    files.push_back(f);
  }
  if (records_json.empty()) return dump_json(job_summary(files));
  std::vector<RankRecord> records;
  std::string error;
  if (!rank_records_from_json(records_json, &records, &error) || records.size() != files.size()) return "null";
  return dump_json(job_summary(files, &records));
}

}  // namespace tw
