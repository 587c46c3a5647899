// Tensor: construction, element access and its errors, sharing and copies.
#include "opgen/tensor.hpp"

#include <boost/test/unit_test.hpp>
#include <cstdint>

#include "error_text.hpp"

using opgen::DType;
using opgen::Shape;
using opgen::Tensor;
using opgen::testing::error_text;

namespace {

bool aligned64(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }

}  // namespace

BOOST_AUTO_TEST_SUITE(tensor)

// A default tensor is null: not defined, no data.
BOOST_AUTO_TEST_CASE(null_tensor) {
  const Tensor t;
  BOOST_TEST(!t.defined());
  BOOST_TEST(!static_cast<bool>(t));
  BOOST_TEST(t.raw_data() == nullptr);
  BOOST_TEST(t.length() == 0);
  BOOST_TEST(t.description() == "null");
  BOOST_TEST(!t.shares_storage(Tensor()));
  BOOST_TEST(error_text([&] { (void)t.data<float>(); }) == "data() called on a null tensor");
  BOOST_TEST(!t.clone().defined());
}

BOOST_AUTO_TEST_CASE(from_values_and_shape) {
  const Tensor a = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  BOOST_TEST(a.defined());
  BOOST_TEST((a.dtype() == DType::float32));
  BOOST_TEST((a.shape() == Shape{2, 3}));
  BOOST_TEST(a.rank() == 2);
  BOOST_TEST(a.length() == 6);
  BOOST_TEST(a.nbytes() == 24u);
  BOOST_TEST(a.description() == "float32[2, 3]");
  BOOST_TEST(aligned64(a.raw_data()));
  const std::vector<float> expected = {1, 2, 3, 4, 5, 6};
  BOOST_TEST(a.to_vector<float>() == expected, boost::test_tools::per_element());
  BOOST_TEST(a.data<float>()[4] == 5.0f);

  const Tensor v = Tensor::from<std::int64_t>({7, 8, 9});
  BOOST_TEST((v.shape() == Shape{3}));
  BOOST_TEST((v.dtype() == DType::int64));
  const Tensor b = Tensor::from<bool>({true, false, true}, {3, 1});
  BOOST_TEST((b.dtype() == DType::bool_));
  BOOST_TEST(b.nbytes() == 3u);  // one byte per element
  BOOST_TEST(b.data<bool>()[0]);
  BOOST_TEST(!b.data<bool>()[1]);
}

BOOST_AUTO_TEST_CASE(from_length_mismatch) {
  BOOST_TEST(error_text([] {
               Tensor::from<float>({1, 2, 3}, {2, 3});
             }) == "3 values given for shape [2, 3], which holds 6");
  BOOST_TEST(error_text([] { Tensor::from<double>({1}, {2}); }) ==
             "1 value given for shape [2], which holds 2");
}

BOOST_AUTO_TEST_CASE(empty_zeros_full_scalar) {
  const Tensor e = Tensor::empty({4, 5}, DType::int32);
  BOOST_TEST(e.length() == 20);
  BOOST_TEST((e.dtype() == DType::int32));
  BOOST_TEST(aligned64(e.raw_data()));

  for (DType t : {DType::float32, DType::float64, DType::int32, DType::int64, DType::bool_}) {
    const Tensor z = Tensor::zeros({3, 7}, t);
    const auto* bytes = static_cast<const unsigned char*>(z.raw_data());
    bool all_zero = true;
    for (std::size_t i = 0; i < z.nbytes(); ++i) all_zero = all_zero && bytes[i] == 0;
    BOOST_TEST(all_zero);
    BOOST_TEST(z.nbytes() == 21 * opgen::dtype_size(t));
  }

  const Tensor f = Tensor::full<double>({2, 2}, 2.5);
  BOOST_TEST(f.to_vector<double>() == std::vector<double>(4, 2.5),
             boost::test_tools::per_element());
  const Tensor fb = Tensor::full({3}, true);
  BOOST_TEST((fb.dtype() == DType::bool_));
  BOOST_TEST(fb.data<bool>()[2]);

  const Tensor s = Tensor::scalar<std::int32_t>(42);
  BOOST_TEST(s.rank() == 0);
  BOOST_TEST(s.length() == 1);
  BOOST_TEST(s.item<std::int32_t>() == 42);
  BOOST_TEST(s.description() == "int32[]");
}

BOOST_AUTO_TEST_CASE(data_dtype_mismatch) {
  Tensor t = Tensor::zeros({2}, DType::float32);
  BOOST_TEST(error_text([&] { (void)t.data<double>(); }) ==
             "element type mismatch: the tensor holds float32, not float64");
  BOOST_TEST(error_text([&] { (void)t.to_vector<std::int32_t>(); }) ==
             "element type mismatch: the tensor holds float32, not int32");
  const Tensor& ct = t;
  BOOST_TEST(error_text([&] { (void)ct.data<bool>(); }) ==
             "element type mismatch: the tensor holds float32, not bool");
}

BOOST_AUTO_TEST_CASE(item_needs_one_element) {
  const Tensor t = Tensor::zeros({2, 3}, DType::float64);
  BOOST_TEST(error_text([&] { (void)t.item<double>(); }) ==
             "item() needs a tensor of exactly one element, got shape [2, 3] (6 elements)");
  BOOST_TEST(Tensor::from<double>({1.5}, {1, 1}).item<double>() == 1.5);
}

BOOST_AUTO_TEST_CASE(size_of_dimension) {
  const Tensor t = Tensor::zeros({2, 3, 4}, DType::int64);
  BOOST_TEST(t.size(0) == 2);
  BOOST_TEST(t.size(2) == 4);
  BOOST_TEST(t.size(-1) == 4);
  BOOST_TEST(t.size(-3) == 2);
  BOOST_TEST(error_text([&] { (void)t.size(3); }) ==
             "size(3): dimension 3 is out of range for a tensor of rank 3");
  BOOST_TEST(error_text([&] { (void)t.size(-4); }) ==
             "size(-4): dimension -4 is out of range for a tensor of rank 3");
  BOOST_TEST(error_text([] { (void)Tensor::scalar(1.0).size(0); }) ==
             "size(0): dimension 0 is out of range for a tensor of rank 0");
}

// Copies share storage; clone() does not.
BOOST_AUTO_TEST_CASE(sharing_and_clone) {
  Tensor a = Tensor::from<std::int32_t>({1, 2, 3});
  Tensor b = a;
  BOOST_TEST(b.shares_storage(a));
  b.data<std::int32_t>()[0] = 10;
  BOOST_TEST(a.data<std::int32_t>()[0] == 10);

  Tensor c = a.clone();
  BOOST_TEST(!c.shares_storage(a));
  BOOST_TEST((c.shape() == a.shape()));
  c.data<std::int32_t>()[1] = 20;
  BOOST_TEST(a.data<std::int32_t>()[1] == 2);
  BOOST_TEST(c.to_vector<std::int32_t>() == (std::vector<std::int32_t>{10, 20, 3}),
             boost::test_tools::per_element());

  // Storage outlives the handle it came from.
  Tensor d;
  {
    const Tensor tmp = Tensor::full<double>({1000}, 3.0);
    d = tmp;
  }
  BOOST_TEST(d.data<double>()[999] == 3.0);
}

BOOST_AUTO_TEST_CASE(move_and_assignment) {
  Tensor a = Tensor::from<float>({1, 2});
  const void* p = a.raw_data();
  Tensor b = std::move(a);
  BOOST_TEST(b.raw_data() == p);
  BOOST_TEST(!a.defined());  // NOLINT(bugprone-use-after-move): moved-from is null
  BOOST_TEST(a.rank() == 0);

  Tensor c = Tensor::from<float>({5});
  c = b;
  BOOST_TEST(c.shares_storage(b));
  Tensor& self = c;
  c = self;  // self-assignment keeps the storage alive
  BOOST_TEST(c.data<float>()[1] == 2.0f);
  c = std::move(self);
  BOOST_TEST(c.defined());
  c = Tensor();
  BOOST_TEST(!c.defined());
  BOOST_TEST(b.data<float>()[0] == 1.0f);
}

BOOST_AUTO_TEST_CASE(rank_limit) {
  BOOST_TEST(error_text([] {
               Tensor::empty({1, 1, 1, 1, 1, 1, 1, 1, 1}, DType::float32);
             }) == "shape [1, 1, 1, 1, 1, 1, 1, 1, 1] has rank 9, more than the maximum rank 8");
  const Tensor t = Tensor::zeros({1, 2, 1, 2, 1, 2, 1, 2}, DType::bool_);
  BOOST_TEST(t.rank() == 8);
  BOOST_TEST(t.length() == 16);
}

BOOST_AUTO_TEST_CASE(overflowing_element_counts) {
  const std::int64_t big = std::int64_t{1} << 32;
  BOOST_TEST(error_text([&] {
               Tensor::empty({big, big}, DType::float32);
             }) == "shape [4294967296, 4294967296] has more elements than fit in int64");
  // The count fits in int64, the bytes do not fit in memory's address range.
  BOOST_TEST(error_text([] { Tensor::empty({std::int64_t{1} << 61}, DType::float64); }) ==
             "tensor float64[2305843009213693952] of 2305843009213693952 elements is too "
             "large to allocate");
}

// detail::assign_empty (the generated wrappers' direct path): out becomes
// what Tensor::empty(shape, dtype) would be, with the same errors; a
// defined out lets go of its storage, which other handles keep.
BOOST_AUTO_TEST_CASE(assign_empty_is_empty) {
  Tensor out;
  opgen::detail::assign_empty(out, {2, 3}, DType::int64);
  BOOST_TEST(out.defined());
  BOOST_TEST((out.dtype() == DType::int64));
  BOOST_TEST((out.shape() == Shape{2, 3}));
  BOOST_TEST(out.length() == 6);
  BOOST_TEST(out.nbytes() == 48u);
  BOOST_TEST(aligned64(out.raw_data()));
  out.data<std::int64_t>()[5] = 7;
  const Tensor other = out;
  opgen::detail::assign_empty(out, out.shape(), DType::float32);  // its own shape
  BOOST_TEST(!out.shares_storage(other));
  BOOST_TEST((out.shape() == Shape{2, 3}));
  BOOST_TEST((out.dtype() == DType::float32));
  BOOST_TEST(other.data<std::int64_t>()[5] == 7);
  opgen::detail::assign_empty(out, {0, 4}, DType::bool_);
  BOOST_TEST(out.defined());
  BOOST_TEST(out.length() == 0);
  BOOST_TEST(error_text([] {
               Tensor t;
               opgen::detail::assign_empty(t, {std::int64_t{1} << 61}, DType::float64);
             }) ==
             "tensor float64[2305843009213693952] of 2305843009213693952 elements is too "
             "large to allocate");
  const std::int64_t big = std::int64_t{1} << 32;
  BOOST_TEST(error_text([&] {
               Tensor t;
               opgen::detail::assign_empty(t, {big, big}, DType::float32);
             }) == "shape [4294967296, 4294967296] has more elements than fit in int64");
}

// A tensor with a zero-size dimension is defined and has no elements.
BOOST_AUTO_TEST_CASE(zero_size_dims) {
  const Tensor t = Tensor::empty({3, 0}, DType::float32);
  BOOST_TEST(t.defined());
  BOOST_TEST(t.length() == 0);
  BOOST_TEST(t.nbytes() == 0u);
  BOOST_TEST(t.raw_data() != nullptr);
  BOOST_TEST(t.size(1) == 0);
  BOOST_TEST(t.to_vector<float>().empty());
  const Tensor c = t.clone();
  BOOST_TEST(c.defined());
  BOOST_TEST((c.shape() == Shape{3, 0}));
  BOOST_TEST(Tensor::zeros({0}, DType::int64).defined());
  BOOST_TEST(Tensor::from<float>(std::vector<float>{}, {0, 5}).defined());
}

// Large buffers (huge-page aligned internally) keep 64-byte aligned data
// and are fully writable.
BOOST_AUTO_TEST_CASE(large_allocation) {
  Tensor t = Tensor::zeros({3 << 20}, DType::float32);  // 12 MiB
  BOOST_TEST(aligned64(t.raw_data()));
  float* p = t.data<float>();
  p[0] = 1;
  p[t.length() - 1] = 2;
  BOOST_TEST(p[t.length() / 2] == 0.0f);
  BOOST_TEST(t.clone().data<float>()[t.length() - 1] == 2.0f);
}

BOOST_AUTO_TEST_SUITE_END()
