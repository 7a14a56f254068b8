// Values JSON does not allow that the importer reads anyway, so that one odd value does not cost an
// event: a \u escape of a lone UTF-16 surrogate (simdjson puts U+FFFD in its place) and a number
// outside JSON's grammar (00012, 1., +1, .5, 1e, NaN, Infinity). Each is counted as an import
// problem ("lone_surrogate", "non_json_number") with an excerpt of the first, shown in the
// summary's import.invalid. Only the simdjson decoder meets them: the one-pass decoder declines
// every string with a backslash and every number outside the grammar (fast_event_decoder.h), so
// the common, clean event pays nothing for these checks.
#pragma once
#include <string>
#include <string_view>

namespace tw {

// Whether `token` (a scalar's raw text) is a number by JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view token);

// Whether a value's raw text that is not valid JSON was meant as a number: it starts like one
// (a sign, a digit, a point) or is NaN / Infinity.
bool looks_like_number(std::string_view token);

// Whether a string's raw text (escapes not yet decoded) holds a \u escape of a UTF-16 surrogate
// that is not half of a high + low pair.
bool has_lone_surrogate(std::string_view raw);

// A short excerpt of `event` (an event object's text) around the first lone surrogate
// (`surrogate`) or the first non-JSON number, for the summary; empty when there is none.
std::string oddity_example(std::string_view event, bool surrogate);

}  // namespace tw
