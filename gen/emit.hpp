// Stage 4, emit: a checked namespace -> the text of its generated files.
// Emitters build plain data (strings and lists); mustache templates in
// gen/templates/ give the files their shape. Output is deterministic: the
// same spec gives byte-identical files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "diagnostics.hpp"

namespace opgen::gen {

/// The files of one namespace.
struct GeneratedFiles {
  std::string header;     // <ns>.hpp: the public API
  std::string source;     // <ns>.cpp: checked wrappers, dispatch, registry entries
  std::string reference;  // <ns>.md: the reference page
  std::string formulas;   // <ns>_reference.hpp: scalar reference functions of the formulas
  std::string negative_tests;  // <ns>_negative_test.cpp: a test per check of every op
  std::string property_tests;  // <ns>_property_test.cpp: kernels against the formulas
};

/// Emits the files of a checked namespace (which must have no errors).
/// Problems only emission can see (two overloads with the same C++
/// parameter types) are reported to `diags`.
GeneratedFiles emit(const CheckedNamespace& ns, Diagnostics& diags);

// The parts, for tests and for the other emitters.

/// One C++ overload of an op.
struct Overload {
  std::vector<const Param*> params;  // inputs and args, in C++ order
  std::vector<std::string> configs;  // config names, after the params
  bool out = false;                  // takes the outputs as Tensor& (returns void)
  bool inplace = false;              // <name>_inplace(Tensor& x, ...) returning x
  bool defaults = false;             // trailing optional params get C++ default arguments
  std::string doc;                   // the signature's own doc, if any
  SourceLoc loc;
};

/// The overloads generated for an op: its signatures, or the default pair,
/// plus the out and inplace overloads.
std::vector<Overload> overloads_of(const OpAnalysis& a);

/// The C++ declaration of an overload, without a trailing ';'
/// ("Tensor add(const Tensor& x, const Tensor& y)").
std::string overload_declaration(const Namespace& ns, const OpAnalysis& a, const Overload& o,
                                 bool with_defaults);

/// The reference page data and text (emit_reference.cpp).
std::string emit_reference(const CheckedNamespace& ns, Diagnostics& diags);

/// The scalar reference functions of the ops with a formula, as a
/// header-only C++ file (emit_formulas.cpp): `template <class T> T
/// <cpp_name>(T x, ..., args...)` in namespace `<cpp_namespace>::reference`,
/// returning bool where the formula is a comparison.
std::string emit_formulas(const CheckedNamespace& ns);

/// The negative tests of a namespace, a Boost.Test source
/// (emit_negative_tests.cpp): per op, its parameters and every check its
/// wrapper runs, for the runner in tests/negative/negative.hpp, which
/// shows each check rejecting a call that violates it alone. Checks no call
/// by name can reach are listed in comments with the reason.
std::string emit_negative_tests(const CheckedNamespace& ns);

/// The property tests of a namespace, a Boost.Test source
/// (emit_property_tests.cpp): every pointwise op with a formula, called by
/// name on random tensors from several seeds on every SIMD target and
/// compared element by element with its reference function, for the
/// runner in tests/property/property.hpp.
std::string emit_property_tests(const CheckedNamespace& ns);

}  // namespace opgen::gen
