// Numbers in words for the comparison's sentence and Markdown: one formatting for both.
#pragma once
#include <string>

namespace tw {

std::string printf_double(const char* format, double v);
// "1.23 ms", "456 µs", "12 ns": three significant digits in the largest unit below the value.
std::string duration_words(double ns);
// With a sign: "+1.23 ms", "-456 µs".
std::string signed_duration_words(double ns);

}  // namespace tw
