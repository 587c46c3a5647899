#include "cpp_spelling.hpp"

#include <algorithm>
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

std::vector<std::string> wrap_doc_line(const std::string& line, std::size_t width) {
  if (line.size() <= width) return {line};
  const std::size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return {line};
  // The unbreakable start (leading spaces; for @param also the name and
  // its padding) and the hanging indent of continuation lines.
  std::size_t body = lead;
  std::size_t hang = lead;
  if (line.compare(lead, 7, "@param ") == 0) {
    const std::size_t name_end = line.find(' ', lead + 7);
    const std::size_t text =
        name_end == std::string::npos ? std::string::npos : line.find_first_not_of(' ', name_end);
    if (text != std::string::npos) body = text;
    hang = text != std::string::npos && text <= width / 3 ? text : lead + 2;
  } else if (line[lead] == '@' || line.compare(lead, 2, "- ") == 0) {
    hang = lead + 2;
  }
  // The words after it: split at spaces outside code spans.
  std::vector<std::string> words;
  std::string word;
  bool code = false;
  for (std::size_t i = body; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '`') code = !code;
    if (c == ' ' && !code) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  // A word that would open a continuation line as Markdown or Doxygen
  // syntax (a list item, a heading, a command) takes the word before it
  // along: "Default 0." must not leave "0." to start a line.
  const auto opens_syntax = [](const std::string& w) {
    if (w == "-" || w == "+" || w == "*" || w[0] == '#' || w[0] == '@' || w[0] == '\\') {
      return true;
    }
    std::size_t digits = 0;
    while (digits < w.size() && w[digits] >= '0' && w[digits] <= '9') ++digits;
    return digits > 0 && digits + 1 == w.size() && (w.back() == '.' || w.back() == ')');
  };
  std::vector<std::string> out;
  std::string current = line.substr(0, body);
  std::size_t on_line = 0;  // words on the current line after the start
  for (const std::string& w : words) {
    if (on_line > 0 && current.size() + 1 + w.size() > width) {
      std::string carried;
      if (opens_syntax(w) && on_line > 1) {
        const std::size_t space = current.rfind(' ');
        carried = current.substr(space + 1);
        current.erase(space);
      }
      out.push_back(current);
      current = std::string(hang, ' ') + carried;
      on_line = carried.empty() ? 0 : 1;
    }
    if (on_line > 0) current += ' ';
    current += w;
    ++on_line;
  }
  out.push_back(current);
  // As doc_comment_lines: a backslash ending a // comment would splice the
  // next source line into it.
  for (std::string& piece : out) {
    if (!piece.empty() && piece.back() == '\\') piece += "\xC2\xA0";
  }
  return out;
}

std::string wrap_declaration(const std::string& decl, std::size_t width) {
  if (decl.size() <= width) return decl;
  const std::size_t open = decl.find('(');
  if (open == std::string::npos) return decl;
  // The parameters, split at top-level commas, and what follows ')'.
  std::vector<std::string> params;
  std::size_t depth = 0, start = open + 1, close = std::string::npos;
  bool quoted = false;
  for (std::size_t i = open + 1; i < decl.size() && close == std::string::npos; ++i) {
    const char c = decl[i];
    if (quoted) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        quoted = false;
      continue;
    }
    if (c == '"')
      quoted = true;
    else if (c == '(' || c == '[' || c == '{' || c == '<')
      ++depth;
    else if ((c == ']' || c == '}' || c == '>') && depth > 0)
      --depth;
    else if (c == ')' && depth > 0)
      --depth;
    else if (c == ')')
      close = i;
    else if (c == ',' && depth == 0) {
      params.push_back(decl.substr(start, i - start));
      start = i + 1;
    }
  }
  if (close == std::string::npos) return decl;
  params.push_back(decl.substr(start, close - start));
  for (std::string& p : params) {
    const std::size_t b = p.find_first_not_of(' ');
    p = b == std::string::npos ? std::string() : p.substr(b);
  }
  const std::string head = decl.substr(0, open + 1);
  const std::string tail = decl.substr(close);  // ")" and what follows
  // Greedy filling from `first` (the first line's text before the
  // parameters) with continuation lines `indent` columns in.
  const auto fill = [&](std::string first, std::size_t indent) {
    std::string s = std::move(first), line_start_pad(indent, ' ');
    std::size_t line_len = s.size() - (s.rfind('\n') == std::string::npos ? 0 : s.rfind('\n') + 1);
    bool at_start = true;  // the first parameter follows `first` directly
    for (std::size_t k = 0; k < params.size(); ++k) {
      const std::string piece = params[k] + (k + 1 < params.size() ? "," : tail);
      const std::size_t need = (at_start ? 0 : 1) + piece.size();
      if (!at_start && line_len + need > width) {
        s += "\n" + line_start_pad;
        line_len = indent;
        at_start = true;
      }
      if (!at_start) {
        s += ' ';
        ++line_len;
      }
      s += piece;
      line_len += piece.size();
      at_start = false;
    }
    return s;
  };
  // Aligned under the first parameter when every parameter fits there.
  std::size_t longest = 0;
  for (std::size_t k = 0; k < params.size(); ++k) {
    longest = std::max(longest, params[k].size() + (k + 1 < params.size() ? 1 : tail.size()));
  }
  if (head.size() + longest <= width) return fill(head, head.size());
  return fill(head + "\n    ", 4);
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
