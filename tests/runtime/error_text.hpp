// Running a statement that must throw opgen::Error and getting its text, so
// that tests can assert messages exactly.
#pragma once

#include <string>

#include "opgen/error.hpp"

namespace opgen::testing {

/// what() of the opgen::Error that `f` throws, or "<no error>" when it
/// returns normally (any other exception propagates and fails the test).
template <class F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const opgen::Error& e) {
    return e.what();
  }
  return "<no error>";
}

/// The opgen::Error that `f` throws (a default one when it returns normally).
template <class F>
opgen::Error error_of(F&& f) {
  try {
    f();
  } catch (const opgen::Error& e) {
    return e;
  }
  return opgen::Error("<no error>");
}

}  // namespace opgen::testing
