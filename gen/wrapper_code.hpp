// The C++ text of one op: declarations with doc comments, the checked
// implementation (checks, shape and dtype rules, allocation, dispatch), the
// public overloads, the call-by-name entry and the registry entry.
#pragma once

#include <string>
#include <vector>

#include "check.hpp"
#include "diagnostics.hpp"
#include "emit.hpp"

namespace opgen::gen {

struct OpCode {
  std::string declarations;               // header: doc comments and declarations
  std::string definitions;                // source: the public overloads
  std::string impl;                       // source: the checked implementation
  std::string invoker;                    // source: the call-by-name entry
  std::vector<std::string> kernel_table;  // source: kernel pointers, with #line lines
  std::string registry_entry;             // source: statements filling an OpInfo
};

/// What the reference page says about an op, derived from the same data
/// as the header's doc comments so the two never disagree.
struct OpDocs {
  std::vector<std::string> declarations;  // every overload, with default arguments
  struct Row {
    std::string name, kind, type, default_value, description;
  };
  std::vector<Row> params;                // inputs, args, configs, outputs
  std::vector<std::string> requires_;     // constraint prose (with messages)
  std::vector<std::string> backend;       // backend constraints (enforced by the kernel)
  std::vector<std::string> errors;        // when the wrapper throws
};

/// Builds the reference data of one op.
OpDocs op_docs(const Namespace& ns, const OpAnalysis& a);

/// Builds the code of one op. Reports overloads that C++ cannot tell apart.
OpCode op_code(const Namespace& ns, const OpAnalysis& a, Diagnostics& diags);

/// The statements of a config's validate(): its constraints as checks.
std::vector<std::string> config_validate_lines(const CheckedNamespace& ns, std::size_t config);

/// The #include lines of the header and of the source (sorted, deduplicated).
std::vector<std::string> header_includes(const CheckedNamespace& ns);
std::vector<std::string> source_includes(const CheckedNamespace& ns);

/// The kernel table is attributed to spec lines with #line; a marker line
/// after it is replaced here by a #line that restores the generated
/// file's own numbering.
std::string resolve_line_markers(const std::string& text, const std::string& file_name);

/// The marker resolve_line_markers replaces.
inline constexpr std::string_view kRestoreLineMarker = "#pragma opgen_restore_line";

}  // namespace opgen::gen
