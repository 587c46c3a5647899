// `opgen describe --json`: the resolved and checked model of namespaces as
// one JSON document, for language-binding generators and other tools
// (docs/describe-json.md describes every field). It shows what the spec
// means after mixins, defaults and checks, never how the generated C++ is
// implemented.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "check.hpp"
#include "diagnostics.hpp"
#include "json_writer.hpp"
#include "model.hpp"
#include "spec_loader.hpp"

namespace opgen::gen {

/// The version of the document's layout, its top-level "format_version".
/// Raised when a field is removed or changes meaning; adding fields keeps it.
inline constexpr int kDescribeFormatVersion = 1;

/// A namespace file loaded, resolved and checked, with its diagnostics. The
/// stages' results point into each other and locations point at file names
/// the diagnostics own, so all of it lives together and never moves.
struct CheckedSpec {
  Diagnostics diags;  // first: destroyed last
  SpecSet set;
  Namespace ns;
  CheckedNamespace checked;
  /// False when any error was reported (then only `diags` is meaningful).
  bool ok = false;

  CheckedSpec() = default;
  CheckedSpec(const CheckedSpec&) = delete;
  CheckedSpec& operator=(const CheckedSpec&) = delete;
};

/// Runs load, resolve and check on `spec`, as `opgen check` does.
std::unique_ptr<CheckedSpec> load_checked_spec(const std::string& spec, const LoadOptions& options);

/// One namespace of the document: its ops, configs and enums.
Json describe_namespace(const CheckedSpec& spec);

/// The whole document: `{"format_version": 1, "namespaces": [...]}`, the
/// namespaces in the order given.
Json describe_document(const std::vector<const CheckedSpec*>& specs);

}  // namespace opgen::gen
