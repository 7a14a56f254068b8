#include "cli/parts_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "core/import/import_parts.h"

namespace tw {

namespace {

constexpr size_t kChunk = size_t(4) << 20;
// At most one part per this many bytes (chosen; measured only at 2 parts of 256 MB and 1 GB).
constexpr uint64_t kBytesPerPart = uint64_t(32) << 20;

// Reads [begin, end) of `fd` in chunks into `sink`; false on a read error or a file that got shorter.
template <class Sink>
bool read_range(int fd, uint64_t begin, uint64_t end, Sink sink) {
  std::vector<char> buf(kChunk);
  while (begin < end) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, end - begin));
    ssize_t n = pread(fd, buf.data(), want, static_cast<off_t>(begin));
    if (n <= 0) return false;
    sink(buf.data(), static_cast<size_t>(n));
    begin += static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

int parts_for(uint64_t size, unsigned threads) {
  uint64_t by_size = std::max<uint64_t>(1, size / kBytesPerPart);
  return static_cast<int>(std::min<uint64_t>(by_size, std::max(1u, threads)));
}

bool import_in_parts(const std::string& path, uint64_t size, int parts, TraceImporter& first, std::string& error) {
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    error = "cannot open " + path;
    return false;
  }
  std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* f) { close(*f); });
  auto window = [fd](uint64_t at, size_t n) {
    std::string w(n, '\0');
    ssize_t got = pread(fd, w.data(), n, static_cast<off_t>(at));
    w.resize(got > 0 ? static_cast<size_t>(got) : 0);
    return w;
  };
  const bool object_form = starts_as_object(window(0, 64));
  std::vector<uint64_t> starts = part_starts(size, parts, 1 << 20, window);
  std::vector<std::unique_ptr<TraceImporter>> later;
  std::vector<TraceImporter*> ptrs;
  for (size_t k = 0; k < starts.size(); ++k) {
    later.push_back(std::make_unique<TraceImporter>());
    ptrs.push_back(later.back().get());
  }
  auto range_end = [&](size_t k) { return k + 1 < starts.size() ? starts[k + 1] : size; };
  std::vector<char> ok(starts.size() + 1, 1);
  std::vector<std::thread> threads;
  for (size_t k = 0; k < starts.size(); ++k) {
    threads.emplace_back([&, k] {
      TraceImporter& imp = *later[k];
      imp.set_size_hint(range_end(k) - starts[k]);
      imp.begin_later_part(starts[k], object_form);
      ok[k + 1] = read_range(fd, starts[k], range_end(k), [&imp](const char* p, size_t n) { imp.push(p, n); });
      if (k + 1 == starts.size()) imp.end_input();
    });
  }
  first.set_size_hint(size);  // its tables are reserved for the whole file: absorbing copies no column
  ok[0] = read_range(fd, 0, starts.empty() ? size : starts[0], [&first](const char* p, size_t n) { first.push(p, n); });
  for (std::thread& t : threads) t.join();
  if (std::find(ok.begin(), ok.end(), 0) != ok.end()) {
    error = "read error on " + path;
    return false;
  }
  bool read_ok = true;
  absorb_parts(first, ptrs, starts, size,
               [&](uint64_t b, uint64_t e, auto push) { read_ok = read_range(fd, b, e, push) && read_ok; });
  if (!read_ok) error = "read error on " + path;
  return read_ok;
}

}  // namespace tw
