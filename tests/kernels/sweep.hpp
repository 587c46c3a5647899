// Drivers that run an elementwise kernel over many lengths, alignments and
// aliasings and compare every element with a scalar reference.
#pragma once

#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "tests/kernels/digest.hpp"
#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {

// The errors of one kernel on one target: counts the elements out of
// tolerance, shows the first few with their inputs, and keeps the largest
// error (reported with --log_level=message; the accuracy statements in the
// kernel headers come from it). Finish() records the digest of the results
// given to Add (digest.hpp).
class Report {
 public:
  Report(std::string what, double tolerance) : what_(std::move(what)), tolerance_(tolerance) {}
  Report(const Report&) = delete;
  Report& operator=(const Report&) = delete;

  // The error of one result, and the result itself for the run's digests
  // (digest.hpp): exact checks must give the same bits on every target.
  template <typename T, class Describe>
  void Add(T got, double error, Describe&& describe) {
    hash_.Add(got);
    Add(error, describe);
  }

  // The error alone, for results that are not compared across targets.
  // The description of the largest error is redone only when an error
  // exceeds the described one by more than 1/1024 of it: an error rising
  // along a sweep would otherwise format every element (most of the time
  // of a test over a range of floats), so it may name an element whose
  // error is within 0.1 % of the largest.
  template <class Describe>
  void Add(double error, Describe&& describe) {
    ++checked_;
    if (error > max_error_) {
      max_error_ = error;
      if (worst_.empty() || error > worst_error_ * (1 + 1.0 / 1024)) {
        worst_error_ = error;
        worst_ = describe();
      }
    }
    if (error <= tolerance_) return;
    if (++failures_ <= kShown) {
      BOOST_ERROR(what_ << ": " << describe() << ": error " << error << " > tolerance "
                        << tolerance_);
    }
  }

  template <class Describe>
  void Require(bool ok, Describe&& describe) {
    if (!ok && ++failures_ <= kShown) BOOST_ERROR(what_ << ": " << describe());
  }

  void Finish() const {
    if (hash_.count() > 0 || tolerance_ > 0) RecordDigest(what_, tolerance_, hash_, max_error_);
    BOOST_TEST(failures_ == 0u,
               what_ << ": " << failures_ << " failures in " << checked_ << " elements");
    BOOST_TEST_MESSAGE(what_ << ": max error " << max_error_ << " over " << checked_ << " elements"
                             << (worst_.empty() ? "" : ", at ") << worst_);
  }

  double max_error() const { return max_error_; }
  const std::string& what() const { return what_; }

 private:
  static constexpr int kShown = 8;
  std::string what_;
  double tolerance_;
  std::size_t checked_ = 0;
  int failures_ = 0;
  double max_error_ = 0;
  double worst_error_ = 0;  // the error worst_ describes
  std::string worst_;
  ResultHash hash_;
};

// Where the arrays of one call live: kOffsets placements at 0..3 elements
// past an aligned address, in guarded windows, and a last one where every
// array ends at an inaccessible page.
inline constexpr std::size_t kPlacements = kOffsets + 1;

inline std::string Placement(std::size_t placement) {
  return placement == kOffsets ? "at page end" : "offset=" + std::to_string(placement);
}

inline std::string Where(std::size_t n, std::size_t placement, const char* aliasing,
                         std::size_t i) {
  return "n=" + std::to_string(n) + " " + Placement(placement) + " " + aliasing + " [" +
         std::to_string(i) + "]";
}

// kernel(const T* x, T* out, size_t n); reference(T x) -> RefFloat<T> or long
// double; error(T got, that type want, T x) -> double (in the tolerance's
// unit).
// Runs every n in [0, kMaxN] at every placement, out separate (at a
// different offset) and out == x, filling x from `pool` at a shift that
// varies with n and placement so that every value reaches every lane.
// reference is evaluated once per pool value, not once per element of the
// sweep (which visits each about 25000 / pool.size() times): in long double,
// software quadruple precision on aarch64, it cost more than the kernels.
template <typename T, class Kernel, class Reference, class Error>
void SweepUnary(Report& report, const std::vector<T>& pool, Kernel&& kernel, Reference&& reference,
                Error&& error) {
  const std::size_t p = pool.size();
  std::vector<decltype(reference(T{}))> wants;
  for (const T v : pool) wants.push_back(reference(v));
  PageEndArray<T> x_end(kMaxN), out_end(kMaxN);
  for (std::size_t n = 0; n <= kMaxN; ++n) {
    for (std::size_t placement = 0; placement < kPlacements; ++placement) {
      for (const bool in_place : {false, true}) {
        const bool page_end = placement == kOffsets;
        Window<T> xw(n, placement % kOffsets);
        Window<T> ow(n, (placement + 1) % kOffsets);
        T* const x = page_end ? x_end.Place(n) : xw.data();
        T* const out = page_end ? out_end.Place(n) : ow.data();
        for (std::size_t i = 0; i < n; ++i) x[i] = pool[(i + 7 * n + 3 * placement) % p];
        const char* aliasing = in_place ? "out==x" : "out!=x";
        if (in_place) {
          std::copy(x, x + n, out);
          kernel(out, out, n);
        } else {
          kernel(x, out, n);
        }
        for (std::size_t i = 0; i < n; ++i) {
          const auto want = wants[(i + 7 * n + 3 * placement) % p];
          report.Add(out[i], error(out[i], want, x[i]), [&] {
            return Where(n, placement, aliasing, i) + " x=" + Show(x[i]) + " got " + Show(out[i]) +
                   " want " + Show(want);
          });
        }
        report.Require(ow.GuardsIntact() && xw.GuardsIntact(),
                       [&] { return Where(n, placement, aliasing, 0) + ": wrote outside [0, n)"; });
      }
    }
  }
}

// Binary version: y comes from its own pool at another shift; aliasing
// variants out != x, y, out == x and out == y. reference is evaluated once
// per pair of pool values the sweep meets.
template <typename T, class Kernel, class Reference, class Error>
void SweepBinary(Report& report, const std::vector<T>& xpool, const std::vector<T>& ypool,
                 Kernel&& kernel, Reference&& reference, Error&& error) {
  const char* const kAliasing[] = {"out!=x,y", "out==x", "out==y"};
  using Want = decltype(reference(T{}, T{}));
  std::vector<Want> wants(xpool.size() * ypool.size());
  std::vector<bool> known(wants.size(), false);
  const auto want_of = [&](std::size_t xi, std::size_t yi) {
    const std::size_t k = xi * ypool.size() + yi;
    if (!known[k]) {
      wants[k] = reference(xpool[xi], ypool[yi]);
      known[k] = true;
    }
    return wants[k];
  };
  PageEndArray<T> x_end(kMaxN), y_end(kMaxN), out_end(kMaxN);
  for (std::size_t n = 0; n <= kMaxN; ++n) {
    for (std::size_t placement = 0; placement < kPlacements; ++placement) {
      for (int alias = 0; alias < 3; ++alias) {
        const bool page_end = placement == kOffsets;
        Window<T> xw(n, placement % kOffsets);
        Window<T> yw(n, (placement + 2) % kOffsets);
        Window<T> ow(n, (placement + 1) % kOffsets);
        T* const x = page_end ? x_end.Place(n) : xw.data();
        T* const y = page_end ? y_end.Place(n) : yw.data();
        T* const out = page_end ? out_end.Place(n) : ow.data();
        const auto xi = [&](std::size_t i) { return (i + 7 * n + 3 * placement) % xpool.size(); };
        const auto yi = [&](std::size_t i) {
          return (3 * i + 5 * n + placement + static_cast<std::size_t>(alias)) % ypool.size();
        };
        for (std::size_t i = 0; i < n; ++i) {
          x[i] = xpool[xi(i)];
          y[i] = ypool[yi(i)];
        }
        const T* in_x = x;
        const T* in_y = y;
        if (alias == 1) {
          std::copy(x, x + n, out);
          in_x = out;
        } else if (alias == 2) {
          std::copy(y, y + n, out);
          in_y = out;
        }
        kernel(in_x, in_y, out, n);
        for (std::size_t i = 0; i < n; ++i) {
          const auto want = want_of(xi(i), yi(i));
          report.Add(out[i], error(out[i], want, x[i]), [&] {
            return Where(n, placement, kAliasing[alias], i) + " x=" + Show(x[i]) +
                   " y=" + Show(y[i]) + " got " + Show(out[i]) + " want " + Show(want);
          });
        }
        report.Require(ow.GuardsIntact() && xw.GuardsIntact() && yw.GuardsIntact(), [&] {
          return Where(n, placement, kAliasing[alias], 0) + ": wrote outside [0, n)";
        });
      }
    }
  }
}

// One call over all of xs (a dense sample of the input range). The
// references are computed once in the run for the report's name and these
// values (ReferenceOnce), not again on every target: the name must tell
// apart whatever the reference depends on besides x (an op's arguments).
template <typename T, class Kernel, class Reference, class Error>
void CheckUnaryArray(Report& report, const std::vector<T>& xs, Kernel&& kernel,
                     Reference&& reference, Error&& error) {
  using Want = decltype(reference(T{}));
  const std::vector<Want>& wants =
      ReferenceOnce<std::vector<Want>>(report.what(), xs.data(), xs.size(), [&] {
        std::vector<Want> values;
        values.reserve(xs.size());
        for (const T x : xs) values.push_back(reference(x));
        return values;
      });
  std::vector<T> out(xs.size());
  kernel(xs.data(), out.data(), xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto want = wants[i];
    report.Add(out[i], error(out[i], want, xs[i]),
               [&] { return "x=" + Show(xs[i]) + " got " + Show(out[i]) + " want " + Show(want); });
  }
}

// The kernel's results on xs, bit for bit the same when every fifth
// element is replaced by one of `outside` (NaN, or inputs another form
// takes): no lane's result may depend on the lanes beside it.
template <typename T, class Kernel>
void RequireLaneIndependent(const std::string& name, const std::vector<T>& xs,
                            const std::vector<T>& outside, Kernel&& kernel) {
  std::vector<T> mixed = xs;
  for (std::size_t i = 0; i < mixed.size(); i += 5) mixed[i] = outside[(i / 5) % outside.size()];
  std::vector<T> alone(xs.size()), among(xs.size());
  kernel(xs.data(), alone.data(), xs.size());
  kernel(mixed.data(), among.data(), mixed.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i % 5 != 0 && std::memcmp(&alone[i], &among[i], sizeof(T)) != 0 && differ++ < 3) {
      BOOST_ERROR(name << ": x=" << Show(xs[i]) << " gave " << Show(alone[i]) << " alone and "
                       << Show(among[i]) << " among others");
    }
  }
  BOOST_TEST(differ == 0u, name);
}

// One call over the pairs (x[i], y[i]), in order: for inputs built in pairs,
// which SweepBinary's separate pool indices would take apart. References
// once in the run, as in CheckUnaryArray (y's values are in the key).
template <typename T, class Kernel, class Reference, class Error>
void CheckPairedArrays(Report& report, const std::vector<T>& x, const std::vector<T>& y,
                       Kernel&& kernel, Reference&& reference, Error&& error) {
  using Want = decltype(reference(T{}, T{}));
  const std::string y_values(reinterpret_cast<const char*>(y.data()), y.size() * sizeof(T));
  const std::vector<Want>& wants =
      ReferenceOnce<std::vector<Want>>(std::pair(report.what(), y_values), x.data(), x.size(), [&] {
        std::vector<Want> values;
        values.reserve(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) values.push_back(reference(x[i], y[i]));
        return values;
      });
  std::vector<T> out(x.size());
  kernel(x.data(), y.data(), out.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto want = wants[i];
    report.Add(out[i], error(out[i], want, x[i]), [&] {
      return "x=" + Show(x[i]) + " y=" + Show(y[i]) + " got " + Show(out[i]) + " want " +
             Show(want);
    });
  }
}

// One call over every pair (x, y) of xs and ys.
template <typename T, class Kernel, class Reference, class Error>
void CheckAllPairs(Report& report, const std::vector<T>& xs, const std::vector<T>& ys,
                   Kernel&& kernel, Reference&& reference, Error&& error) {
  std::vector<T> x, y;
  for (const T a : xs) {
    for (const T b : ys) {
      x.push_back(a);
      y.push_back(b);
    }
  }
  CheckPairedArrays(report, x, y, kernel, reference, error);
}

// Error functors for the common cases.
struct Exact {
  template <typename T, typename R>
  double operator()(T got, R want, T) const {
    return ExactError(got, want);
  }
};
struct Ulp {
  template <typename T, typename R>
  double operator()(T got, R want, T) const {
    return UlpError(got, want);
  }
};

// Checks kernel(x, out, n) bit for bit against reference(x) for every
// float32 whose bit pattern lies in one of `ranges` (half-open [begin,
// end), each a whole number of 2^20 patterns long), with each value placed
// `shift` floats past the start of the kernel's array for every shift in
// `shifts` (the places before it hold 1.0f), so that a kernel which treats
// the vectors of a group differently is checked at every place of a group.
template <class Kernel, class Reference>
void CheckEveryFloat32(const char* what, std::initializer_list<std::array<std::uint32_t, 2>> ranges,
                       const std::vector<std::size_t>& shifts, Kernel&& kernel,
                       Reference&& reference) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  const std::size_t lead = *std::max_element(shifts.begin(), shifts.end());
  std::vector<float> xs(lead + kChunk, 1.0f), want(kChunk), out(lead + kChunk);
  std::size_t checked = 0, expected = 0, wrong = 0;
  std::string first;
  for (const auto& range : ranges) {
    expected += (range[1] - range[0]) * shifts.size();
    for (std::uint32_t b = range[0]; b < range[1]; b += kChunk) {
      for (std::size_t j = 0; j < kChunk; ++j) {
        const auto bits = static_cast<std::uint32_t>(b + j);
        std::memcpy(&xs[lead + j], &bits, sizeof bits);
        want[j] = reference(xs[lead + j]);
      }
      for (const std::size_t shift : shifts) {
        kernel(xs.data() + lead - shift, out.data(), kChunk + shift);
        for (std::size_t j = 0; j < kChunk; ++j) {
          if (std::memcmp(&out[shift + j], &want[j], sizeof(float)) == 0) continue;
          if (wrong++ == 0) {
            first = "x=" + Show(xs[lead + j]) + " got " + Show(out[shift + j]) + " want " +
                    Show(want[j]) + " at shift " + std::to_string(shift);
          }
        }
        checked += kChunk;
      }
    }
  }
  BOOST_TEST(checked == expected);
  BOOST_TEST(wrong == 0u,
             what << ": " << wrong << " of " << checked << " differ; first: " << first);
}

// Every float32 of the closed ranges [lo, hi] through kernel(x, out, n) on
// every target, against reference(x) (in double: RefFloat<float>), computed
// once for all targets: at most bound(target) ulp.
template <class Kernel, class Reference, class Bound>
void CheckFloat32Ranges(const std::string& what,
                        std::initializer_list<std::array<float, 2>> ranges, Kernel&& kernel,
                        Reference&& reference, Bound&& bound) {
  std::vector<float> xs;
  std::vector<decltype(reference(0.0f))> want;
  for (const auto& [lo, hi] : ranges) {
    for (float x = lo; x <= hi; x = std::nextafter(x, std::numeric_limits<float>::infinity())) {
      xs.push_back(x);
      want.push_back(reference(x));
    }
  }
  ForEachTarget([&](std::int64_t target) {
    Report report(what, bound(target));
    std::vector<float> out(xs.size());
    kernel(xs.data(), out.data(), xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      report.Add(out[i], Ulp()(out[i], want[i], xs[i]), [&] {
        return "x=" + Show(xs[i]) + " got " + Show(out[i]) + " want " + Show(want[i]);
      });
    }
    report.Finish();
  });
}

}  // namespace opgen::kernel_tests
