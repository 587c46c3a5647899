// Matrix products against a double (long double for float64) reference on
// every SIMD target: shapes around the register tile and block sizes
// (1..9 rows, widths around 1, 2 and 3 vectors, k past one 256-deep block,
// a float32 transposed a with columns 4 KiB apart,
// n past one b block, with and without a widened last block: b blocks are
// 1 MiB, 504 to 1024 columns), all four transpose combinations, c rows wider than n
// (whose padding must stay untouched), and k == 0. Then the transposing
// copy (Transpose), exact for 4- and 8-byte elements.
//
// Tolerance, per element, with eps of the element type:
//   |got - exact| <= (k + 2) eps Σ_p |a_ip b_pj|
// the standard bound of a dot product summed in any order.
// Integer products are exact with wrap-around.
#include "kernels/matmul.hpp"

#include <hwy/aligned_allocator.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tests/kernels/digest.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;

struct Dims {
  std::size_t m, n, k;
};

// {5, 1008, 300}: a row-major b read in place (rows of whole vectors under
// 4 KiB) across two column blocks and two k blocks on every x86 target.
// The last two: a float32 transposed a whose columns lie 4 or 8 KiB apart,
// whose strips are packed in pairs; with 6-row strips a partial last one,
// and at 2048 an odd number of whole ones (the last read in place).
const std::vector<Dims> kDims = {
    {1, 1, 1},      {1, 1, 0},      {3, 4, 0},     {2, 3, 5},    {5, 7, 3},    {6, 32, 17},
    {8, 48, 33},    {9, 49, 1},     {7, 65, 64},   {13, 31, 8},  {1, 100, 7},  {100, 1, 9},
    {17, 96, 257},  {4, 530, 20},   {3, 17, 600},  {33, 50, 70}, {3, 1200, 5}, {2, 600, 300},
    {5, 1008, 300}, {1024, 17, 33}, {2048, 5, 300}};

// A matrix of rows × cols stored with the given strides (row-major or
// transposed), inside a buffer with a few elements of slack in front.
template <typename T>
struct Operand {
  std::vector<T> storage;
  std::ptrdiff_t row, col;
  const T* data() const { return storage.data() + 3; }
};

template <typename T>
Operand<T> MakeOperand(std::size_t rows, std::size_t cols, bool transposed, Random& random) {
  Operand<T> op;
  op.storage.assign(rows * cols + 3, T(0));
  op.row = transposed ? 1 : static_cast<std::ptrdiff_t>(cols);
  op.col = transposed ? static_cast<std::ptrdiff_t>(rows) : 1;
  for (std::size_t i = 0; i < rows * cols; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      op.storage[i + 3] = static_cast<T>(random.Uniform(-2, 2));
    } else {
      op.storage[i + 3] = random.Int<T>();
    }
  }
  return op;
}

template <typename T>
T At(const Operand<T>& x, std::size_t i, std::size_t j) {
  return x.data()[static_cast<std::ptrdiff_t>(i) * x.row + static_cast<std::ptrdiff_t>(j) * x.col];
}

const char* TypeName(float) { return "float32"; }
const char* TypeName(double) { return "float64"; }
const char* TypeName(std::int32_t) { return "int32"; }
const char* TypeName(std::int64_t) { return "int64"; }

// The digests (digest.hpp) get every product of each target: integer ones
// are exact (tolerance 0), so bit-identical on every target of every
// architecture; float ones record their largest error as a fraction of the
// bound (tolerance 1).
template <typename T>
void CheckProducts() {
  using Wide = std::conditional_t<std::is_same_v<T, double>, long double, double>;
  const T sentinel = T(77);
  ForEachTarget([&](std::int64_t) {
    ResultHash hash;
    double max_error = 0;
    hwy::AlignedFreeUniquePtr<std::uint8_t[]> workspace;
    if constexpr (std::is_floating_point_v<T>) {
      workspace = hwy::AllocateAligned<std::uint8_t>(k::GemmWorkspaceBytes(sizeof(T)));
    }
    Random random(42);
    for (const Dims& dims : kDims) {
      for (int flags = 0; flags < 4; ++flags) {
        const bool ta = (flags & 1) != 0;
        const bool tb = (flags & 2) != 0;
        BOOST_TEST_CONTEXT("m " << dims.m << " n " << dims.n << " k " << dims.k << " trans_a " << ta
                                << " trans_b " << tb) {
          const Operand<T> a = MakeOperand<T>(dims.m, dims.k, ta, random);
          const Operand<T> b = MakeOperand<T>(dims.k, dims.n, tb, random);
          const std::size_t ldc = dims.n + (flags == 3 ? 5 : 0);
          // The float references, (sum, bound) of each c(i, j): once in
          // the run for these operands (ReferenceOnce), not per target.
          std::vector<std::pair<Wide, Wide>> no_references;
          const auto& references = [&]() -> const std::vector<std::pair<Wide, Wide>>& {
            if constexpr (!std::is_floating_point_v<T>) {
              return no_references;
            } else {
              const std::string b_values(reinterpret_cast<const char*>(b.storage.data()),
                                         b.storage.size() * sizeof(T));
              return ReferenceOnce<std::vector<std::pair<Wide, Wide>>>(
                  std::tuple(dims.m, dims.n, dims.k, flags, b_values), a.storage.data(),
                  a.storage.size(), [&] {
                    std::vector<std::pair<Wide, Wide>> r;
                    for (std::size_t i = 0; i < dims.m; ++i) {
                      for (std::size_t j = 0; j < dims.n; ++j) {
                        Wide sum = 0, magnitude = 0;
                        for (std::size_t p = 0; p < dims.k; ++p) {
                          const Wide term =
                              static_cast<Wide>(At(a, i, p)) * static_cast<Wide>(At(b, p, j));
                          sum += term;
                          magnitude += std::fabs(term);
                        }
                        r.emplace_back(sum, static_cast<Wide>(dims.k + 2) *
                                                std::numeric_limits<T>::epsilon() * magnitude);
                      }
                    }
                    return r;
                  });
            }
          }();
          std::vector<T> c(dims.m * ldc + 1, sentinel);
          k::Gemm(a.data(), a.row, a.col, b.data(), b.row, b.col, c.data(), ldc, dims.m, dims.n,
                  dims.k, workspace.get());
          std::size_t bad = 0;
          for (std::size_t i = 0; i < dims.m; ++i) {
            for (std::size_t j = 0; j < ldc; ++j) {
              const T got = c[i * ldc + j];
              if (j >= dims.n) {
                if (got != sentinel && bad++ < 3)
                  BOOST_ERROR("padding overwritten at " << i << "," << j);
                continue;
              }
              hash.Add(got);
              if constexpr (std::is_floating_point_v<T>) {
                const Wide sum = references[i * dims.n + j].first;
                const Wide bound = references[i * dims.n + j].second;
                const Wide diff = std::fabs(static_cast<Wide>(got) - sum);
                // NaN (a failure) stays NaN and is not a new maximum; the
                // check below reports it.
                if (bound > 0) max_error = std::max(max_error, static_cast<double>(diff / bound));
                if (!(std::fabs(static_cast<Wide>(got) - sum) <= bound) && bad++ < 3) {
                  BOOST_ERROR("c(" << i << ", " << j << ") = " << got << ", expected "
                                   << static_cast<double>(sum) << " within "
                                   << static_cast<double>(bound));
                }
              } else {
                using U = std::make_unsigned_t<T>;
                U sum = 0;
                for (std::size_t p = 0; p < dims.k; ++p) {
                  sum += static_cast<U>(At(a, i, p)) * static_cast<U>(At(b, p, j));
                }
                if (got != static_cast<T>(sum) && bad++ < 3) {
                  BOOST_ERROR("c(" << i << ", " << j << ") = " << got << ", expected "
                                   << static_cast<T>(sum));
                }
              }
            }
          }
          BOOST_TEST(bad == 0u);
          BOOST_TEST(c.back() == sentinel);
        }
      }
    }
    RecordDigest(std::string("Gemm<") + TypeName(T{}) + ">", std::is_integral_v<T> ? 0 : 1, hash,
                 max_error);
  });
}

// Transpose on every target: dst[i * ld + j] == src[i + j * stride] bit
// for bit, for rows and cols around the 4 × 4 (2 × 2) vector blocks and the
// runs of 16, src strides past rows and negative, dst rows wider than cols
// (whose padding must stay untouched). Values are all bit patterns, NaN
// payloads included when read as floats. Exact, so the digest is too.
template <typename U>
void CheckTranspose() {
  const U sentinel = static_cast<U>(0x5A5A5A5A5A5A5A5Aull);
  const std::size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 21, 40};
  ForEachTarget([&](std::int64_t) {
    ResultHash hash;
    Random random(7);
    for (const std::size_t rows : sizes) {
      for (const std::size_t cols : sizes) {
        for (const bool negative : {false, true}) {
          BOOST_TEST_CONTEXT("rows " << rows << " cols " << cols << " negative " << negative) {
            const std::size_t gap = rows + 3;
            std::vector<U> src(gap * cols);
            for (U& v : src) v = random.Int<U>();
            const U* base = negative ? src.data() + (cols - 1) * gap : src.data();
            const auto stride = static_cast<std::ptrdiff_t>(gap) * (negative ? -1 : 1);
            const std::size_t ld = cols + 2;
            std::vector<U> dst(rows * ld, sentinel);
            k::Transpose(base, stride, rows, cols, dst.data(), ld);
            std::size_t bad = 0;
            for (std::size_t i = 0; i < rows; ++i) {
              for (std::size_t j = 0; j < ld; ++j) {
                const U got = dst[i * ld + j];
                const U want = j < cols ? base[static_cast<std::ptrdiff_t>(i) +
                                               static_cast<std::ptrdiff_t>(j) * stride]
                                        : sentinel;
                if (j < cols) hash.Add(got);
                if (got != want && bad++ < 3) {
                  BOOST_ERROR("dst(" << i << ", " << j << ") = " << got << ", expected " << want);
                }
              }
            }
            BOOST_TEST(bad == 0u);
          }
        }
      }
    }
    // A copy large enough, with dst rows a page or more apart, to go in
    // tiles (TransposeCopy): 70 dst rows of 1100 (600 for 8 bytes), plus
    // padding.
    {
      const std::size_t rows = 70, cols = sizeof(U) == 4 ? 1100 : 600, ld = cols + 2;
      const std::size_t gap = rows + 5;
      std::vector<U> src(gap * cols);
      for (U& v : src) v = random.Int<U>();
      std::vector<U> dst(rows * ld, sentinel);
      k::Transpose(src.data(), static_cast<std::ptrdiff_t>(gap), rows, cols, dst.data(), ld);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < ld; ++j) {
          const U want = j < cols ? src[i + j * gap] : sentinel;
          if (j < cols) hash.Add(dst[i * ld + j]);
          if (dst[i * ld + j] != want && bad++ < 3) {
            BOOST_ERROR("tiled dst(" << i << ", " << j << ") = " << dst[i * ld + j] << ", expected "
                                     << want);
          }
        }
      }
      BOOST_TEST(bad == 0u);
    }
    RecordDigest(std::string("Transpose<") + std::to_string(8 * sizeof(U)) + ">", 0, hash, 0);
  });
}

// Reverse on every target: dst[i] == src[n - 1 - i] bit for bit, for n
// around the vector and four-vector steps, src at every third element
// offset from the vector's start, and the element past dst's end untouched.
template <typename U>
void CheckReverse() {
  const U sentinel = static_cast<U>(0x5A5A5A5A5A5A5A5Aull);
  std::vector<std::size_t> sizes;
  for (std::size_t n = 0; n <= 70; ++n) sizes.push_back(n);
  for (const std::size_t n : {127, 128, 129, 255, 256, 257, 1000, 4099}) sizes.push_back(n);
  ForEachTarget([&](std::int64_t) {
    ResultHash hash;
    Random random(11);
    for (const std::size_t n : sizes) {
      for (std::size_t offset = 0; offset < 64 / sizeof(U); offset += 3) {
        BOOST_TEST_CONTEXT("n " << n << " offset " << offset) {
          std::vector<U> src(n + offset);
          for (U& v : src) v = random.Int<U>();
          std::vector<U> dst(n + 1, sentinel);
          k::Reverse(src.data() + offset, n, dst.data());
          std::size_t bad = 0;
          for (std::size_t i = 0; i < n; ++i) {
            hash.Add(dst[i]);
            if (dst[i] != src[offset + n - 1 - i] && bad++ < 3) {
              BOOST_ERROR("dst[" << i << "] = " << dst[i] << ", expected "
                                 << src[offset + n - 1 - i]);
            }
          }
          BOOST_TEST(bad == 0u);
          BOOST_TEST(dst[n] == sentinel);
        }
      }
    }
    RecordDigest(std::string("Reverse<") + std::to_string(8 * sizeof(U)) + ">", 0, hash, 0);
  });
}

// StridedCopy on every target: dst[i] == src[i * stride] bit for bit, for
// strides 1 to 6 (2 to 4 take whole vectors) and -3, n around the vector
// steps, the last element read at the end of an accessible page (nothing
// past it may be read) or src at an element offset, and the element past
// dst's end untouched.
template <typename U>
void CheckStridedCopy() {
  const U sentinel = static_cast<U>(0x5A5A5A5A5A5A5A5Aull);
  constexpr std::size_t kMax = 300;
  PageEndArray<U> page_end(6 * kMax + 8);
  ForEachTarget([&](std::int64_t) {
    ResultHash hash;
    Random random(17);
    for (const std::ptrdiff_t stride : {1, 2, 3, 4, 5, 6, -3}) {
      const std::size_t step = static_cast<std::size_t>(stride < 0 ? -stride : stride);
      for (std::size_t n = 0; n <= kMax; n = n < 70 ? n + 1 : n * 2 + 1) {
        for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
          BOOST_TEST_CONTEXT("stride " << stride << " n " << n << " offset " << offset) {
            // The span read: (n - 1) * step + 1 elements, at the page's end
            // for offset 0.
            const std::size_t span = n == 0 ? 0 : (n - 1) * step + 1;
            std::vector<U> heap(span + offset);
            U* const base = offset == 0 ? page_end.Place(span) : heap.data() + offset;
            for (std::size_t j = 0; j < span; ++j) base[j] = random.Int<U>();
            // The first element copied: the span's start, or its end for a
            // negative stride.
            const U* const src = stride < 0 && n > 0 ? base + span - 1 : base;
            std::vector<U> dst(n + 1, sentinel);
            k::StridedCopy(src, stride, n, dst.data());
            std::size_t bad = 0;
            for (std::size_t i = 0; i < n; ++i) {
              const U want = src[static_cast<std::ptrdiff_t>(i) * stride];
              hash.Add(dst[i]);
              if (dst[i] != want && bad++ < 3) {
                BOOST_ERROR("dst[" << i << "] = " << dst[i] << ", expected " << want);
              }
            }
            BOOST_TEST(bad == 0u);
            BOOST_TEST(dst[n] == sentinel);
          }
        }
      }
    }
    RecordDigest(std::string("StridedCopy<") + std::to_string(8 * sizeof(U)) + ">", 0, hash, 0);
  });
}

// Fill on every target: dst[i] == value for n around the vector steps and
// dst at every third element offset from the vector's start; the element
// past the end untouched.
template <typename U>
void CheckFill() {
  const U sentinel = static_cast<U>(0x5A5A5A5A5A5A5A5Aull);
  ForEachTarget([&](std::int64_t) {
    Random random(13);
    for (std::size_t n = 0; n <= 300; n = n < 70 ? n + 1 : n * 2) {
      for (std::size_t offset = 0; offset < 64 / sizeof(U); offset += 3) {
        const U value = random.Int<U>();
        std::vector<U> dst(offset + n + 1, sentinel);
        k::Fill(value, n, dst.data() + offset);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < dst.size(); ++i) {
          const U want = i >= offset && i < offset + n ? value : sentinel;
          if (dst[i] != want && bad++ < 3) {
            BOOST_ERROR("n " << n << " offset " << offset << ": dst[" << i << "] = " << dst[i]
                             << ", expected " << want);
          }
        }
        BOOST_TEST(bad == 0u);
      }
    }
  });
}

BOOST_AUTO_TEST_SUITE(matmul)

BOOST_AUTO_TEST_CASE(gemm_float32_within_bound) { CheckProducts<float>(); }

BOOST_AUTO_TEST_CASE(gemm_float64_within_bound) { CheckProducts<double>(); }

BOOST_AUTO_TEST_CASE(gemm_int32_exact_with_wraparound) { CheckProducts<std::int32_t>(); }

BOOST_AUTO_TEST_CASE(gemm_int64_exact_with_wraparound) { CheckProducts<std::int64_t>(); }

BOOST_AUTO_TEST_CASE(transpose_32_bit_exact) { CheckTranspose<std::uint32_t>(); }

BOOST_AUTO_TEST_CASE(transpose_64_bit_exact) { CheckTranspose<std::uint64_t>(); }

BOOST_AUTO_TEST_CASE(reverse_32_bit_exact) { CheckReverse<std::uint32_t>(); }

BOOST_AUTO_TEST_CASE(reverse_64_bit_exact) { CheckReverse<std::uint64_t>(); }

BOOST_AUTO_TEST_CASE(strided_copy_32_bit_exact) { CheckStridedCopy<std::uint32_t>(); }

BOOST_AUTO_TEST_CASE(strided_copy_64_bit_exact) { CheckStridedCopy<std::uint64_t>(); }

BOOST_AUTO_TEST_CASE(fill_32_bit_exact) { CheckFill<std::uint32_t>(); }

BOOST_AUTO_TEST_CASE(fill_64_bit_exact) { CheckFill<std::uint64_t>(); }

// The workspace covers a b block and an a strip of at least 256 deep.
BOOST_AUTO_TEST_CASE(workspace_is_sized_per_element) {
  ForEachTarget([](std::int64_t) {
    BOOST_TEST(k::GemmWorkspaceBytes(4) >= 256u * 4u * 8u);
    BOOST_TEST(k::GemmWorkspaceBytes(8) >= 256u * 8u * 8u);
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace opgen::kernel_tests
