// Stage 2, resolve: raw records -> the op model. Applies mixins (nested
// `use`, `skip`, named entries replaced in place, last-wins scalar keys,
// additive doc/constraint/signature), looks up mixin, config and enum
// names across includes, and fills the defaults that need no type checking
// (cpp_name, kernel, cpp_namespace, kernel_header).
#pragma once

#include <optional>

#include "diagnostics.hpp"
#include "model.hpp"

namespace opgen::gen {

/// Resolves the namespace file `set.files[0]`. Reports unknown and
/// duplicate names, mixin cycles, bad skip entries, unused mixins of the
/// namespace file (warning) and unused configs (error). The returned model
/// points into `set` (configs, enums), which must outlive it.
Namespace resolve(const SpecSet& set, Diagnostics& diags);

/// "leaky_relu" -> "LeakyRelu"; a name already in PascalCase is kept.
std::string pascal_case(std::string_view snake);

}  // namespace opgen::gen
