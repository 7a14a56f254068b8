// Status: the core's error type. Emscripten 3.1.6 aborts on throw by default, so the core reports
// failures as values, never as exceptions.
#pragma once
#include <string>
#include <utility>

namespace tw {

class Status {
 public:
  Status() = default;
  static Status Error(std::string message) { return Status(std::move(message)); }
  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace tw
