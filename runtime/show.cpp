// Renderings of values for the messages of failed checks.
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "opgen/detail/checks.hpp"

namespace opgen::detail {

namespace {

template <class T, class F>
std::string list_text(Span<T> values, F&& show_one) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) s += ", ";
    s += show_one(values[i]);
  }
  return s + "]";
}

}  // namespace

std::string show(std::int64_t v) { return std::to_string(v); }

std::string show(int v) { return std::to_string(v); }

std::string show(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  // The shortest text that reads back as the same double: "0.1", not
  // "0.10000000000000001"; "-1", not "-1.000000".
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string show(bool v) { return v ? "true" : "false"; }

std::string show(DType v) { return std::string(dtype_name(v)); }

// Quoted as in specs (`mode == "same"`), so an empty string is visible.
std::string show(std::string_view v) {
  std::string out = "\"";
  out += v;
  out += '"';
  return out;
}

std::string show(const Shape& v) { return v.to_string(); }

std::string show(const Tensor& v) { return v.description(); }

std::string show(Span<std::int64_t> v) {
  return list_text(v, [](std::int64_t x) { return show(x); });
}

std::string show(Span<double> v) {
  return list_text(v, [](double x) { return show(x); });
}

std::string show(Span<bool> v) {
  return list_text(v, [](bool x) { return show(x); });
}

std::string show(Span<Tensor> v) {
  return list_text(v, [](const Tensor& x) { return x.description(); });
}

std::string show(Span<DType> v) {
  return list_text(v, [](DType x) { return show(x); });
}

std::string show(Span<std::string> v) {
  return list_text(v, [](const std::string& x) { return show(std::string_view(x)); });
}

std::string show(const std::vector<bool>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i > 0 ? ", " : "") + show(bool{v[i]});
  return s + "]";
}

}  // namespace opgen::detail
