// to_prose: constraints as sentences for the reference pages and the
// header comments. Only shapes we can phrase without losing meaning get a
// phrase; everything else is its canonical source (to_source), so the docs
// never say less than the check does.
//
// Choices:
// - Comparisons keep their operands' source and use ≥ ≤ ≠ = for the
//   operator: "alpha ≥ 0", "y.size(0) = x.size(1)".
// - `x.rank() == N`: "x is a scalar (rank 0)", "x is a vector (rank 1)",
//   "x is a matrix (rank 2)", else "x has rank N"; `x.isScalar()` alike.
// - Conjunctions (`&&`, all()) of two short clauses read "A and B"; longer
//   ones, or clauses that already contain a comma, "and" or "or", are
//   separated by commas with "and" before the last ("A, B, and C") so that
//   grouping stays visible. A disjunction nested in a conjunction (or the
//   reverse), and a `?:` clause, are parenthesised. `||` and some() the
//   same with "or".
// - `!present(b) || P` reads "if b is given, P"; `!present(b)` "b is not
//   given"; `mode == "same"` `mode is "same"`; `x.dtype() == float32`
//   "x has dtype float32"; `x.dtype() == y.dtype()` "x and y have the same
//   dtype"; `inRange(v, lo, hi)` "lo ≤ v ≤ hi".
// - Names in sameType/sameShape/broadcastable: "x and y", "x, y and z";
//   a counted input is "the tensors of xs".

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expr.hpp"
#include "expr_operators.hpp"

namespace opgen::gen {
namespace {

std::string_view math_op(std::string_view op) {
  if (op == ">=") return "\u2265";
  if (op == "<=") return "\u2264";
  if (op == "!=") return "\u2260";
  if (op == "==") return "=";
  return op;
}

bool is_call(const Expr& e, std::string_view fn) {
  return e.kind == ExprKind::call && e.text == fn;
}

bool is_method(const Expr& e, std::string_view m) {
  return e.kind == ExprKind::method && e.text == m;
}

std::string rank_phrase(const std::string& subject, std::int64_t n) {
  switch (n) {
    case 0:
      return subject + " is a scalar (rank 0)";
    case 1:
      return subject + " is a vector (rank 1)";
    case 2:
      return subject + " is a matrix (rank 2)";
    default:
      return subject + " has rank " + std::to_string(n);
  }
}

// "x", "x and y", "x, y and z".
std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

// A clause whose own commas or "and"/"or" would blur the grouping. Text
// inside brackets or quotes is grouped already (`[1, 2]`, "(a or b)").
bool is_complex(std::string_view clause) {
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < clause.size(); ++i) {
    const char c = clause[i];
    if (c == '"' && (i == 0 || clause[i - 1] != '\\')) quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth != 0) continue;
    const std::string_view rest = clause.substr(i);
    if (rest.starts_with(", ") || rest.starts_with(" and ") || rest.starts_with(" or ")) {
      return true;
    }
  }
  return false;
}

// A receiver as the subject of a sentence: "(c ? x : y) is a vector".
std::string subject(const Expr& e) {
  const std::string s = to_source(e);
  return postfix_needs_parens(e) ? "(" + s + ")" : s;
}

std::string_view logic_of(const Expr& e) {
  if (e.kind == ExprKind::binary && is_logical(e.text)) return e.text;
  if (is_call(e, "all")) return "&&";
  if (is_call(e, "some")) return "||";
  return "";
}

// "A and B", or "A, B, and C" when there are more or they are long.
std::string join_clauses(const std::vector<std::string>& items, std::string_view word) {
  bool simple = items.size() == 2;
  for (const std::string& i : items) {
    if (is_complex(i)) simple = false;
  }
  if (simple) return items[0] + " " + std::string(word) + " " + items[1];
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    if (i > 0 && i + 1 == items.size()) out += std::string(word) + " ";
    out += items[i];
  }
  return out;
}

class Prose {
 public:
  std::string phrase(const Expr& e) const {
    if (auto p = known(e)) return *p;
    return to_source(e);
  }

 private:
  std::optional<std::string> known(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::binary:
        if (is_logical(e.text)) return logical(e);
        if (is_comparison(e.text)) return comparison(e);
        return std::nullopt;
      case ExprKind::unary:
        if (e.text == "!") return negation(*e.args[0]);
        return std::nullopt;
      case ExprKind::call:
        return call(e);
      case ExprKind::method:
        if (e.text == "isScalar") return rank_phrase(subject(*e.args[0]), 0);
        if (e.text == "isEmpty") return subject(*e.args[0]) + " is empty";
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  // --- && || all() some() ----------------------------------------------------

  std::string logical(const Expr& e) const {
    if (e.text == "||" && is_negated_present(*e.args[0])) {
      const Expr& input = *e.args[0]->args[0]->args[0];
      return "if " + to_source(input) + " is given, " + phrase(*e.args[1]);
    }
    std::vector<const Expr*> items;
    flatten(e, e.text, items);
    return clauses(items, e.text);
  }

  static bool is_negated_present(const Expr& e) {
    return e.kind == ExprKind::unary && e.text == "!" && is_call(*e.args[0], "present") &&
           e.args[0]->args.size() == 1;
  }

  // `a && b && c` is a left-leaning tree, and all(a, b) means a && b:
  // read each as one list.
  static void flatten(const Expr& e, std::string_view op, std::vector<const Expr*>& out) {
    if (logic_of(e) != op) {
      out.push_back(&e);
      return;
    }
    for (const ExprPtr& a : e.args) flatten(*a, op, out);
  }

  std::string clauses(const std::vector<const Expr*>& items, std::string_view op) const {
    std::vector<std::string> parts;
    for (const Expr* item : items) {
      std::string p = phrase(*item);
      // The other connective, or a ?: that has no phrase, is grouped.
      if (!logic_of(*item).empty() || item->kind == ExprKind::conditional) p = "(" + p + ")";
      parts.push_back(std::move(p));
    }
    if (parts.size() == 1) return parts[0];
    return join_clauses(parts, op == "&&" ? "and" : "or");
  }

  // --- ! -----------------------------------------------------------------------

  std::optional<std::string> negation(const Expr& a) const {
    if (is_call(a, "present") && a.args.size() == 1) {
      return to_source(*a.args[0]) + " is not given";
    }
    if (is_method(a, "isEmpty")) return subject(*a.args[0]) + " is not empty";
    if (is_method(a, "isScalar")) return subject(*a.args[0]) + " is not a scalar";
    if ((is_call(a, "isFloat") || is_call(a, "isInt")) && a.args.size() == 1) {
      return subject(*a.args[0]) + " is not " + dtype_class(a);
    }
    if (a.kind == ExprKind::name || a.kind == ExprKind::field) return "not " + to_source(a);
    return std::nullopt;
  }

  // --- comparisons ---------------------------------------------------------------

  std::optional<std::string> comparison(const Expr& e) const {
    const Expr& l = *e.args[0];
    const Expr& r = *e.args[1];
    const bool eq = e.text == "==";
    if (eq) {
      if (auto p = rank(l, r)) return p;
      if (auto p = rank(r, l)) return p;
      if (is_method(l, "dtype") && is_method(r, "dtype")) {
        return subject(*l.args[0]) + " and " + subject(*r.args[0]) + " have the same dtype";
      }
    }
    if (e.text == "==" || e.text == "!=") {
      const std::string_view verb = eq ? " is " : " is not ";
      if (is_enum_value(r) && !is_enum_value(l)) {
        return to_source(l) + std::string(verb) + to_source(r);
      }
      if (is_enum_value(l) && !is_enum_value(r)) {
        return to_source(r) + std::string(verb) + to_source(l);
      }
      if (is_method(l, "dtype") && r.kind == ExprKind::name && !r.symbol) {
        return subject(*l.args[0]) + (eq ? " has dtype " : " does not have dtype ") + r.text;
      }
    }
    return operand(l, e.text, false) + " " + std::string(math_op(e.text)) + " " +
           operand(r, e.text, true);
  }

  static bool is_enum_value(const Expr& e) {
    return e.kind == ExprKind::string_literal && e.type.kind == TypeKind::enum_;
  }

  static std::optional<std::string> rank(const Expr& method, const Expr& value) {
    if (!is_method(method, "rank") || value.kind != ExprKind::int_literal) return std::nullopt;
    return rank_phrase(subject(*method.args[0]), value.int_value);
  }

  static std::string operand(const Expr& child, std::string_view op, bool right) {
    const std::string s = to_source(child);
    return needs_parens(op, child, right) ? "(" + s + ")" : s;
  }

  // --- functions -----------------------------------------------------------------

  std::optional<std::string> call(const Expr& e) const {
    const std::string& f = e.text;
    if (f == "all" || f == "some") {
      std::vector<const Expr*> items;
      flatten(e, logic_of(e), items);
      return clauses(items, logic_of(e));
    }
    if (f == "sameType") return group(e) + " have the same dtype";
    if (f == "sameShape") return group(e) + " have the same shape";
    if (f == "broadcastable") return group(e) + " are broadcastable";
    if (e.args.size() == 1 && (f == "isFloat" || f == "isInt")) {
      return subject(*e.args[0]) + " is " + dtype_class(e);
    }
    if (e.args.size() == 1 && f == "present") return subject(*e.args[0]) + " is given";
    if (e.args.size() == 3 && f == "inRange") {
      return operand(*e.args[1], "<=", false) + " \u2264 " + operand(*e.args[0], "<=", true) +
             " \u2264 " + operand(*e.args[2], "<=", true);
    }
    return std::nullopt;
  }

  static std::string group(const Expr& e) {
    std::vector<std::string> names;
    for (const ExprPtr& a : e.args) {
      const std::string s = subject(*a);
      names.push_back(a->type.kind == TypeKind::tensor_list ? "the tensors of " + s : s);
    }
    if (names.size() == 1 && e.args[0]->type.kind == TypeKind::tensor_list) {
      return "all " + names[0].substr(4);  // "all tensors of xs"
    }
    return join_names(names);
  }

  static std::string dtype_class(const Expr& call) {
    const bool dtype = call.args[0]->type.kind == TypeKind::dtype;
    const std::string cls = call.text == "isFloat" ? "a float" : "an int";
    return cls + (dtype ? " dtype" : " tensor");
  }
};

}  // namespace

std::string to_prose(const Expr& e) { return Prose().phrase(e); }

}  // namespace opgen::gen
