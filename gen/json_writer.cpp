#include "json_writer.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace opgen::gen {

Json Json::array() {
  Json j;
  j.kind_ = Kind::array;
  return j;
}

Json Json::object() {
  Json j;
  j.kind_ = Kind::object;
  return j;
}

Json Json::strings(const std::vector<std::string>& items) {
  Json j = array();
  for (const std::string& s : items) j.push(s);
  return j;
}

Json& Json::push(Json item) {
  if (kind_ != Kind::array) throw std::logic_error("Json::push on a value that is not an array");
  items_.push_back(std::move(item));
  return *this;
}

Json& Json::set(std::string_view key, Json value) {
  if (kind_ != Kind::object) throw std::logic_error("Json::set on a value that is not an object");
  for (auto& [k, v] : members_) {
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  }
  members_.emplace_back(std::string(key), std::move(value));
  return *this;
}

const Json* Json::find(std::string_view key) const noexcept {
  for (const auto& [k, v] : members_) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string json_string(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20) {
          out += "\\u00";
          out += kHex[u >> 4];
          out += kHex[u & 0xF];
        } else {
          out += c;  // printable ASCII, DEL, and UTF-8 bytes unchanged
        }
      }
    }
  }
  out += '"';
  return out;
}

namespace {

std::string number_text(double d) {
  if (!std::isfinite(d)) return "null";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  if (ec != std::errc()) throw std::logic_error("cannot format a number");
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

bool is_scalar(const Json& v) {
  return v.kind() != Json::Kind::array && v.kind() != Json::Kind::object;
}

void write(const Json& v, std::string& out, std::size_t indent) {
  const std::string pad(indent, ' ');
  switch (v.kind()) {
    case Json::Kind::null:
      out += "null";
      return;
    case Json::Kind::boolean:
      out += v.as_bool() ? "true" : "false";
      return;
    case Json::Kind::integer:
      out += std::to_string(v.as_int());
      return;
    case Json::Kind::number:
      out += number_text(v.as_number());
      return;
    case Json::Kind::string:
      out += json_string(v.as_string());
      return;
    case Json::Kind::array: {
      const auto& items = v.items();
      if (items.empty()) {
        out += "[]";
        return;
      }
      bool flat = true;
      for (const Json& item : items) flat = flat && is_scalar(item);
      if (flat) {
        out += '[';
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (i) out += ", ";
          write(items[i], out, indent);
        }
        out += ']';
        return;
      }
      out += "[\n";
      for (std::size_t i = 0; i < items.size(); ++i) {
        out += pad + "  ";
        write(items[i], out, indent + 2);
        out += i + 1 < items.size() ? ",\n" : "\n";
      }
      out += pad + "]";
      return;
    }
    case Json::Kind::object: {
      const auto& members = v.members();
      if (members.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      for (std::size_t i = 0; i < members.size(); ++i) {
        out += pad + "  " + json_string(members[i].first) + ": ";
        write(members[i].second, out, indent + 2);
        out += i + 1 < members.size() ? ",\n" : "\n";
      }
      out += pad + "}";
      return;
    }
  }
}

}  // namespace

std::string to_json_text(const Json& value) {
  std::string out;
  write(value, out, 0);
  out += '\n';
  return out;
}

}  // namespace opgen::gen
