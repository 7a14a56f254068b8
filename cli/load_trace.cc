#include "cli/load_trace.h"

#include <atomic>
#include <cstdio>

#include "cli/file_reader.h"
#include "cli/input_check.h"
#include "cli/parts_reader.h"
#include "cli/pipelined_reader.h"

namespace tw {
namespace {

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::unique_ptr<Session> load_trace(const std::string& path, unsigned jobs, uint64_t max_stream_bytes) {
  const InputCheck input = check_input(path);
  if (input.kind == InputKind::kRefused) {
    std::fprintf(stderr, "tracewise: %s\n", input.error.c_str());
    return nullptr;
  }
  auto session = std::make_unique<Session>(path == "-" ? "stdin" : base_name(path));
  const bool regular = input.kind == InputKind::kRegular;
  uint64_t size = 0;
  // (Only a regular file is opened twice: a stream's first bytes would be gone.)
  int parts = regular && plain_file_size(path, size) ? parts_for(size, jobs) : 1;
  ReadResult r;
  if (parts > 1) {
    r.file_bytes = size;
    r.ok = import_in_parts(path, size, parts, session->importer(), r.error);
  } else {
    InputSize input_bytes;
    const bool sized = regular && input_size(path, input_bytes);
    if (sized) session->set_size_hint(input_bytes.hint());
    ReadLimits limits;
    limits.max_bytes = regular ? 0 : max_stream_bytes;
    // Once the importer has given up (not a trace), the rest of the input cannot matter.
    limits.stop = [&session] { return session->failed(); };
    // A gzip's size past 4 GiB, from the ratio: found on the reading thread, given to the importer
    // on this one before its next push (still before its first projection, GrowthPlan::kMinSeen).
    std::atomic<uint64_t> refined{0};
    if (sized) limits.size = &input_bytes, limits.refine_hint = [&refined](uint64_t hint) { refined = hint; };
    auto push = [&](const char* p, size_t n) {
      if (const uint64_t hint = refined.exchange(0)) session->set_size_hint(hint);
      session->push(p, n);
    };
    // With a second core, gzip inflates on it while this thread parses (a plain stream just reads).
    r = jobs > 1 ? stream_file_pipelined(path, push, limits) : stream_file(path, push, limits);
  }
  if (!r.ok) {
    std::fprintf(stderr, "tracewise: %s\n", r.error.c_str());
    return nullptr;
  }
  session->finish();
  if (session->failed()) {
    std::fprintf(stderr, "tracewise: %s: %s\n", path == "-" ? "standard input" : path.c_str(),
                 session->error().c_str());
    return nullptr;
  }
  for (const std::string& w : r.gzip_warnings) std::fprintf(stderr, "tracewise: %s: %s\n", path.c_str(), w.c_str());
  if (const ImportStats& st = session->stats(); st.recovered_regions > 0)
    std::fprintf(stderr,
                 "tracewise: %s: damaged: %llu span(s), %llu bytes, skipped (the first at byte %llu); every event "
                 "outside them is loaded\n",
                 path.c_str(), static_cast<unsigned long long>(st.recovered_regions),
                 static_cast<unsigned long long>(st.recovered_bytes),
                 static_cast<unsigned long long>(st.recovered_first_offset));
  session->set_file_bytes(r.file_bytes);
  return session;
}

}  // namespace tw
