// Which inputs the CLI reads and how. A regular file has a size: it is read whole (in parts on
// several threads when large). A pipe, FIFO, socket or standard input ("-") has no size and may
// never end: it is read once, as a stream, up to a cap (--max-bytes). A device (/dev/zero,
// /dev/urandom, a disk) or a directory is refused: it is no trace, and a device may never end.
#pragma once
#include <cstdint>
#include <string>

namespace tw {

// The default cap for inputs without a size: well above a real trace (these are at most a few GB),
// and a few seconds of reading at the importer's speed.
constexpr uint64_t kDefaultStreamCapBytes = uint64_t(4) << 30;

enum class InputKind { kRegular, kStream, kRefused };

struct InputCheck {
  InputKind kind = InputKind::kRefused;
  std::string error;  // why it is refused
};

InputCheck check_input(const std::string& path);

// A byte count as given on the command line: digits with an optional K, M or G (binary) suffix.
// False when it is not one, or 0.
bool parse_byte_count(const std::string& text, uint64_t& bytes);

}  // namespace tw
