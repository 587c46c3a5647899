// Paths the meson test definitions pass to the generator tests.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace opgen::gen::testing {

/// The source tree's root (environment variable OPGEN_SOURCE_ROOT).
inline std::string source_root() {
  const char* root = std::getenv("OPGEN_SOURCE_ROOT");
  if (root == nullptr) throw std::runtime_error("OPGEN_SOURCE_ROOT is not set");
  return root;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace opgen::gen::testing
