// The in-memory model of specs: plain data, every entry with its source
// location. The loader fills the raw records (SpecFile, OpBody); the resolver
// turns them into Namespace/Op; the checker annotates the ops (Analysis) for
// the emitters.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diagnostics.hpp"

namespace opgen::gen {

/// A value with the place it was written.
template <class T>
struct Located {
  T value{};
  SourceLoc loc;
};

using LocatedString = Located<std::string>;

/// How many values a parameter takes: `1`, an exact `n`, `">=1"`, `"<=3"`,
/// `"2..4"`.
struct Count {
  std::int64_t min = 1;
  std::int64_t max = 1;  // -1: no upper bound
  std::string text = "1";
  SourceLoc loc;

  bool is_one() const noexcept { return min == 1 && max == 1; }
};

/// A default value as written in the spec.
struct Literal {
  enum class Kind { int_, float_, bool_, string, array };
  Kind kind = Kind::int_;
  std::int64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
  std::string string_value;
  std::vector<Literal> items;
  SourceLoc loc;
};

enum class ParamKind { input, arg, output };

/// An input, arg or output.
struct Param {
  ParamKind kind = ParamKind::input;
  LocatedString name;
  SourceLoc loc;  // the parameter's table
  LocatedString type;
  Count count;
  std::optional<LocatedText> doc;
  // Inputs.
  std::optional<Located<bool>> optional;
  // Inputs and args.
  std::optional<LocatedText> default_from;
  // Args.
  std::optional<Literal> default_value;
  std::vector<LocatedString> values;    // op-local enum values
  SourceLoc values_loc;                 // the 'values' array, when given (even empty)
  std::optional<LocatedString> enum_name;  // shared [[enum]]
  // Outputs.
  std::optional<LocatedText> shape;
  std::optional<LocatedText> dtype;
  /// The mixin this entry came from ("" for the op's own).
  std::string from_mixin;
  SourceLoc from_use;  // the `use` entry that brought it in
  /// Known keys an unknown key of this table looked like a typo of, and
  /// keys given a value of the wrong type (both reported already): checks
  /// for a missing key stay quiet about them.
  std::set<std::string> misspelled;
};

struct Constraint {
  LocatedText check;
  std::optional<LocatedText> message;
  bool backend = false;
  SourceLoc loc;
  std::string from_mixin;
};

/// One C++ overload.
struct Signature {
  std::vector<LocatedString> params;
  std::optional<LocatedText> doc;
  SourceLoc loc;
  std::string from_mixin;
};

/// `use = ["name", { mixin = "name", skip = [...] }]`.
struct MixinUse {
  LocatedString name;
  std::vector<LocatedString> skip;
  SourceLoc loc;
};

/// `inplace = { output = "y", input = "x" }`.
struct Inplace {
  LocatedString output;
  LocatedString input;
  SourceLoc loc;
};

/// The keys an op and a mixin share, as loaded. Everything optional is
/// "not written here".
struct OpBody {
  bool is_mixin = false;
  LocatedString name;
  SourceLoc loc;  // the [[op]] / [[mixin]] table
  std::vector<MixinUse> uses;
  std::optional<LocatedString> kind;
  std::optional<std::vector<LocatedString>> dtypes;
  SourceLoc dtypes_loc;  // the 'dtypes' array, when given
  std::optional<LocatedText> summary;
  std::optional<LocatedText> doc;
  std::optional<LocatedText> notes;
  std::vector<Param> inputs;
  std::vector<Param> args;
  std::vector<Param> outputs;
  std::vector<Constraint> constraints;
  std::vector<Signature> signatures;
  std::vector<LocatedString> configs;
  std::optional<Inplace> inplace;
  std::optional<Located<bool>> out_variant;
  // Ops only.
  std::optional<LocatedString> kernel;
  std::optional<LocatedString> cpp_name;
  std::vector<LocatedString> aliases;
  std::optional<LocatedText> formula;
  /// See Param::misspelled.
  std::set<std::string> misspelled;
};

/// `[[config]]`: a struct of args with defaults and its own constraints.
struct ConfigDef {
  LocatedString name;
  SourceLoc loc;
  std::optional<LocatedText> doc;
  std::vector<Param> args;
  std::vector<Constraint> constraints;
};

/// `[[enum]]`.
struct EnumDef {
  LocatedString name;
  SourceLoc loc;
  std::optional<LocatedText> doc;
  std::vector<LocatedString> values;
};

/// One TOML file as loaded: a namespace file or an include-only file.
struct SpecFile {
  const std::string* path = nullptr;  // as given (diagnostics, depfile)
  std::string display_path;           // for generated text ("opdefs/math.toml")
  std::optional<LocatedString> namespace_name;
  std::optional<LocatedString> kernel_header;
  std::optional<LocatedText> summary;
  std::optional<LocatedText> doc;
  std::optional<LocatedString> cpp_namespace;
  std::vector<LocatedString> includes;
  std::vector<OpBody> ops;
  std::vector<OpBody> mixins;
  std::vector<ConfigDef> configs;
  std::vector<EnumDef> enums;
  /// See Param::misspelled.
  std::set<std::string> misspelled;
};

/// A namespace file with every file it includes, directly or not.
struct SpecSet {
  std::vector<std::unique_ptr<SpecFile>> files;  // files[0] is the namespace file
  /// Indices into `files` visible from each file (itself and its includes).
  std::vector<std::vector<std::size_t>> visible;
  /// Every path read, in the order first read (for the depfile).
  std::vector<std::string> read_paths;
};

// ---------------------------------------------------------------------------
// The resolved model

enum class OpKind { pointwise, reduction, custom };

/// An op with its mixins applied and defaults filled in.
struct Op {
  std::string name;
  SourceLoc loc;
  SourceLoc name_loc;
  std::string cpp_name;  // defaults to name
  OpKind kind = OpKind::custom;
  SourceLoc kind_loc;
  std::string kernel;  // family name as the C++ function ("LeakyRelu")
  SourceLoc kernel_loc;
  std::optional<LocatedString> kernel_key;  // 'kernel' as written, when given
  std::vector<LocatedString> dtypes;  // empty until defaulted by the checker
  bool dtypes_given = false;
  SourceLoc dtypes_loc;  // where 'dtypes' was given (the op's or a mixin's)
  std::optional<LocatedText> summary;
  std::vector<LocatedText> doc;  // mixins' first, then the op's own
  std::optional<LocatedText> notes;
  std::vector<Param> inputs;
  std::vector<Param> args;
  std::vector<Param> outputs;
  std::vector<Constraint> constraints;
  std::vector<Signature> signatures;
  std::vector<LocatedString> configs;
  std::optional<Inplace> inplace;
  bool out_variant = true;
  std::vector<LocatedString> aliases;
  std::optional<LocatedText> formula;
  /// Keys of the op's own table that were misspelled (see Param).
  std::set<std::string> misspelled;
  /// True when a mixin it uses could not be applied, or its own or a
  /// mixin's 'use', 'input', 'arg' or 'output' could not be read (all
  /// reported): the checks that look its parameters up stay quiet.
  bool incomplete = false;
};

/// A namespace: the resolved ops of one namespace file.
struct Namespace {
  std::string name;
  SourceLoc loc;
  std::string source;  // display path of the spec
  std::string cpp_namespace;
  SourceLoc cpp_namespace_loc;  // when given (else it is derived from the name)
  std::string kernel_header;
  std::optional<LocatedText> summary;
  std::optional<LocatedText> doc;
  std::vector<Op> ops;                      // in spec order
  std::vector<const ConfigDef*> configs;    // used by ops, in first-use order
  std::vector<const EnumDef*> enums;        // used by ops or configs
};

}  // namespace opgen::gen
