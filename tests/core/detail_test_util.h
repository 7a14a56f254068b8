// Helpers for the detail-section tests: import a hand-written trace or a real test trace (cached,
// so several test cases share one import of a large file).
#pragma once
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "cli/file_reader.h"
#include "core/analysis/kernel_classes.h"
#include "core/import/trace_importer.h"
#include "core/summary/detail_sections.h"
#include "tests/core/test_data.h"

namespace tw::detail_test {

inline std::unique_ptr<TraceImporter> import_text(std::string_view text) {
  auto imp = std::make_unique<TraceImporter>();
  imp->push(text.data(), text.size());
  imp->finish();
  return imp;
}

// A test trace (path relative to the corpus root), imported once per test run.
inline TraceModel& data_trace(const std::string& rel) {
  static std::map<std::string, std::unique_ptr<TraceImporter>> cache;
  auto it = cache.find(rel);
  if (it == cache.end()) {
    auto imp = std::make_unique<TraceImporter>();
    ReadResult r = stream_file(test::data_path(rel), [&](const char* p, size_t n) { imp->push(p, n); });
    REQUIRE_MESSAGE(r.ok, r.error);
    imp->finish();
    REQUIRE(!imp->stats().fatal);
    it = cache.emplace(rel, std::move(imp)).first;
  }
  return it->second->model();
}

// The detail sections of a hand-written trace.
inline nlohmann::json details_of(std::string_view text, bool hta = false) {
  auto imp = import_text(text);
  REQUIRE(!imp->stats().fatal);
  nlohmann::json f = nlohmann::json::object();
  SummaryOptions o;
  o.hta_compat = hta;
  add_detail_sections(f, imp->model(), o);
  return f;
}

// The recommendation with this id, nullptr when the rule did not fire.
inline const nlohmann::json* recommendation(const nlohmann::json& f, const std::string& id) {
  for (const auto& r : f["recommendations"])
    if (r["id"] == id) return &r;
  return nullptr;
}

// A hand-written trace imported, with its default kernel classes.
struct ImportedText {
  explicit ImportedText(std::string_view text) : imp(import_text(text)) {}
  std::unique_ptr<TraceImporter> imp;
  TraceModel& m = imp->model();
  std::vector<KernelClass> cls = classify_gpu_ops(m, default_rules());
  std::string name(StringId id) const { return std::string(m.strings.get(id)); }
};

}  // namespace tw::detail_test
