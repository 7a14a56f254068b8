#include "core/import/trace_importer.h"

#include "core/import/import_state.h"

namespace tw {

TraceImporter::TraceImporter() : state_(std::make_unique<ImportState>()) {}
TraceImporter::~TraceImporter() = default;

void TraceImporter::push(const void* data, size_t size) {
  if (state_->stats.fatal) return;
  state_->splitter.push(static_cast<const char*>(data), size);
}

void TraceImporter::set_size_hint(uint64_t bytes) { state_->set_size_hint(bytes); }

void TraceImporter::set_fast_decode(bool on) { state_->set_fast_decode(on); }

void TraceImporter::end_input() { state_->end_input(); }

void TraceImporter::begin_later_part(uint64_t offset, bool object_form) {
  state_->begin_later_part(offset, object_form);
}

bool TraceImporter::absorb(TraceImporter& later) {
  if (!state_->absorb(*later.state_)) return false;
  later.state_ = std::make_unique<ImportState>();
  return true;
}

void TraceImporter::finish() { state_->finish(); }

const ImportStats& TraceImporter::stats() const { return state_->stats; }

TraceModel& TraceImporter::model() { return state_->model; }

}  // namespace tw
