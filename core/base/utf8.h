// UTF-8 repair for names and event bytes that must be shown or parsed as text: a trace may hold any
// bytes in its strings.
#pragma once
#include <string>

namespace tw {

// Replaces every byte that is not part of a valid UTF-8 sequence (overlong forms, surrogates and
// code points past U+10FFFF included) with '?'.
void repair_utf8(std::string& s);

}  // namespace tw
