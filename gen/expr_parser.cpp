// Recursive descent for the unary, postfix and primary levels and
// precedence climbing for the ten binary levels of expr.hpp's grammar
// (same trees, far fewer stack frames per nesting level).
//
// Node positions: `begin`/`end` cover the node's own tokens (a
// parenthesised operand's parentheses belong to the enclosing node).
// `loc` is where an error about the node points: the operator of a unary
// or binary node, the '?' of a conditional, the name after '.' of a method
// or field, and the first character of every other node.
//
// The first syntax error ends the parse (its follow-on errors would be
// noise). Hostile input cannot exhaust the stack: recursion is limited to
// kMaxDepth levels, and so is the height of the tree, because checker,
// printers and even ~Expr recurse over it.

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

#include "expr.hpp"
#include "expr_lexer.hpp"
#include "expr_operators.hpp"

namespace opgen::gen {
namespace {

constexpr int kMaxDepth = 200;

class Parser {
 public:
  Parser(const LocatedText& source, std::vector<Token> tokens, Diagnostics& diags)
      : source_(source), tokens_(std::move(tokens)), diags_(diags) {}

  ExprPtr parse() {
    if (peek().kind == TokenKind::end) return fail(peek(), "empty expression");
    ExprPtr e = cond();
    if (!e) return nullptr;
    if (peek().kind != TokenKind::end) return trailing(peek());
    return e;
  }

 private:
  // Counts nesting on the way down; reports once when it is too deep.
  class Nest {
   public:
    explicit Nest(Parser& p) : p_(p) { ++p_.depth_; }
    ~Nest() { --p_.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
    bool too_deep() {
      if (p_.depth_ <= kMaxDepth) return false;
      p_.too_deep(p_.peek());
      return true;
    }

   private:
    Parser& p_;
  };

  // cond := or ( '?' cond ':' cond )?
  ExprPtr cond() {
    Nest nest(*this);
    if (nest.too_deep()) return nullptr;
    const std::size_t begin = peek().begin;
    ExprPtr c = binary(1);
    if (!c || !peek().is("?")) return c;
    const Token& q = take();
    ExprPtr a = cond();
    if (!a) return nullptr;
    if (!peek().is(":")) return expected_closing(":", q, "match");
    take();
    ExprPtr b = cond();
    if (!b) return nullptr;
    ExprPtr n = node(ExprKind::conditional, q, begin);
    n->args.push_back(std::move(c));
    n->args.push_back(std::move(a));
    n->args.push_back(std::move(b));
    return finish(std::move(n));
  }

  // The binary levels: operators binding at least as tightly as
  // `min_precedence`, left-associative.
  ExprPtr binary(int min_precedence) {
    const std::size_t begin = peek().begin;
    ExprPtr lhs = unary();
    while (lhs) {
      const Token& op = peek();
      if (op.is("=")) return fail(op, "'=' is not an operator; did you mean '=='?");
      const int p = op.kind == TokenKind::punct ? binary_precedence(op.text) : 0;
      if (p == 0 || p < min_precedence) break;
      take();
      ExprPtr rhs = binary(p + 1);
      if (!rhs) return nullptr;
      ExprPtr n = node(ExprKind::binary, op, begin);
      n->args.push_back(std::move(lhs));
      n->args.push_back(std::move(rhs));
      lhs = finish(std::move(n));
    }
    return lhs;
  }

  // unary := ('!' | '-' | '+' | '~') unary | postfix
  ExprPtr unary() {
    const Token& t = peek();
    if (!(t.is("!") || t.is("-") || t.is("+") || t.is("~"))) return postfix();
    Nest nest(*this);
    if (nest.too_deep()) return nullptr;
    const Token& op = take();
    ExprPtr operand = unary();
    if (!operand) return nullptr;
    ExprPtr n = node(ExprKind::unary, op, op.begin);
    n->args.push_back(std::move(operand));
    return finish(std::move(n));
  }

  // postfix := primary ( '.' ident ( '(' args? ')' )? | '[' cond ']' )*
  ExprPtr postfix() {
    const Token& first = peek();
    ExprPtr e = primary();
    while (e) {
      if (peek().is(".")) {
        e = member(std::move(e), first.begin);
      } else if (peek().is("[")) {
        e = index(std::move(e), first);
      } else {
        break;
      }
    }
    return e;
  }

  ExprPtr member(ExprPtr receiver, std::size_t begin) {
    take();  // '.'
    const Token& name = peek();
    if (name.kind != TokenKind::identifier) {
      return fail(name, "expected a method or field name after '.', got " + describe(name));
    }
    take();
    const bool call = peek().is("(");
    ExprPtr n = node(call ? ExprKind::method : ExprKind::field, name, begin);
    n->text = name.text;
    n->args.push_back(std::move(receiver));
    if (call && !arguments(take(), ")", n->args)) return nullptr;
    return finish(std::move(n));
  }

  ExprPtr index(ExprPtr base, const Token& first) {
    const Token& open = take();
    ExprPtr i = cond();
    if (!i) return nullptr;
    if (!peek().is("]")) return expected_closing("]", open, "close");
    take();
    ExprPtr n = node(ExprKind::index, first, first.begin);
    n->text.clear();
    n->args.push_back(std::move(base));
    n->args.push_back(std::move(i));
    return finish(std::move(n));
  }

  // primary := int | float | string | 'true' | 'false' | ident | ident '(' args? ')'
  //          | '(' cond ')' | '[' args? ']'
  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::int_literal:
      case TokenKind::float_literal:
      case TokenKind::string_literal:
        return literal(take());
      case TokenKind::identifier:
        return identifier(take());
      case TokenKind::end:
        return fail(t, "unexpected end of expression");
      case TokenKind::punct:
        break;
    }
    if (t.is("(")) return parenthesised(take());
    if (t.is("[")) {
      ExprPtr n = node(ExprKind::array_literal, t, t.begin);
      n->text.clear();
      if (!arguments(take(), "]", n->args)) return nullptr;
      return finish(std::move(n));
    }
    if (t.is("=")) return fail(t, "'=' is not an operator; did you mean '=='?");
    if (t.is(")") || t.is("]")) return fail(t, "expected an expression before " + describe(t));
    return fail(t, "expected an expression, got " + describe(t));
  }

  ExprPtr literal(const Token& t) {
    const ExprKind kind = t.kind == TokenKind::int_literal     ? ExprKind::int_literal
                          : t.kind == TokenKind::float_literal ? ExprKind::float_literal
                                                               : ExprKind::string_literal;
    ExprPtr n = node(kind, t, t.begin);
    n->int_value = t.int_value;
    n->float_value = t.float_value;
    return finish(std::move(n));
  }

  ExprPtr identifier(const Token& t) {
    if (t.text == "true" || t.text == "false") {
      ExprPtr n = node(ExprKind::bool_literal, t, t.begin);
      n->bool_value = t.text == "true";
      return finish(std::move(n));
    }
    if (t.text == "not" && starts_operand(peek())) {
      return fail(t, "'not' is not an operator; did you mean '!'?");
    }
    const bool call = peek().is("(");
    ExprPtr n = node(call ? ExprKind::call : ExprKind::name, t, t.begin);
    if (call && !arguments(take(), ")", n->args)) return nullptr;
    return finish(std::move(n));
  }

  ExprPtr parenthesised(const Token& open) {
    ExprPtr inner = cond();
    if (!inner) return nullptr;
    if (!peek().is(")")) return expected_closing(")", open, "close");
    take();
    return inner;
  }

  // args := cond ( ',' cond )*, then `close`; `open` has been taken.
  bool arguments(const Token& open, std::string_view close, std::vector<ExprPtr>& out) {
    if (peek().is(close)) {
      take();
      return true;
    }
    while (true) {
      ExprPtr a = cond();
      if (!a) return false;
      out.push_back(std::move(a));
      if (peek().is(",")) {
        take();
        continue;
      }
      if (peek().is(close)) {
        take();
        return true;
      }
      expected_closing(close, open, "close");
      return false;
    }
  }

  // --- nodes -------------------------------------------------------------

  ExprPtr node(ExprKind kind, const Token& at, std::size_t begin) {
    auto n = std::make_unique<Expr>();
    n->kind = kind;
    n->loc = source_.at(at.begin);
    n->begin = begin;
    n->text = at.text;
    return n;
  }

  // Sets the end and enforces the height limit before the node can grow.
  ExprPtr finish(ExprPtr n) {
    n->end = pos_ > 0 ? tokens_[pos_ - 1].end : 0;
    int height = 0;
    for (const ExprPtr& a : n->args) height = std::max(height, heights_[a.get()]);
    if (height >= kMaxDepth + 1) {
      too_deep(tokens_[pos_ > 0 ? pos_ - 1 : 0]);
      return nullptr;
    }
    heights_[n.get()] = height + 1;
    return n;
  }

  // --- tokens ------------------------------------------------------------

  const Token& peek() const { return tokens_[pos_]; }
  const Token& take() {
    const Token& t = tokens_[pos_];
    if (t.kind != TokenKind::end) ++pos_;
    return t;
  }
  static bool starts_operand(const Token& t) {
    return t.kind == TokenKind::identifier || t.kind == TokenKind::int_literal ||
           t.kind == TokenKind::float_literal || t.kind == TokenKind::string_literal || t.is("(");
  }

  // --- errors ------------------------------------------------------------

  // Every parse error is a syntax error, except nesting too deep.
  std::nullptr_t fail(const Token& at, std::string message) {
    return report(Diag::expr_syntax, at, std::move(message));
  }

  std::nullptr_t report(Diag diag, const Token& at, std::string message) {
    if (!failed_) diags_.error(diag, source_.at(at.begin), std::move(message));
    failed_ = true;
    return nullptr;
  }

  std::nullptr_t expected_closing(std::string_view close, const Token& open,
                                  std::string_view verb) {
    return fail(peek(), "expected '" + std::string(close) + "' to " + std::string(verb) + " '" +
                            open.text + "' at column " +
                            std::to_string(source_.at(open.begin).col));
  }

  std::nullptr_t trailing(const Token& t) {
    if (t.is("=")) return fail(t, "'=' is not an operator; did you mean '=='?");
    if (t.is(")") || t.is("]")) return fail(t, "unmatched " + describe(t));
    if (t.kind == TokenKind::identifier && (t.text == "and" || t.text == "or")) {
      return fail(t, "'" + t.text + "' is not an operator; did you mean '" +
                         (t.text == "and" ? "&&" : "||") + "'?");
    }
    return fail(
        t, "unexpected " + describe(t) + "; expected an operator or the end of the expression");
  }

  void too_deep(const Token& at) {
    report(Diag::expr_too_deep, at,
           "expression is nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)");
  }

  const LocatedText& source_;
  std::vector<Token> tokens_;
  Diagnostics& diags_;
  std::size_t pos_ = 0;
  // The top-level cond() is level 0: 200 nested parentheses are fine.
  int depth_ = -1;
  bool failed_ = false;
  std::unordered_map<const Expr*, int> heights_;
};

}  // namespace

ExprPtr parse_expression(const LocatedText& source, Diagnostics& diags) {
  const std::size_t errors = diags.error_count();
  std::vector<Token> tokens = lex_expression(source, diags);
  if (diags.error_count() != errors) return nullptr;
  return Parser(source, std::move(tokens), diags).parse();
}

}  // namespace opgen::gen
