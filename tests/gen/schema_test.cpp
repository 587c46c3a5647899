// `opgen schema`: the JSON Schema of spec files. Every spec of the repository
// that is meant to be valid passes it, bad specs fail it, the committed copy
// (docs/opgen-spec.schema.json) is what the generator prints, and the
// schema's keys and closed value sets are the loader's and checker's.
//
// Specs are converted from TOML to JSON with toml++ and checked with a small
// validator written here for exactly the keywords the schema uses; a keyword
// it does not know is an error, so nothing in the schema goes unchecked.

#include <sys/wait.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <toml++/toml.h>

#include "json_reader.hpp"
#include "json_writer.hpp"
#include "memory_files.hpp"
#include "spec_keys.hpp"
#include "spec_schema.hpp"
#include "test_files.hpp"

using namespace opgen::gen;
using namespace opgen::gen::testing;
using Kind = JsonNode::Kind;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------
// A validator for the draft-07 keywords the schema uses

class Validator {
 public:
  explicit Validator(const JsonNode& root) : root_(root) {}

  /// Every violation, as "path: what".
  std::vector<std::string> validate(const JsonNode& instance) {
    std::vector<std::string> errors;
    check(root_, instance, "$", errors);
    return errors;
  }

 private:
  const JsonNode& resolve(const std::string& ref) const {
    if (ref.rfind("#/", 0) != 0) throw std::runtime_error("unsupported $ref '" + ref + "'");
    const JsonNode* node = &root_;
    std::size_t start = 2;
    while (start <= ref.size()) {
      const std::size_t slash = ref.find('/', start);
      const std::string part = ref.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
      node = &node->at(part);
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    return *node;
  }

  static bool has_type(const JsonNode& v, const std::string& type) {
    if (type == "object") return v.is(Kind::object);
    if (type == "array") return v.is(Kind::array);
    if (type == "string") return v.is(Kind::string);
    if (type == "boolean") return v.is(Kind::boolean);
    if (type == "null") return v.is(Kind::null);
    if (type == "number") return v.is(Kind::number);
    if (type == "integer") return v.is(Kind::number) && std::floor(v.number) == v.number;
    throw std::runtime_error("unknown type '" + type + "' in the schema");
  }

  static bool equal(const JsonNode& a, const JsonNode& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
      case Kind::null: return true;
      case Kind::boolean: return a.boolean == b.boolean;
      case Kind::number: return a.number == b.number;
      case Kind::string: return a.string == b.string;
      default: return false;  // the schema enumerates scalars only
    }
  }

  const std::regex& regex(const std::string& pattern) {
    auto it = regexes_.find(pattern);
    if (it == regexes_.end()) it = regexes_.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
    return it->second;
  }

  void check(const JsonNode& schema, const JsonNode& v, const std::string& path,
             std::vector<std::string>& errors) {
    if (schema.is(Kind::boolean)) {
      if (!schema.boolean) errors.push_back(path + ": not allowed");
      return;
    }
    for (const auto& [keyword, arg] : schema.members) {
      if (keyword == "$schema" || keyword == "title" || keyword == "description") continue;
      if (keyword == "$ref") {
        check(resolve(arg.string), v, path, errors);
      } else if (keyword == "definitions") {
        // Not a constraint.
      } else if (keyword == "type") {
        bool ok = false;
        if (arg.is(Kind::string)) ok = has_type(v, arg.string);
        for (const JsonNode& t : arg.items) ok = ok || has_type(v, t.string);
        if (!ok) errors.push_back(path + ": wrong type");
      } else if (keyword == "enum") {
        bool ok = false;
        for (const JsonNode& allowed : arg.items) ok = ok || equal(allowed, v);
        if (!ok) errors.push_back(path + ": '" + v.string + "' is not one of the allowed values");
      } else if (keyword == "pattern") {
        if (v.is(Kind::string) && !std::regex_search(v.string, regex(arg.string))) {
          errors.push_back(path + ": '" + v.string + "' does not match " + arg.string);
        }
      } else if (keyword == "minimum") {
        if (v.is(Kind::number) && v.number < arg.number) errors.push_back(path + ": below the minimum");
      } else if (keyword == "required") {
        if (!v.is(Kind::object)) continue;
        for (const JsonNode& key : arg.items) {
          if (v.find(key.string) == nullptr) errors.push_back(path + ": missing '" + key.string + "'");
        }
      } else if (keyword == "properties") {
        if (!v.is(Kind::object)) continue;
        for (const auto& [key, value] : v.members) {
          if (const JsonNode* sub = arg.find(key)) check(*sub, value, path + "." + key, errors);
        }
      } else if (keyword == "additionalProperties") {
        if (!v.is(Kind::object)) continue;
        const JsonNode* props = schema.find("properties");
        for (const auto& [key, value] : v.members) {
          if (props != nullptr && props->find(key) != nullptr) continue;
          if (arg.is(Kind::boolean) && !arg.boolean) {
            errors.push_back(path + ": unknown key '" + key + "'");
          } else {
            check(arg, value, path + "." + key, errors);
          }
        }
      } else if (keyword == "items") {
        if (!v.is(Kind::array)) continue;
        for (std::size_t i = 0; i < v.items.size(); ++i) {
          check(arg, v.items[i], path + "[" + std::to_string(i) + "]", errors);
        }
      } else if (keyword == "anyOf" || keyword == "oneOf") {
        std::size_t matches = 0;
        std::vector<std::string> why;
        for (const JsonNode& alt : arg.items) {
          std::vector<std::string> sub;
          check(alt, v, path, sub);
          matches += sub.empty();
          why.insert(why.end(), sub.begin(), sub.end());
        }
        if (matches == 0) {
          std::string all;
          for (const std::string& w : why) all += (all.empty() ? "" : "; ") + w;
          errors.push_back(path + ": matches no alternative (" + all + ")");
        } else if (keyword == "oneOf" && matches > 1) {
          errors.push_back(path + ": matches more than one alternative");
        }
      } else {
        throw std::runtime_error("the test's validator does not know keyword '" + keyword + "'");
      }
    }
  }

  const JsonNode& root_;
  std::map<std::string, std::regex> regexes_;
};

// ---------------------------------------------------------------------------
// Specs as JSON

JsonNode toml_text_to_json(const std::string& text, const std::string& name) {
  const toml::table table = toml::parse(text, name);
  std::ostringstream ss;
  ss << toml::json_formatter{table};
  return parse_json(ss.str());
}

JsonNode toml_file_to_json(const fs::path& path) {
  return toml_text_to_json(read_file(path.string()), path.generic_string());
}

/// The committed schema, the one editors read.
JsonNode committed_schema() {
  return parse_json(read_file(source_root() + "/docs/opgen-spec.schema.json"));
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

/// Every spec of the repository meant to be valid: the built-in specs and
/// every TOML file under tests/ except the bad-spec corpus.
std::vector<fs::path> valid_specs() {
  const fs::path root = source_root();
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(root / "opdefs")) {
    if (e.path().extension() == ".toml") out.push_back(e.path());
  }
  for (auto it = fs::recursive_directory_iterator(root / "tests"); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path() == root / "tests" / "bad_specs") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".toml") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const char* kGood = R"spec(namespace = "demo"
[[op]]
name = "neg"
kind = "pointwise"
summary = "Negation."
input = [ { name = "x", type = "float", doc = "Input." } ]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "Result." } ]
)spec";

// kGood with `from` replaced by `to` (once).
std::string good_with(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const std::size_t at = s.find(from);
  BOOST_TEST_REQUIRE(at != std::string::npos, from);
  return s.replace(at, from.size(), to);
}

std::vector<std::string> schema_errors(const std::string& toml_text) {
  const JsonNode schema = committed_schema();
  return Validator(schema).validate(toml_text_to_json(toml_text, "spec.toml"));
}

std::vector<std::string> keys_of(const JsonNode& properties) {
  std::vector<std::string> out;
  for (const auto& [k, v] : properties.members) out.push_back(k);
  return out;
}

template <std::size_t N>
std::vector<std::string> keys_of(const std::string_view (&table)[N]) {
  return std::vector<std::string>(std::begin(table), std::end(table));
}

// The values a property's "enum" allows.
std::vector<std::string> strings_of_enum(const JsonNode& property) {
  std::vector<std::string> out;
  for (const JsonNode& v : property.at("enum").items) out.push_back(v.string);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(schema)

// The test would pass vacuously if the validator accepted everything.
BOOST_AUTO_TEST_CASE(validator_rejects) {
  const JsonNode schema = parse_json(R"({
    "type": "object", "additionalProperties": false, "required": ["a"],
    "properties": {
      "a": {"type": "string", "enum": ["x", "y"]},
      "b": {"type": "array", "items": {"$ref": "#/definitions/n"}},
      "c": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^a+$"}]}
    },
    "definitions": {"n": {"type": "integer", "minimum": 0}}
  })");
  Validator v(schema);
  BOOST_TEST(v.validate(parse_json(R"({"a": "x", "b": [0, 2], "c": "aa"})")).empty());
  BOOST_TEST(v.validate(parse_json(R"({"a": "x", "c": 3})")).empty());
  for (const char* bad : {R"({})", R"({"a": "z"})", R"({"a": 1})", R"({"a": "x", "d": 1})",
                          R"({"a": "x", "b": [1, -1]})", R"({"a": "x", "b": [1.5]})",
                          R"({"a": "x", "c": 0})", R"({"a": "x", "c": "ab"})", R"([])"}) {
    BOOST_TEST_INFO(bad);
    BOOST_TEST(!v.validate(parse_json(bad)).empty());
  }
  BOOST_CHECK_THROW(Validator(parse_json(R"({"maxLength": 3})")).validate(parse_json("\"a\"")),
                    std::runtime_error);
}

// The committed file is what `opgen schema` prints; refresh it with
// `ninja -C build update-schema`.
BOOST_AUTO_TEST_CASE(committed_copy_is_current) {
  const std::string committed = read_file(source_root() + "/docs/opgen-spec.schema.json");
  BOOST_TEST((committed == to_json_text(spec_schema())),
             "docs/opgen-spec.schema.json differs from `opgen schema`; run `ninja -C build "
             "update-schema`");
}

// `opgen schema` prints the same text, and takes no arguments.
BOOST_AUTO_TEST_CASE(cli_prints_the_schema) {
  const char* exe = std::getenv("OPGEN_EXE");
  BOOST_TEST_REQUIRE(exe != nullptr, "OPGEN_EXE is not set");
  auto run = [&](const std::string& args, std::string& out) {
    FILE* p = ::popen((std::string(exe) + " " + args + " 2>/dev/null").c_str(), "r");
    BOOST_TEST_REQUIRE(p != nullptr);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int st = ::pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  std::string out;
  BOOST_TEST(run("schema", out) == 0);
  BOOST_TEST((out == to_json_text(spec_schema())));
  BOOST_TEST(parse_json(out).at("$schema").string == "http://json-schema.org/draft-07/schema#");
  std::string ignored;
  BOOST_TEST(run("schema opdefs/math.toml", ignored) == 2);
}

// Each table of the schema has exactly the loader's keys, each described.
BOOST_AUTO_TEST_CASE(keys_are_the_loaders) {
  const JsonNode schema = committed_schema();
  const JsonNode& defs = schema.at("definitions");
  const std::vector<std::pair<const JsonNode*, std::vector<std::string>>> tables = {
      {&schema, keys_of(kFileKeys)},
      {&defs.at("op"), keys_of(kOpKeys)},
      {&defs.at("mixin"), keys_of(kMixinKeys)},
      {&defs.at("input"), keys_of(kInputKeys)},
      {&defs.at("arg"), keys_of(kArgKeys)},
      {&defs.at("output"), keys_of(kOutputKeys)},
      {&defs.at("constraint"), keys_of(kConstraintKeys)},
      {&defs.at("signature"), keys_of(kSignatureKeys)},
      {&defs.at("config"), keys_of(kConfigKeys)},
      {&defs.at("enum"), keys_of(kEnumKeys)},
      {&defs.at("op").at("properties").at("inplace"), keys_of(kInplaceKeys)},
      {&defs.at("op").at("properties").at("use").at("items").at("anyOf")[1], keys_of(kUseKeys)},
  };
  for (const auto& [table, keys] : tables) {
    BOOST_TEST(keys_of(table->at("properties")) == keys, boost::test_tools::per_element());
    BOOST_TEST(!table->at("additionalProperties").boolean);
    for (const auto& [key, prop] : table->at("properties").members) {
      BOOST_TEST_INFO(key);
      BOOST_TEST(prop.at("description").string.size() > 10u);
    }
  }
  const JsonNode& op = defs.at("op").at("properties");
  BOOST_TEST(strings_of_enum(op.at("kind")) == keys_of(kKinds), boost::test_tools::per_element());
}

// Every valid spec in the repository passes.
BOOST_AUTO_TEST_CASE(repository_specs_pass) {
  const JsonNode schema = committed_schema();
  Validator validator(schema);
  const std::vector<fs::path> specs = valid_specs();
  BOOST_TEST_REQUIRE(specs.size() >= 8u);  // opdefs (4), tests/ops/demo, tests/gen/golden (2), ...
  for (const fs::path& spec : specs) {
    BOOST_TEST_INFO(spec.string());
    const std::vector<std::string> errors = validator.validate(toml_file_to_json(spec));
    BOOST_TEST(errors.empty(), joined(errors));
  }
}

// Bad specs the loader rejects fail the schema too, at the offending key.
BOOST_AUTO_TEST_CASE(bad_specs_fail) {
  const JsonNode schema = committed_schema();
  Validator validator(schema);
  const std::pair<const char*, const char*> cases[] = {
      {"unknown_op_key.toml", "unknown key 'desciption'"},
      {"unknown_file_key.toml", "unknown key 'namesapce'"},
      {"unknown_param_key.toml", "unknown key 'tpye'"},
      {"unknown_kind.toml", "$.op[0].kind: 'pointwize' is not one of the allowed values"},
      {"wrong_value_type.toml", "$.op[0].dtypes: wrong type"},
      {"unknown_dtype.toml", "is not one of the allowed values"},
      {"unknown_input_type.toml", ".type: "},
      {"unknown_arg_type.toml", ".type: "},
      {"malformed_count.toml", ".count: matches no alternative"},
      {"shape_rule_unknown.toml", ".shape: 'braodcast(x, y)' does not match"},
      {"dtype_rule_unknown.toml", ".dtype: 'boolean' does not match"},
      {"bad_op_name.toml", "$.op[0].name: 'LeakyRelu' does not match"},
      {"missing_shape.toml", "missing 'shape'"},
  };
  for (const auto& [file, expected] : cases) {
    BOOST_TEST_INFO(file);
    const std::vector<std::string> errors = validator.validate(
        toml_file_to_json(fs::path(source_root()) / "tests" / "bad_specs" / file));
    BOOST_TEST(joined(errors).find(expected) != std::string::npos, joined(errors));
  }
}

// Small edits of a good spec, one rule each.
BOOST_AUTO_TEST_CASE(rules_on_values) {
  BOOST_TEST(schema_errors(kGood).empty(), joined(schema_errors(kGood)));
  BOOST_TEST(schema_errors(good_with("type = \"float\"", "type = \"float64\"")).empty());
  BOOST_TEST(schema_errors(good_with("same(x)\"", "broadcast(x, x)\"")).empty());
  BOOST_TEST(schema_errors(good_with("dtype = \"same(x)\"", "dtype = \"float32\"")).empty());
  BOOST_TEST(schema_errors(good_with("shape = \"same(x)\"", "shape = \"custom\"")).empty());
  BOOST_TEST(schema_errors(good_with("doc = \"Input.\"", "count = \">=1\"")).empty());
  BOOST_TEST(schema_errors(good_with("doc = \"Input.\"", "count = \"2..4\"")).empty());

  BOOST_TEST(schema_errors(good_with(", doc = \"Result.\"", "")).empty());  // doc is optional

  for (const std::string& bad : {
           good_with("name = \"neg\"", "name = \"Neg\""),              // not lower snake
           good_with("name = \"neg\"", "name = 3"),                    // not a string
           good_with("doc = \"Input.\"", "count = 0"),                 // allows no values
           good_with("doc = \"Input.\"", "count = \"1..\""),           // malformed
           good_with("shape = \"same(x)\"", "shape = \"custom(x)\""),  // custom stands alone
           good_with("dtype = \"same(x)\"", "dtype = \"float16\""),    // no such dtype
           good_with(", shape = \"same(x)\"", ""),                     // outputs need a shape
           good_with("kind = \"pointwise\"", "kind = \"pointwise\"\nout_variant = \"no\""),
           good_with("kind = \"pointwise\"",
                     "kind = \"pointwise\"\nuse = [{ mixin = \"m\", skip = [\"inputs\"] }]"),
           good_with("kind = \"pointwise\"", "kind = \"pointwise\"\ninplace = { output = \"y\" }"),
       }) {
    BOOST_TEST_INFO(bad);
    BOOST_TEST(!schema_errors(bad).empty());
  }
}

// The schema's rule names are the ones the checker knows: each is accepted
// by the checker as a rule (whatever else it says), and a name outside the
// list is an unknown rule to both.
BOOST_AUTO_TEST_CASE(rule_names_are_the_checkers) {
  auto unknown_rule = [](const std::string& spec, const std::string& what) {
    for (const std::string& line : diagnose(spec)) {
      if (line.find("unknown " + what) != std::string::npos) return true;
    }
    return false;
  };
  for (std::string_view r : kShapeRules) {
    const std::string rule = r == "custom" ? "custom" : std::string(r) + "(x)";
    BOOST_TEST_INFO(rule);
    BOOST_TEST(!unknown_rule(good_with("shape = \"same(x)\"", "shape = \"" + rule + "\""),
                             "shape rule"));
    BOOST_TEST(schema_errors(good_with("shape = \"same(x)\"", "shape = \"" + rule + "\"")).empty());
  }
  BOOST_TEST(unknown_rule(good_with("shape = \"same(x)\"", "shape = \"bogus(x)\""), "shape rule"));
  BOOST_TEST(!schema_errors(good_with("shape = \"same(x)\"", "shape = \"bogus(x)\"")).empty());
  for (std::string_view r : kDTypeRules) {
    const std::string rule = std::string(r) + "(x)";
    BOOST_TEST_INFO(rule);
    BOOST_TEST(!unknown_rule(good_with("dtype = \"same(x)\"", "dtype = \"" + rule + "\""),
                             "dtype rule"));
    BOOST_TEST(schema_errors(good_with("dtype = \"same(x)\"", "dtype = \"" + rule + "\"")).empty());
  }
  BOOST_TEST(unknown_rule(good_with("dtype = \"same(x)\"", "dtype = \"bogus(x)\""), "dtype rule"));
  BOOST_TEST(!schema_errors(good_with("dtype = \"same(x)\"", "dtype = \"bogus(x)\"")).empty());
}

BOOST_AUTO_TEST_SUITE_END()
