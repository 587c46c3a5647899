// Spec-derived negative tests: the runner behind the generated
// <ns>_negative_test.cpp files (gen/emit_negative_tests.cpp).
//
// The generator describes each op (its inputs, args and config fields, and
// every check its wrapper runs: dtype classes, counts, null inputs, enum
// values, constraints, shape rules); `run` calls the op by name through the
// registry:
//  1. it searches a valid call (the happy path) among candidates built from
//     the description (shapes of several ranks, matrix-product and
//     broadcasting layouts, each dtype, values of the required args);
//  2. it mutates that call one thing at a time (a dtype, a shape, a count,
//     a null tensor, an arg value) and records, for each opgen::Error, the
//     checks it proves: the error names the op, the check's parameter and
//     the check's own message;
//  3. it fails every check no mutation violated, and every error that does
//     not name the op or is not an opgen::Error;
//  4. it checks the registry's own rejections (input counts, unknown and
//     mistyped args) and zero-size inputs (a result or an opgen::Error).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opgen/detail/checks.hpp"

namespace opgen::negative {

/// A tensor input as the spec declares it.
struct InputSpec {
  const char* name;
  detail::TypeClass type;
  bool counted;            // takes several tensors (count other than 1)
  std::int64_t count_min;  // for counted inputs
  std::int64_t count_max;  // -1: no upper bound
  bool optional;           // optional, or defaults to another input
};

enum class ArgType { int_, float_, bool_, string, dtype, enum_ };

/// An arg, or a config field ("WindowConfig.size") as calls by name give it.
struct ArgSpec {
  const char* name;
  ArgType type;
  bool counted;
  std::int64_t count_min;
  std::int64_t count_max;  // -1: no upper bound
  bool required;           // no default
  std::vector<std::string> values;  // enum values
};

enum class CheckKind {
  dtype_class,      // an input's dtype outside its type class
  dtype_supported,  // a dtype the kernels do not implement
  same_dtype,       // inputs that must share a dtype
  null_input,       // a required input given as a null tensor
  input_count,      // a counted input with too few or too many tensors
  arg_count,        // a counted arg with too few or too many values
  enum_value,       // an enum arg outside its values
  constraint,       // an [[op.constraint]] or a config's constraint
  shape_rule,       // an output shape rule that can fail
};

/// One check of the op's wrapper. An opgen::Error proves it when the error
/// names the op, `param` (when not empty) and one of the '|'-separated
/// `needles` in its message.
struct Check {
  CheckKind kind;
  const char* param;
  const char* needles;
  const char* what;   // for messages: "x is a float tensor"
  const char* where;  // spec position: "opdefs/nn.toml:22"
};

/// Literals found in the op's constraints: values worth trying.
struct Hints {
  std::vector<std::int64_t> ints;
  std::vector<double> floats;
  std::vector<std::string> strings;
};

struct OpSpec {
  const char* name;  // "nn.softmax"
  const char* where;
  std::vector<InputSpec> inputs;
  std::vector<ArgSpec> args;
  std::vector<Check> checks;
  Hints hints;
};

/// Runs the negative tests of one op (Boost.Test assertions).
void run(const OpSpec& op);

}  // namespace opgen::negative
