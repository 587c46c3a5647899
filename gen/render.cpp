#include "render.hpp"

#include <stdexcept>

#include "templates.hpp"

namespace opgen::gen {

namespace {

// Sections over empty lists leave blank lines behind; a generated file
// never has two blank lines in a row, nor a blank line at its end.
std::string squeeze_blank_lines(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  int newlines = 0;
  for (char c : text) {
    if (c == '\n') {
      if (++newlines > 2) continue;
    } else {
      newlines = 0;
    }
    out += c;
  }
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') {
    out.pop_back();
  }
  return out;
}

}  // namespace

std::string render(std::string_view name, const TemplateData& data) {
  const std::string_view text = embedded_template(name);
  if (text.empty()) throw std::logic_error("no template '" + std::string(name) + "'");
  kainjow::mustache::mustache tmpl{std::string(text)};
  if (!tmpl.is_valid()) {
    throw std::logic_error("template '" + std::string(name) + "': " + tmpl.error_message());
  }
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  std::string out = tmpl.render(data);
  if (!tmpl.is_valid()) {
    throw std::logic_error("template '" + std::string(name) + "': " + tmpl.error_message());
  }
  return squeeze_blank_lines(out);
}

}  // namespace opgen::gen
