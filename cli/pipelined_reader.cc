#include "cli/pipelined_reader.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace tw {

namespace {

// Chunks in flight between the threads: enough to ride out a slow parse of one chunk, few enough
// to keep the memory a handful of the reader's chunks.
constexpr size_t kInFlight = 4;

class ChunkQueue {
 public:
  // Reader side: a buffer to fill (blocks while kInFlight are queued); empty after close().
  std::vector<char> take_free() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return closed_ || full_.size() + handed_ < kInFlight; });
    if (closed_) return {};
    ++handed_;
    if (free_.empty()) return {};
    std::vector<char> b = std::move(free_.back());
    free_.pop_back();
    return b;
  }
  void put_full(std::vector<char> b) {
    std::lock_guard<std::mutex> lock(mu_);
    --handed_;
    full_.push_back(std::move(b));
    cv_.notify_all();
  }
  void finish() {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    cv_.notify_all();
  }
  // Parser side: the next filled buffer; false once the reader finished and all were taken.
  bool take_full(std::vector<char>& out) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !full_.empty() || done_; });
    if (full_.empty()) return false;
    out = std::move(full_.front());
    full_.pop_front();
    return true;
  }
  void give_back(std::vector<char> b) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(b));
    cv_.notify_all();
  }
  // The parser stops early: the reader's waits end.
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<char>> full_;
  std::vector<std::vector<char>> free_;
  size_t handed_ = 0;  // buffers the reader holds
  bool done_ = false, closed_ = false;
};

}  // namespace

ReadResult stream_file_pipelined(const std::string& path, const std::function<void(const char*, size_t)>& sink,
                                 const ReadLimits& limits) {
  ChunkQueue queue;
  std::atomic<bool> stop{false};
  ReadLimits reader_limits;
  reader_limits.max_bytes = limits.max_bytes;
  reader_limits.size = limits.size, reader_limits.refine_hint = limits.refine_hint;
  reader_limits.stop = [&stop] { return stop.load(std::memory_order_relaxed); };
  ReadResult result;
  std::thread reader([&] {
    result = stream_file(
        path,
        [&](const char* p, size_t n) {
          std::vector<char> b = queue.take_free();
          if (stop.load(std::memory_order_relaxed)) return;
          b.assign(p, p + n);
          queue.put_full(std::move(b));
        },
        reader_limits);
    queue.finish();
  });
  std::vector<char> chunk;
  while (queue.take_full(chunk)) {
    sink(chunk.data(), chunk.size());
    queue.give_back(std::move(chunk));
    if (limits.stop && limits.stop()) {
      stop = true;
      queue.close();
      break;
    }
  }
  reader.join();
  return result;
}

}  // namespace tw
