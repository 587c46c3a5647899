// The type checker, second half: tensor methods, indexing, array literals
// and the built-in functions (see expr_check.cpp for the rest and for the
// checker's conventions).

#include <string>
#include <vector>

#include "edit_distance.hpp"
#include "expr.hpp"
#include "expr_builtins.hpp"
#include "expr_checker.hpp"

namespace opgen::gen::expr_check {
namespace {

K item_of(K list) {
  switch (list) {
    case K::tensor_list:
      return K::tensor;
    case K::int_list:
      return K::int_;
    case K::float_list:
      return K::float_;
    case K::bool_list:
      return K::bool_;
    case K::string_list:
      return K::string;
    case K::dtype_list:
      return K::dtype;
    case K::enum_list:
      return K::enum_;
    default:
      return K::error;
  }
}

std::string arity_message(std::string_view fn, int min, int max, std::size_t given) {
  std::string takes;
  if (max < 0) {
    takes = "at least " + std::to_string(min) + (min == 1 ? " argument" : " arguments");
  } else if (min == 0 && max == 0) {
    takes = "no arguments";
  } else {
    takes = std::to_string(min) + (min == 1 ? " argument" : " arguments");
  }
  return std::string(fn) + "() takes " + takes + ", got " + std::to_string(given);
}

// "argument of len()" for one-argument functions, else "argument 2 of all()".
std::string argument(std::string_view fn, std::size_t i, std::size_t count) {
  if (count == 1) return "argument of " + std::string(fn) + "()";
  return "argument " + std::to_string(i + 1) + " of " + std::string(fn) + "()";
}

}  // namespace

Type Checker::method(Expr& e) {
  Expr& recv = *e.args[0];
  const Type r = check(recv);
  bool args_ok = true;
  for (std::size_t i = 1; i < e.args.size(); ++i) {
    if (single(*e.args[i]).is_error()) args_ok = false;
  }
  if (r.is_error()) return kError;
  const std::string src = to_source(recv);
  if (mode_ == ExprMode::formula) {
    return fail(Diag::unavailable_here, e.loc, to_source(e) + " is not available in a formula");
  }
  if (is_list(r.kind)) return fail(Diag::counted_as_single, first_loc(recv), counted_message(recv));
  const MethodInfo* m = find_method(e.text);
  if (r.kind != K::tensor) {
    if (!m) {
      return fail(Diag::no_such_member, e.loc,
                  quote(src) + " is a " + type_name(r) + " and has no methods");
    }
    return fail(Diag::no_such_member, first_loc(recv),
                quote(src) + " is a " + type_name(r) + ", not a tensor; " + e.text +
                    "() is a tensor method");
  }
  if (!m) {
    std::vector<std::string_view> names;
    for (const MethodInfo& mi : tensor_methods()) names.push_back(mi.name);
    return fail(Diag::unknown_method, e.loc,
                "unknown method " + quote(e.text) + did_you_mean(e.text, names));
  }
  const std::size_t given = e.args.size() - 1;
  if (given != static_cast<std::size_t>(m->arity)) {
    return fail(Diag::wrong_argument_count, e.loc,
                arity_message(e.text, m->arity, m->arity, given));
  }
  if (!args_ok) return kError;
  if (m->arity == 1 && !expect_int(*e.args[1], "argument of " + e.text + "() must be an int")) {
    return kError;
  }
  return of(m->result);
}

Type Checker::index(Expr& e) {
  Expr& base = *e.args[0];
  const Type b = check(base);
  const Type i = single(*e.args[1]);
  bool ok = !b.is_error() && !i.is_error();
  if (!b.is_error() && !is_list(b.kind)) {
    const std::string src = to_source(base);
    if (b.kind == K::tensor) {
      fail(Diag::not_indexable, first_loc(base),
           quote(src) + " is a tensor, not a counted input; use " + src +
               ".size(i) for its dimensions");
    } else {
      fail(Diag::not_indexable, first_loc(base),
           quote(src) + " is a " + type_name(b) +
               ", not a counted parameter; only counted parameters can be "
               "indexed");
    }
    ok = false;
  }
  if (!i.is_error() && !expect_int(*e.args[1], "index must be an int")) ok = false;
  // An element of an enum list keeps the list's enum.
  return ok ? Type{item_of(b.kind), b.enum_info} : kError;
}

Type Checker::array(Expr& e) {
  bool ok = true;
  for (ExprPtr& item : e.args) {
    if (single(*item).is_error() || !expect_int(*item, "array elements must be ints")) {
      ok = false;
    }
  }
  return ok ? of(K::int_list) : kError;
}

bool Checker::available(const FunctionInfo& f) const {
  switch (f.kind) {
    case FunctionKind::scalar:
      return mode_ == ExprMode::formula;
    case FunctionKind::tensor_group:
    case FunctionKind::present:
      return mode_ == ExprMode::constraint;
    default:
      return true;
  }
}

Type Checker::call(Expr& e) {
  const FunctionInfo* f = find_function(e.text);
  if (!f || !available(*f)) {
    for (ExprPtr& a : e.args) check(*a);
    if (!f) return unknown_function(e);
    return fail(Diag::unavailable_here, e.loc,
                e.text + (mode_ == ExprMode::formula ? "() is not available in a formula"
                                                     : "() is only available in a formula"));
  }
  if (f->kind == FunctionKind::tensor_group) return tensor_group(e);
  if (f->kind == FunctionKind::len || f->kind == FunctionKind::present) {
    for (ExprPtr& a : e.args) check(*a);
  } else {
    for (ExprPtr& a : e.args) single(*a);
  }
  const std::size_t n = e.args.size();
  if (n < static_cast<std::size_t>(f->min_args) ||
      (f->max_args >= 0 && n > static_cast<std::size_t>(f->max_args))) {
    return fail(Diag::wrong_argument_count, e.loc,
                arity_message(e.text, f->min_args, f->max_args, n));
  }
  for (const ExprPtr& a : e.args) {
    if (a->type.is_error()) return kError;
  }
  switch (f->kind) {
    case FunctionKind::len:
      return len(e);
    case FunctionKind::dtype_class:
      return dtype_class(e);
    case FunctionKind::present:
      return present(e);
    case FunctionKind::bool_fold:
      return all_args(e, Want::bool_, "a bool", of(K::bool_));
    case FunctionKind::in_range:
      return all_args(e, Want::number, "a number", of(K::bool_));
    default:
      return all_args(e, Want::number, "a number", of(f->result));
  }
}

Type Checker::unknown_function(Expr& e) {
  if (find_method(e.text) && !e.args.empty()) {
    std::string call = to_source(*e.args[0]) + "." + e.text + "(";
    for (std::size_t i = 1; i < e.args.size(); ++i) {
      call += (i > 1 ? ", " : "") + to_source(*e.args[i]);
    }
    return fail(Diag::unknown_function, e.loc,
                quote(e.text) + " is a tensor method; write " + call + ")");
  }
  std::vector<std::string_view> names;
  for (const FunctionInfo& fi : functions()) {
    if (available(fi)) names.push_back(fi.name);
  }
  return fail(Diag::unknown_function, e.loc,
              "unknown function " + quote(e.text) + did_you_mean(e.text, names));
}

// sameType, sameShape, broadcastable: tensors and counted inputs, at
// least two tensors unless a counted input stands for several.
Type Checker::tensor_group(Expr& e) {
  bool ok = true;
  bool list = false;
  std::size_t tensors = 0;
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    const Type t = check(*e.args[i]);
    if (t.kind == K::tensor) {
      ++tensors;
    } else if (t.kind == K::tensor_list) {
      list = true;
    } else if (t.is_error()) {
      ok = false;
    } else {
      fail(Diag::operand_type, first_loc(*e.args[i]),
           argument(e.text, i, 2) + " must be a tensor or a counted input, got " + type_name(t));
      ok = false;
    }
  }
  if (!ok) return kError;
  if (!list && tensors < 2) {
    return fail(Diag::wrong_argument_count, e.loc,
                e.text + "() takes at least 2 tensors, got " + std::to_string(tensors));
  }
  return of(K::bool_);
}

Type Checker::all_args(Expr& e, Want want, std::string_view what, Type result) {
  bool ok = true;
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    const std::string msg = argument(e.text, i, e.args.size()) + " must be " + std::string(what);
    if (!expect(*e.args[i], want, msg)) ok = false;
  }
  return ok ? result : kError;
}

Type Checker::len(Expr& e) {
  const Expr& a = *e.args[0];
  if (is_list(a.type.kind)) return of(K::int_);
  if (a.type.kind == K::tensor) {
    const std::string src = to_source(a);
    return fail(Diag::operand_type, first_loc(a),
                "len() takes a counted parameter; " + quote(src) + " is one tensor (did you mean " +
                    src + ".length()?)");
  }
  return fail(Diag::operand_type, first_loc(a),
              "len() takes a counted parameter, got " + type_name(a.type));
}

Type Checker::dtype_class(Expr& e) {
  const Expr& a = *e.args[0];
  if (a.type.kind == K::tensor || a.type.kind == K::dtype) return of(K::bool_);
  if (a.type.kind == K::element) {
    return fail(Diag::unavailable_here, e.loc,
                e.text + "() of a tensor is not available in a formula");
  }
  return fail(Diag::operand_type, first_loc(a),
              e.text + "() takes a tensor or a dtype, got " + type_name(a.type));
}

Type Checker::present(Expr& e) {
  const Expr& a = *e.args[0];
  const Symbol* s = a.kind == ExprKind::name ? a.symbol : nullptr;
  if (s && a.type.kind == K::tensor && s->optional) return of(K::bool_);
  if (s && a.type.kind == K::tensor) {
    return fail(Diag::operand_type, first_loc(a),
                "present() takes an optional input; " + quote(a.text) + " is required");
  }
  if (a.type.kind == K::tensor) {
    return fail(Diag::operand_type, first_loc(a),
                "present() takes an optional input by name, got " + quote(to_source(a)));
  }
  return fail(Diag::operand_type, first_loc(a),
              "present() takes an optional input, got " + type_name(a.type));
}

}  // namespace opgen::gen::expr_check
