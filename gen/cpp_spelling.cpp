#include "cpp_spelling.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace opgen::gen {

std::string ctype(std::string_view dtype) {
  if (dtype == "float32") return "float";
  if (dtype == "float64") return "double";
  if (dtype == "int32") return "std::int32_t";
  if (dtype == "int64") return "std::int64_t";
  return "bool";
}

std::string dtype_enum(std::string_view dtype) {
  if (dtype == "bool") return "DType::bool_";
  return "DType::" + std::string(dtype);
}

std::string arg_value_type(const Param& arg, const EnumInfo* e) {
  const std::string& t = arg.type.value;
  std::string base;
  if (t == "int") {
    base = "std::int64_t";
  } else if (t == "float") {
    base = "double";
  } else if (t == "bool") {
    base = "bool";
  } else if (t == "string") {
    // A span views values stored elsewhere: std::string, so that a
    // std::vector<std::string> or a braced list of literals both convert.
    base = arg.count.is_one() ? "std::string_view" : "std::string";
  } else if (t == "dtype") {
    base = "DType";
  } else if (t == "enum") {
    base = e != nullptr ? e->cpp_type : "int";
  } else {
    base = "int";
  }
  return arg.count.is_one() ? base : "Span<" + base + ">";
}

std::string param_type(const Param& p, const EnumInfo* e) {
  switch (p.kind) {
    case ParamKind::input:
      return p.count.is_one() ? "const Tensor&" : "Span<Tensor>";
    case ParamKind::arg:
      return arg_value_type(p, e);
    case ParamKind::output:
      return p.count.is_one() ? "Tensor&" : "std::span<Tensor>";
  }
  return "";
}

std::string cpp_double(double v) {
  if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(v)) {
    return v > 0 ? "std::numeric_limits<double>::infinity()"
                 : "-std::numeric_limits<double>::infinity()";
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string cpp_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '?':
        out += "?";  // no trigraphs since C++17
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

namespace {

std::string scalar_literal(const Literal& lit, const Param& arg, const EnumInfo* e) {
  const std::string& t = arg.type.value;
  switch (lit.kind) {
    case Literal::Kind::int_:
      if (t == "float") return cpp_double(static_cast<double>(lit.int_value));
      return std::to_string(lit.int_value);
    case Literal::Kind::float_:
      return cpp_double(lit.float_value);
    case Literal::Kind::bool_:
      return lit.bool_value ? "true" : "false";
    case Literal::Kind::string:
      if (t == "dtype") return dtype_enum(lit.string_value);
      if (t == "enum" && e != nullptr) {
        for (std::size_t i = 0; i < e->values.size(); ++i) {
          if (e->values[i] == lit.string_value) return e->cpp_type + "::" + e->cpp_values[i];
        }
      }
      return cpp_string(lit.string_value);
    case Literal::Kind::array:
      break;
  }
  return "{}";
}

}  // namespace

std::string cpp_literal(const Literal& lit, const Param& arg, const EnumInfo* e) {
  if (lit.kind != Literal::Kind::array) return scalar_literal(lit, arg, e);
  std::string out = "{";
  for (std::size_t i = 0; i < lit.items.size(); ++i) {
    if (i) out += ", ";
    out += scalar_literal(lit.items[i], arg, e);
  }
  return out + "}";
}

std::string doc_literal(const Literal& lit) {
  switch (lit.kind) {
    case Literal::Kind::int_:
      return std::to_string(lit.int_value);
    case Literal::Kind::float_: {
      if (std::isnan(lit.float_value)) return "nan";
      if (std::isinf(lit.float_value)) return lit.float_value > 0 ? "inf" : "-inf";
      char buf[64];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, lit.float_value);
      std::string s(buf, end);
      if (s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
    case Literal::Kind::bool_:
      return lit.bool_value ? "true" : "false";
    case Literal::Kind::string:
      return "\"" + lit.string_value + "\"";
    case Literal::Kind::array: {
      std::string out = "[";
      for (std::size_t i = 0; i < lit.items.size(); ++i) {
        if (i) out += ", ";
        out += doc_literal(lit.items[i]);
      }
      return out + "]";
    }
  }
  return "";
}

namespace {

// Lines without trailing whitespace, trailing empty lines dropped.
std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string line(text.substr(start, nl - start));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) {
      line.pop_back();
    }
    lines.push_back(std::move(line));
    start = nl + 1;
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

std::vector<std::string> doc_comment_lines(std::string_view text) {
  std::vector<std::string> lines = split_lines(text);
  for (std::string& line : lines) {
    // A backslash ending a // comment would splice the next source line
    // into the comment; a no-break space after it keeps the text intact.
    if (!line.empty() && line.back() == '\\') line += "\xC2\xA0";
  }
  return lines;
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (c == '|') {
      // A pipe after an odd run of backslashes is already escaped (`\|`
      // is a Markdown pipe); after an even run it would end the cell in
      // renderers that count the run (markdown-it) and must be escaped.
      std::size_t run = 0;
      while (run < out.size() && out[out.size() - 1 - run] == '\\') ++run;
      if (run % 2 == 0) out += '\\';
    }
    out += c;
  }
  return out;
}

std::string expand_doc_tokens(std::string_view text, const Namespace& ns, const Op& op) {
  const std::pair<std::string_view, std::string> tokens[] = {
      {"%OPNAME%", op.name},
      {"%NAMESPACE%", ns.name},
      {"%KERNEL%", op.kernel},
      {"%CPP_NAME%", ns.cpp_namespace + "::" + op.cpp_name},
  };
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (text[i] == '%') {
      for (const auto& [token, value] : tokens) {
        if (text.substr(i, token.size()) == token) {
          out += value;
          i += token.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

std::string trim_text(std::string_view text) {
  std::vector<std::string> lines = split_lines(text);
  std::size_t first = 0;
  while (first < lines.size() && lines[first].empty()) ++first;
  std::string out;
  for (std::size_t i = first; i < lines.size(); ++i) {
    if (i > first) out += '\n';
    out += lines[i];
  }
  return out;
}

}  // namespace opgen::gen
