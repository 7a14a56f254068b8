// How big a gzip file is once inflated, for the importer's size hint (its tables are reserved once
// from it instead of doubling; in wasm every outgrown block stays behind in a heap that never
// shrinks, and the heap is capped at 4 GiB). The trailer's ISIZE is the size modulo 4 GiB (of the
// last member only), so past 4 GiB it alone says little: a 10 GB trace reads as 1.4 GB. The
// compression ratio seen so far says roughly how big the whole is; ISIZE then says exactly which
// size near that it is.

export const kIsizeModulus = 2 ** 32;

// When the guess is refined: before the importer's first projection (GrowthPlan::kMinSeen, 32 MiB
// read, in core/import/growth_plan.h), late enough that the compressed bytes read ahead of the
// inflater (a piece of the file) are small against what came out.
export const kRefineHintAt = 24 * 2 ** 20;

// Before anything was inflated: the smallest size ISIZE allows that is not below the compressed
// size (a trace is text: it never inflates to less). 0: unknown.
export function firstGzipGuess(isize: number, compressed: number): number {
  if (!(isize >= 0) || !(compressed > 0)) return 0;
  const k = Math.max(0, Math.ceil((compressed - isize) / kIsizeModulus));
  return isize + k * kIsizeModulus;
}

// Once `inflated` bytes came out of the first `raw` of `compressed` bytes: the size ISIZE allows
// that is nearest to the whole file at the ratio so far, and above what has come out already. 0:
// no better guess (nothing inflated yet, or the sizes make no sense).
export function refinedGzipGuess(isize: number, compressed: number, inflated: number, raw: number): number {
  if (!(isize >= 0) || !(compressed > 0) || !(inflated > 0) || !(raw > 0) || raw > compressed) return 0;
  const estimate = (compressed * inflated) / raw;
  const k = Math.max(0, Math.round((estimate - isize) / kIsizeModulus));
  let guess = isize + k * kIsizeModulus;
  while (guess <= inflated) guess += kIsizeModulus;
  return guess;
}
