// The tracewise version: written into per-rank digests, so that digests made by another build are
// refused instead of merged into a job summary that no single build would write. Kept equal to
// package.json's "version" (tests/repo/version.test.mjs).
#pragma once

namespace tw {

inline constexpr const char* kTracewiseVersion = "0.1.0";

}  // namespace tw
