// C++ for checked expressions: the condition of a constraint in a wrapper,
// the body of a formula's scalar reference function, and the values a
// failed check shows.
//
// The output must compile without warnings at -Wall -Wextra -Wpedantic on
// g++ and clang and must mean exactly what the expression means:
// - parentheses follow needs_parens() (precedence plus -Wparentheses);
// - integer `/`, `%`, `<<`, `>>` go through detail:: helpers, because the
//   plain operators are undefined for a zero divisor or a wide shift;
// - the language's ints are 64-bit, C++'s literals are `int`: `+ - *` on
//   two literal-only operands widens the left one, so `65536 * 65536`
//   prints as `std::int64_t{65536} * 65536` instead of overflowing an int;
// - formulas (the bodies of the scalar reference functions) follow
//   opgen/formula.hpp instead: arithmetic that may be on integers calls its
//   wrapping helpers, min and max its IEEE 754-2019 ones, and float args are
//   rounded to the element type first; float-only arithmetic stays plain.

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "expr.hpp"
#include "expr_builtins.hpp"
#include "expr_operators.hpp"

namespace opgen::gen {
namespace {

// A C++ string literal; control characters as three-digit octal escapes,
// which (unlike \x) cannot swallow the characters that follow.
std::string cpp_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7F) {
      out += '\\';
      out += static_cast<char>('0' + ((u >> 6) & 7));
      out += static_cast<char>('0' + ((u >> 3) & 7));
      out += static_cast<char>('0' + (u & 7));
    } else {
      out += c;
    }
  }
  return out + '"';
}

// "5." and ".5" are valid C++ but read like typos: print "5.0" and "0.5".
std::string cpp_float(std::string s) {
  if (s.empty()) return "0.0";
  if (s.front() == '.') s.insert(0, 1, '0');
  const std::size_t dot = s.find('.');
  if (dot != std::string::npos && (dot + 1 == s.size() || s[dot + 1] < '0' || s[dot + 1] > '9')) {
    s.insert(dot + 1, 1, '0');
  }
  return s;
}

std::string cpp_int(const Expr& e) {
  // Hex keeps its spelling; decimals are normalised ("007" would be octal).
  if (e.text.size() > 2 && e.text[0] == '0' && (e.text[1] == 'x' || e.text[1] == 'X')) {
    return e.text;
  }
  return std::to_string(e.int_value);
}

bool is_int(const Expr& e) { return e.type.kind == TypeKind::int_; }

// True when the printed C++ has type `int` rather than std::int64_t: a
// literal that fits in an int, and what unary operators and ?: make of such.
bool cxx_int(const Expr& e) {
  switch (e.kind) {
    case ExprKind::int_literal:
      return e.int_value <= 2147483647;
    case ExprKind::unary:
      return is_int(e) && cxx_int(*e.args[0]);
    case ExprKind::conditional:
      return is_int(e) && cxx_int(*e.args[1]) && cxx_int(*e.args[2]);
    default:
      return false;
  }
}

// Integer `/ % << >>` in constraints print as calls of the runtime's
// checked helpers.
const char* constraint_helper(const Expr& e) {
  if (e.kind != ExprKind::binary || !is_int(*e.args[0]) || !is_int(*e.args[1])) return nullptr;
  if (e.text == "/") return "detail::checked_div";
  if (e.text == "%") return "detail::checked_mod";
  if (e.text == "<<") return "detail::shift_left";
  if (e.text == ">>") return "detail::shift_right";
  return nullptr;
}

// The opgen::formula helper of a formula's binary operator whose operands
// may both be integers: plain C++ would overflow (+ - *), divide by zero
// (/ %) or shift out of range.
const char* formula_helper(std::string_view op) {
  if (op == "+") return "add";
  if (op == "-") return "sub";
  if (op == "*") return "mul";
  if (op == "/") return "div";
  if (op == "%") return "mod";
  if (op == "<<") return "shift_left";
  if (op == ">>") return "shift_right";
  return nullptr;  // & | ^ and comparisons are defined for every int
}

class CppPrinter {
 public:
  explicit CppPrinter(const CppContext& ctx) : ctx_(ctx) {}
  explicit CppPrinter(const FormulaContext& f) : formula_(&f) { ctx_.enum_prefix = f.enum_prefix; }

  std::string print(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::int_literal:
        return cpp_int(e);
      case ExprKind::float_literal:
        return cpp_float(e.text);
      case ExprKind::bool_literal:
        return e.bool_value ? "true" : "false";
      case ExprKind::string_literal:
        return string_literal(e);
      case ExprKind::array_literal:
        return "opgen::Span<std::int64_t>{" + list(e.args, 0) + "}";
      case ExprKind::name:
      case ExprKind::field:
        return name(e);
      case ExprKind::method:
        return method(e);
      case ExprKind::call:
        return call(e);
      case ExprKind::index:
        return "detail::element(" + ctx_.op_var + ", " + cpp_string(to_source(*e.args[0])) + ", " +
               print(*e.args[0]) + ", " + print(*e.args[1]) + ")";
      case ExprKind::unary:
        if (const char* h = helper(e)) return call_of(h, {e.args[0].get()});
        return e.text + operand(*e.args[0]);
      case ExprKind::binary:
        return binary(e);
      case ExprKind::conditional:
        return branch(*e.args[0]) + " ? " + branch(*e.args[1]) + " : " + branch(*e.args[2]);
    }
    return e.text;
  }

 private:
  // Formulas only: true when `e` may be an integer once the reference
  // function is instantiated: an int, an element of an op with integer
  // dtypes, or what C++ computes from those as an integer. (The checker's
  // types say "a number" for abs, min, max and sign; the C++ result of
  // abs(x) is an int when x is.)
  bool may_be_int(const Expr& e) const {
    const auto any = [&] {
      for (const ExprPtr& a : e.args) {
        if (may_be_int(*a)) return true;
      }
      return false;
    };
    const auto all = [&] {
      for (const ExprPtr& a : e.args) {
        if (!may_be_int(*a)) return false;
      }
      return true;
    };
    switch (e.kind) {
      case ExprKind::int_literal:
        return true;
      case ExprKind::unary:
        return e.text != "!" && all();
      case ExprKind::binary:
        return e.type.kind != TypeKind::bool_ && all();
      case ExprKind::conditional:
        return may_be_int(*e.args[1]) || may_be_int(*e.args[2]);
      case ExprKind::call:
        if (e.text == "sign") return true;
        if (e.text == "abs") return all();
        // With an integer element type, min and max of an int and a float
        // are ints (opgen/formula.hpp); otherwise only of two ints.
        if (e.text == "min" || e.text == "max") return all() || (formula_->integer_elements && any());
        return false;  // <cmath> results are floats
      default:
        return e.type.kind == TypeKind::int_ ||
               (e.type.kind == TypeKind::element && formula_->integer_elements);
    }
  }

  // The helper an operator node prints as, or null: the runtime's checked
  // ones in constraints, opgen::formula's in formulas. A helper call needs
  // no parentheses as an operand.
  const char* helper(const Expr& e) const {
    if (!formula_) return constraint_helper(e);
    if (e.kind == ExprKind::unary) {
      const Expr& a = *e.args[0];
      const bool literal = a.kind == ExprKind::int_literal;
      return e.text == "-" && !literal && may_be_int(a) ? "neg" : nullptr;
    }
    if (e.kind != ExprKind::binary || !may_be_int(*e.args[0]) || !may_be_int(*e.args[1])) {
      return nullptr;
    }
    return formula_helper(e.text);
  }

  // `opgen::formula::name(args)`, with `<T>` when `element_typed`.
  std::string call_of(std::string_view name, std::initializer_list<const Expr*> args,
                      bool element_typed = false) const {
    std::string out = formula_->helpers + std::string(name);
    if (element_typed) out += "<" + formula_->element_type + ">";
    out += "(";
    bool first = true;
    for (const Expr* a : args) {
      out += (first ? "" : ", ") + print(*a);
      first = false;
    }
    return out + ")";
  }

  std::string name(const Expr& e) const {
    if (formula_ && e.symbol && e.symbol->type.kind == TypeKind::float_) {
      // A float arg, in the element's precision as the kernels take it.
      return formula_->helpers + "arg<" + formula_->element_type + ">(" + e.symbol->cpp + ")";
    }
    if (e.symbol) return e.symbol->cpp;
    if (const auto dt = dtype_cpp(e.text)) return std::string(*dt);
    return e.text;
  }

  // An enum value once the checker has matched it, else a string.
  std::string string_literal(const Expr& e) const {
    const EnumInfo* en = e.type.kind == TypeKind::enum_ ? e.type.enum_info : nullptr;
    if (en) {
      for (std::size_t i = 0; i < en->values.size() && i < en->cpp_values.size(); ++i) {
        if (en->values[i] == e.text) {
          return ctx_.enum_prefix + en->cpp_type + "::" + en->cpp_values[i];
        }
      }
    }
    return cpp_string(e.text);
  }

  std::string method(const Expr& e) const {
    const Expr& recv = *e.args[0];
    std::string r = print(recv);
    if (postfix_needs_parens(recv)) r = "(" + r + ")";
    const std::string& m = e.text;
    if (m == "rank") return "static_cast<std::int64_t>(" + r + ".rank())";
    if (m == "size") {
      return "detail::dim_size(" + ctx_.op_var + ", " + cpp_string(to_source(recv)) + ", " + r +
             ", " + print(*e.args[1]) + ")";
    }
    if (m == "isScalar") return "(" + r + ".rank() == 0)";
    if (m == "isEmpty") return "(" + r + ".length() == 0)";
    return r + "." + m + "()";  // length(), dtype()
  }

  std::string call(const Expr& e) const {
    const FunctionInfo* f = find_function(e.text);
    if (!f) return e.text + "(" + list(e.args, 0) + ")";
    switch (f->kind) {
      case FunctionKind::tensor_group: {
        // Tensor inputs named as such (the usual `sameType(x, y)`): the
        // overload that takes them one by one, which inlines to plain
        // comparisons. Otherwise (a counted input, or an element `xs[i]`,
        // whose index checks must run left to right as in a braced list)
        // the list of groups.
        const bool singles = std::all_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) {
          return a->kind == ExprKind::name && a->type.kind == TypeKind::tensor;
        });
        if (singles) return std::string(f->cpp) + "(" + list(e.args, 0) + ")";
        return std::string(f->cpp) + "({" + list(e.args, 0) + "})";
      }
      case FunctionKind::bool_fold:
        return fold(e, e.text == "all" ? "&&" : "||");
      case FunctionKind::len:
        if (e.args[0]->kind == ExprKind::array_literal) {
          return std::to_string(e.args[0]->args.size());
        }
        return "static_cast<std::int64_t>(" + print(*e.args[0]) + ".size())";
      case FunctionKind::dtype_class:
        return dtype_class(e, *f);
      case FunctionKind::in_range: {
        const std::string lo = operand(*e.args[1], "<=", false);
        return "(" + lo + " <= " + operand(*e.args[0], "<=", true) + " && " +
               operand(*e.args[0], "<=", false) + " <= " + operand(*e.args[2], "<=", true) + ")";
      }
      case FunctionKind::present:
        return print(*e.args[0]) + ".defined()";
      case FunctionKind::scalar:
        return scalar(e, *f);
    }
    return e.text;
  }

  std::string fold(const Expr& e, std::string_view op) const {
    std::string out = "(";
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      if (i > 0) {
        out += ' ';
        out += op;
        out += ' ';
      }
      out += operand(*e.args[i], op, false);
    }
    return out + ")";
  }

  std::string dtype_class(const Expr& e, const FunctionInfo& f) const {
    const Expr& a = *e.args[0];
    if (a.type.kind == TypeKind::dtype) return std::string(f.cpp) + "(" + print(a) + ")";
    std::string t = print(a);
    if (postfix_needs_parens(a)) t = "(" + t + ")";
    return std::string(f.cpp) + "(" + t + ".dtype())";
  }

  std::string scalar(const Expr& e, const FunctionInfo& f) const {
    if (e.text == "min" || e.text == "max") {
      return call_of(e.text, {e.args[0].get(), e.args[1].get()}, true);
    }
    if (e.text == "abs" && may_be_int(*e.args[0])) return call_of("abs", {e.args[0].get()});
    if (e.text == "rsqrt") return "(1 / std::sqrt(" + print(*e.args[0]) + "))";
    if (e.text == "sign") {
      // An int in C++ (-1, 0 or 1; 0 for NaN); the caller converts to T.
      const std::string x = operand(*e.args[0], ">", false);
      return "((" + x + " > 0) - (" + x + " < 0))";
    }
    return std::string(f.cpp) + "(" + list(e.args, 0) + ")";
  }

  std::string binary(const Expr& e) const {
    const Expr& l = *e.args[0];
    const Expr& r = *e.args[1];
    // A shift has its left operand's type: an int literal shifted in a
    // formula is widened whatever the count is.
    const bool shift = formula_ && e.text == "<<";
    const bool widen = (e.text == "+" || e.text == "-" || e.text == "*" || shift) && is_int(e) &&
                       cxx_int(l) && (shift || cxx_int(r));
    if (const char* h = helper(e)) {
      if (formula_) {
        std::string ls = print(l);
        if (widen) ls = "std::int64_t{" + ls + "}";
        return formula_->helpers + h + "(" + ls + ", " + print(r) + ")";
      }
      const bool needs_op = e.text == "/" || e.text == "%";
      return std::string(h) + "(" + (needs_op ? ctx_.op_var + ", " : "") + print(l) + ", " +
             print(r) + ")";
    }
    std::string ls = operand(l, e.text, false);
    const std::string rs = operand(r, e.text, true);
    if (widen) ls = "std::int64_t{" + ls + "}";
    // Two string literals would compare pointers.
    if (l.kind == ExprKind::string_literal && r.kind == ExprKind::string_literal &&
        l.type.kind == TypeKind::string) {
      ls = "std::string_view(" + ls + ")";
    }
    return ls + " " + e.text + " " + rs;
  }

  // `child` as an operand of binary operator `op`, parenthesised as needed.
  std::string operand(const Expr& child, std::string_view op, bool right) const {
    const std::string s = print(child);
    if (helper(child)) return s;
    return needs_parens(op, child, right) ? "(" + s + ")" : s;
  }

  // The operand of a unary operator.
  std::string operand(const Expr& child) const {
    const std::string s = print(child);
    if (helper(child)) return s;
    return unary_needs_parens(child) ? "(" + s + ")" : s;
  }

  std::string branch(const Expr& b) const {
    const std::string s = print(b);
    return b.kind == ExprKind::conditional ? "(" + s + ")" : s;
  }

  std::string list(const std::vector<ExprPtr>& args, std::size_t first) const {
    std::string out;
    for (std::size_t i = first; i < args.size(); ++i) {
      if (i > first) out += ", ";
      out += print(*args[i]);
    }
    return out;
  }

  CppContext ctx_;
  const FormulaContext* formula_ = nullptr;
};

// --- shown terms -------------------------------------------------------------

bool is_term(const Expr& e) {
  switch (e.kind) {
    case ExprKind::name:
    case ExprKind::field:
      return e.symbol != nullptr;  // not dtype literals (nor unresolved names)
    case ExprKind::method:
    case ExprKind::index:
      return true;
    case ExprKind::call:
      return e.text == "len" && !e.args.empty() && e.args[0]->kind != ExprKind::array_literal;
    default:
      return false;
  }
}

// Types detail::show() renders. Enums have no show() overload (their
// values are generated per namespace), nor do lists of strings.
bool showable(TypeKind k) {
  switch (k) {
    case TypeKind::bool_:
    case TypeKind::int_:
    case TypeKind::float_:
    case TypeKind::string:
    case TypeKind::dtype:
    case TypeKind::tensor:
    case TypeKind::tensor_list:
    case TypeKind::int_list:
    case TypeKind::float_list:
    case TypeKind::bool_list:
      return true;
    default:
      return false;
  }
}

class TermCollector {
 public:
  TermCollector(const LocatedText& source, const CppContext& ctx)
      : source_(source), printer_(ctx) {}

  void collect(const Expr& e) {
    if (!is_term(e)) {
      for (const ExprPtr& a : e.args) collect(*a);
      return;
    }
    // "x.isScalar() = false" says nothing the check does not; x's shape does.
    const bool predicate =
        e.kind == ExprKind::method && (e.text == "isScalar" || e.text == "isEmpty");
    add(predicate ? *e.args[0] : e);
  }

  std::vector<ShownTerm> take() { return std::move(terms_); }

 private:
  void add(const Expr& term) {
    if (!showable(term.type.kind)) return;
    std::string text = spelling(term);
    for (const ShownTerm& t : terms_) {
      if (t.source == text) return;
    }
    terms_.push_back({std::move(text), printer_.print(term)});
  }

  std::string spelling(const Expr& e) const {
    if (e.begin < e.end && e.end <= source_.text.size()) {
      return source_.text.substr(e.begin, e.end - e.begin);
    }
    return to_source(e);  // a tree not parsed from `source`
  }

  const LocatedText& source_;
  CppPrinter printer_;
  std::vector<ShownTerm> terms_;
};

}  // namespace

std::string to_cpp(const Expr& e, const CppContext& ctx) { return CppPrinter(ctx).print(e); }

// Formulas share the printer: the checker keeps tensor methods and tensor
// functions out of them, and element names print as their variables.
std::string to_cpp_formula(const Expr& e, const FormulaContext& ctx) {
  return CppPrinter(ctx).print(e);
}

std::vector<ShownTerm> shown_terms(const Expr& e, const LocatedText& source,
                                   const CppContext& ctx) {
  TermCollector c(source, ctx);
  c.collect(e);
  return c.take();
}

}  // namespace opgen::gen
