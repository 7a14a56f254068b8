// CRC-32 (the gzip trailer's, polynomial 0xEDB88320, reflected), sixteen bytes a step ("slice by
// 16": sixteen 256-entry tables, one load each): it runs over every inflated byte, so it must keep
// up with the inflater, also in wasm where there is no carry-less multiply.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tw::inflate {

// The CRC-32 of `crc`'s data followed by [p, p + n) (start with crc 0).
uint32_t crc32(uint32_t crc, const uint8_t* p, size_t n);

}  // namespace tw::inflate
