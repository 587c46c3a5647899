// Screens a spec's text before the TOML parser sees it.
//
// toml++ 3.3 (the version Debian 12 ships) asks "is this whitespace?" of
// characters outside strings and comments, and of the characters after a
// backslash in a multi-line basic string. For most non-ASCII code points
// that question reaches an unreachable branch (undefined behaviour, found by
// the fuzzer). TOML allows no non-ASCII character outside strings and
// comments anyway, so those are reported as errors here; so is a non-ASCII
// character right after a backslash, or first after a line-ending
// backslash, in a multi-line string: the one place where valid TOML is
// refused, until the parser is fixed.
#pragma once

#include <string>
#include <string_view>

#include "diagnostics.hpp"

namespace opgen::gen {

/// Reports the first misplaced non-ASCII character of `text` (the contents
/// of the file `path`) as a `misplaced-non-ascii` error. Returns false when
/// it reported one: the text must not be given to the TOML parser. Text
/// that is not valid UTF-8 is left to the parser, which reports it.
bool screen_toml_text(std::string_view text, const std::string* path, Diagnostics& diags);

}  // namespace opgen::gen
