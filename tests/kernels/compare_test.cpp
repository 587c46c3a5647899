// Kernels with bool operands or results (kernels/compare.hpp) against the
// reference functions generated from the math ops' formulas
// (opgen/math_reference.hpp), on every SIMD target. All exact: every
// element must equal the reference, over every length 0..kMaxN, every
// placement (unaligned windows whose guards must stay intact, and arrays
// ending at an inaccessible page) and the in-place aliasing the kernels
// allow.
#include "kernels/compare.hpp"

#include <boost/test/unit_test.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "opgen/math_reference.hpp"
#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/streamed_rows.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;
namespace math = opgen::math::reference;

template <typename T>
std::string TypeName() {
  if constexpr (std::is_same_v<T, float>) return "<float32>";
  if constexpr (std::is_same_v<T, double>) return "<float64>";
  if constexpr (std::is_same_v<T, std::int32_t>) return "<int32>";
  if constexpr (std::is_same_v<T, std::int64_t>) return "<int64>";
  return "<bool>";
}

// Values whose pairs hit every outcome: specials, and random values of
// which many repeat (so that x == y happens often).
template <typename T>
std::vector<T> Values(std::uint64_t seed) {
  Random random(seed);
  if constexpr (std::is_floating_point_v<T>) {
    return Pool<T>(FloatSpecials<T>(), 40, [&] { return T(random.IntIn<int>(-4, 4)) / 2; });
  } else {
    return Pool<T>(IntSpecials<T>(), 40, [&] { return random.IntIn<T>(-3, 3); });
  }
}

// The bytes a bool array holds (each must be exactly 0 or 1).
int Byte(const bool* p, std::size_t i) {
  unsigned char b;
  std::memcpy(&b, p + i, 1);
  return b;
}

// Runs call(n, placement, in_place) over every length and placement;
// call returns false when it found an error (then the sweep stops early).
template <class Call>
void Sweep(Call&& call) {
  for (std::size_t n = 0; n <= kMaxN; ++n) {
    for (std::size_t placement = 0; placement < kPlacements; ++placement) {
      for (const bool in_place : {false, true}) {
        if (!call(n, placement, in_place)) return;
      }
    }
  }
}

// x OP y -> bool, for T in float32, float64, int32, int64.
template <typename T, class Kernel, class Reference>
void CheckCompare(const char* name, Kernel&& kernel, Reference&& reference) {
  const std::vector<T> xs = Values<T>(1), ys = Values<T>(2);
  Report report(name + TypeName<T>(), 0);
  PageEndArray<T> x_end(kMaxN), y_end(kMaxN);
  PageEndArray<bool> out_end(kMaxN);
  Sweep([&](std::size_t n, std::size_t placement, bool in_place) {
    if (in_place) return true;  // no aliasing across element types
    const bool page_end = placement == kOffsets;
    Window<T> xw(n, placement % kOffsets), yw(n, (placement + 2) % kOffsets);
    Window<bool> ow(n, (placement + 1) % kOffsets);
    T* x = page_end ? x_end.Place(n) : xw.data();
    T* y = page_end ? y_end.Place(n) : yw.data();
    bool* out = page_end ? out_end.Place(n) : ow.data();
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = xs[(i + 7 * n + 3 * placement) % xs.size()];
      y[i] = ys[(3 * i + 5 * n + placement) % ys.size()];
    }
    kernel(x, y, out, n);
    for (std::size_t i = 0; i < n; ++i) {
      const int want = reference(x[i], y[i]) ? 1 : 0;
      report.Add(Byte(out, i), Byte(out, i) == want ? 0 : kFail, [&] {
        return Where(n, placement, "out!=x,y", i) + " x=" + Show(x[i]) + " y=" + Show(y[i]) +
               " got " + std::to_string(Byte(out, i)) + " want " + std::to_string(want);
      });
    }
    report.Require(ow.GuardsIntact(),
                   [&] { return Where(n, placement, "", 0) + ": wrote outside [0, n)"; });
    return true;
  });
  // Every pair of the value pools.
  std::vector<T> x, y;
  for (const T a : xs) {
    for (const T b : ys) {
      x.push_back(a);
      y.push_back(b);
    }
  }
  std::vector<char> out(x.size());
  kernel(x.data(), y.data(), reinterpret_cast<bool*>(out.data()), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int want = reference(x[i], y[i]) ? 1 : 0;
    report.Add(out[i], out[i] == want ? 0 : kFail, [&] {
      return "x=" + Show(x[i]) + " y=" + Show(y[i]) + " got " + std::to_string(int(out[i]));
    });
  }
  report.Finish();
}

template <typename T>
void CheckComparisons() {
  CheckCompare<T>(
      "Equal", [](const T* x, const T* y, bool* o, std::size_t n) { k::Equal(x, y, o, n); },
      [](T x, T y) { return math::equal<T>(x, y); });
  CheckCompare<T>(
      "NotEqual", [](const T* x, const T* y, bool* o, std::size_t n) { k::NotEqual(x, y, o, n); },
      [](T x, T y) { return math::not_equal<T>(x, y); });
  CheckCompare<T>(
      "Less", [](const T* x, const T* y, bool* o, std::size_t n) { k::Less(x, y, o, n); },
      [](T x, T y) { return math::less<T>(x, y); });
  CheckCompare<T>(
      "LessEqual", [](const T* x, const T* y, bool* o, std::size_t n) { k::LessEqual(x, y, o, n); },
      [](T x, T y) { return math::less_equal<T>(x, y); });
  CheckCompare<T>(
      "Greater", [](const T* x, const T* y, bool* o, std::size_t n) { k::Greater(x, y, o, n); },
      [](T x, T y) { return math::greater<T>(x, y); });
  CheckCompare<T>(
      "GreaterEqual",
      [](const T* x, const T* y, bool* o, std::size_t n) { k::GreaterEqual(x, y, o, n); },
      [](T x, T y) { return math::greater_equal<T>(x, y); });
}

// isnan / isinf: the pool's specials against the reference.
template <typename T>
void CheckPredicates() {
  const std::vector<T> xs = Values<T>(3);
  for (const bool nan : {true, false}) {
    Report report(std::string(nan ? "Isnan" : "Isinf") + TypeName<T>(), 0);
    PageEndArray<T> x_end(kMaxN);
    PageEndArray<bool> out_end(kMaxN);
    Sweep([&](std::size_t n, std::size_t placement, bool in_place) {
      if (in_place) return true;
      const bool page_end = placement == kOffsets;
      Window<T> xw(n, placement % kOffsets);
      Window<bool> ow(n, (placement + 1) % kOffsets);
      T* x = page_end ? x_end.Place(n) : xw.data();
      bool* out = page_end ? out_end.Place(n) : ow.data();
      for (std::size_t i = 0; i < n; ++i) x[i] = xs[(i + 7 * n + 3 * placement) % xs.size()];
      if (nan) {
        k::Isnan(x, out, n);
      } else {
        k::Isinf(x, out, n);
      }
      for (std::size_t i = 0; i < n; ++i) {
        const int want = (nan ? math::isnan<T>(x[i]) : math::isinf<T>(x[i])) ? 1 : 0;
        report.Add(Byte(out, i), Byte(out, i) == want ? 0 : kFail, [&] {
          return Where(n, placement, "", i) + " x=" + Show(x[i]) + " got " +
                 std::to_string(Byte(out, i));
        });
      }
      report.Require(ow.GuardsIntact(),
                     [&] { return Where(n, placement, "", 0) + ": wrote outside [0, n)"; });
      return true;
    });
    report.Finish();
  }
}

// logical_and / logical_or / logical_not, out separate or out == x.
void CheckLogical() {
  Random random(4);
  std::vector<bool> pool(64);
  for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = random.IntIn<int>(0, 1) == 1;
  for (int op = 0; op < 3; ++op) {
    const char* names[] = {"LogicalAnd", "LogicalOr", "LogicalNot"};
    Report report(names[op], 0);
    PageEndArray<bool> x_end(kMaxN), y_end(kMaxN), out_end(kMaxN);
    Sweep([&](std::size_t n, std::size_t placement, bool in_place) {
      const bool page_end = placement == kOffsets;
      Window<bool> xw(n, placement % kOffsets), yw(n, (placement + 2) % kOffsets);
      Window<bool> ow(n, (placement + 1) % kOffsets);
      bool* x = page_end ? x_end.Place(n) : xw.data();
      bool* y = page_end ? y_end.Place(n) : yw.data();
      bool* out = page_end ? out_end.Place(n) : ow.data();
      std::vector<bool> xv(n), yv(n);
      for (std::size_t i = 0; i < n; ++i) {
        xv[i] = x[i] = pool[(i + 7 * n + 3 * placement) % pool.size()];
        yv[i] = y[i] = pool[(3 * i + 5 * n + placement + 1) % pool.size()];
      }
      bool* dst = in_place ? x : out;
      if (op == 0) k::LogicalAnd(x, y, dst, n);
      if (op == 1) k::LogicalOr(x, y, dst, n);
      if (op == 2) k::LogicalNot(x, dst, n);
      for (std::size_t i = 0; i < n; ++i) {
        const bool want = op == 0   ? math::logical_and(xv[i], yv[i])
                          : op == 1 ? math::logical_or(xv[i], yv[i])
                                    : math::logical_not(xv[i]);
        report.Add(Byte(dst, i), Byte(dst, i) == int(want) ? 0 : kFail, [&] {
          return Where(n, placement, in_place ? "out==x" : "out!=x", i) + " got " +
                 std::to_string(Byte(dst, i));
        });
      }
      report.Require(ow.GuardsIntact() && xw.GuardsIntact(),
                     [&] { return Where(n, placement, "", 0) + ": wrote outside [0, n)"; });
      return true;
    });
    report.Finish();
  }
}

// where: cond ? x : y, bit for bit (NaN payloads and -0 included), out
// separate or out == x.
template <typename T>
void CheckWhere() {
  const std::vector<T> xs = Values<T>(5), ys = Values<T>(6);
  Random random(7);
  std::vector<bool> conds(61);
  for (std::size_t i = 0; i < conds.size(); ++i) conds[i] = random.IntIn<int>(0, 1) == 1;
  Report report("Where" + TypeName<T>(), 0);
  PageEndArray<bool> c_end(kMaxN);
  PageEndArray<T> x_end(kMaxN), y_end(kMaxN), out_end(kMaxN);
  Sweep([&](std::size_t n, std::size_t placement, bool in_place) {
    const bool page_end = placement == kOffsets;
    Window<bool> cw(n, (placement + 3) % kOffsets);
    Window<T> xw(n, placement % kOffsets), yw(n, (placement + 2) % kOffsets);
    Window<T> ow(n, (placement + 1) % kOffsets);
    bool* c = page_end ? c_end.Place(n) : cw.data();
    T* x = page_end ? x_end.Place(n) : xw.data();
    T* y = page_end ? y_end.Place(n) : yw.data();
    T* out = page_end ? out_end.Place(n) : ow.data();
    std::vector<T> xv(n);
    for (std::size_t i = 0; i < n; ++i) {
      c[i] = conds[(i + n + placement) % conds.size()];
      xv[i] = x[i] = xs[(i + 7 * n + 3 * placement) % xs.size()];
      y[i] = ys[(3 * i + 5 * n + placement) % ys.size()];
    }
    T* dst = in_place ? x : out;
    k::Where(c, x, y, dst, n);
    for (std::size_t i = 0; i < n; ++i) {
      const T want = math::where<T>(c[i], xv[i], y[i]);
      report.Add(dst[i], std::memcmp(&dst[i], &want, sizeof(T)) == 0 ? 0 : kFail, [&] {
        return Where(n, placement, in_place ? "out==x" : "out!=x", i) +
               " cond=" + std::to_string(c[i]) + " got " + Show(dst[i]) + " want " + Show(want);
      });
    }
    report.Require(ow.GuardsIntact() && xw.GuardsIntact(),
                   [&] { return Where(n, placement, "", 0) + ": wrote outside [0, n)"; });
    return true;
  });
  report.Finish();
}

// Bytes a bool array may hold: 0 is false, any other byte true.
constexpr unsigned char kBoolBytes[] = {0, 1, 2, 0x80, 0xFF, 0, 1, 1, 0, 0x7F, 1};

// The byte that stands for a pool entry at index k.
unsigned char BoolByte(std::size_t k) { return kBoolBytes[k % sizeof(kBoolBytes)]; }

void SetByte(bool* p, std::size_t i, unsigned char b) { std::memcpy(p + i, &b, 1); }

// equal / not_equal on bool arrays as truth values (bytes 2 and 1 are
// equal), out separate or out == x; every result byte must be 0 or 1.
void CheckBoolEquality() {
  for (int op = 0; op < 2; ++op) {
    Report report(op == 0 ? "Equal<bool>" : "NotEqual<bool>", 0);
    PageEndArray<bool> x_end(kMaxN), y_end(kMaxN), out_end(kMaxN);
    Sweep([&](std::size_t n, std::size_t placement, bool in_place) {
      const bool page_end = placement == kOffsets;
      Window<bool> xw(n, placement % kOffsets), yw(n, (placement + 2) % kOffsets);
      Window<bool> ow(n, (placement + 1) % kOffsets);
      bool* x = page_end ? x_end.Place(n) : xw.data();
      bool* y = page_end ? y_end.Place(n) : yw.data();
      bool* out = page_end ? out_end.Place(n) : ow.data();
      std::vector<unsigned char> xb(n), yb(n);
      for (std::size_t i = 0; i < n; ++i) {
        xb[i] = BoolByte(i + 7 * n + 3 * placement);
        yb[i] = BoolByte(3 * i + 5 * n + placement + 1);
        SetByte(x, i, xb[i]);
        SetByte(y, i, yb[i]);
      }
      bool* dst = in_place ? x : out;
      if (op == 0) k::Equal(x, y, dst, n);
      if (op == 1) k::NotEqual(x, y, dst, n);
      for (std::size_t i = 0; i < n; ++i) {
        const bool a = xb[i] != 0, b = yb[i] != 0;
        const bool want = op == 0 ? math::equal<bool>(a, b) : math::not_equal<bool>(a, b);
        report.Add(Byte(dst, i), Byte(dst, i) == int(want) ? 0 : kFail, [&] {
          return Where(n, placement, in_place ? "out==x" : "out!=x", i) + " x=" +
                 std::to_string(xb[i]) + " y=" + std::to_string(yb[i]) + " got " +
                 std::to_string(Byte(dst, i));
        });
      }
      report.Require(ow.GuardsIntact() && xw.GuardsIntact() && yw.GuardsIntact(),
                     [&] { return Where(n, placement, "", 0) + ": wrote outside [0, n)"; });
      return true;
    });
    report.Finish();
  }
}

// where on bool x and y: cond ? x : y as truth values (result bytes 0 or
// 1), any nonzero byte of cond, x or y being true; out separate or out == x.
void CheckBoolWhere() {
  Report report("Where<bool>", 0);
  PageEndArray<bool> c_end(kMaxN), x_end(kMaxN), y_end(kMaxN), out_end(kMaxN);
  Sweep([&](std::size_t n, std::size_t placement, bool in_place) {
    const bool page_end = placement == kOffsets;
    Window<bool> cw(n, (placement + 3) % kOffsets);
    Window<bool> xw(n, placement % kOffsets), yw(n, (placement + 2) % kOffsets);
    Window<bool> ow(n, (placement + 1) % kOffsets);
    bool* c = page_end ? c_end.Place(n) : cw.data();
    bool* x = page_end ? x_end.Place(n) : xw.data();
    bool* y = page_end ? y_end.Place(n) : yw.data();
    bool* out = page_end ? out_end.Place(n) : ow.data();
    std::vector<unsigned char> cb(n), xb(n), yb(n);
    for (std::size_t i = 0; i < n; ++i) {
      cb[i] = BoolByte(2 * i + n + placement);
      xb[i] = BoolByte(i + 7 * n + 3 * placement);
      yb[i] = BoolByte(3 * i + 5 * n + placement + 1);
      SetByte(c, i, cb[i]);
      SetByte(x, i, xb[i]);
      SetByte(y, i, yb[i]);
    }
    bool* dst = in_place ? x : out;
    k::Where(c, x, y, dst, n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool want = math::where<bool>(cb[i] != 0, xb[i] != 0, yb[i] != 0);
      report.Add(Byte(dst, i), Byte(dst, i) == int(want) ? 0 : kFail, [&] {
        return Where(n, placement, in_place ? "out==x" : "out!=x", i) + " cond=" +
               std::to_string(cb[i]) + " x=" + std::to_string(xb[i]) + " y=" +
               std::to_string(yb[i]) + " got " + std::to_string(Byte(dst, i));
      });
    }
    report.Require(ow.GuardsIntact() && xw.GuardsIntact() && yw.GuardsIntact() && cw.GuardsIntact(),
                   [&] { return Where(n, placement, "", 0) + ": wrote outside [0, n)"; });
    return true;
  });
  report.Finish();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare)

BOOST_AUTO_TEST_CASE(bool_equality_compares_truth_values) {
  ForEachTarget([](std::int64_t) { CheckBoolEquality(); });
}

BOOST_AUTO_TEST_CASE(bool_where_selects_truth_values) {
  ForEachTarget([](std::int64_t) { CheckBoolWhere(); });
}

BOOST_AUTO_TEST_CASE(comparisons_match_reference) {
  ForEachTarget([](std::int64_t) {
    CheckComparisons<float>();
    CheckComparisons<double>();
    CheckComparisons<std::int32_t>();
    CheckComparisons<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(isnan_and_isinf_match_reference) {
  ForEachTarget([](std::int64_t) {
    CheckPredicates<float>();
    CheckPredicates<double>();
  });
}

BOOST_AUTO_TEST_CASE(logical_ops_match_reference) {
  ForEachTarget([](std::int64_t) { CheckLogical(); });
}

BOOST_AUTO_TEST_CASE(where_selects_bit_for_bit) {
  ForEachTarget([](std::int64_t) {
    CheckWhere<float>();
    CheckWhere<double>();
    CheckWhere<std::int32_t>();
    CheckWhere<std::int64_t>();
  });
}

// Inputs of StreamBytes() or more take streaming stores after partial
// vectors up to an aligned output address (kernels/compare.cpp
// ByVectorsMaybeStreamed), where the output's vectors can be streamed:
// where's on every target but SCALAR, the byte outputs of comparisons and
// isnan/isinf from 32-bit elements on AVX-512 and SVE. With the threshold
// at one byte every length and placement of the sweeps above takes that
// path there: the same results, nothing written outside [0, n).
BOOST_AUTO_TEST_CASE(streamed_outputs_match_reference) {
  const StreamFrom stream(1);
  ForEachTarget([](std::int64_t) {
    CheckComparisons<float>();
    CheckComparisons<double>();
    CheckComparisons<std::int32_t>();
    CheckComparisons<std::int64_t>();
    CheckPredicates<float>();
    CheckPredicates<double>();
    CheckWhere<float>();
    CheckWhere<double>();
    CheckWhere<std::int32_t>();
    CheckWhere<std::int64_t>();
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
