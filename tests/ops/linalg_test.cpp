// The generated linalg namespace: results against naive loops, batches and
// broadcasting, transposes, every dtype, out tensors and errors.

#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;
using opgen::testing::values;

namespace {

Tensor random_tensor(const Shape& shape, DType dtype, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> pick(-9, 9);
  std::vector<double> v(static_cast<std::size_t>(shape.length()));
  for (double& x : v)
    x = pick(engine) / (dtype == DType::float32 || dtype == DType::float64 ? 4.0 : 1.0);
  switch (dtype) {
    case DType::float32:
      return Tensor::from<float>(std::vector<float>(v.begin(), v.end()), shape);
    case DType::int32:
      return Tensor::from<std::int32_t>(std::vector<std::int32_t>(v.begin(), v.end()), shape);
    case DType::int64:
      return Tensor::from<std::int64_t>(std::vector<std::int64_t>(v.begin(), v.end()), shape);
    default:
      return Tensor::from<double>(v, shape);
  }
}

// c[b, i, j] = Σ_p a(b, i, p) b(b, p, j) for 3-d operands, with the batch
// broadcast and transposes applied by index arithmetic.
std::vector<double> naive_matmul(const Tensor& a, const Tensor& b, bool ta, bool tb,
                                 std::int64_t batches) {
  const std::vector<double> av = values(a), bv = values(b);
  const std::int64_t ab = a.size(0), bb = b.size(0);
  const std::int64_t m = ta ? a.size(2) : a.size(1), k = ta ? a.size(1) : a.size(2);
  const std::int64_t n = tb ? b.size(1) : b.size(2);
  std::vector<double> out;
  for (std::int64_t t = 0; t < batches; ++t) {
    const std::int64_t ta_ = ab == 1 ? 0 : t, tb_ = bb == 1 ? 0 : t;
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          const double x = av[static_cast<std::size_t>(ta_ * m * k + (ta ? p * m + i : i * k + p))];
          const double y = bv[static_cast<std::size_t>(tb_ * k * n + (tb ? j * k + p : p * n + j))];
          s += x * y;
        }
        out.push_back(s);
      }
    }
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg)

BOOST_AUTO_TEST_CASE(matmul_small) {
  const Tensor a = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = Tensor::from<float>({7, 8, 9, 10, 11, 12}, {3, 2});
  check_tensor(opgen::linalg::matmul(a, b), DType::float32, {2, 2}, {58, 64, 139, 154});
  check_tensor(opgen::linalg::matmul(a, a, false, true), DType::float32, {2, 2}, {14, 32, 32, 77});
  check_tensor(opgen::linalg::matmul(a, a, true, false), DType::float32, {3, 3},
               {17, 22, 27, 22, 29, 36, 27, 36, 45});
  // Vectors: a row on the left, a column on the right; the added dim is dropped.
  const Tensor v = Tensor::from<float>({1, 0, -1}, {3});
  check_tensor(opgen::linalg::matmul(a, v), DType::float32, {2}, {-2, -2});
  check_tensor(opgen::linalg::matmul(v, b), DType::float32, {2}, {-4, -4});
  check_tensor(opgen::linalg::matmul(v, v), DType::float32, {}, {2});
  // k == 0 gives zeros.
  check_tensor(opgen::linalg::matmul(Tensor::empty({2, 0}, DType::float64),
                                     Tensor::empty({0, 3}, DType::float64)),
               DType::float64, {2, 3}, {0, 0, 0, 0, 0, 0});
}

BOOST_AUTO_TEST_CASE(matmul_batched_every_dtype) {
  for (DType dt : {DType::float32, DType::float64, DType::int32, DType::int64}) {
    BOOST_TEST_CONTEXT(dtype_name(dt)) {
      for (int flags = 0; flags < 4; ++flags) {
        const bool ta = (flags & 1) != 0, tb = (flags & 2) != 0;
        const std::int64_t m = 13, k = 37, n = 29;
        // a has 3 batches, b one that broadcasts; then the other way round.
        const Tensor a = random_tensor(ta ? Shape{3, k, m} : Shape{3, m, k}, dt, 1);
        const Tensor b = random_tensor(tb ? Shape{1, n, k} : Shape{1, k, n}, dt, 2);
        check_tensor(opgen::linalg::matmul(a, b, ta, tb), dt, {3, m, n},
                     naive_matmul(a, b, ta, tb, 3));
        const Tensor a1 = random_tensor(ta ? Shape{1, k, m} : Shape{1, m, k}, dt, 3);
        const Tensor b3 = random_tensor(tb ? Shape{3, n, k} : Shape{3, k, n}, dt, 4);
        check_tensor(opgen::linalg::matmul(a1, b3, ta, tb), dt, {3, m, n},
                     naive_matmul(a1, b3, ta, tb, 3));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(matmul_broadcasts_batch_dims) {
  // [2, 1, m, k] x [3, k, n] -> [2, 3, m, n]; and a batch times a plain matrix.
  const Tensor a = random_tensor({2, 1, 4, 5}, DType::float64, 5);
  const Tensor b = random_tensor({3, 5, 6}, DType::float64, 6);
  const Tensor c = opgen::linalg::matmul(a, b);
  BOOST_TEST((c.shape() == Shape{2, 3, 4, 6}));
  const std::vector<double> got = values(c), av = values(a), bv = values(b);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int r = 0; r < 4; ++r) {
        for (int q = 0; q < 6; ++q) {
          double s = 0;
          for (int p = 0; p < 5; ++p) s += av[i * 20 + r * 5 + p] * bv[j * 30 + p * 6 + q];
          BOOST_TEST(got[((i * 3 + j) * 4 + r) * 6 + q] == s);
        }
      }
    }
  }
  const Tensor w = random_tensor({5, 6}, DType::float32, 7);
  const Tensor x = random_tensor({2, 3, 4, 5}, DType::float32, 8);
  const Tensor y = opgen::linalg::matmul(x, w);
  BOOST_TEST((y.shape() == Shape{2, 3, 4, 6}));
  check_tensor(
      y, DType::float32, {2, 3, 4, 6},
      values(opgen::linalg::matmul(Tensor::from<float>(x.to_vector<float>(), {24, 5}), w)));
}

BOOST_AUTO_TEST_CASE(matmul_out_and_errors) {
  const Tensor a = Tensor::from<double>({1, 2, 3, 4}, {2, 2});
  Tensor out = Tensor::empty({2, 2}, DType::float64);
  opgen::linalg::matmul(a, a, false, false, out);
  check_tensor(out, DType::float64, {2, 2}, {7, 10, 15, 22});
  // The out tensor may be an operand: the product is computed aside first.
  Tensor same = a.clone();
  opgen::linalg::matmul(same, same, false, false, same);
  check_tensor(same, DType::float64, {2, 2}, {7, 10, 15, 22});
  check_error(
      [&] {
        opgen::linalg::matmul(a, Tensor::empty({3, 2}, DType::float64));
      },
      {"linalg.matmul", "inner dimensions differ"});
  check_error(
      [&] {
        opgen::linalg::matmul(a, Tensor::empty({2, 2}, DType::float32));
      },
      {"linalg.matmul", "same dtype"});
  check_error(
      [&] {
        opgen::linalg::matmul(random_tensor({2, 2, 2}, DType::float64, 1),
                              random_tensor({3, 2, 2}, DType::float64, 1));
      },
      {"linalg.matmul", "batch dimensions"});
  check_error([&] { opgen::linalg::matmul(Tensor::scalar(1.0), a); }, {"linalg.matmul", "scalar"});
  check_error(
      [&] {
        opgen::linalg::matmul(a, a, false, false, out = Tensor::empty({2, 3}, DType::float64));
      },
      {"linalg.matmul", "out c"});
}

BOOST_AUTO_TEST_CASE(transpose) {
  const Tensor x = Tensor::from<std::int32_t>({0, 1, 2, 3, 4, 5}, {2, 3});
  check_tensor(opgen::linalg::transpose(x), DType::int32, {3, 2}, {0, 3, 1, 4, 2, 5});
  const Tensor t = Tensor::from<double>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {2, 3, 2});
  check_tensor(opgen::linalg::transpose(t, std::vector<std::int64_t>{1, 0, 2}), DType::float64,
               {3, 2, 2}, {0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11});
  check_tensor(opgen::linalg::transpose(t, std::vector<std::int64_t>{0, -1, -2}), DType::float64,
               {2, 2, 3}, {0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11});
  check_tensor(opgen::linalg::transpose(Tensor::from<bool>({true, false}, {1, 2})), DType::bool_,
               {2, 1}, {1, 0});
  check_error(
      [&] {
        opgen::linalg::transpose(t, std::vector<std::int64_t>{0, 0, 1});
      },
      {"linalg.transpose", "permutation"});
  check_error(
      [&] {
        opgen::linalg::transpose(t, std::vector<std::int64_t>{0, 1});
      },
      {"linalg.transpose", "dims"});
}

BOOST_AUTO_TEST_CASE(outer_trace_diag) {
  check_tensor(opgen::linalg::outer(Tensor::from<std::int64_t>({1, 2}),
                                    Tensor::from<std::int64_t>({3, 4, 5})),
               DType::int64, {2, 3}, {3, 4, 5, 6, 8, 10});
  check_error([&] { opgen::linalg::outer(Tensor::from<float>({1}), Tensor::from<double>({1})); },
              {"linalg.outer", "same dtype"});
  const Tensor m = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  check_tensor(opgen::linalg::trace(m), DType::float32, {}, {6});
  check_tensor(opgen::linalg::trace(m, 1), DType::float32, {}, {8});
  check_tensor(opgen::linalg::trace(m, -1), DType::float32, {}, {4});
  check_tensor(opgen::linalg::trace(m, 5), DType::float32, {}, {0});
  const Tensor batch = Tensor::from<std::int32_t>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  check_tensor(opgen::linalg::trace(batch), DType::int32, {2}, {5, 13});
  check_error(
      [&] {
        opgen::linalg::trace(Tensor::from<float>({1, 2}));
      },
      {"linalg.trace", "matrix"});
  check_tensor(opgen::linalg::diag(m), DType::float32, {2}, {1, 5});
  check_tensor(opgen::linalg::diag(m, 1), DType::float32, {2}, {2, 6});
  check_tensor(opgen::linalg::diag(m, -1), DType::float32, {1}, {4});
  check_tensor(opgen::linalg::diag(m, 3), DType::float32, {0}, {});
  check_tensor(opgen::linalg::diag(Tensor::from<std::int64_t>({7, 8})), DType::int64, {2, 2},
               {7, 0, 0, 8});
  check_tensor(opgen::linalg::diag(Tensor::from<std::int64_t>({7, 8}), -1), DType::int64, {3, 3},
               {0, 0, 0, 7, 0, 0, 0, 8, 0});
  check_error([&] { opgen::linalg::diag(Tensor::scalar(1.0)); },
              {"linalg.diag", "vector or a matrix"});
}

// transpose and diag move elements of any size (1, 4 or 8 bytes): every
// dtype gives the elements float64 gives (checked above), in the same places.
BOOST_AUTO_TEST_CASE(element_moves_in_every_dtype) {
  std::vector<double> numbers(12), bits(12);
  for (std::size_t i = 0; i < 12; ++i) {
    numbers[i] = static_cast<double>(i) - 5;
    bits[i] = (0x9B5u >> i) & 1u;
  }
  const auto as = [](const std::vector<double>& v, const Shape& shape, DType dtype) {
    switch (dtype) {
      case DType::float32:
        return Tensor::from<float>(std::vector<float>(v.begin(), v.end()), shape);
      case DType::int32:
        return Tensor::from<std::int32_t>(std::vector<std::int32_t>(v.begin(), v.end()), shape);
      case DType::int64:
        return Tensor::from<std::int64_t>(std::vector<std::int64_t>(v.begin(), v.end()), shape);
      case DType::bool_: {
        bool b[12] = {};  // v holds at most 12 elements
        for (std::size_t i = 0; i < v.size(); ++i) b[i] = v[i] != 0;
        return Tensor::from<bool>(std::span<const bool>(b, v.size()), shape);
      }
      default:
        return Tensor::from<double>(v, shape);
    }
  };
  for (const DType dtype :
       {DType::float32, DType::float64, DType::int32, DType::int64, DType::bool_}) {
    BOOST_TEST_CONTEXT(dtype_name(dtype)) {
      const std::vector<double>& v = dtype == DType::bool_ ? bits : numbers;
      const std::vector<double> row(v.begin(), v.begin() + 3);
      const Tensor cube = as(v, {2, 3, 2}, dtype), want_cube = as(v, {2, 3, 2}, DType::float64);
      const Tensor matrix = as(v, {3, 4}, dtype), want_matrix = as(v, {3, 4}, DType::float64);
      const Tensor vector = as(row, {3}, dtype), want_vector = as(row, {3}, DType::float64);
      const std::vector<std::pair<Tensor, Tensor>> cases = {
          {opgen::linalg::transpose(cube, std::vector<std::int64_t>{2, 0, 1}),
           opgen::linalg::transpose(want_cube, std::vector<std::int64_t>{2, 0, 1})},
          {opgen::linalg::transpose(matrix), opgen::linalg::transpose(want_matrix)},
          {opgen::linalg::diag(matrix, 1), opgen::linalg::diag(want_matrix, 1)},
          {opgen::linalg::diag(vector, -1), opgen::linalg::diag(want_vector, -1)},
      };
      for (const auto& [got, want] : cases) check_tensor(got, dtype, want.shape(), values(want));
    }
  }
}

// Every permutation of a [6, 37, 41] tensor in every dtype, element by
// element against index arithmetic: shapes large enough for the blocked
// transposing copy's vector blocks (4 × 4 for 4-byte, 2 × 2 for 8-byte,
// 64 × 64 bytes for bool) and their ragged edges, and planes of the
// contiguous dimension with the run both in and out of order (0, 2, 1 and
// 2, 1, 0), also into an out tensor.
BOOST_AUTO_TEST_CASE(transposes_of_large_tensors_match_index_arithmetic) {
  const std::int64_t dims[3] = {6, 37, 41};
  const std::int64_t length = dims[0] * dims[1] * dims[2];
  std::vector<double> numbers(static_cast<std::size_t>(length));
  for (std::size_t i = 0; i < numbers.size(); ++i) numbers[i] = static_cast<double>(i % 1000) - 500;
  const std::vector<std::vector<std::int64_t>> perms = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                                        {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const DType dtype :
       {DType::float32, DType::float64, DType::int32, DType::int64, DType::bool_}) {
    Tensor x = Tensor::empty({dims[0], dims[1], dims[2]}, dtype);
    for (std::int64_t i = 0; i < length; ++i) {
      const double v =
          dtype == DType::bool_ ? (i * 7 / 3) % 2 : numbers[static_cast<std::size_t>(i)];
      switch (dtype) {
        case DType::float32:
          x.data<float>()[i] = static_cast<float>(v);
          break;
        case DType::float64:
          x.data<double>()[i] = v;
          break;
        case DType::int32:
          x.data<std::int32_t>()[i] = static_cast<std::int32_t>(v);
          break;
        case DType::int64:
          x.data<std::int64_t>()[i] = static_cast<std::int64_t>(v);
          break;
        default:
          x.data<bool>()[i] = v != 0;
          break;
      }
    }
    const std::vector<double> xv = values(x);
    for (const std::vector<std::int64_t>& perm : perms) {
      BOOST_TEST_CONTEXT(dtype_name(dtype) << " dims " << perm[0] << perm[1] << perm[2]) {
        const Shape shape{dims[perm[0]], dims[perm[1]], dims[perm[2]]};
        std::vector<double> want;
        std::int64_t at[3];
        for (at[0] = 0; at[0] < shape[0]; ++at[0]) {
          for (at[1] = 0; at[1] < shape[1]; ++at[1]) {
            for (at[2] = 0; at[2] < shape[2]; ++at[2]) {
              std::int64_t src[3];
              for (int d = 0; d < 3; ++d) src[perm[static_cast<std::size_t>(d)]] = at[d];
              want.push_back(
                  xv[static_cast<std::size_t>((src[0] * dims[1] + src[1]) * dims[2] + src[2])]);
            }
          }
        }
        check_tensor(opgen::linalg::transpose(x, perm), dtype, shape, want);
        Tensor out = Tensor::empty(shape, dtype);
        opgen::linalg::transpose(x, perm, out);
        check_tensor(out, dtype, shape, want);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(by_name) {
  const Tensor a = Tensor::from<double>({1, 2, 3, 4}, {2, 2});
  const std::vector<Tensor> out =
      opgen::registry().call("linalg.matmul", {a, a}, {{"trans_b", true}});
  check_tensor(out.at(0), DType::float64, {2, 2}, {5, 11, 11, 25});
}

BOOST_AUTO_TEST_SUITE_END()
