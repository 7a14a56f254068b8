// ImportState's deferred decoding (see set_deferred_decode in import_state.h): batches kept in
// order with the top-level values between them, handed out to be decoded elsewhere, and applied
// with their records (event_records.h) or decoded here.
#include "core/import/import_state.h"

namespace tw {

void ImportState::on_batch(const EventBatch& batch) {
  if (!deferred_) {
    decode_batch(batch, nullptr, 0);
    return;
  }
  DeferredItem item;
  if (!spare_.empty()) {
    item.batch = std::move(spare_.back());
    spare_.pop_back();
  }
  item.batch.size = batch.size;
  splitter.keep_batch(item.batch.data, item.batch.refs);
  deferred_items_.push_back(std::move(item));
  deferred_batches_++;
}

void ImportState::on_top_level_value(std::string_view key, std::string_view raw, uint64_t offset) {
  if (later_part_) {  // handled after the events of the parts before, once absorbed
    later_values_.push_back(LaterValue{std::string(key), std::string(raw), offset});
    return;
  }
  // Behind kept batches a value waits its turn: handling stays in input order.
  if (deferred_items_.empty()) {
    handle_top_level(key, raw, offset);
    return;
  }
  DeferredItem item;
  item.is_value = true;
  item.key = key;
  item.raw = raw;
  item.offset = offset;
  deferred_items_.push_back(std::move(item));
}

const DeferredBatch* ImportState::next_outgoing() {
  size_t seen = 0;
  for (const DeferredItem& item : deferred_items_) {
    if (item.is_value) continue;
    if (seen++ == handed_out_) {
      handed_out_++;
      return &item.batch;
    }
  }
  return nullptr;
}

void ImportState::apply_deferred_values() {
  while (!deferred_items_.empty() && deferred_items_.front().is_value) {
    DeferredItem item = std::move(deferred_items_.front());
    deferred_items_.pop_front();
    handle_top_level(item.key, item.raw, item.offset);
  }
}

void ImportState::apply_deferred(const uint8_t* records, size_t size) {
  apply_deferred_values();
  if (deferred_items_.empty()) return;
  DeferredBatch b = std::move(deferred_items_.front().batch);
  deferred_items_.pop_front();
  deferred_batches_--;
  if (handed_out_ > 0) handed_out_--;
  decode_batch(EventBatch{b.data.data(), b.size, &b.refs}, records, size);
  spare_.push_back(std::move(b));
  apply_deferred_values();
}

void ImportState::end_input() {
  if (input_ended_) return;
  input_ended_ = true;
  splitter.finish();
}

}  // namespace tw
