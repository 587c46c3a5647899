// CallArgs: matching a flat input list to an op's input slots, and named
// args to typed values, with the errors a caller by name sees.
#include "opgen/detail/call.hpp"

#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "error_text.hpp"

using opgen::Args;
using opgen::DType;
using opgen::Tensor;
using opgen::detail::CallArgs;
using opgen::testing::error_of;
using opgen::testing::error_text;

namespace {

std::vector<Tensor> tensors(std::size_t n) {
  std::vector<Tensor> ts;
  for (std::size_t i = 0; i < n; ++i) {
    ts.push_back(Tensor::full<std::int64_t>({1}, static_cast<std::int64_t>(i)));
  }
  return ts;
}

std::int64_t value(const Tensor& t) { return t.item<std::int64_t>(); }

const Args kNoArgs;

}  // namespace

BOOST_AUTO_TEST_SUITE(call)

BOOST_AUTO_TEST_CASE(plain_inputs) {
  const std::vector<Tensor> in = tensors(2);
  const CallArgs c("math.add", in, kNoArgs, {{"x", 1, 1}, {"y", 1, 1}}, {});
  BOOST_TEST(value(c.tensor(0)) == 0);
  BOOST_TEST(value(c.tensor(1)) == 1);
  BOOST_TEST(c.op() == std::string("math.add"));
  BOOST_TEST(error_text([] {
               const std::vector<Tensor> one = tensors(1);
               CallArgs("math.add", one, kNoArgs, {{"x", 1, 1}, {"y", 1, 1}}, {});
             }) == "math.add: expects 2 inputs (x, y), got 1");
  BOOST_TEST(error_text([] {
               const std::vector<Tensor> three = tensors(3);
               CallArgs("math.add", three, kNoArgs, {{"x", 1, 1}, {"y", 1, 1}}, {});
             }) == "math.add: expects 2 inputs (x, y), got 3");
}

// Trailing optional inputs may be left out; given ones may be null.
BOOST_AUTO_TEST_CASE(optional_inputs) {
  const std::initializer_list<opgen::detail::InputSlot> slots = {
      {"x", 1, 1}, {"w", 0, 1}, {"b", 0, 1}};
  const std::vector<Tensor> one = tensors(1);
  const CallArgs c1("nn.linear", one, kNoArgs, slots, {});
  BOOST_TEST(!c1.tensor(1).defined());
  BOOST_TEST(!c1.tensor(2).defined());
  const std::vector<Tensor> gap = {tensors(1)[0], Tensor(), tensors(3)[2]};
  const CallArgs c3("nn.linear", gap, kNoArgs, slots, {});
  BOOST_TEST(!c3.tensor(1).defined());
  BOOST_TEST(value(c3.tensor(2)) == 2);
  BOOST_TEST(error_text([&] {
               const std::vector<Tensor> four = tensors(4);
               CallArgs("nn.linear", four, kNoArgs, slots, {});
             }) == "nn.linear: expects 1 to 3 inputs (x, w (optional), b (optional)), got 4");
  BOOST_TEST(error_text([&] {
               CallArgs("nn.linear", std::span<const Tensor>(), kNoArgs, slots, {});
             }) == "nn.linear: expects 1 to 3 inputs (x, w (optional), b (optional)), got 0");
}

// A counted input takes what the other slots leave.
BOOST_AUTO_TEST_CASE(counted_inputs) {
  const std::vector<Tensor> in = tensors(4);
  const CallArgs c("m.f", in, kNoArgs, {{"a", 1, 1}, {"xs", 1, -1}, {"b", 1, 1}}, {});
  BOOST_TEST(value(c.tensor(0)) == 0);
  BOOST_TEST(c.tensors(1).size() == 2u);
  BOOST_TEST(value(c.tensors(1)[0]) == 1);
  BOOST_TEST(value(c.tensors(1)[1]) == 2);
  BOOST_TEST(value(c.tensor(2)) == 3);
  BOOST_TEST(error_text([] {
               const std::vector<Tensor> two = tensors(2);
               CallArgs("m.f", two, kNoArgs, {{"a", 1, 1}, {"xs", 1, -1}, {"b", 1, 1}}, {});
             }) == "m.f: expects at least 3 inputs (a, xs[>=1], b), got 2");
  BOOST_TEST(error_text([] {
               const std::vector<Tensor> five = tensors(5);
               CallArgs("m.f", five, kNoArgs, {{"xs", 2, 4}}, {});
             }) == "m.f: expects 2 to 4 inputs (xs[2..4]), got 5");
  BOOST_TEST(error_text([] {
               const std::vector<Tensor> one = tensors(1);
               CallArgs("m.f", one, kNoArgs, {{"xs", 2, 2}, {"y", 1, 1}}, {});
             }) == "m.f: expects 3 inputs (xs[2], y), got 1");
  const std::vector<Tensor> none;
  const CallArgs empty("m.f", none, kNoArgs, {{"xs", 0, 3}}, {});
  BOOST_TEST(empty.tensors(0).empty());
  BOOST_TEST(error_text([] {
               const std::vector<Tensor> four = tensors(4);
               CallArgs("m.f", four, kNoArgs, {{"xs", 0, 3}}, {});
             }) == "m.f: expects 0 to 3 inputs (xs[<=3]), got 4");
}

BOOST_AUTO_TEST_CASE(unknown_args) {
  const std::vector<Tensor> in = tensors(1);
  const Args dim = {{"dim", std::vector<std::int64_t>{1}}};
  BOOST_TEST(error_text([&] {
               CallArgs("math.sum", in, dim, {{"x", 1, 1}}, {"dims", "keep_dims"});
             }) == "math.sum: unknown arg 'dim'; did you mean 'dims'?");
  const Args far = {{"zzz", 1}};
  BOOST_TEST(error_text([&] {
               CallArgs("math.sum", in, far, {{"x", 1, 1}}, {"dims", "keep_dims"});
             }) == "math.sum: unknown arg 'zzz' (args: dims, keep_dims)");
  BOOST_TEST(error_text([&] {
               CallArgs("math.neg", in, far, {{"x", 1, 1}}, {});
             }) == "math.neg: unknown arg 'zzz' (math.neg takes no args)");
  BOOST_TEST(error_of([&] { CallArgs("math.neg", in, far, {{"x", 1, 1}}, {}); }).param() == "zzz");
}

BOOST_AUTO_TEST_CASE(scalar_args) {
  const std::vector<Tensor> in = tensors(1);
  const Args args = {{"keep_dims", 1}, {"alpha", 0.5},          {"count", 3}, {"flag", true},
                     {"mode", "same"}, {"dtype", DType::int64}, {"beta", 2}};
  const CallArgs c("m.f", in, args, {{"x", 1, 1}},
                   {"keep_dims", "alpha", "count", "flag", "mode", "dtype", "beta", "absent"});
  BOOST_TEST(c.has("alpha"));
  BOOST_TEST(!c.has("absent"));
  BOOST_TEST(c.get_float("alpha") == 0.5);
  BOOST_TEST(c.get_float("beta") == 2.0);  // int converts to float
  BOOST_TEST(c.get_int("count") == 3);
  BOOST_TEST(c.get_bool("flag"));
  BOOST_TEST(c.get_string("mode") == "same");
  BOOST_TEST((c.get_dtype("dtype") == DType::int64));
  BOOST_TEST(c.get_enum("mode", {"valid", "same"}) == 1u);

  BOOST_TEST(error_text([&] { c.get_bool("keep_dims"); }) ==
             "m.f: arg keep_dims must be bool, got int");
  BOOST_TEST(error_text([&] { c.get_int("alpha"); }) == "m.f: arg alpha must be int, got float");
  BOOST_TEST(error_text([&] { c.get_float("flag"); }) == "m.f: arg flag must be float, got bool");
  BOOST_TEST(error_text([&] { c.get_string("dtype"); }) ==
             "m.f: arg dtype must be string, got dtype");
  BOOST_TEST(error_text([&] { c.get_dtype("mode"); }) == "m.f: arg mode must be dtype, got string");
  BOOST_TEST(error_text([&] { c.get_float("absent"); }) ==
             "m.f: arg absent is required but was not given");
  BOOST_TEST(error_text([&] {
               c.get_enum("mode", {"valid", "sam"});
             }) == "m.f: arg mode must be one of 'valid', 'sam', got 'same'; did you mean 'sam'?");
  BOOST_TEST(error_text([&] {
               c.get_enum("mode", {"valid", "full"});
             }) == "m.f: arg mode must be one of 'valid', 'full', got 'same'");
  BOOST_TEST(error_text([&] { c.get_enum("count", {"a"}); }) ==
             "m.f: arg count must be string, got int");
  BOOST_TEST(error_of([&] { c.get_bool("keep_dims"); }).param() == "keep_dims");
}

BOOST_AUTO_TEST_CASE(list_args) {
  const std::vector<Tensor> in = tensors(1);
  const Args args = {{"dims", std::vector<std::int64_t>{0, 2}},
                     {"scales", std::vector<double>{0.5, 1.5}},
                     {"int_scales", std::vector<std::int64_t>{2, 3}},
                     {"mask", std::vector<bool>{true, false, true}},
                     {"one", 1}};
  const CallArgs c("m.f", in, args, {{"x", 1, 1}}, {"dims", "scales", "int_scales", "mask", "one"});
  const opgen::Span<std::int64_t> dims = c.get_ints("dims");
  BOOST_TEST(
      std::vector<std::int64_t>(dims.begin(), dims.end()) == (std::vector<std::int64_t>{0, 2}),
      boost::test_tools::per_element());
  const opgen::Span<double> scales = c.get_floats("scales");
  BOOST_TEST(std::vector<double>(scales.begin(), scales.end()) == (std::vector<double>{0.5, 1.5}),
             boost::test_tools::per_element());
  // An int list is accepted for a float list; the converted values stay
  // valid while the CallArgs lives, across further conversions.
  const opgen::Span<double> converted = c.get_floats("int_scales");
  const opgen::Span<double> again = c.get_floats("int_scales");
  BOOST_TEST(std::vector<double>(converted.begin(), converted.end()) == (std::vector<double>{2, 3}),
             boost::test_tools::per_element());
  BOOST_TEST(again[1] == 3.0);
  const opgen::Span<bool> mask = c.get_bools("mask");
  BOOST_REQUIRE(mask.size() == 3u);
  BOOST_TEST(mask[0]);
  BOOST_TEST(!mask[1]);
  BOOST_TEST(mask[2]);

  BOOST_TEST(error_text([&] { c.get_ints("one"); }) == "m.f: arg one must be int[], got int");
  BOOST_TEST(error_text([&] { c.get_ints("scales"); }) ==
             "m.f: arg scales must be int[], got float[]");
  BOOST_TEST(error_text([&] { c.get_bools("dims"); }) == "m.f: arg dims must be bool[], got int[]");
  BOOST_TEST(error_text([&] { c.get_floats("mask"); }) ==
             "m.f: arg mask must be float[], got bool[]");
}

// Counted string, dtype and enum args: strings and DTypes are viewed where
// the Args hold them; enum value names are checked one by one.
BOOST_AUTO_TEST_CASE(string_dtype_and_enum_lists) {
  enum class Mode : std::uint8_t { valid, same, full };
  const std::vector<Tensor> in = tensors(1);
  const Args args = {{"names", std::vector<std::string>{"a", "b"}},
                     {"types", std::vector<DType>{DType::int64, DType::bool_}},
                     {"modes", std::vector<std::string>{"full", "valid"}},
                     {"typo", std::vector<std::string>{"same", "ful"}},
                     {"one", "same"}};
  const CallArgs c("m.f", in, args, {{"x", 1, 1}}, {"names", "types", "modes", "typo", "one"});
  const opgen::Span<std::string> names = c.get_strings("names");
  BOOST_TEST(std::vector<std::string>(names.begin(), names.end()) ==
                 (std::vector<std::string>{"a", "b"}),
             boost::test_tools::per_element());
  const opgen::Span<DType> types = c.get_dtypes("types");
  BOOST_REQUIRE(types.size() == 2u);
  BOOST_TEST((types[0] == DType::int64));
  BOOST_TEST((types[1] == DType::bool_));
  BOOST_TEST(c.get_enum_indices("modes", {"valid", "same", "full"}) ==
                 (std::vector<std::size_t>{2, 0}),
             boost::test_tools::per_element());
  const opgen::Span<Mode> modes = c.get_enums<Mode>("modes", {"valid", "same", "full"});
  const opgen::Span<Mode> again = c.get_enums<Mode>("typo", {"valid", "same", "full", "ful"});
  BOOST_REQUIRE(modes.size() == 2u);
  BOOST_TEST((modes[0] == Mode::full));  // still valid after another conversion
  BOOST_TEST((modes[1] == Mode::valid));
  BOOST_TEST(again.size() == 2u);

  BOOST_TEST(error_text([&] { c.get_enums<Mode>("typo", {"valid", "same", "full"}); }) ==
             "m.f: arg typo[1] must be one of 'valid', 'same', 'full', got 'ful'; did you mean "
             "'full'?");
  BOOST_TEST(error_text([&] { c.get_strings("one"); }) ==
             "m.f: arg one must be string[], got string");
  BOOST_TEST(error_text([&] { c.get_dtypes("names"); }) ==
             "m.f: arg names must be dtype[], got string[]");
  BOOST_TEST(error_text([&] { c.get_enums<Mode>("one", {"same"}); }) ==
             "m.f: arg one must be string[], got string");
}

BOOST_AUTO_TEST_SUITE_END()
