// How big a gzip file is once inflated, for the importer's size hint (its tables are reserved once
// from it instead of doubling; in wasm every outgrown block stays behind in a heap that never
// shrinks, and the heap is capped at 4 GiB). The trailer's ISIZE is the size modulo 4 GiB (of the
// last member only), so past 4 GiB it alone says little: a 10 GB trace reads as 1.4 GB. The
// compression ratio seen so far says roughly how big the whole is; ISIZE then says exactly which
// size near that it is. One guess for the page (web/load/trace/open.ts, through the wasm module)
// and the CLI (cli/file_reader.cc).
#pragma once
#include <cstdint>

namespace tw::inflate {

// When the guess is refined: before the importer's first projection (GrowthPlan::kMinSeen, 32 MiB
// read, in core/import/growth_plan.h), late enough that the compressed bytes read ahead of the
// inflater are small against what came out.
constexpr uint64_t kRefineGzipHintAt = uint64_t(24) << 20;

// `isize`: the trailer's size field; `compressed`: the file's size. Before anything was inflated
// (`inflated` 0): the smallest size ISIZE allows that is not below the compressed size (a trace
// is text: it never inflates to less). Once `inflated` bytes came out of the first `used`
// compressed bytes: the size ISIZE allows nearest to the whole file at that ratio, and above what
// came out already. 0: no guess (the sizes make no sense).
uint64_t gzip_size_guess(uint64_t isize, uint64_t compressed, uint64_t inflated = 0, uint64_t used = 0);

}  // namespace tw::inflate
