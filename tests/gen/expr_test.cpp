// The expression language on in-memory strings: lexer, parser, type
// checker, C++ printers, prose. Every expression lives at spec.toml:3:10,
// so the character at offset k is reported at column 10 + k.

#include "expr.hpp"

#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "expr_lexer.hpp"

using namespace opgen::gen;

namespace {

const EnumInfo kPadMode{
    "PadMode", "PadMode", {"same", "valid", "delete"}, {"same", "valid", "delete_"}};
const EnumInfo kPadding{"Padding", "Padding", {"same", "valid"}, {"same", "valid"}};

Symbol symbol(std::string name, TypeKind kind, std::string cpp = "", bool optional = false,
              const EnumInfo* en = nullptr) {
  Symbol s;
  s.cpp = cpp.empty() ? name : cpp;
  s.name = std::move(name);
  s.type = Type{kind, en};
  s.optional = optional;
  return s;
}

Scope make_scope() {
  using K = TypeKind;
  Scope s;
  s.symbols = {
      symbol("x", K::tensor),
      symbol("y", K::tensor),
      symbol("b", K::tensor, "", true),
      symbol("xs", K::tensor_list),
      symbol("alpha", K::float_),
      symbol("n", K::int_),
      symbol("flag", K::bool_),
      symbol("dims", K::int_list),
      symbol("ws", K::float_list),
      symbol("names", K::string_list),
      symbol("name", K::string),
      symbol("dt", K::dtype),
      symbol("input", K::tensor, "input_"),
      symbol("mode", K::enum_, "", false, &kPadMode),
      symbol("padding", K::enum_, "", false, &kPadding),
  };
  ConfigScope conv;
  conv.name = "Conv2DConfig";
  conv.fields = {symbol("stride", K::int_list, "cfg.stride"),
                 symbol("groups", K::int_, "cfg.groups")};
  s.configs.push_back(std::move(conv));
  return s;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

struct Fixture {
  Diagnostics diags;
  Scope scope = make_scope();
  CppContext ctx;
  LocatedText source;

  LocatedText text(std::string s) {
    return LocatedText{std::move(s), SourceLoc{diags.intern("spec.toml"), 3, 10}, {}};
  }

  ExprPtr parse(std::string s) {
    source = text(std::move(s));
    return parse_expression(source, diags);
  }

  // Parses and checks; null when it does not parse.
  ExprPtr checked(std::string s, ExprMode mode = ExprMode::constraint) {
    ExprPtr e = parse(std::move(s));
    if (e) check_expression(*e, scope, mode, diags);
    return e;
  }

  // The diagnostics of parsing and checking `s`, one per line.
  std::string errors(std::string s, ExprMode mode = ExprMode::constraint) {
    checked(std::move(s), mode);
    return join(diags.lines());
  }

  std::string type_of(std::string s, ExprMode mode = ExprMode::constraint) {
    ExprPtr e = checked(std::move(s), mode);
    BOOST_TEST(join(diags.lines()) == "");
    return e ? type_name(e->type) : "<no parse>";
  }

  // A valid expression's tree (test setup fails loudly otherwise).
  ExprPtr valid(std::string s, ExprMode mode = ExprMode::constraint) {
    ExprPtr e = checked(s, mode);
    BOOST_REQUIRE_MESSAGE(e && !diags.has_errors(), s + ": " + join(diags.lines()));
    return e;
  }

  std::string cpp(std::string s) { return to_cpp(*valid(std::move(s)), ctx); }
  std::string formula(std::string s, const FormulaContext& f = {}) {
    return to_cpp_formula(*valid(std::move(s), ExprMode::formula), f);
  }
  std::string source_of(std::string s) {
    ExprPtr e = parse(std::move(s));
    BOOST_REQUIRE(e);
    return to_source(*e);
  }
  std::string prose(std::string s) { return to_prose(*valid(std::move(s))); }

  std::string terms(std::string s) {
    ExprPtr e = valid(std::move(s));
    std::string out;
    for (const ShownTerm& t : shown_terms(*e, source, ctx)) {
      out += (out.empty() ? "" : " | ") + t.source + " => " + t.cpp;
    }
    return out;
  }

  // "kind:text@begin-end" per token, for lexer tests.
  std::string tokens(std::string s) {
    source = text(std::move(s));
    std::string out;
    for (const Token& t : lex_expression(source, diags)) {
      static const char* const kKinds[] = {"end", "id", "int", "float", "str", "punct"};
      if (!out.empty()) out += ' ';
      out += std::string(kKinds[static_cast<int>(t.kind)]) + ":" + t.text + "@" +
             std::to_string(t.begin) + "-" + std::to_string(t.end);
    }
    return out;
  }
};

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

// ===========================================================================
BOOST_FIXTURE_TEST_SUITE(expr_lexer, Fixture)

// Tokens carry byte offsets into the expression text.
BOOST_AUTO_TEST_CASE(offsets_and_kinds) {
  BOOST_TEST(tokens("x.size(0) >= 1e-3") ==
             "id:x@0-1 punct:.@1-2 id:size@2-6 punct:(@6-7 int:0@7-8 punct:)@8-9 "
             "punct:>=@10-12 float:1e-3@13-17 end:@17-17");
  BOOST_TEST(join(diags.lines()) == "");
}

// Two-character operators win over their one-character prefixes.
BOOST_AUTO_TEST_CASE(longest_operator_first) {
  BOOST_TEST(tokens("a<=b<<c&&d||!e!=f") ==
             "id:a@0-1 punct:<=@1-3 id:b@3-4 punct:<<@4-6 id:c@6-7 punct:&&@7-9 id:d@9-10 "
             "punct:||@10-12 punct:!@12-13 id:e@13-14 punct:!=@14-16 id:f@16-17 end:@17-17");
}

// An empty text is just the end token.
BOOST_AUTO_TEST_CASE(empty_text) { BOOST_TEST(tokens("  ") == "end:@2-2"); }

// Numbers: decimal and hex ints, floats in every C spelling, with values.
BOOST_AUTO_TEST_CASE(numbers) {
  source = text("42 0x1F 0.5 1e-3 2. .5 1E+2");
  const std::vector<Token> t = lex_expression(source, diags);
  BOOST_TEST(join(diags.lines()) == "");
  BOOST_REQUIRE(t.size() == 8u);
  BOOST_TEST(t[0].int_value == 42);
  BOOST_TEST(t[1].int_value == 31);
  BOOST_TEST((t[2].kind == TokenKind::float_literal && t[2].float_value == 0.5));
  BOOST_TEST(t[3].float_value == 1e-3);
  BOOST_TEST((t[4].kind == TokenKind::float_literal && t[4].float_value == 2.0));
  BOOST_TEST(t[5].float_value == 0.5);
  BOOST_TEST(t[6].float_value == 100.0);
}

// int64's largest value is a literal; one more is an error.
BOOST_AUTO_TEST_CASE(int_range) {
  source = text("9223372036854775807");
  BOOST_TEST(lex_expression(source, diags)[0].int_value == 9223372036854775807);
  BOOST_TEST(tokens("n < 9223372036854775808").find("int:") == std::string::npos);
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:14: error: integer literal '9223372036854775808' is out of range for "
             "int64");
}

BOOST_AUTO_TEST_CASE(float_range) {
  tokens("alpha < 1e999");
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:18: error: float literal '1e999' is out of range for a double");
}

// Letters glued to a number are a typo, not two tokens.
BOOST_AUTO_TEST_CASE(malformed_numbers) {
  tokens("12abc + 1e + 0x");
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:10: error: malformed number '12abc'\n"
             "spec.toml:3:18: error: malformed number '1e'\n"
             "spec.toml:3:23: error: malformed number '0x'");
}

// Both quote styles; \\ \" \' are the escapes.
BOOST_AUTO_TEST_CASE(strings) {
  BOOST_TEST(tokens(R"("a\"b" 'it\'s' "\\")") ==
             R"(str:a"b@0-6 str:it's@7-14 str:\@15-19 end:@19-19)");
  BOOST_TEST(join(diags.lines()) == "");
}

BOOST_AUTO_TEST_CASE(unterminated_string) {
  tokens("mode == \"same");
  BOOST_TEST(join(diags.lines()) == "spec.toml:3:18: error: unterminated string literal");
}

BOOST_AUTO_TEST_CASE(unknown_escape) {
  tokens(R"(name == "a\nb")");
  BOOST_TEST(
      join(diags.lines()) ==
      R"(spec.toml:3:20: error: unknown escape '\n' in string literal (only \\, \" and \' are escapes))");
}

// Every lexical error is reported, not just the first.
BOOST_AUTO_TEST_CASE(unexpected_characters) {
  tokens("a @ b # c");
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:12: error: unexpected character '@'\n"
             "spec.toml:3:16: error: unexpected character '#'");
}

// Characters pasted from prose get the ASCII operator they stand for.
BOOST_AUTO_TEST_CASE(lookalike_characters) {
  tokens("alpha \u2265 0");
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:16: error: unexpected character '\u2265'; did you mean '>='?");
}

BOOST_AUTO_TEST_CASE(control_character) {
  tokens(std::string("a \x01 b"));
  BOOST_TEST(join(diags.lines()) == "spec.toml:3:12: error: unexpected character '\\x01'");
}

BOOST_AUTO_TEST_CASE(describe_tokens) {
  source = text("a \"s\" &&");
  const std::vector<Token> t = lex_expression(source, diags);
  BOOST_TEST(describe(t[0]) == "'a'");
  BOOST_TEST(describe(t[1]) == "string \"s\"");
  BOOST_TEST(describe(t[2]) == "'&&'");
  BOOST_TEST(describe(t[3]) == "end of expression");
}

BOOST_AUTO_TEST_SUITE_END()

// ===========================================================================
BOOST_FIXTURE_TEST_SUITE(expr_parser, Fixture)

// C precedence and left associativity, seen through the canonical spelling.
BOOST_AUTO_TEST_CASE(precedence) {
  BOOST_TEST(source_of("a || b && c") == "a || (b && c)");
  BOOST_TEST(source_of("a && b || c") == "(a && b) || c");
  BOOST_TEST(source_of("a + b * c") == "a + b * c");
  BOOST_TEST(source_of("(a + b) * c") == "(a + b) * c");
  BOOST_TEST(source_of("a - b - c") == "a - b - c");
  BOOST_TEST(source_of("a - (b - c)") == "a - (b - c)");
  BOOST_TEST(source_of("a & b == c") == "a & (b == c)");
  BOOST_TEST(source_of("a | b ^ c & d") == "a | (b ^ (c & d))");
  BOOST_TEST(source_of("a << 1 + b") == "a << (1 + b)");
  BOOST_TEST(source_of("a + 1 < b == c") == "(a + 1 < b) == c");
  BOOST_TEST(source_of("!a && -b < ~c") == "!a && -b < ~c");
}

// `?:` is right-associative and binds loosest.
BOOST_AUTO_TEST_CASE(conditional) {
  BOOST_TEST(source_of("a ? b : c ? d : e") == "a ? b : (c ? d : e)");
  BOOST_TEST(source_of("(a ? b : c) ? d : e") == "(a ? b : c) ? d : e");
  BOOST_TEST(source_of("a || b ? c + 1 : d") == "a || b ? c + 1 : d");
}

BOOST_AUTO_TEST_CASE(node_kinds) {
  ExprPtr e = parse("xs[0].size(1) == Conv2DConfig.stride[n] && sameType(x, y)");
  BOOST_REQUIRE(e);
  BOOST_TEST((e->kind == ExprKind::binary && e->text == "&&"));
  const Expr& eq = *e->args[0];
  const Expr& size = *eq.args[0];
  BOOST_TEST((size.kind == ExprKind::method && size.text == "size" && size.args.size() == 2u));
  BOOST_TEST((size.args[0]->kind == ExprKind::index));
  const Expr& stride = *eq.args[1];
  BOOST_TEST((stride.kind == ExprKind::index && stride.args[0]->kind == ExprKind::field));
  BOOST_TEST(stride.args[0]->text == "stride");
  BOOST_TEST(stride.args[0]->args[0]->text == "Conv2DConfig");
  const Expr& call = *e->args[1];
  BOOST_TEST((call.kind == ExprKind::call && call.text == "sameType" && call.args.size() == 2u));
}

BOOST_AUTO_TEST_CASE(literals) {
  ExprPtr e = parse("[0, 1] == [] && true != false && 'same' == 1.5");
  BOOST_REQUIRE(e);
  const Expr& arrays = *e->args[0]->args[0];
  BOOST_TEST(
      (arrays.args[0]->kind == ExprKind::array_literal && arrays.args[0]->args.size() == 2u));
  BOOST_TEST(arrays.args[1]->args.size() == 0u);
  const Expr& bools = *e->args[0]->args[1];
  BOOST_TEST((bools.args[0]->kind == ExprKind::bool_literal && bools.args[0]->bool_value));
  BOOST_TEST(!bools.args[1]->bool_value);
  const Expr& last = *e->args[1];
  BOOST_TEST((last.args[0]->kind == ExprKind::string_literal && last.args[0]->text == "same"));
  BOOST_TEST((last.args[1]->kind == ExprKind::float_literal && last.args[1]->float_value == 1.5));
  BOOST_TEST(source_of("f()") == "f()");
}

// loc: first character, or the operator / member name; extents cover the
// node's own tokens (not the parentheses around it).
BOOST_AUTO_TEST_CASE(locations_and_extents) {
  ExprPtr e = parse("(a + b) * x.size(0)");
  BOOST_REQUIRE(e);
  BOOST_TEST(e->loc.col == 18u);  // '*'
  BOOST_TEST(e->begin == 0u);
  BOOST_TEST(e->end == 19u);
  const Expr& sum = *e->args[0];
  BOOST_TEST(sum.loc.col == 13u);  // '+'
  BOOST_TEST(sum.begin == 1u);
  BOOST_TEST(sum.end == 6u);
  const Expr& size = *e->args[1];
  BOOST_TEST(size.loc.col == 22u);  // 'size'
  BOOST_TEST(source.text.substr(size.begin, size.end - size.begin) == "x.size(0)");
  BOOST_TEST(size.args[0]->loc.col == 20u);
  BOOST_TEST(*e->loc.file == "spec.toml");
  BOOST_TEST(e->loc.line == 3u);
  ExprPtr c = parse("a ? b : c");
  BOOST_TEST(c->loc.col == 12u);  // '?'
}

BOOST_AUTO_TEST_CASE(single_equals) {
  BOOST_TEST(errors("n = 1") ==
             "spec.toml:3:12: error: '=' is not an operator; did you mean '=='?");
}

BOOST_AUTO_TEST_CASE(unclosed_parenthesis) {
  BOOST_TEST(errors("(n + 1 > 0") ==
             "spec.toml:3:20: error: expected ')' to close '(' at column 10");
}

BOOST_AUTO_TEST_CASE(unclosed_call_and_index) {
  BOOST_TEST(errors("x.size(0 == 1") ==
             "spec.toml:3:23: error: expected ')' to close '(' at column 16");
  diags = Diagnostics();
  BOOST_TEST(errors("dims[0 > 1") ==
             "spec.toml:3:20: error: expected ']' to close '[' at column 14");
}

BOOST_AUTO_TEST_CASE(missing_colon) {
  BOOST_TEST(errors("flag ? 1") == "spec.toml:3:18: error: expected ':' to match '?' at column 15");
}

BOOST_AUTO_TEST_CASE(unexpected_end) {
  BOOST_TEST(errors("n +") == "spec.toml:3:13: error: unexpected end of expression");
}

BOOST_AUTO_TEST_CASE(empty_expression) {
  BOOST_TEST(errors("") == "spec.toml:3:10: error: empty expression");
}

BOOST_AUTO_TEST_CASE(trailing_tokens) {
  BOOST_TEST(errors("alpha >= 0 n") ==
             "spec.toml:3:21: error: unexpected 'n'; expected an operator or the end of the "
             "expression");
}

BOOST_AUTO_TEST_CASE(unmatched_closing) {
  BOOST_TEST(errors("n > 0)") == "spec.toml:3:15: error: unmatched ')'");
}

BOOST_AUTO_TEST_CASE(word_operators) {
  BOOST_TEST(errors("flag and flag") ==
             "spec.toml:3:15: error: 'and' is not an operator; did you mean '&&'?");
  diags = Diagnostics();
  BOOST_TEST(errors("not flag") ==
             "spec.toml:3:10: error: 'not' is not an operator; did you mean '!'?");
}

BOOST_AUTO_TEST_CASE(missing_member_name) {
  BOOST_TEST(errors("x.") ==
             "spec.toml:3:12: error: expected a method or field name after '.', got end of "
             "expression");
}

BOOST_AUTO_TEST_CASE(missing_operand) {
  BOOST_TEST(errors("all(flag,)") == "spec.toml:3:19: error: expected an expression before ')'");
  diags = Diagnostics();
  BOOST_TEST(errors("* n") == "spec.toml:3:10: error: expected an expression, got '*'");
}

// A lexical error stops parsing: no syntax errors pile up behind it.
BOOST_AUTO_TEST_CASE(lexical_error_stops_parse) {
  BOOST_TEST(!parse("n @ ) ("));
  BOOST_TEST(join(diags.lines()) == "spec.toml:3:12: error: unexpected character '@'");
}

// 200 levels of nesting are fine; the 201st is an error, not a crash.
BOOST_AUTO_TEST_CASE(depth_limit_parentheses) {
  BOOST_TEST(parse(repeat("(", 200) + "n" + repeat(")", 200)));
  BOOST_TEST(!parse(repeat("(", 201) + "n" + repeat(")", 201)));
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:211: error: expression is nested too deeply (more than 200 levels)");
}

BOOST_AUTO_TEST_CASE(depth_limit_unary) {
  BOOST_TEST(parse(repeat("!", 200) + "flag"));
  BOOST_TEST(!parse(repeat("!", 201) + "flag"));
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:210: error: expression is nested too deeply (more than 200 levels)");
}

// Long operator chains build deep trees without deep parser recursion:
// the tree height is limited too (checker and printers recurse over it).
BOOST_AUTO_TEST_CASE(depth_limit_chain) {
  BOOST_TEST(parse("n" + repeat(" + n", 200)));
  BOOST_TEST(!parse("n" + repeat(" + n", 201)));
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:814: error: expression is nested too deeply (more than 200 levels)");
}

// The deepest trees the parser accepts are checked and printed fine.
BOOST_AUTO_TEST_CASE(deepest_valid_trees) {
  for (const std::string& s : {repeat("!", 200) + "flag", "n" + repeat(" + n", 199) + " > 0",
                               repeat("(flag ? ", 100) + "n" + repeat(" : n)", 100) + " > 0"}) {
    ExprPtr e = valid(s);
    BOOST_TEST(!to_cpp(*e, ctx).empty());
    BOOST_TEST(!to_prose(*e).empty());
    BOOST_TEST(!shown_terms(*e, source, ctx).empty());
  }
}

// Hostile input: one error each, no stack overflow.
BOOST_AUTO_TEST_CASE(hostile_input) {
  BOOST_TEST(!parse(repeat("(", 100000)));
  BOOST_TEST(!parse("n" + repeat(" + n", 100000)));
  BOOST_TEST(!parse("xs" + repeat("[0]", 100000)));
  BOOST_TEST(!parse(repeat("-", 100000) + "n"));
  BOOST_TEST(!parse(repeat("flag ? n : ", 100000) + "n"));
  BOOST_TEST(diags.error_count() == 5u);
  ExprPtr wide = parse("all(" + repeat("flag, ", 20000) + "flag)");
  BOOST_REQUIRE(wide);
  BOOST_TEST(wide->args.size() == 20001u);
}

BOOST_AUTO_TEST_SUITE_END()

// ===========================================================================
BOOST_FIXTURE_TEST_SUITE(expr_check, Fixture)

BOOST_AUTO_TEST_CASE(scope_lookup) {
  BOOST_TEST(scope.find("alpha")->cpp == "alpha");
  BOOST_TEST(!scope.find("alpah"));
  BOOST_TEST(scope.find_config("Conv2DConfig")->fields.size() == 2u);
  BOOST_TEST(!scope.find_config("x"));
}

BOOST_AUTO_TEST_CASE(type_names) {
  BOOST_TEST(type_name(Type{TypeKind::int_list, nullptr}) == "int list");
  BOOST_TEST(type_name(Type{TypeKind::enum_, &kPadMode}) == "enum PadMode");
  BOOST_TEST(type_name(Type{TypeKind::element, nullptr}) == "tensor element");
  BOOST_TEST(type_name(Type{}) == "<error>");
}

// Well-typed constraints, and the types of their parts.
BOOST_AUTO_TEST_CASE(valid_constraints) {
  BOOST_TEST(type_of("x.rank() == 2 && y.size(0) == x.size(1)") == "bool");
  BOOST_TEST(type_of("n / 2") == "int");
  BOOST_TEST(type_of("n + alpha") == "float");
  BOOST_TEST(type_of("n % 3 + (n << 2) - ~n") == "int");
  BOOST_TEST(type_of("x.dtype()") == "dtype");
  BOOST_TEST(type_of("x.dtype() == float32 || dt != bool") == "bool");
  BOOST_TEST(type_of("xs[0].rank() == 2 && len(xs) >= 2") == "bool");
  BOOST_TEST(type_of("sameType(x, xs) && sameShape(xs) && broadcastable(x, y, b)") == "bool");
  BOOST_TEST(type_of("!present(b) || b.rank() == 1") == "bool");
  BOOST_TEST(type_of("inRange(alpha, 0, 1) && all(flag, n > 0) && some(flag)") == "bool");
  BOOST_TEST(type_of("isFloat(x) && isInt(dt) && isFloat(xs[1])") == "bool");
  BOOST_TEST(type_of("name == 'a' && mode != \"valid\" && mode == mode") == "bool");
  BOOST_TEST(type_of("Conv2DConfig.stride[0] > 0 && Conv2DConfig.groups >= 1") == "bool");
  BOOST_TEST(type_of("flag ? n : alpha") == "float");
  BOOST_TEST(type_of("flag ? x : y") == "tensor");
  BOOST_TEST(type_of("dims") == "int list");
  BOOST_TEST(type_of("[1, 2]") == "int list");
  BOOST_TEST(type_of("x.isScalar() || x.isEmpty() || x.length() > 0") == "bool");
}

BOOST_AUTO_TEST_CASE(annotations) {
  ExprPtr e = valid("mode == 'same' && x.dtype() == float32 && Conv2DConfig.groups > 0");
  const Expr& en = *e->args[0]->args[0]->args[1];
  BOOST_TEST((en.type.kind == TypeKind::enum_ && en.type.enum_info == &kPadMode));
  const Expr& f32 = *e->args[0]->args[1]->args[1];
  BOOST_TEST((f32.type.kind == TypeKind::dtype && f32.symbol == nullptr));
  const Expr& groups = *e->args[1]->args[0];
  BOOST_TEST(groups.symbol->cpp == "cfg.groups");
  BOOST_TEST(e->args[0]->args[0]->args[0]->symbol->name == "mode");
}

// A symbol named like a dtype is the symbol.
BOOST_AUTO_TEST_CASE(symbol_shadows_dtype) {
  scope.symbols.push_back(symbol("int32", TypeKind::int_));
  ExprPtr e = valid("int32 > 0");
  BOOST_TEST(e->args[0]->symbol->name == "int32");
}

BOOST_AUTO_TEST_CASE(valid_formulas) {
  BOOST_TEST(type_of("x > 0 ? x : alpha * x", ExprMode::formula) == "tensor element");
  BOOST_TEST(type_of("exp(x) + pow(x, 2)", ExprMode::formula) == "float");
  BOOST_TEST(type_of("isnan(x) || isinf(y)", ExprMode::formula) == "bool");
  BOOST_TEST(type_of("flag ? 1 : 2", ExprMode::formula) == "int");
}

BOOST_AUTO_TEST_CASE(unknown_name) {
  BOOST_TEST(errors("alpha == alpah") ==
             "spec.toml:3:19: error: unknown name 'alpah'; did you mean 'alpha'?");
  diags = Diagnostics();
  BOOST_TEST(errors("zzz") == "spec.toml:3:10: error: unknown name 'zzz'");
  diags = Diagnostics();
  BOOST_TEST(errors("x.dtype() == flaot32") ==
             "spec.toml:3:23: error: unknown name 'flaot32'; did you mean 'float32'?");
  diags = Diagnostics();
  BOOST_TEST(errors("ture") == "spec.toml:3:10: error: unknown name 'ture'; did you mean 'true'?");
}

BOOST_AUTO_TEST_CASE(config_as_value) {
  BOOST_TEST(errors("Conv2DConfig > 0") ==
             "spec.toml:3:10: error: 'Conv2DConfig' is a config, not a value; name a field, "
             "e.g. Conv2DConfig.stride");
}

BOOST_AUTO_TEST_CASE(function_as_name) {
  BOOST_TEST(errors("len > 0") == "spec.toml:3:10: error: 'len' is a function; call it: len(...)");
}

BOOST_AUTO_TEST_CASE(unquoted_enum_value) {
  BOOST_TEST(errors("mode == same") ==
             "spec.toml:3:18: error: unknown name 'same'; values of enum PadMode are strings: "
             "write 'same'");
}

BOOST_AUTO_TEST_CASE(unknown_config) {
  BOOST_TEST(errors("Conv2DConfg.groups > 0") ==
             "spec.toml:3:10: error: unknown config 'Conv2DConfg'; did you mean 'Conv2DConfig'?");
  diags = Diagnostics();
  BOOST_TEST(errors("alpah.x > 0") ==
             "spec.toml:3:10: error: unknown name 'alpah'; did you mean 'alpha'?");
}

BOOST_AUTO_TEST_CASE(unknown_field) {
  BOOST_TEST(errors("Conv2DConfig.grops > 0") ==
             "spec.toml:3:23: error: config 'Conv2DConfig' has no field 'grops'; did you mean "
             "'groups'?");
}

BOOST_AUTO_TEST_CASE(field_of_non_config) {
  BOOST_TEST(errors("alpha.x > 0") ==
             "spec.toml:3:16: error: 'alpha' is a float and has no fields");
  diags = Diagnostics();
  BOOST_TEST(errors("x.rank == 2") == "spec.toml:3:12: error: 'rank' is a method; write x.rank()");
}

BOOST_AUTO_TEST_CASE(counted_parameter_as_value) {
  BOOST_TEST(errors("dims > 0") ==
             "spec.toml:3:10: error: 'dims' is a counted parameter (int list); use dims[i] or "
             "len(dims)");
  diags = Diagnostics();
  BOOST_TEST(errors("xs.rank() == 2") ==
             "spec.toml:3:10: error: 'xs' is a counted parameter (tensor list); use xs[i] or "
             "len(xs)");
  diags = Diagnostics();
  BOOST_TEST(errors("Conv2DConfig.stride == 1") ==
             "spec.toml:3:10: error: 'Conv2DConfig.stride' is a counted parameter (int list); "
             "use Conv2DConfig.stride[i] or len(Conv2DConfig.stride)");
  diags = Diagnostics();
  BOOST_TEST(errors("[0, 1] == 1") ==
             "spec.toml:3:10: error: '[0, 1]' is a list (int list); one value is expected here");
}

BOOST_AUTO_TEST_CASE(tensor_as_number) {
  BOOST_TEST(errors("x + 1 > 0") ==
             "spec.toml:3:10: error: 'x' is a tensor, not a number; did you mean x.length() or "
             "x.rank()?");
  diags = Diagnostics();
  BOOST_TEST(errors("n < xs[0]") ==
             "spec.toml:3:14: error: 'xs[0]' is a tensor, not a number; did you mean "
             "xs[0].length() or xs[0].rank()?");
}

BOOST_AUTO_TEST_CASE(tensor_as_bool) {
  BOOST_TEST(errors("b && flag") ==
             "spec.toml:3:10: error: 'b' is a tensor, not a bool; did you mean present(b)?");
  diags = Diagnostics();
  BOOST_TEST(errors("flag || x") == "spec.toml:3:18: error: 'x' is a tensor, not a bool");
}

BOOST_AUTO_TEST_CASE(tensor_comparisons) {
  BOOST_TEST(errors("x == y") ==
             "spec.toml:3:12: error: tensors cannot be compared with '=='; use sameShape(x, y) "
             "or sameType(...)");
  diags = Diagnostics();
  BOOST_TEST(errors("x != float32") ==
             "spec.toml:3:10: error: 'x' is a tensor; did you mean x.dtype()?");
}

BOOST_AUTO_TEST_CASE(operand_types) {
  BOOST_TEST(errors("flag + 1 > 0") == "spec.toml:3:10: error: '+' needs numbers, got bool");
  diags = Diagnostics();
  BOOST_TEST(errors("n && flag") == "spec.toml:3:10: error: '&&' needs bool operands, got int");
  diags = Diagnostics();
  BOOST_TEST(errors("x.dtype() < dt") ==
             "spec.toml:3:10: error: '<' needs numbers, got dtype\n"
             "spec.toml:3:22: error: '<' needs numbers, got dtype");
  diags = Diagnostics();
  BOOST_TEST(errors("n << alpha > 0") == "spec.toml:3:15: error: '<<' needs integers, got float");
}

BOOST_AUTO_TEST_CASE(float_remainder) {
  BOOST_TEST(errors("alpha % 2 == 0") == "spec.toml:3:10: error: '%' needs integers, got float");
  diags = Diagnostics();
  BOOST_TEST(errors("alpha % 2", ExprMode::formula) ==
             "spec.toml:3:10: error: '%' needs integers, got float; use fmod() for floats");
}

// The reference function is instantiated for float dtypes too: elements
// behave like floats, so integer-only operators reject them.
BOOST_AUTO_TEST_CASE(integer_operators_on_elements) {
  BOOST_TEST(errors("x & 1", ExprMode::formula) ==
             "spec.toml:3:10: error: '&' needs integers, got tensor element");
  diags = Diagnostics();
  BOOST_TEST(errors("~y", ExprMode::formula) ==
             "spec.toml:3:11: error: '~' needs an integer, got tensor element");
  diags = Diagnostics();
  BOOST_TEST(errors("n % x", ExprMode::formula) ==
             "spec.toml:3:14: error: '%' needs integers, got tensor element; use fmod() for "
             "floats");
}

BOOST_AUTO_TEST_CASE(bitwise_on_bools) {
  BOOST_TEST(errors("flag & flag") ==
             "spec.toml:3:15: error: '&' needs integers, got bool; did you mean '&&'?");
  diags = Diagnostics();
  BOOST_TEST(errors("flag | n > 0") ==
             "spec.toml:3:15: error: '|' needs integers, got bool; did you mean '||'?");
}

BOOST_AUTO_TEST_CASE(unary_operand_types) {
  BOOST_TEST(errors("!n") == "spec.toml:3:11: error: '!' needs a bool, got int");
  diags = Diagnostics();
  BOOST_TEST(errors("-flag") == "spec.toml:3:11: error: '-' needs a number, got bool");
  diags = Diagnostics();
  BOOST_TEST(errors("~alpha > 0") == "spec.toml:3:11: error: '~' needs an integer, got float");
}

// C++ folds literal arithmetic; an int64 overflow there would be a compiler
// warning in the generated wrapper.
BOOST_AUTO_TEST_CASE(constant_overflow) {
  BOOST_TEST(errors("n > 9223372036854775807 + 1") ==
             "spec.toml:3:34: error: integer overflow: 9223372036854775807 + 1 does not fit in "
             "int64");
  diags = Diagnostics();
  BOOST_TEST(errors("n < -(-9223372036854775807 - 1) * 2") ==
             "spec.toml:3:14: error: integer overflow: -(-9223372036854775807 - 1) does not fit "
             "in int64");
  diags = Diagnostics();
  BOOST_TEST(type_of("n > 4294967296 * 2147483647 && n < -9223372036854775807 - 1 + n") == "bool");
}

BOOST_AUTO_TEST_CASE(equality_mismatch) {
  BOOST_TEST(errors("n == float32") == "spec.toml:3:12: error: '==' cannot compare int with dtype");
  diags = Diagnostics();
  BOOST_TEST(errors("flag != 1") == "spec.toml:3:15: error: '!=' cannot compare bool with int");
}

BOOST_AUTO_TEST_CASE(enum_value) {
  BOOST_TEST(errors("mode == 'sme'") ==
             "spec.toml:3:18: error: 'sme' is not a value of enum PadMode; did you mean 'same'?");
  diags = Diagnostics();
  BOOST_TEST(errors("\"zzz\" != mode") ==
             "spec.toml:3:10: error: 'zzz' is not a value of enum PadMode (values: same, valid, "
             "delete)");
}

BOOST_AUTO_TEST_CASE(enum_comparisons) {
  BOOST_TEST(errors("mode == 1") ==
             "spec.toml:3:15: error: '==' cannot compare enum PadMode with int");
  diags = Diagnostics();
  BOOST_TEST(errors("mode == padding") ==
             "spec.toml:3:15: error: '==' cannot compare enum PadMode with enum Padding");
  diags = Diagnostics();
  BOOST_TEST(errors("mode == name") ==
             "spec.toml:3:15: error: '==' cannot compare enum PadMode with string");
}

BOOST_AUTO_TEST_CASE(quoted_dtype) {
  BOOST_TEST(errors("x.dtype() == 'float32'") ==
             "spec.toml:3:23: error: dtype names are written without quotes: float32");
  diags = Diagnostics();
  BOOST_TEST(errors("'flot32' == dt") ==
             "spec.toml:3:10: error: 'flot32' is not a dtype; did you mean 'float32'?");
}

BOOST_AUTO_TEST_CASE(method_on_non_tensor) {
  BOOST_TEST(errors("alpha.rank() == 0") ==
             "spec.toml:3:10: error: 'alpha' is a float, not a tensor; rank() is a tensor method");
  diags = Diagnostics();
  BOOST_TEST(errors("alpha.foo()") ==
             "spec.toml:3:16: error: 'alpha' is a float and has no methods");
}

BOOST_AUTO_TEST_CASE(unknown_method) {
  BOOST_TEST(errors("x.rnak() == 2") ==
             "spec.toml:3:12: error: unknown method 'rnak'; did you mean 'rank'?");
}

BOOST_AUTO_TEST_CASE(method_arity) {
  BOOST_TEST(errors("x.size() == 2") == "spec.toml:3:12: error: size() takes 1 argument, got 0");
  diags = Diagnostics();
  BOOST_TEST(errors("x.rank(0) == 2") == "spec.toml:3:12: error: rank() takes no arguments, got 1");
}

BOOST_AUTO_TEST_CASE(method_argument_type) {
  BOOST_TEST(errors("x.size(alpha) == 2") ==
             "spec.toml:3:17: error: argument of size() must be an int, got float");
}

BOOST_AUTO_TEST_CASE(method_in_formula) {
  BOOST_TEST(errors("x * x.rank()", ExprMode::formula) ==
             "spec.toml:3:16: error: x.rank() is not available in a formula");
}

BOOST_AUTO_TEST_CASE(unknown_function) {
  BOOST_TEST(errors("sameTyp(x, y)") ==
             "spec.toml:3:10: error: unknown function 'sameTyp'; did you mean 'sameType'?");
  diags = Diagnostics();
  BOOST_TEST(errors("rank(x) == 2") ==
             "spec.toml:3:10: error: 'rank' is a tensor method; write x.rank()");
  diags = Diagnostics();
  BOOST_TEST(errors("exx(x)", ExprMode::formula) ==
             "spec.toml:3:10: error: unknown function 'exx'; did you mean 'exp'?");
}

BOOST_AUTO_TEST_CASE(function_not_in_this_mode) {
  BOOST_TEST(errors("exp(alpha) > 0") ==
             "spec.toml:3:10: error: exp() is only available in a formula");
  diags = Diagnostics();
  BOOST_TEST(errors("sameType(x, y)", ExprMode::formula) ==
             "spec.toml:3:10: error: sameType() is not available in a formula");
  diags = Diagnostics();
  BOOST_TEST(errors("isFloat(x)", ExprMode::formula) ==
             "spec.toml:3:10: error: isFloat() of a tensor is not available in a formula");
}

BOOST_AUTO_TEST_CASE(tensor_group_arguments) {
  BOOST_TEST(errors("sameType(x)") ==
             "spec.toml:3:10: error: sameType() takes at least 2 tensors, got 1");
  diags = Diagnostics();
  BOOST_TEST(errors("broadcastable(x, alpha)") ==
             "spec.toml:3:27: error: argument 2 of broadcastable() must be a tensor or a "
             "counted input, got float");
}

BOOST_AUTO_TEST_CASE(function_arity) {
  BOOST_TEST(errors("all()") == "spec.toml:3:10: error: all() takes at least 1 argument, got 0");
  diags = Diagnostics();
  BOOST_TEST(errors("inRange(alpha, 0)") ==
             "spec.toml:3:10: error: inRange() takes 3 arguments, got 2");
  diags = Diagnostics();
  BOOST_TEST(errors("len(dims, xs) > 0") == "spec.toml:3:10: error: len() takes 1 argument, got 2");
}

BOOST_AUTO_TEST_CASE(function_argument_types) {
  BOOST_TEST(errors("all(flag, n)") ==
             "spec.toml:3:20: error: argument 2 of all() must be a bool, got int");
  diags = Diagnostics();
  BOOST_TEST(errors("inRange(flag, 0, 1)") ==
             "spec.toml:3:18: error: argument 1 of inRange() must be a number, got bool");
  diags = Diagnostics();
  BOOST_TEST(errors("isFloat(n)") ==
             "spec.toml:3:18: error: isFloat() takes a tensor or a dtype, got int");
  diags = Diagnostics();
  BOOST_TEST(errors("exp(flag)", ExprMode::formula) ==
             "spec.toml:3:14: error: argument of exp() must be a number, got bool");
  diags = Diagnostics();
  BOOST_TEST(errors("pow(x)", ExprMode::formula) ==
             "spec.toml:3:10: error: pow() takes 2 arguments, got 1");
}

BOOST_AUTO_TEST_CASE(len_argument) {
  BOOST_TEST(errors("len(alpha) > 0") ==
             "spec.toml:3:14: error: len() takes a counted parameter, got float");
  diags = Diagnostics();
  BOOST_TEST(errors("len(x) > 0") ==
             "spec.toml:3:14: error: len() takes a counted parameter; 'x' is one tensor (did "
             "you mean x.length()?)");
}

BOOST_AUTO_TEST_CASE(present_argument) {
  BOOST_TEST(errors("present(x)") ==
             "spec.toml:3:18: error: present() takes an optional input; 'x' is required");
  diags = Diagnostics();
  BOOST_TEST(errors("present(alpha)") ==
             "spec.toml:3:18: error: present() takes an optional input, got float");
  diags = Diagnostics();
  BOOST_TEST(errors("present(xs[0])") ==
             "spec.toml:3:18: error: present() takes an optional input by name, got 'xs[0]'");
}

BOOST_AUTO_TEST_CASE(indexing) {
  BOOST_TEST(errors("alpha[0] > 0") ==
             "spec.toml:3:10: error: 'alpha' is a float, not a counted parameter; only counted "
             "parameters can be indexed");
  diags = Diagnostics();
  BOOST_TEST(errors("x[0] == 1") ==
             "spec.toml:3:10: error: 'x' is a tensor, not a counted input; use x.size(i) for "
             "its dimensions");
  diags = Diagnostics();
  BOOST_TEST(errors("dims[alpha] > 0") == "spec.toml:3:15: error: index must be an int, got float");
}

BOOST_AUTO_TEST_CASE(conditional_types) {
  BOOST_TEST(errors("n ? 1 : 2") ==
             "spec.toml:3:10: error: the condition of '?:' must be a bool, got int");
  diags = Diagnostics();
  BOOST_TEST(errors("flag ? 1 : float32") ==
             "spec.toml:3:15: error: the branches of '?:' have incompatible types: int and dtype");
  diags = Diagnostics();
  BOOST_TEST(errors("(flag ? mode : 'vald') == mode") ==
             "spec.toml:3:25: error: 'vald' is not a value of enum PadMode; did you mean 'valid'?");
}

BOOST_AUTO_TEST_CASE(array_elements) {
  BOOST_TEST(errors("len([0, 1.5]) > 0") ==
             "spec.toml:3:18: error: array elements must be ints, got float");
}

BOOST_AUTO_TEST_CASE(counted_input_in_formula) {
  BOOST_TEST(errors("xs + 1", ExprMode::formula) ==
             "spec.toml:3:10: error: 'xs' is a counted input; a formula works on one element "
             "of single inputs");
}

// Independent mistakes are all reported, in source order.
BOOST_AUTO_TEST_CASE(several_errors) {
  BOOST_TEST(errors("x.rnak() == 2 && alpah > 0 && present(x)") ==
             "spec.toml:3:12: error: unknown method 'rnak'; did you mean 'rank'?\n"
             "spec.toml:3:27: error: unknown name 'alpah'; did you mean 'alpha'?\n"
             "spec.toml:3:48: error: present() takes an optional input; 'x' is required");
}

// A failed operand silences its parents: one mistake, one message.
BOOST_AUTO_TEST_CASE(errors_do_not_cascade) {
  ExprPtr e = checked("(alpah + 1 > flag) && !(dims[zz] + 1)");
  BOOST_TEST(join(diags.lines()) ==
             "spec.toml:3:11: error: unknown name 'alpah'; did you mean 'alpha'?\n"
             "spec.toml:3:39: error: unknown name 'zz'");
  BOOST_TEST(e->type.is_error());
}

BOOST_AUTO_TEST_SUITE_END()

// ===========================================================================
BOOST_FIXTURE_TEST_SUITE(expr_cpp, Fixture)

BOOST_AUTO_TEST_CASE(comparisons_and_names) {
  BOOST_TEST(cpp("alpha >= 0") == "alpha >= 0");
  BOOST_TEST(cpp("flag != true") == "flag != true");
  BOOST_TEST(cpp("input.rank() > 0") == "static_cast<std::int64_t>(input_.rank()) > 0");
}

BOOST_AUTO_TEST_CASE(tensor_methods) {
  BOOST_TEST(cpp("x.rank() == 2") == "static_cast<std::int64_t>(x.rank()) == 2");
  BOOST_TEST(cpp("y.size(0) == x.size(-1)") ==
             R"(detail::dim_size(kOp, "y", y, 0) == detail::dim_size(kOp, "x", x, -1))");
  BOOST_TEST(cpp("x.length() > 0") == "x.length() > 0");
  BOOST_TEST(cpp("x.dtype() == y.dtype()") == "x.dtype() == y.dtype()");
  BOOST_TEST(cpp("x.isScalar()") == "(x.rank() == 0)");
  BOOST_TEST(cpp("!x.isEmpty()") == "!(x.length() == 0)");
}

BOOST_AUTO_TEST_CASE(indexed_receiver) {
  BOOST_TEST(cpp("xs[1].size(0) == 3") ==
             R"(detail::dim_size(kOp, "xs[1]", detail::element(kOp, "xs", xs, 1), 0) == 3)");
  BOOST_TEST(cpp("(flag ? x : y).rank() == 1") ==
             "static_cast<std::int64_t>((flag ? x : y).rank()) == 1");
}

BOOST_AUTO_TEST_CASE(indexing_and_len) {
  BOOST_TEST(cpp("dims[0] > 0") == R"(detail::element(kOp, "dims", dims, 0) > 0)");
  BOOST_TEST(cpp("len(dims) == x.rank()") ==
             "static_cast<std::int64_t>(dims.size()) == static_cast<std::int64_t>(x.rank())");
  BOOST_TEST(cpp("Conv2DConfig.stride[n] > 0") ==
             R"(detail::element(kOp, "Conv2DConfig.stride", cfg.stride, n) > 0)");
  BOOST_TEST(cpp("[1, 2][n] > 0") ==
             R"(detail::element(kOp, "[1, 2]", opgen::Span<std::int64_t>{1, 2}, n) > 0)");
  BOOST_TEST(cpp("len([1, 2, 3]) == n") == "3 == n");
}

BOOST_AUTO_TEST_CASE(functions) {
  BOOST_TEST(cpp("sameType(x, xs)") == "detail::same_type({x, xs})");
  BOOST_TEST(cpp("sameShape(x, y)") == "detail::same_shape(x, y)");  // single tensors
  BOOST_TEST(cpp("sameType(x, y, b)") == "detail::same_type(x, y, b)");
  BOOST_TEST(cpp("sameType(xs[0], x)") ==
             R"(detail::same_type({detail::element(kOp, "xs", xs, 0), x}))");  // left to right
  BOOST_TEST(cpp("broadcastable(xs)") == "detail::broadcastable({xs})");
  BOOST_TEST(cpp("isFloat(x)") == "is_float(x.dtype())");
  BOOST_TEST(cpp("isInt(dt)") == "is_int(dt)");
  BOOST_TEST(cpp("isFloat(xs[0])") == R"(is_float(detail::element(kOp, "xs", xs, 0).dtype()))");
  BOOST_TEST(cpp("present(b)") == "b.defined()");
  BOOST_TEST(cpp("!present(b) || b.rank() == 1") ==
             "!b.defined() || static_cast<std::int64_t>(b.rank()) == 1");
  BOOST_TEST(cpp("all(flag, n > 0)") == "(flag && n > 0)");
  BOOST_TEST(cpp("all(flag || n > 0, alpha > 0)") == "((flag || n > 0) && alpha > 0)");
  BOOST_TEST(cpp("some(flag, n > 0)") == "(flag || n > 0)");
  BOOST_TEST(cpp("inRange(alpha, 0, 1)") == "(0 <= alpha && alpha <= 1)");
  BOOST_TEST(cpp("inRange(n + 1, 0, n * 2)") == "(0 <= n + 1 && n + 1 <= n * 2)");
}

// Integer / % << >> are checked helpers; float division stays plain.
BOOST_AUTO_TEST_CASE(integer_helpers) {
  BOOST_TEST(cpp("n / 2 > 1") == "detail::checked_div(kOp, n, 2) > 1");
  BOOST_TEST(cpp("(n + 1) % 2 == 0") == "detail::checked_mod(kOp, n + 1, 2) == 0");
  BOOST_TEST(cpp("n << 2 > n >> 1") == "detail::shift_left(n, 2) > detail::shift_right(n, 1)");
  BOOST_TEST(cpp("alpha / 2 > 0") == "alpha / 2 > 0");
  BOOST_TEST(cpp("n / alpha > 0") == "n / alpha > 0");
  BOOST_TEST(cpp("-(n / 2) < 0") == "-detail::checked_div(kOp, n, 2) < 0");
  ctx.op_var = "op";
  BOOST_TEST(cpp("n % 3 == 0") == "detail::checked_mod(op, n, 3) == 0");
}

BOOST_AUTO_TEST_CASE(dtype_and_enum_literals) {
  BOOST_TEST(cpp("x.dtype() == float32") == "x.dtype() == DType::float32");
  BOOST_TEST(cpp("dt != bool") == "dt != DType::bool_");
  BOOST_TEST(cpp("mode == 'same'") == "mode == PadMode::same");
  BOOST_TEST(cpp("\"delete\" != mode") == "PadMode::delete_ != mode");
  ctx.enum_prefix = "nn::";
  BOOST_TEST(cpp("mode == 'valid'") == "mode == nn::PadMode::valid");
}

BOOST_AUTO_TEST_CASE(string_literals) {
  BOOST_TEST(cpp(R"(name == 'a"b\\c')") == R"(name == "a\"b\\c")");
  BOOST_TEST(cpp("name != 'a\tb'") == R"(name != "a\011b")");
  BOOST_TEST(cpp("'a' == 'b'") == R"(std::string_view("a") == "b")");
}

BOOST_AUTO_TEST_CASE(number_literals) {
  BOOST_TEST(cpp("alpha > 1.") == "alpha > 1.0");
  BOOST_TEST(cpp("alpha > .5") == "alpha > 0.5");
  BOOST_TEST(cpp("alpha > 1e-3") == "alpha > 1e-3");
  BOOST_TEST(cpp("alpha > 2.e3") == "alpha > 2.0e3");
  BOOST_TEST(cpp("n > 0x10") == "n > 0x10");
  BOOST_TEST(cpp("n > 007") == "n > 7");
  BOOST_TEST(cpp("n < 9223372036854775807") == "n < 9223372036854775807");
}

// The language's ints are 64-bit; C++'s literals are int.
BOOST_AUTO_TEST_CASE(literal_arithmetic_widens) {
  BOOST_TEST(cpp("n > 65536 * 65536") == "n > std::int64_t{65536} * 65536");
  BOOST_TEST(cpp("n > -2 * 3 + 1") == "n > std::int64_t{-2} * 3 + 1");
  BOOST_TEST(cpp("n > n * 65536") == "n > n * 65536");
}

// Parentheses wherever precedence or -Wparentheses asks for them.
BOOST_AUTO_TEST_CASE(parentheses) {
  BOOST_TEST(cpp("flag && n > 0 || alpha > 0") == "(flag && n > 0) || alpha > 0");
  BOOST_TEST(cpp("(n & 1) == 0") == "(n & 1) == 0");
  BOOST_TEST(cpp("((n | 2) ^ (n & 3)) > 0") == "((n | 2) ^ (n & 3)) > 0");
  BOOST_TEST(cpp("(n | 2 ^ n & 3) > 0") == "(n | (2 ^ (n & 3))) > 0");
  BOOST_TEST(cpp("(n + 1) * 2 > 0") == "(n + 1) * 2 > 0");
  BOOST_TEST(cpp("n - (n - 1) > 0") == "n - (n - 1) > 0");
  BOOST_TEST(cpp("-(-n) > 0") == "-(-n) > 0");
  BOOST_TEST(cpp("!(flag && flag)") == "!(flag && flag)");
  BOOST_TEST(cpp("(n == 1) == flag") == "(n == 1) == flag");
  BOOST_TEST(cpp("(flag ? n : 2) > 0") == "(flag ? n : 2) > 0");
  BOOST_TEST(cpp("flag ? n > 0 : (flag ? true : false)") == "flag ? n > 0 : (flag ? true : false)");
}

BOOST_AUTO_TEST_CASE(formulas) {
  // Float-only ops: plain C++ arithmetic and <cmath>; float args in the
  // element's precision; min and max with the kernels' NaN semantics.
  BOOST_TEST(formula("x > 0 ? x : alpha * x") == "x > 0 ? x : opgen::formula::arg<T>(alpha) * x");
  BOOST_TEST(formula("input * 2") == "input_ * 2");
  BOOST_TEST(formula("rsqrt(x)") == "(1 / std::sqrt(x))");
  BOOST_TEST(formula("sign(x - 1)") == "((x - 1 > 0) - (x - 1 < 0))");
  BOOST_TEST(formula("exp2(x) + log1p(y)") == "std::exp2(x) + std::log1p(y)");
  BOOST_TEST(formula("max(x, 0) * min(y, 1)") ==
             "opgen::formula::max<T>(x, 0) * opgen::formula::min<T>(y, 1)");
  BOOST_TEST(formula("isnan(x) ? 0 : atan2(x, y)") == "std::isnan(x) ? 0 : std::atan2(x, y)");
  BOOST_TEST(formula("x / y - -x") == "x / y - -x");
  BOOST_TEST(formula("abs(x) + abs(alpha)") ==
             "std::abs(x) + std::abs(opgen::formula::arg<T>(alpha))");
  BOOST_TEST(formula("-alpha * x") == "-opgen::formula::arg<T>(alpha) * x");
  // Ints (args, literals) wrap and never trap, whatever the elements are.
  BOOST_TEST(formula("n % 3 + (n << 1) + x") ==
             "opgen::formula::add(opgen::formula::mod(n, 3), opgen::formula::shift_left(n, 1)) + x");
  BOOST_TEST(formula("n / 2 + x") == "opgen::formula::div(n, 2) + x");
  BOOST_TEST(formula("65536 * 65536 + x") ==
             "opgen::formula::mul(std::int64_t{65536}, 65536) + x");
  BOOST_TEST(formula("(1 << n) > x") == "opgen::formula::shift_left(std::int64_t{1}, n) > x");
  BOOST_TEST(formula("-n + -1 > x") == "opgen::formula::add(opgen::formula::neg(n), -1) > x");
}

// An op with integer dtypes: element arithmetic goes through the helpers
// too; comparisons and float arithmetic stay plain.
BOOST_AUTO_TEST_CASE(formulas_on_integer_elements) {
  FormulaContext ints;
  ints.integer_elements = true;
  BOOST_TEST(formula("x + y", ints) == "opgen::formula::add(x, y)");
  BOOST_TEST(formula("x / y - -x", ints) ==
             "opgen::formula::sub(opgen::formula::div(x, y), opgen::formula::neg(x))");
  BOOST_TEST(formula("abs(x) * x", ints) == "opgen::formula::mul(opgen::formula::abs(x), x)");
  BOOST_TEST(formula("min(max(x, alpha), 3)", ints) ==
             "opgen::formula::min<T>(opgen::formula::max<T>(x, opgen::formula::arg<T>(alpha)), 3)");
  BOOST_TEST(formula("x < 0 ? 0.5 * x : x", ints) == "x < 0 ? 0.5 * x : x");
  // Another element type name and the short helper prefix (inside opgen).
  FormulaContext named = ints;
  named.element_type = "E";
  named.helpers = "formula::";
  BOOST_TEST(formula("max(x, alpha) - y", named) ==
             "formula::sub(formula::max<E>(x, formula::arg<E>(alpha)), y)");
}

// Power-assert terms: the values a failed check shows.
BOOST_AUTO_TEST_CASE(shown_terms_of_checks) {
  BOOST_TEST(terms("y.size(0) == x.size(1)") ==
             R"(y.size(0) => detail::dim_size(kOp, "y", y, 0) | )"
             R"(x.size(1) => detail::dim_size(kOp, "x", x, 1))");
  BOOST_TEST(terms("alpha >= 0") == "alpha => alpha");
  BOOST_TEST(terms("sameType(x, y)") == "x => x | y => y");
  BOOST_TEST(terms("x.rank() == 2 && x.rank() < n") ==
             "x.rank() => static_cast<std::int64_t>(x.rank()) | n => n");
  BOOST_TEST(terms("x.dtype() == float32") == "x.dtype() => x.dtype()");
  BOOST_TEST(terms("len(dims) > 0") == "len(dims) => static_cast<std::int64_t>(dims.size())");
  BOOST_TEST(
      terms("xs[0].rank() == 2") ==
      R"(xs[0].rank() => static_cast<std::int64_t>(detail::element(kOp, "xs", xs, 0).rank()))");
  BOOST_TEST(terms("Conv2DConfig.groups > 1") == "Conv2DConfig.groups => cfg.groups");
  BOOST_TEST(terms("!present(b) || b.rank() == 1") ==
             "b => b | b.rank() => static_cast<std::int64_t>(b.rank())");
}

BOOST_AUTO_TEST_CASE(shown_terms_choices) {
  // A predicate method shows its tensor.
  BOOST_TEST(terms("x.isScalar()") == "x => x");
  // Enums have no detail::show(); literals are never shown.
  BOOST_TEST(terms("mode == 'same' && 1 < 2") == "");
  // The source spelling is the author's.
  BOOST_TEST(terms("y.size( 0 ) == 1") == R"(y.size( 0 ) => detail::dim_size(kOp, "y", y, 0))");
}

BOOST_AUTO_TEST_CASE(canonical_source) {
  BOOST_TEST(source_of("alpha>=0") == "alpha >= 0");
  BOOST_TEST(source_of("f( x ,y )") == "f(x, y)");
  BOOST_TEST(source_of("mode == 'same'") == "mode == \"same\"");
  BOOST_TEST(source_of(R"('a"b\\c')") == R"("a\"b\\c")");
  BOOST_TEST(source_of("!(a)") == "!a");
  BOOST_TEST(source_of("- -a") == "-(-a)");
  BOOST_TEST(source_of("x.size(-1)") == "x.size(-1)");
  BOOST_TEST(source_of("[0,1]") == "[0, 1]");
  BOOST_TEST(source_of("c?a:b") == "c ? a : b");
  BOOST_TEST(source_of("(a + b).c") == "(a + b).c");
  BOOST_TEST(source_of("1.  +  .5") == "1. + .5");
}

BOOST_AUTO_TEST_SUITE_END()

// ===========================================================================
BOOST_FIXTURE_TEST_SUITE(expr_prose, Fixture)

BOOST_AUTO_TEST_CASE(comparisons) {
  BOOST_TEST(prose("alpha >= 0") == "alpha \u2265 0");
  BOOST_TEST(prose("n != 0") == "n \u2260 0");
  BOOST_TEST(prose("alpha <= 1") == "alpha \u2264 1");
  BOOST_TEST(prose("y.size(0) == x.size(1)") == "y.size(0) = x.size(1)");
  BOOST_TEST(prose("x.size(0) * 2 == n") == "x.size(0) * 2 = n");
  BOOST_TEST(prose("len(dims) > 0") == "len(dims) > 0");
}

BOOST_AUTO_TEST_CASE(ranks) {
  BOOST_TEST(prose("x.rank() == 0") == "x is a scalar (rank 0)");
  BOOST_TEST(prose("x.rank() == 1") == "x is a vector (rank 1)");
  BOOST_TEST(prose("x.rank() == 2") == "x is a matrix (rank 2)");
  BOOST_TEST(prose("2 == xs[0].rank()") == "xs[0] is a matrix (rank 2)");
  BOOST_TEST(prose("x.rank() == 4") == "x has rank 4");
  BOOST_TEST(prose("x.rank() >= 2") == "x.rank() \u2265 2");
  BOOST_TEST(prose("x.isScalar()") == "x is a scalar (rank 0)");
}

BOOST_AUTO_TEST_CASE(tensor_groups) {
  BOOST_TEST(prose("sameType(x, y)") == "x and y have the same dtype");
  BOOST_TEST(prose("sameType(x, y, b)") == "x, y and b have the same dtype");
  BOOST_TEST(prose("sameShape(x, y)") == "x and y have the same shape");
  BOOST_TEST(prose("broadcastable(x, y)") == "x and y are broadcastable");
  BOOST_TEST(prose("sameType(xs)") == "all tensors of xs have the same dtype");
  BOOST_TEST(prose("sameType(x, xs)") == "x and the tensors of xs have the same dtype");
}

BOOST_AUTO_TEST_CASE(predicates) {
  BOOST_TEST(prose("isFloat(x)") == "x is a float tensor");
  BOOST_TEST(prose("isInt(dt)") == "dt is an int dtype");
  BOOST_TEST(prose("!isFloat(x)") == "x is not a float tensor");
  BOOST_TEST(prose("present(b)") == "b is given");
  BOOST_TEST(prose("!present(b)") == "b is not given");
  BOOST_TEST(prose("x.isEmpty()") == "x is empty");
  BOOST_TEST(prose("!x.isEmpty()") == "x is not empty");
  BOOST_TEST(prose("!flag") == "not flag");
  BOOST_TEST(prose("inRange(alpha, 0, 1)") == "0 \u2264 alpha \u2264 1");
}

BOOST_AUTO_TEST_CASE(equalities_with_phrases) {
  BOOST_TEST(prose("mode == 'same'") == "mode is \"same\"");
  BOOST_TEST(prose("mode != 'same'") == "mode is not \"same\"");
  BOOST_TEST(prose("x.dtype() == float32") == "x has dtype float32");
  BOOST_TEST(prose("x.dtype() != int64") == "x does not have dtype int64");
  BOOST_TEST(prose("x.dtype() == y.dtype()") == "x and y have the same dtype");
}

BOOST_AUTO_TEST_CASE(conjunctions) {
  BOOST_TEST(prose("alpha >= 0 && n > 0") == "alpha \u2265 0 and n > 0");
  BOOST_TEST(prose("alpha >= 0 && n > 0 && flag") == "alpha \u2265 0, n > 0, and flag");
  BOOST_TEST(prose("flag || n > 0") == "flag or n > 0");
  BOOST_TEST(prose("(flag || n > 0) && alpha > 0") == "(flag or n > 0) and alpha > 0");
  BOOST_TEST(prose("sameType(x, y) && x.rank() == 2") ==
             "x and y have the same dtype, and x is a matrix (rank 2)");
  BOOST_TEST(prose("all(flag, n > 0)") == "flag and n > 0");
  BOOST_TEST(prose("some(flag, n > 0)") == "flag or n > 0");
}

// all() and some() join the lists of && and ||; ?: clauses and the other
// connective are grouped; commas inside brackets do not count.
BOOST_AUTO_TEST_CASE(nested_connectives) {
  BOOST_TEST(prose("all(flag, n > 0) && alpha < 1") == "flag, n > 0, and alpha < 1");
  BOOST_TEST(prose("some(flag || n > 0, alpha > 0)") == "flag, n > 0, or alpha > 0");
  BOOST_TEST(prose("some(flag, n > 0) && all(n < 9)") == "(flag or n > 0) and n < 9");
  BOOST_TEST(prose("(flag ? n : 2) > 0 && (flag ? n > 0 : flag)") ==
             "(flag ? n : 2) > 0 and (flag ? n > 0 : flag)");
  BOOST_TEST(prose("[1, 2][n] > 0 && n < 3") == "[1, 2][n] > 0 and n < 3");
  BOOST_TEST(prose("(flag ? x : y).rank() == 1") == "(flag ? x : y) is a vector (rank 1)");
  BOOST_TEST(prose("'same' == mode") == "mode is \"same\"");
}

BOOST_AUTO_TEST_CASE(implication) {
  BOOST_TEST(prose("!present(b) || b.rank() == 1") == "if b is given, b is a vector (rank 1)");
  BOOST_TEST(prose("!present(b) || sameShape(b, x)") ==
             "if b is given, b and x have the same shape");
}

// Anything without a phrase is its canonical source.
BOOST_AUTO_TEST_CASE(fallback_to_source) {
  BOOST_TEST(prose("flag ? n > 0 : alpha > 0") == "flag ? n > 0 : alpha > 0");
  BOOST_TEST(prose("!(flag && n > 0)") == "!(flag && n > 0)");
  BOOST_TEST(prose("x.size(0)") == "x.size(0)");
}

BOOST_AUTO_TEST_SUITE_END()
