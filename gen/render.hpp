// Rendering the embedded mustache templates (gen/templates/*.mustache,
// compiled into the generator so an installed opgen needs no data files).
#pragma once

#include <string>
#include <string_view>

#include <kainjow/mustache.hpp>

namespace opgen::gen {

using TemplateData = kainjow::mustache::data;

/// A list value for TemplateData.
inline TemplateData template_list() { return TemplateData(TemplateData::type::list); }

/// Renders the template `name` ("header", "source", "reference") with
/// `data`. Variables are not escaped (the output is C++ and Markdown, not
/// HTML). Throws std::logic_error if the template is missing or does not
/// parse, which is a bug in the generator, never in a spec.
std::string render(std::string_view name, const TemplateData& data);

}  // namespace opgen::gen
