// The helpers generated wrappers call (detail/checks.hpp), with their
// messages asserted on their exact text: messages are part of the product.
#include "opgen/detail/checks.hpp"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "error_text.hpp"

using opgen::DType;
using opgen::Shape;
using opgen::Span;
using opgen::Tensor;
using opgen::detail::TypeClass;
using opgen::testing::error_of;
using opgen::testing::error_text;
namespace d = opgen::detail;

namespace {

Tensor f32(const Shape& s) { return Tensor::zeros(s, DType::float32); }
Tensor of(const Shape& s, DType t) { return Tensor::zeros(s, t); }

}  // namespace

BOOST_AUTO_TEST_SUITE(checks)

// Every class admits exactly the dtypes its spec type names.
BOOST_AUTO_TEST_CASE(type_classes) {
  using enum DType;
  const DType all[] = {float32, float64, int32, int64, bool_};
  struct Row {
    TypeClass c;
    bool admits[5];  // float32, float64, int32, int64, bool
  };
  const Row rows[] = {
      {TypeClass::float_, {true, true, false, false, false}},
      {TypeClass::int_, {false, false, true, true, false}},
      {TypeClass::numeric, {true, true, true, true, false}},
      {TypeClass::bool_, {false, false, false, false, true}},
      {TypeClass::any, {true, true, true, true, true}},
      {TypeClass::float32, {true, false, false, false, false}},
      {TypeClass::float64, {false, true, false, false, false}},
      {TypeClass::int32, {false, false, true, false, false}},
      {TypeClass::int64, {false, false, false, true, false}},
  };
  for (const Row& r : rows) {
    for (int i = 0; i < 5; ++i) {
      BOOST_TEST(d::in_class(all[i], r.c) == r.admits[i],
                 d::class_phrase(r.c) << " / " << opgen::dtype_name(all[i]));
    }
  }
  BOOST_TEST(d::class_phrase(TypeClass::numeric) ==
             "a numeric tensor (float32, float64, int32 or int64)");
  BOOST_TEST(d::class_phrase(TypeClass::int32) == "an int32 tensor");
}

BOOST_AUTO_TEST_CASE(require_tensor_and_type) {
  BOOST_TEST(error_text([] {
               d::require_type("math.add", "x", of({2}, DType::int32), TypeClass::float_);
             }) == "math.add: x must be a float tensor (float32 or float64), got int32");
  BOOST_TEST(error_text([] { d::require_type("math.add", "x", Tensor(), TypeClass::float_); }) ==
             "math.add: x is required but was not given (null tensor)");
  BOOST_TEST(error_text([] { d::require_tensor("nn.linear", "w", Tensor()); }) ==
             "nn.linear: w is required but was not given (null tensor)");
  d::require_tensor("nn.linear", "w", f32({1}));
  d::require_type("math.add", "x", f32({2}), TypeClass::numeric);

  const opgen::Error e =
      error_of([] { d::require_type("math.add", "y", of({}, DType::bool_), TypeClass::int_); });
  BOOST_TEST(e.op() == "math.add");
  BOOST_TEST(e.param() == "y");
  BOOST_TEST(e.message() == "y must be an int tensor (int32 or int64), got bool");
}

BOOST_AUTO_TEST_CASE(require_type_of_counted_input) {
  const std::vector<Tensor> xs = {f32({1}), f32({2}), of({3}, DType::int64)};
  BOOST_TEST(error_text([&] { d::require_type("math.concat", "xs", xs, TypeClass::float_); }) ==
             "math.concat: xs[2] must be a float tensor (float32 or float64), got int64");
  const std::vector<Tensor> gap = {f32({1}), Tensor()};
  BOOST_TEST(error_text([&] { d::require_type("math.concat", "xs", gap, TypeClass::any); }) ==
             "math.concat: xs[1] is required but was not given (null tensor)");
  d::require_type("math.concat", "xs", Span<Tensor>(), TypeClass::any);
}

BOOST_AUTO_TEST_CASE(require_count) {
  d::require_count("math.sum", "dims", 3, 0, 8);
  d::require_count("math.sum", "dims", 100, 1, -1);
  BOOST_TEST(error_text([] { d::require_count("math.sum", "dims", 9, 0, 8); }) ==
             "math.sum: dims must have at most 8 values, got 9");
  BOOST_TEST(error_text([] { d::require_count("nn.conv", "stride", 3, 2, 2); }) ==
             "nn.conv: stride must have exactly 2 values, got 3");
  BOOST_TEST(error_text([] { d::require_count("x.y", "dims", 0, 1, -1); }) ==
             "x.y: dims must have at least 1 value, got 0");
  BOOST_TEST(error_text([] { d::require_count("x.y", "p", 5, 2, 4); }) ==
             "x.y: p must have between 2 and 4 values, got 5");
  BOOST_TEST(error_text([] { d::require_count("x.y", "p", 0, 1, 1); }) ==
             "x.y: p must have exactly 1 value, got 0");
}

BOOST_AUTO_TEST_CASE(require_supported) {
  d::require_supported("math.foo", DType::float64, {DType::float32, DType::float64});
  BOOST_TEST(error_text([] {
               d::require_supported("math.foo", DType::int32, {DType::float32, DType::float64});
             }) == "math.foo: no kernel for int32 (supported: float32, float64)");
}

BOOST_AUTO_TEST_CASE(require_same_dtype) {
  const Tensor x = f32({2});
  const Tensor y = of({2}, DType::float64);
  d::require_same_dtype("math.add", {{"x", x}, {"y", x}, {"z", Tensor()}});
  BOOST_TEST(error_text([&] {
               d::require_same_dtype("math.add", {{"x", x}, {"y", y}});
             }) == "math.add: x and y must have the same dtype, got float32 and float64");
  BOOST_TEST(error_text([&] {
               d::require_same_dtype("m.f", {{"a", x}, {"b", x}, {"c", y}});
             }) == "m.f: a, b and c must have the same dtype, got float32, float32 and float64");
  const std::vector<Tensor> xs = {x, y};
  BOOST_TEST(error_text([&] {
               d::require_same_dtype("m.cat", {{"xs", Span<Tensor>(xs)}});
             }) ==
             "m.cat: the tensors of xs must have the same dtype, got xs[0] float32 and "
             "xs[1] float64");
}

BOOST_AUTO_TEST_CASE(fail_check_messages) {
  BOOST_TEST(error_text([] {
               d::fail_check("nn.leaky_relu", "alpha must be non-negative", "alpha >= 0",
                             {{"alpha", d::show(-1.0)}});
             }) == "nn.leaky_relu: alpha must be non-negative (check: alpha >= 0; alpha = -1)");
  BOOST_TEST(error_text([] {
               d::fail_check("nn.linear", "y must have one row per column of x",
                             "y.size(0) == x.size(1)",
                             {{"y.size(0)", d::show(3)}, {"x.size(1)", d::show(4)}});
             }) ==
             "nn.linear: y must have one row per column of x (check: y.size(0) == "
             "x.size(1); y.size(0) = 3, x.size(1) = 4)");
  BOOST_TEST(error_text([] { d::fail_check("a.b", "x must be a matrix", "x.rank() == 2", {}); }) ==
             "a.b: x must be a matrix (check: x.rank() == 2)");
  BOOST_TEST(error_text([] {
               d::fail_check("a.b", "", "n > 0", {{"n", "0"}});
             }) == "a.b: check failed (check: n > 0; n = 0)");
  // As the generated wrappers call it: the message is built out of line.
  const std::int64_t n = -2;
  BOOST_TEST(error_text([&] {
               d::fail_cold([=] { d::fail_check("a.b", "", "n > 0", {{"n", d::show(n)}}); });
             }) == "a.b: check failed (check: n > 0; n = -2)");
}

BOOST_AUTO_TEST_CASE(show_values) {
  BOOST_TEST(d::show(std::int64_t{-42}) == "-42");
  BOOST_TEST(d::show(7) == "7");
  BOOST_TEST(d::show(0.1) == "0.1");
  BOOST_TEST(d::show(-1.0) == "-1");
  BOOST_TEST(d::show(1e300) == "1e+300");
  BOOST_TEST(d::show(0.30000000000000004) == "0.30000000000000004");
  BOOST_TEST(d::show(std::numeric_limits<double>::infinity()) == "inf");
  BOOST_TEST(d::show(-std::numeric_limits<double>::infinity()) == "-inf");
  BOOST_TEST(d::show(std::nan("")) == "nan");
  BOOST_TEST(d::show(-std::nan("")) == "nan");
  BOOST_TEST(d::show(true) == "true");
  BOOST_TEST(d::show(DType::bool_) == "bool");
  BOOST_TEST(d::show(std::string_view("same")) == "\"same\"");
  BOOST_TEST(d::show(Shape{2, 3}) == "[2, 3]");
  BOOST_TEST(d::show(Shape{}) == "[]");
  BOOST_TEST(d::show(f32({2, 3})) == "float32[2, 3]");
  BOOST_TEST(d::show(Tensor()) == "null");
  const std::vector<std::int64_t> ints = {0, 1};
  BOOST_TEST(d::show(Span<std::int64_t>(ints)) == "[0, 1]");
  BOOST_TEST(d::show(Span<double>({0.5, 2.0})) == "[0.5, 2]");
  BOOST_TEST(d::show(Span<bool>({true, false})) == "[true, false]");
  BOOST_TEST(d::show(Span<std::int64_t>()) == "[]");
  const std::vector<Tensor> ts = {f32({2}), of({}, DType::int64)};
  BOOST_TEST(d::show(Span<Tensor>(ts)) == "[float32[2], int64[]]");
  BOOST_TEST(d::show(Span<DType>({DType::int32, DType::bool_})) == "[int32, bool]");
  const std::vector<std::string> names = {"a", ""};
  BOOST_TEST(d::show(Span<std::string>(names)) == "[\"a\", \"\"]");
  BOOST_TEST(d::show(std::vector<bool>{false, true}) == "[false, true]");
}

BOOST_AUTO_TEST_CASE(dim_size_and_element) {
  const Tensor x = f32({2, 5});
  BOOST_TEST(d::dim_size("m.f", "x", x, 1) == 5);
  BOOST_TEST(d::dim_size("m.f", "x", x, -2) == 2);
  BOOST_TEST(error_text([&] { d::dim_size("m.f", "x", x, 3); }) ==
             "m.f: x.size(3): dimension 3 is out of range for x of rank 2");
  BOOST_TEST(error_text([&] { d::dim_size("m.f", "x", x, -3); }) ==
             "m.f: x.size(-3): dimension -3 is out of range for x of rank 2");
  const std::vector<std::int64_t> p = {4, 5};
  BOOST_TEST(d::element("m.f", "p", Span<std::int64_t>(p), 1) == 5);
  BOOST_TEST(error_text([&] { d::element("m.f", "p", Span<std::int64_t>(p), 2); }) ==
             "m.f: p[2]: index 2 is out of range for p of length 2");
  BOOST_TEST(error_text([&] { d::element("m.f", "p", Span<std::int64_t>(p), -1); }) ==
             "m.f: p[-1]: index -1 is out of range for p of length 2");
  // Counted bool config fields are std::vector<bool>s.
  const std::vector<bool> flags = {false, true};
  BOOST_TEST(d::element("m.f", "flags", flags, 1));
  BOOST_TEST(!d::element("m.f", "flags", flags, 0));
  BOOST_TEST(error_text([&] { d::element("m.f", "flags", flags, 2); }) ==
             "m.f: flags[2]: index 2 is out of range for flags of length 2");
}

// Each value of a counted enum arg must be one of the enum's values.
BOOST_AUTO_TEST_CASE(require_enum_values) {
  enum class Mode : std::uint8_t { a, b, c };
  d::require_enum_values("m.f", "modes", "Mode", Span<Mode>({Mode::c, Mode::a}), 3);
  d::require_enum_values("m.f", "modes", "Mode", Span<Mode>(), 3);
  BOOST_TEST(error_text([] {
               d::require_enum_values("m.f", "modes", "Mode",
                                      Span<Mode>({Mode::a, static_cast<Mode>(3)}), 3);
             }) == "m.f: modes[1] is not a Mode value (check: modes; modes[1] = 3)");
}

BOOST_AUTO_TEST_CASE(integer_arithmetic) {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  BOOST_TEST(d::checked_div("m.f", 7, 2) == 3);
  BOOST_TEST(d::checked_div("m.f", -7, 2) == -3);  // truncates toward zero
  BOOST_TEST(d::checked_mod("m.f", -7, 2) == -1);
  BOOST_TEST(d::checked_div("m.f", kMin, -1) == kMin);  // wraps, no trap
  BOOST_TEST(d::checked_mod("m.f", kMin, -1) == 0);
  BOOST_TEST(error_text([] { d::checked_div("m.f", 5, 0); }) ==
             "m.f: division by zero in a check (5 / 0)");
  BOOST_TEST(error_text([] { d::checked_mod("m.f", 5, 0); }) ==
             "m.f: division by zero in a check (5 % 0)");
  BOOST_TEST(d::shift_left(1, 3) == 8);
  BOOST_TEST(d::shift_left(1, 63) == kMin);
  BOOST_TEST(d::shift_left(1, 64) == 0);
  BOOST_TEST(d::shift_left(1, -1) == 0);
  BOOST_TEST(d::shift_right(-16, 2) == -4);
  BOOST_TEST(d::shift_right(-16, 64) == -1);
  BOOST_TEST(d::shift_right(16, 99) == 0);
  BOOST_TEST(d::shift_right(16, -1) == 0);
}

BOOST_AUTO_TEST_CASE(group_predicates) {
  const Tensor a = f32({2, 3});
  const Tensor b = f32({3});
  const Tensor c = of({2, 3}, DType::int32);
  const Tensor e = f32({4});
  BOOST_TEST(d::same_type({a, b}));
  BOOST_TEST(!d::same_type({a, c}));
  BOOST_TEST(d::same_type({a, Tensor(), b}));  // null tensors are skipped
  BOOST_TEST(d::same_type({a}));
  BOOST_TEST(d::same_shape({a, c}));
  BOOST_TEST(!d::same_shape({a, b}));
  BOOST_TEST(d::broadcastable({a, b, c}));
  BOOST_TEST(!d::broadcastable({a, e}));
  const std::vector<Tensor> xs = {a, b, c};
  BOOST_TEST(d::broadcastable({Span<Tensor>(xs)}));
  BOOST_TEST(!d::same_shape({Span<Tensor>(xs)}));
  BOOST_TEST(d::same_shape({Span<Tensor>()}));
  // The overloads over single tensors agree, null tensors skipped too.
  BOOST_TEST(d::same_type(a, b));
  BOOST_TEST(!d::same_type(a, c));
  BOOST_TEST(!d::same_type(a, b, c));
  BOOST_TEST(d::same_type(a, Tensor(), b));
  BOOST_TEST(d::same_type(Tensor(), a));
  BOOST_TEST(!d::same_type(Tensor(), a, c));
  BOOST_TEST(d::same_type(Tensor(), Tensor()));
  BOOST_TEST(d::same_shape(a, c));
  BOOST_TEST(!d::same_shape(a, b));
  BOOST_TEST(d::same_shape(a, Tensor()));
  BOOST_TEST(d::broadcastable(a, b, c));
  BOOST_TEST(!d::broadcastable(a, e));
}

BOOST_AUTO_TEST_CASE(broadcast_shapes) {
  auto bc = [](std::initializer_list<Shape> shapes) {
    std::vector<Tensor> ts;
    for (const Shape& s : shapes) ts.push_back(f32(s));
    return d::broadcast_shape("m.f", {{"xs", Span<Tensor>(ts)}});
  };
  BOOST_TEST((bc({{2, 3}, {3}}) == Shape{2, 3}));
  BOOST_TEST((bc({{2, 1}, {1, 3}}) == Shape{2, 3}));
  BOOST_TEST((bc({{4, 1, 3}, {2, 1}}) == Shape{4, 2, 3}));
  BOOST_TEST((bc({{}, {5}}) == Shape{5}));
  BOOST_TEST((bc({{0, 3}, {3}}) == Shape{0, 3}));
  BOOST_TEST((bc({{0}, {1}}) == Shape{0}));
  BOOST_TEST((bc({}) == Shape{}));
  const Tensor x = f32({2, 3});
  const Tensor y = f32({4});
  BOOST_TEST(error_text([&] {
               d::broadcast_shape("math.add", {{"x", x}, {"y", y}});
             }) == "math.add: x and y cannot be broadcast together: [2, 3] and [4]");
  BOOST_TEST(error_text([&] {
               d::broadcast_shape("m.where", {{"c", f32({1})}, {"x", x}, {"y", f32({0})}});
             }) == "m.where: c, x and y cannot be broadcast together: [1], [2, 3] and [0]");
  Shape acc{2, 3};
  BOOST_TEST(!d::broadcast_into(acc, Shape{2}));
  BOOST_TEST((acc == Shape{2, 3}));
}

BOOST_AUTO_TEST_CASE(reduce_shapes) {
  const Tensor x = f32({2, 3, 4});
  using V = std::vector<std::int64_t>;
  BOOST_TEST((d::reduce_shape("m.sum", "dims", x, V{1}, false) == Shape{2, 4}));
  BOOST_TEST((d::reduce_shape("m.sum", "dims", x, V{-1, 0}, false) == Shape{3}));
  BOOST_TEST((d::reduce_shape("m.sum", "dims", x, V{-1, 0}, true) == Shape{1, 3, 1}));
  BOOST_TEST((d::reduce_shape("m.sum", "dims", x, V{}, false) == Shape{}));
  BOOST_TEST((d::reduce_shape("m.sum", "dims", x, V{}, true) == Shape{1, 1, 1}));
  // A scalar reduces over dim 0 or -1 (PyTorch's convention).
  const Tensor s = Tensor::scalar(1.0f);
  BOOST_TEST((d::reduce_shape("m.sum", "dims", s, V{-1}, true) == Shape{}));
  const Tensor m = f32({2, 2});
  BOOST_TEST(error_text([&] { d::reduce_shape("math.sum", "dims", m, V{2}, false, "x"); }) ==
             "math.sum: dims: dimension 2 is out of range for x of rank 2");
  BOOST_TEST(error_text([&] { d::reduce_shape("math.sum", "dims", m, V{-3}, false); }) ==
             "math.sum: dims: dimension -3 is out of range for a tensor of rank 2");
  BOOST_TEST(error_text([&] {
               d::reduce_shape("math.sum", "dims", m, V{1, -1}, false, "x");
             }) == "math.sum: dims: dimension -1 is given twice ([1, -1] for x of rank 2)");
  BOOST_TEST(error_text([&] { d::reduce_shape("math.sum", "dims", s, V{1}, false, "x"); }) ==
             "math.sum: dims: dimension 1 is out of range for x of rank 0");
}

BOOST_AUTO_TEST_CASE(matmul_shapes) {
  auto mm = [](const Shape& a, const Shape& b, bool ta = false, bool tb = false) {
    return d::matmul_shape("m.mm", "a", f32(a), "b", f32(b), ta, tb);
  };
  BOOST_TEST((mm({2, 3}, {3, 4}) == Shape{2, 4}));
  BOOST_TEST((mm({3, 2}, {3, 4}, true) == Shape{2, 4}));
  BOOST_TEST((mm({2, 3}, {4, 3}, false, true) == Shape{2, 4}));
  BOOST_TEST((mm({3}, {3, 4}) == Shape{4}));  // vector @ matrix
  BOOST_TEST((mm({2, 3}, {3}) == Shape{2}));  // matrix @ vector
  BOOST_TEST((mm({3}, {3}) == Shape{}));      // dot product
  BOOST_TEST((mm({5, 2, 3}, {3, 4}) == Shape{5, 2, 4}));
  BOOST_TEST((mm({5, 1, 2, 3}, {6, 3, 4}) == Shape{5, 6, 2, 4}));
  BOOST_TEST((mm({3}, {7, 3, 4}) == Shape{7, 4}));
  BOOST_TEST((mm({7, 2, 3}, {3}) == Shape{7, 2}));
  BOOST_TEST((mm({3}, {3, 4}, true) == Shape{4}));  // trans has no effect on vectors
  BOOST_TEST(error_text([&] {
               mm({2, 3}, {4, 5});
             }) ==
             "m.mm: a and b cannot be multiplied: inner dimensions differ (a [2, 3] has 3, b "
             "[4, 5] has 4)");
  BOOST_TEST(error_text([&] {
               mm({2, 3}, {2, 5}, true, true);
             }) ==
             "m.mm: a and b cannot be multiplied: inner dimensions differ (a [2, 3] (transposed) "
             "has 2, b [2, 5] (transposed) has 5)");
  BOOST_TEST(error_text([&] {
               mm({2, 2, 3}, {3, 3, 4});
             }) ==
             "m.mm: a and b have batch dimensions that cannot be broadcast together: [2] and [3]");
  BOOST_TEST(error_text([&] { mm({}, {3}); }) ==
             "m.mm: a must have at least one dimension for a matrix product, got a scalar");
}

BOOST_AUTO_TEST_CASE(concat_and_stack_shapes) {
  const std::vector<Tensor> xs = {f32({2, 3}), f32({2, 5}), f32({2, 1})};
  BOOST_TEST((d::concat_shape("m.cat", "xs", xs, 1) == Shape{2, 9}));
  BOOST_TEST((d::concat_shape("m.cat", "xs", xs, -1) == Shape{2, 9}));
  BOOST_TEST(error_text([&] { d::concat_shape("m.cat", "xs", xs, 0); }) ==
             "m.cat: xs[1] must have the shape of xs[0] except along dim 0, got [2, 5] and [2, 3]");
  BOOST_TEST(error_text([&] { d::concat_shape("m.cat", "xs", xs, 2); }) ==
             "m.cat: dim 2 is out of range for xs[0] of rank 2");
  BOOST_TEST(error_text([&] { d::concat_shape("m.cat", "xs", Span<Tensor>(), 0); }) ==
             "m.cat: xs must have at least 1 tensor, got 0");
  const std::vector<Tensor> ranks = {f32({2, 3}), f32({2, 3, 1})};
  BOOST_TEST(error_text([&] { d::concat_shape("m.cat", "xs", ranks, 0); }) ==
             "m.cat: xs[1] must have the shape of xs[0] except along dim 0, got [2, 3, 1] and "
             "[2, 3]");

  const std::vector<Tensor> same = {f32({2, 3}), f32({2, 3})};
  BOOST_TEST((d::stack_shape("m.stack", "xs", same, 0) == Shape{2, 2, 3}));
  BOOST_TEST((d::stack_shape("m.stack", "xs", same, 2) == Shape{2, 3, 2}));
  BOOST_TEST((d::stack_shape("m.stack", "xs", same, -1) == Shape{2, 3, 2}));
  BOOST_TEST((d::stack_shape("m.stack", "xs", same, 1) == Shape{2, 2, 3}));
  BOOST_TEST(error_text([&] { d::stack_shape("m.stack", "xs", xs, 0); }) ==
             "m.stack: xs[1] must have the shape of xs[0], got [2, 5] and [2, 3]");
  BOOST_TEST(error_text([&] { d::stack_shape("m.stack", "xs", same, 3); }) ==
             "m.stack: dim 3 is out of range for stacking tensors of rank 2");
}

BOOST_AUTO_TEST_CASE(shape_from_arg) {
  using V = std::vector<std::int64_t>;
  BOOST_TEST((d::shape_from("m.zeros", "shape", V{2, 0, 3}) == Shape{2, 0, 3}));
  BOOST_TEST((d::shape_from("m.zeros", "shape", V{}) == Shape{}));
  BOOST_TEST(error_text([] {
               d::shape_from("m.zeros", "shape", V{2, -1});
             }) == "m.zeros: shape must have non-negative sizes, got [2, -1]");
  BOOST_TEST(error_text([] { d::shape_from("m.zeros", "shape", V(9, 1)); }) ==
             "m.zeros: shape must have at most 8 dimensions, got 9 ([1, 1, 1, 1, 1, 1, 1, 1, 1])");
}

BOOST_AUTO_TEST_CASE(prepare_outputs) {
  Tensor out;
  d::prepare_output("math.add", "y", out, {2, 3}, DType::float64);
  BOOST_TEST(out.defined());
  BOOST_TEST(out.description() == "float64[2, 3]");
  const void* p = out.raw_data();
  d::prepare_output("math.add", "y", out, {2, 3}, DType::float64);  // kept as is
  BOOST_TEST(out.raw_data() == p);
  Tensor wrong_dtype = Tensor::empty({2, 3}, DType::float64);
  BOOST_TEST(error_text([&] {
               d::prepare_output("math.add", "y", wrong_dtype, {2, 3}, DType::float32);
             }) == "math.add: out y must be float32[2, 3], got float64[2, 3]");
  Tensor wrong_shape = Tensor::empty({3}, DType::float32);
  BOOST_TEST(error_text([&] {
               d::prepare_output("math.add", "y", wrong_shape, {2, 3}, DType::float32);
             }) == "math.add: out y must be float32[2, 3], got float32[3]");
}

// The reduce and scalar forms: a given out of the result's shape and dtype
// is kept, a null one allocated, and every other call fails as
// prepare_output does with the rule's shape.
BOOST_AUTO_TEST_CASE(prepare_reduce_and_scalar_outputs) {
  using V = std::vector<std::int64_t>;
  const Tensor x = Tensor::empty({2, 3}, DType::float32);
  const Tensor v = Tensor::empty({5}, DType::float32);
  Tensor out;
  d::prepare_reduce_output("math.sum", "y", out, "dims", "x", x, V{}, false, DType::float32);
  BOOST_TEST(out.description() == "float32[]");
  const void* p = out.raw_data();
  d::prepare_reduce_output("math.sum", "y", out, "dims", "x", v, V{-1}, false, DType::float32);
  BOOST_TEST(out.raw_data() == p);  // kept: the whole vector into a scalar
  Tensor rows;
  d::prepare_reduce_output("math.sum", "y", rows, "dims", "x", x, V{1}, true, DType::float32);
  BOOST_TEST(rows.description() == "float32[2, 1]");
  const void* r = rows.raw_data();
  d::prepare_reduce_output("math.sum", "y", rows, "dims", "x", x, V{-1}, true, DType::float32);
  BOOST_TEST(rows.raw_data() == r);
  // A scalar x: dims {}, {0} and {-1} reduce it into a scalar; {1} does not exist.
  const Tensor s = Tensor::empty({}, DType::float32);
  for (const V& dims : {V{}, V{0}, V{-1}}) {
    d::prepare_reduce_output("math.sum", "y", out, "dims", "x", s, dims, false, DType::float32);
    BOOST_TEST(out.raw_data() == p);
  }
  BOOST_TEST(error_text([&] {
               d::prepare_reduce_output("math.sum", "y", out, "dims", "x", s, V{1}, false,
                                        DType::float32);
             }) == "math.sum: dims: dimension 1 is out of range for x of rank 0");
  BOOST_TEST(error_text([&] {
               d::prepare_reduce_output("math.sum", "y", out, "dims", "x", Tensor(), V{}, false,
                                        DType::float32);
             }) == "math.sum: x is required but was not given (null tensor)");
  BOOST_TEST(error_text([&] {
               d::prepare_reduce_output("math.sum", "y", out, "dims", "x", x, V{}, true,
                                        DType::float32);
             }) == "math.sum: out y must be float32[1, 1], got float32[]");
  BOOST_TEST(error_text([&] {
               d::prepare_reduce_output("math.sum", "y", out, "dims", "x", x, V{0}, false,
                                        DType::float32);
             }) == "math.sum: out y must be float32[3], got float32[]");
  BOOST_TEST(error_text([&] {
               d::prepare_reduce_output("math.sum", "y", out, "dims", "x", x, V{}, false,
                                        DType::float64);
             }) == "math.sum: out y must be float64[], got float32[]");
  BOOST_TEST(error_text([&] {
               d::prepare_reduce_output("math.sum", "y", out, "dims", "x", v, V{1}, false,
                                        DType::float32);
             }) == "math.sum: dims: dimension 1 is out of range for x of rank 1");

  Tensor z;
  d::prepare_scalar_output("math.dot", "z", z, DType::int64);
  BOOST_TEST(z.description() == "int64[]");
  const void* q = z.raw_data();
  d::prepare_scalar_output("math.dot", "z", z, DType::int64);
  BOOST_TEST(z.raw_data() == q);
  BOOST_TEST(error_text([&] { d::prepare_scalar_output("math.dot", "z", z, DType::int32); }) ==
             "math.dot: out z must be int32[], got int64[]");
  Tensor not_scalar = Tensor::empty({1}, DType::int64);
  BOOST_TEST(error_text([&] {
               d::prepare_scalar_output("math.dot", "z", not_scalar, DType::int64);
             }) == "math.dot: out z must be int64[], got int64[1]");
}

// A counted output: as many tensors as shapes, allocated in an owned vector
// or checked in the caller's.
BOOST_AUTO_TEST_CASE(prepare_counted_outputs) {
  const std::vector<Shape> shapes = {{2}, {3}};
  std::vector<Tensor> owned;
  d::prepare_outputs("m.split", "parts", d::OutputList(owned), shapes, DType::int32, 1, -1);
  BOOST_TEST_REQUIRE(owned.size() == 2u);
  BOOST_TEST(owned[0].description() == "int32[2]");
  BOOST_TEST(owned[1].description() == "int32[3]");
  BOOST_TEST(error_text([&] {
               std::vector<Tensor> v;
               d::prepare_outputs("m.split", "parts", d::OutputList(v), {}, DType::int32, 1, -1);
             }) == "m.split: parts: the shape function gave 0 tensors; the count of parts is >=1");
  BOOST_TEST(error_text([&] {
               std::vector<Tensor> v;
               d::prepare_outputs("m.split", "parts", d::OutputList(v), shapes, DType::int32, 3, 3);
             }) == "m.split: parts: the shape function gave 2 tensors; the count of parts is 3");
  BOOST_TEST(error_text([&] {
               std::vector<Tensor> v;
               d::prepare_outputs("m.split", "parts", d::OutputList(v), shapes, DType::int32, 0, 1);
             }) == "m.split: parts: the shape function gave 2 tensors; the count of parts is <=1");

  // Given tensors: the number must match; null ones are allocated, others
  // are kept when they fit.
  std::vector<Tensor> given = {Tensor(), Tensor::empty({3}, DType::int32)};
  const void* p = given[1].raw_data();
  const d::OutputList list{std::span<Tensor>(given)};
  BOOST_TEST(list.given());
  d::prepare_outputs("m.split", "parts", list, shapes, DType::int32, 2, 4);
  BOOST_TEST(given[0].description() == "int32[2]");
  BOOST_TEST(given[1].raw_data() == p);
  BOOST_TEST(list.tensors().size() == 2u);
  std::vector<Tensor> three(3);
  BOOST_TEST(error_text([&] {
               d::prepare_outputs("m.split", "parts", d::OutputList(std::span<Tensor>(three)),
                                  shapes, DType::int32, 1, -1);
             }) == "m.split: out parts must hold 2 tensors, got 3");
  std::vector<Tensor> wrong = {Tensor(), Tensor::empty({3}, DType::float32)};
  BOOST_TEST(error_text([&] {
               d::prepare_outputs("m.split", "parts", d::OutputList(std::span<Tensor>(wrong)),
                                  shapes, DType::int32, 1, -1);
             }) == "m.split: out parts[1] must be int32[3], got float32[3]");
}

BOOST_AUTO_TEST_CASE(normalize_dims) {
  BOOST_TEST(d::normalize_dim("nn.softmax", "dim", -1, 3) == 2);
  BOOST_TEST(d::normalize_dim("nn.softmax", "dim", 0, 3) == 0);
  BOOST_TEST(d::normalize_dim("nn.softmax", "dim", -3, 3) == 0);
  BOOST_TEST(d::normalize_dim("nn.softmax", "dim", -1, 0) == 0);
  BOOST_TEST(d::normalize_dim("nn.softmax", "dim", 0, 0) == 0);
  BOOST_TEST(error_text([] { d::normalize_dim("nn.softmax", "dim", 3, 2, "x"); }) ==
             "nn.softmax: dim 3 is out of range for x of rank 2");
  BOOST_TEST(error_text([] { d::normalize_dim("nn.softmax", "dim", -3, 2); }) ==
             "nn.softmax: dim -3 is out of range for a tensor of rank 2");
  BOOST_TEST(error_text([] { d::normalize_dim("nn.softmax", "axis", 1, 0, "x"); }) ==
             "nn.softmax: axis 1 is out of range for x of rank 0");
  BOOST_TEST(error_of([] { d::normalize_dim("nn.softmax", "dim", 9, 2); }).param() == "dim");
}

BOOST_AUTO_TEST_SUITE_END()
