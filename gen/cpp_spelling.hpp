// How spec values are spelled in generated C++ and Markdown: types,
// literals, string escapes, doc comments.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "model.hpp"

namespace opgen::gen {

/// The element type of a dtype: "float32" -> "float", "bool" -> "bool".
std::string ctype(std::string_view dtype);
/// "float32" -> "DType::float32", "bool" -> "DType::bool_".
std::string dtype_enum(std::string_view dtype);

/// The C++ type an arg has as a value (`double`, `std::int64_t`, `bool`,
/// `std::string_view`, `DType`, the enum type; `Span<...>` when counted,
/// `Span<std::string>` for strings).
std::string arg_value_type(const Param& arg, const EnumInfo* e);
/// The C++ parameter type of an input (`const Tensor&` or `Span<Tensor>`),
/// an arg (as arg_value_type) or an output (`Tensor&`, or
/// `std::span<Tensor>` for a counted one: the caller's tensors, written).
std::string param_type(const Param& p, const EnumInfo* e);

/// A literal default as a C++ expression of the arg's type:
/// 0.01, std::int64_t{3}, {1, 1}, DType::float32, PadMode::same, "abc".
std::string cpp_literal(const Literal& lit, const Param& arg, const EnumInfo* e);
/// A literal as the spec wrote it, for docs: 0.01, [1, 1], "same".
std::string doc_literal(const Literal& lit);

/// A double that reads back exactly, always with a '.' or exponent
/// ("1.0", "0.01", "1e-30"); infinities and NaN as std::numeric_limits.
std::string cpp_double(double v);
/// A C++ string literal with every character escaped as needed.
std::string cpp_string(std::string_view s);

/// Lines of a `///` doc comment, with the text's own line breaks kept and
/// nothing that could end the comment early (a trailing backslash).
std::vector<std::string> doc_comment_lines(std::string_view text);

/// The column limit of generated headers (the project's .clang-format).
inline constexpr std::size_t kHeaderColumns = 100;

/// One doc comment line as lines of at most `width` characters, broken at
/// spaces outside `code spans` (a word longer than the width stays whole).
/// Continuation lines hang under the text: "@param name  text" under
/// text, "  - item" and other @-commands two columns in, plain lines not.
std::vector<std::string> wrap_doc_line(const std::string& line, std::size_t width);

/// A declaration `head(params)tail` on one line when it fits in `width`,
/// else broken after the commas between parameters (not those inside
/// brackets, braces, parentheses or quotes): continuation lines aligned
/// under the first parameter, or 4 columns in with the first parameter on
/// a line of its own when that alignment leaves too little room.
std::string wrap_declaration(const std::string& decl, std::size_t width);

/// Text for one cell of a Markdown table: runs of white space (line breaks
/// too) become one space, and every '|' that is not already escaped by an
/// odd run of backslashes gets one, so no pipe of the text ends the cell
/// (`a|b` -> `a\|b`, `a\|b` stays, `a\\|b` -> `a\\\|b`).
std::string markdown_cell(std::string_view text);

/// Replaces the doc tokens (%OPNAME%, %NAMESPACE%, %KERNEL%, %CPP_NAME%).
std::string expand_doc_tokens(std::string_view text, const Namespace& ns, const Op& op);

/// Lowercase with words joined by '_' is kept; trims surrounding blank lines
/// and trailing spaces of each line, so docs compare stably.
std::string trim_text(std::string_view text);

}  // namespace opgen::gen
