// Embind bindings: the wasm face of core/session.h. Only plain values, strings and typed-array
// views cross the boundary; the trace itself stays in the wasm heap.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "core/session.h"

namespace {

// A Session plus a staging buffer that JS fills through HEAPU8 before calling pushStaged(), so a
// chunk is copied once into the heap and never kept.
class WasmSession {
 public:
  explicit WasmSession(std::string name) : session_(std::move(name)) {}

  // Returns the heap address of a buffer of at least `size` bytes (valid until the next call).
  uintptr_t stagingBuffer(size_t size) {
    if (staging_.size() < size) staging_.resize(size);
    return reinterpret_cast<uintptr_t>(staging_.data());
  }
  void pushStaged(size_t size) { session_.push(staging_.data(), size); }
  void finish() {
    session_.finish();
    std::vector<char>().swap(staging_);
  }
  void setFileBytes(double n) { session_.set_file_bytes(static_cast<uint64_t>(n)); }
  bool failed() const { return session_.failed(); }
  std::string error() const { return session_.error(); }
  double eventsSoFar() const { return static_cast<double>(session_.stats().events); }
  double bytesSoFar() const { return static_cast<double>(session_.stats().bytes); }
  std::string summaryJson(bool hta_compat) {
    tw::SummaryOptions opts;
    opts.hta_compat = hta_compat;
    return session_.summary_json(opts);
  }
  double modelBytes() { return static_cast<double>(session_.model().memory_bytes()); }

 private:
  tw::Session session_;
  std::vector<char> staging_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(tracewise) {
  emscripten::class_<WasmSession>("Session")
      .constructor<std::string>()
      .function("stagingBuffer", &WasmSession::stagingBuffer)
      .function("pushStaged", &WasmSession::pushStaged)
      .function("finish", &WasmSession::finish)
      .function("setFileBytes", &WasmSession::setFileBytes)
      .function("failed", &WasmSession::failed)
      .function("error", &WasmSession::error)
      .function("eventsSoFar", &WasmSession::eventsSoFar)
      .function("bytesSoFar", &WasmSession::bytesSoFar)
      .function("summaryJson", &WasmSession::summaryJson)
      .function("modelBytes", &WasmSession::modelBytes);
}
