// Wording shared by the runtime's error messages. Private to the runtime
// (the generator keeps its own join in expr_prose.cpp: it must build
// without the runtime).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace opgen::detail {

/// The items as an English list: "x", "x and y", "x, y and z".
inline std::string join_and(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += i + 1 == items.size() ? " and " : ", ";
    s += items[i];
  }
  return s;
}

}  // namespace opgen::detail
