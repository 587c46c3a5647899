// The op registry: every op of every namespace (built-in and user), listed
// and callable by name, for interpreters, importers and other languages.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "opgen/dtype.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"

namespace opgen {

/// The value of one arg in a call by name. Converts implicitly from the C++
/// types of the spec's arg types: integers (int), floating-point (float),
/// bool, strings (string and enum args, by value name), DType, and for
/// counted args vectors of int64_t, double, bool, strings (string args, and
/// enum args by value names) or DTypes.
class ArgValue {
 public:
  using Variant = std::variant<std::int64_t, double, bool, std::string, DType,
                               std::vector<std::int64_t>, std::vector<double>,
                               std::vector<bool>, std::vector<std::string>,
                               std::vector<DType>>;

  ArgValue(int v) : v_(std::int64_t{v}) {}
  ArgValue(long v) : v_(std::int64_t{v}) {}
  ArgValue(long long v) : v_(static_cast<std::int64_t>(v)) {}
  ArgValue(double v) : v_(v) {}
  ArgValue(float v) : v_(double{v}) {}
  ArgValue(bool v) : v_(v) {}
  ArgValue(const char* v) : v_(std::string(v)) {}
  ArgValue(std::string v) : v_(std::move(v)) {}
  ArgValue(DType v) : v_(v) {}
  ArgValue(std::vector<std::int64_t> v) : v_(std::move(v)) {}
  ArgValue(std::vector<double> v) : v_(std::move(v)) {}
  ArgValue(std::vector<bool> v) : v_(std::move(v)) {}
  ArgValue(std::vector<std::string> v) : v_(std::move(v)) {}
  ArgValue(std::vector<DType> v) : v_(std::move(v)) {}

  const Variant& value() const noexcept { return v_; }
  /// "int", "float", "bool", "string", "dtype", "int[]", "float[]", "bool[]",
  /// "string[]", "dtype[]".
  std::string_view type_name() const noexcept;

 private:
  Variant v_;
};

/// Args of a call by name: arg name -> value. Args not given take their
/// defaults; a required arg that is missing, an unknown name or a value of
/// the wrong type is an `opgen::Error`.
using Args = std::map<std::string, ArgValue, std::less<>>;

/// What a parameter is.
enum class ParamKind { input, arg, output };

/// One parameter of an op, as its spec declares it.
struct ParamInfo {
  std::string name;
  ParamKind kind = ParamKind::input;
  /// The spec type: "float", "int", "numeric", "bool", "any", a dtype name
  /// (tensors), or "int", "float", "bool", "string", "dtype", "enum" (args).
  std::string type;
  /// The spec count: "1", "2", ">=1", "<=3", "2..4".
  std::string count = "1";
  /// True when the parameter may be omitted (optional input, or an arg
  /// with a default).
  bool optional = false;
  /// The default as written in the spec ("0.01", "[1, 1]"), or empty.
  std::string default_value;
  /// Allowed values of an enum arg, in declaration order.
  std::vector<std::string> values;
  std::string doc;
};

/// Calls an op with tensors and args; the generated wrapper behind it runs
/// every check the typed C++ function runs. Returns the outputs in spec
/// order, a counted output contributing all of its tensors in place.
using OpInvoker = std::vector<Tensor> (*)(std::span<const Tensor> inputs, const Args& args);

/// One registered op.
struct OpInfo {
  /// Qualified name, "<namespace>.<op>" ("math.add").
  std::string name;
  /// Extra names the op is found under ("nn.leakyRelu").
  std::vector<std::string> aliases;
  std::string summary;
  std::string doc;
  /// "pointwise", "reduction" or "custom".
  std::string kind;
  /// The fully qualified C++ function ("opgen::bitwise::bitwise_and").
  std::string cpp_name;
  /// The spec file and line the op is defined at ("opdefs/math.toml:12").
  std::string source;
  /// Inputs, then args, then outputs, each in spec order.
  std::vector<ParamInfo> params;
  /// Element types the op's kernels implement.
  std::vector<DType> dtypes;
  OpInvoker invoke = nullptr;
};

/// One namespace's entries, as a generated source registers them.
struct NamespaceInfo {
  std::string name;
  std::string summary;
  /// The spec file ("opdefs/math.toml").
  std::string source;
  std::vector<OpInfo> ops;
};

/// The process-wide table of ops. Built-in namespaces are present from the
/// first call of `registry()`; a user namespace's generated source registers
/// itself during static initialisation. Lookups are thread-safe; so is
/// registration, though iterating `list()` while another thread registers
/// a namespace is not.
class Registry {
 public:
  /// Every registered op, sorted by qualified name.
  const std::vector<OpInfo>& list() const noexcept { return ops_; }
  /// Every registered namespace, sorted by name.
  std::vector<std::string> namespaces() const;

  /// The op with this qualified name or alias, or null. The pointer stays
  /// valid until another namespace is added.
  const OpInfo* find(std::string_view name) const;

  /// Calls op `name` (qualified name or alias) with the inputs in spec
  /// order (a null Tensor for an absent optional input; trailing optional
  /// inputs may be left out) and named args. Returns the outputs in spec
  /// order, flattened: a counted output contributes all of its tensors, in
  /// order, where it stands (for outputs `a`, `parts[>=1]`, `b`: a, the
  /// parts, then b; ParamInfo::count and the number of tensors returned tell
  /// how many parts there are). Throws `opgen::Error` for an unknown op, a missing or extra
  /// input, an unknown, missing or mistyped arg, and for everything the
  /// typed wrapper rejects.
  std::vector<Tensor> call(std::string_view name, Span<Tensor> inputs,
                           const Args& args = {}) const;

  /// Adds the namespace that `make` describes (a generated function).
  /// Adding the same function twice is ignored, so a namespace may be
  /// registered both explicitly and statically. A namespace whose name, or
  /// an op whose name or alias, is already taken by another namespace is
  /// not added; the clash is recorded in `problems()`.
  void add(NamespaceInfo (*make)());

  /// Clashes found while registering ("namespace 'math' from
  /// mylib/math.toml is already registered from opdefs/math.toml").
  std::vector<std::string> problems() const;

 private:
  friend Registry& registry();
  Registry();

  mutable std::mutex mutex_;
  std::vector<OpInfo> ops_;
  std::map<std::string, std::string, std::less<>> namespaces_;  // name -> source
  std::vector<NamespaceInfo (*)()> added_;
  std::unordered_map<std::string, std::size_t> by_name_;  // name or alias -> index in ops_
  std::vector<std::string> problems_;
};

/// The process-wide registry.
Registry& registry();

namespace detail {
/// Registers a namespace during static initialisation; every generated
/// source defines one, so a user namespace is listed without any call.
struct AutoRegister {
  explicit AutoRegister(NamespaceInfo (*make)()) { registry().add(make); }
};

/// Adds opgen's built-in namespaces (generated list, see builtin.cpp).
void register_builtin(Registry& r);
}  // namespace detail

}  // namespace opgen
