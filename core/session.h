// Session: one opened trace file. The facade that both the wasm bindings and the native CLI use:
// push bytes, finish, then ask for the summary, timeline windows and single events.
#pragma once
#include <cstdint>
#include <string>

#include "core/import/trace_importer.h"
#include "core/job/rank_record.h"
#include "core/summary/summary.h"

namespace tw {

class Session {
 public:
  explicit Session(std::string name = "trace", uint64_t file_bytes = 0)
      : name_(std::move(name)), file_bytes_(file_bytes) {}

  // Expected uncompressed input bytes, if known before the first push (lowers peak memory).
  void set_size_hint(uint64_t bytes) { importer_.set_size_hint(bytes); }
  void push(const void* data, size_t size) { importer_.push(data, size); }
  // The importer itself, for what the facade does not cover (a file in parts: TraceImporter).
  TraceImporter& importer() { return importer_; }
  void finish() {
    importer_.finish();
    finished_ = true;
  }
  bool finished() const { return finished_; }

  bool failed() const { return importer_.stats().fatal; }
  const std::string& error() const { return importer_.stats().fatal_message; }
  const ImportStats& stats() const { return importer_.stats(); }
  const TraceModel& model() { return importer_.model(); }
  // The size shown in the summary: the file as given (compressed size for .gz).
  void set_file_bytes(uint64_t n) { file_bytes_ = n; }

  nlohmann::json file_summary(const SummaryOptions& opts = {});
  // The whole summary document for this one file.
  std::string summary_json(const SummaryOptions& opts = {});
  // What this file contributes to a job of several ranks (core/job/rank_record.h), under the same
  // options as its summary; as JSON, "tracewise.rank/1".
  RankRecord rank_record(const SummaryOptions& opts = {});
  std::string rank_json(const SummaryOptions& opts = {});
  // The CPU call tree with attributed GPU time (core/calltree/call_tree_json.h), top-down or
  // bottom-up; over [from_ns, to_ns) when from_ns >= 0, else the whole trace.
  std::string call_tree_json(int64_t from_ns, int64_t to_ns, bool bottom_up);
  // Collapsed stacks of the same tree (core/calltree/collapsed.h), `gpu`: the attributed GPU time.
  std::string collapsed_stacks(int64_t from_ns, int64_t to_ns, bool gpu);

 private:
  TraceImporter importer_;
  std::string name_;
  uint64_t file_bytes_;
  bool finished_ = false;
  // The last file summary and its options: a job asks for the rank record right after the summary,
  // and the record reads its steps and verdict from it.
  nlohmann::json last_summary_;
  SummaryOptions last_opts_;
  bool has_last_summary_ = false;
};

}  // namespace tw
