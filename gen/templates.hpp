// The mustache templates of gen/templates/, embedded at build time by
// gen/embed.cpp (see gen/meson.build).
#pragma once

#include <string_view>

namespace opgen::gen {

/// The text of template `name` (file name without ".mustache"), or an
/// empty view when there is none.
std::string_view embedded_template(std::string_view name);

}  // namespace opgen::gen
