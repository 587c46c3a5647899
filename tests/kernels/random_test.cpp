// The random kernels: Philox against Random123's known answers; the SIMD
// word stream against the scalar definition (kernels/philox.hpp); every
// distribution bit-identical on every SIMD target and for any split into
// calls; each transform against a long double evaluation of its formula on
// the same words (the accuracy stated in kernels/random.hpp); and, for
// fixed seeds, sample means and variances within 5 standard errors of the
// distribution's (deterministic: a seed always gives the same samples, so
// these fail only when the generator or a transform is wrong).
#include "kernels/random.hpp"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "kernels/philox.hpp"
#include "tests/kernels/digest.hpp"
#include "tests/kernels/errors.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;
namespace ph = opgen::kernels::philox;

const std::uint64_t kSeeds[] = {0, 42, 0x0123456789ABCDEFull, ~std::uint64_t{0}};

// A kernel as a function of (out, n, first) for one seed and its arguments.
template <typename T>
using Fill = std::function<void(T* out, std::size_t n, std::uint64_t first)>;

// Results of one call over [first, first + n).
template <typename T>
std::vector<T> Run(const Fill<T>& fill, std::size_t n, std::uint64_t first) {
  std::vector<T> out(n + 1, T{});
  fill(out.data(), n, first);
  return out;
}

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// The same numbers on every target, for every split of [first, first + n)
// into calls, with the last element untouched (n + 1 allocated).
template <typename T>
void CheckReproducible(const std::string& what, const Fill<T>& fill) {
  constexpr std::size_t kN = 3001;
  constexpr std::uint64_t kFirst = 1000003;  // not a multiple of any group
  std::vector<T> expected;
  ForEachTarget([&](std::int64_t) {
    BOOST_TEST_CONTEXT(what) {
      const std::vector<T> whole = Run(fill, kN, kFirst);
      if (expected.empty()) expected = whole;
      RecordResults(what, whole);  // and the same on other architectures
      BOOST_TEST(SameBits(whole, expected));
      for (const std::size_t step : {1, 3, 31, 32, 33, 64, 65, 200, 1000}) {
        std::vector<T> pieces(kN + 1, T{});
        for (std::size_t at = 0; at < kN; at += step) {
          fill(pieces.data() + at, std::min(step, kN - at), kFirst + at);
        }
        BOOST_TEST(SameBits(pieces, expected), "chunks of " << step);
      }
    }
  });
}

// Mean and variance of samples within `z` standard errors of mu and var
// (kurtosis k: the variance of the sample variance is (k - 1) var^2 / n).
template <typename T>
void CheckMoments(const std::string& what, const std::vector<T>& x, double mu, double var,
                  double kurtosis) {
  const double n = static_cast<double>(x.size());
  double sum = 0;
  for (const T v : x) sum += static_cast<double>(v);
  const double mean = sum / n;
  double ss = 0;
  for (const T v : x) ss += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  const double sample_var = ss / (n - 1);
  constexpr double z = 5;
  BOOST_TEST_MESSAGE(what << ": mean " << mean << " (" << mu << "), variance " << sample_var
                          << " (" << var << ")");
  BOOST_TEST(std::fabs(mean - mu) <= z * std::sqrt(var / n), what << ": mean " << mean);
  BOOST_TEST(std::fabs(sample_var - var) <= z * var * std::sqrt((kurtosis - 1) / n),
             what << ": variance " << sample_var);
}

long double U24(std::uint32_t w, bool open0) {
  return static_cast<long double>((w >> 8) + (open0 ? 1 : 0)) * 0x1p-24L;
}
long double U53(std::uint64_t v, bool open0) {
  return static_cast<long double>((v >> 11) + (open0 ? 1 : 0)) * 0x1p-53L;
}
// Unit value e of the float (words) or double (64-bit values) stream.
template <typename T>
long double Unit(std::uint64_t seed, std::uint64_t e, bool open0) {
  if constexpr (sizeof(T) == 4) return U24(ph::StreamWord(seed, e), open0);
  return U53(ph::StreamWord64(seed, e), open0);
}

BOOST_AUTO_TEST_SUITE(random)

BOOST_AUTO_TEST_CASE(philox_known_answers) {
  // Random123's kat_vectors for philox4x32_10.
  BOOST_TEST((ph::Encrypt({0, 0, 0, 0}, 0, 0) ==
              ph::Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  BOOST_TEST((ph::Encrypt({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, 0xffffffff,
                          0xffffffff) == ph::Block{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  BOOST_TEST((ph::Encrypt({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822,
                          0x299f31d0) == ph::Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

BOOST_AUTO_TEST_CASE(words_match_the_scalar_definition) {
  ForEachTarget([&](std::int64_t) {
    for (const std::uint64_t seed : kSeeds) {
      // Around a carry into the counter's second word too.
      for (const std::uint64_t first : {std::uint64_t{0}, std::uint64_t{77}, (std::uint64_t{1} << 36) - 100}) {
        std::vector<std::uint32_t> w(517);
        k::RandomWords(w.data(), w.size(), seed, first);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < w.size(); ++i) bad += w[i] != ph::StreamWord(seed, first + i);
        BOOST_TEST(bad == 0u, "seed " << seed << " first " << first);
      }
    }
  });
}

template <typename T>
void ReproducibleAll() {
  const std::string type = sizeof(T) == 4 ? " float32" : " float64";
  for (const std::uint64_t seed : kSeeds) {
    CheckReproducible<T>("uniform" + type, [seed](T* o, std::size_t n, std::uint64_t f) {
      k::Uniform(o, n, seed, f, -2, 3);
    });
    CheckReproducible<T>("uniform [0, 1)" + type, [seed](T* o, std::size_t n, std::uint64_t f) {
      k::Uniform(o, n, seed, f, 0, 1);
    });
    CheckReproducible<T>("normal" + type, [seed](T* o, std::size_t n, std::uint64_t f) {
      k::Normal(o, n, seed, f, 1, 2);
    });
    CheckReproducible<T>("exponential" + type, [seed](T* o, std::size_t n, std::uint64_t f) {
      k::Exponential(o, n, seed, f, 0.5);
    });
    CheckReproducible<T>("bernoulli" + type, [seed](T* o, std::size_t n, std::uint64_t f) {
      k::Bernoulli(o, n, seed, f, 0.3);
    });
    CheckReproducible<T>("binomial" + type, [seed](T* o, std::size_t n, std::uint64_t f) {
      k::Binomial(o, n, seed, f, 50, 0.7);
    });
    CheckReproducible<T>("dropout" + type, [seed](T* o, std::size_t n, std::uint64_t f) {
      std::vector<T> x(n);
      for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<T>(f + i);
      k::Dropout(x.data(), o, n, seed, f, 0.25);
    });
  }
}

BOOST_AUTO_TEST_CASE(float32_identical_on_every_target_and_split) { ReproducibleAll<float>(); }
BOOST_AUTO_TEST_CASE(float64_identical_on_every_target_and_split) { ReproducibleAll<double>(); }

BOOST_AUTO_TEST_CASE(integer_and_bool_outputs_identical_on_every_target_and_split) {
  CheckReproducible<std::int32_t>("bernoulli int32", [](std::int32_t* o, std::size_t n, std::uint64_t f) {
    k::Bernoulli(o, n, 9, f, 0.6);
  });
  CheckReproducible<std::int64_t>("bernoulli int64", [](std::int64_t* o, std::size_t n, std::uint64_t f) {
    k::Bernoulli(o, n, 9, f, 0.6);
  });
  // bool elements through bytes (std::vector<bool> has no data()).
  CheckReproducible<std::uint8_t>("bernoulli bool", [](std::uint8_t* o, std::size_t n, std::uint64_t f) {
    bool* b = reinterpret_cast<bool*>(o);
    k::Bernoulli(b, n, 9, f, 0.6);
  });
  CheckReproducible<std::int32_t>("binomial int32", [](std::int32_t* o, std::size_t n, std::uint64_t f) {
    k::Binomial(o, n, 9, f, 1000, 0.25);
  });
  CheckReproducible<std::int64_t>("binomial int64", [](std::int64_t* o, std::size_t n, std::uint64_t f) {
    k::Binomial(o, n, 9, f, 7, 0.5);
  });
}

// Each transform against its formula on the same words, in long double:
// the references of both seeds computed once, before the targets (software
// quadruple precision on aarch64 took most of the test's time under qemu).
struct TransformReferences {
  std::vector<long double> uniform, normal, exponential;
};

template <typename T>
TransformReferences ReferenceTransforms(std::uint64_t seed, std::size_t count) {
  const long double two_pi = 2 * std::numbers::pi_v<long double>;
  TransformReferences r;
  for (std::size_t e = 0; e < count; ++e) {
    r.uniform.push_back(-2 + static_cast<T>(5) * Unit<T>(seed, e, false));
    const std::uint64_t q = e / 32, l = e % 16;
    const long double u1 = Unit<T>(seed, 32 * q + l, true);
    const long double u2 = Unit<T>(seed, 32 * q + 16 + l, false);
    const long double radius = std::sqrt(-2 * std::log(u1));
    // Reduced exactly to |f| <= 1/8 first: 2 pi u2 rounded in long double
    // would be far off near the zeros of sin and cos.
    const long double q4 = std::nearbyint(4 * u2), f = u2 - q4 / 4;
    const int quadrant = static_cast<int>(q4) % 4;
    const long double angle = two_pi * f;
    const long double sins[] = {std::sin(angle), std::cos(angle), -std::sin(angle),
                                -std::cos(angle)};
    const long double coss[] = {std::cos(angle), -std::sin(angle), -std::cos(angle),
                                std::sin(angle)};
    r.normal.push_back(radius * (e % 32 < 16 ? coss[quadrant] : sins[quadrant]));
    r.exponential.push_back(-std::log(Unit<T>(seed, e, true)) / 1.5L);
  }
  return r;
}

template <typename T>
void TransformsAccurate() {
  constexpr std::size_t kN = std::size_t{1} << 16;
  const std::uint64_t seeds[] = {5, 0xFEEDFACECAFEull};
  const TransformReferences references[] = {ReferenceTransforms<T>(seeds[0], kN),
                                            ReferenceTransforms<T>(seeds[1], kN)};
  ForEachTarget([&](std::int64_t) {
    for (std::size_t s = 0; s < 2; ++s) {
      const std::uint64_t seed = seeds[s];
      const TransformReferences& ref = references[s];
      std::vector<T> out(kN);
      Report uniform("uniform", 1), normal("normal", 4), expo("exponential", 2);
      k::Uniform(out.data(), kN, seed, 0, -2, 3);
      for (std::size_t e = 0; e < kN; ++e) {
        // low + (high - low) u cancels near 0: an absolute bound, in ulp of
        // max(|low|, |high|).
        uniform.Add(ScaledError(out[e], ref.uniform[e], 3),
                    [&] { return "element " + std::to_string(e); });
      }
      k::Normal(out.data(), kN, seed, 0, 0, 1);
      for (std::size_t e = 0; e < kN; ++e) {
        normal.Add(UlpError(out[e], ref.normal[e]), [&] { return "element " + std::to_string(e); });
      }
      k::Exponential(out.data(), kN, seed, 0, 1.5);
      for (std::size_t e = 0; e < kN; ++e) {
        expo.Add(UlpError(out[e], ref.exponential[e]),
                 [&] { return "element " + std::to_string(e); });
      }
      uniform.Finish();
      normal.Finish();
      expo.Finish();
      std::vector<T> x(kN);
      std::vector<T> bern(kN);
      for (std::size_t e = 0; e < kN; ++e) x[e] = static_cast<T>(e % 7) - T{3.5};
      k::Bernoulli(bern.data(), kN, seed, 0, 0.375);
      k::Dropout(x.data(), out.data(), kN, seed, 0, 0.375);
      std::size_t bad_bernoulli = 0, bad_dropout = 0;
      const T scale = static_cast<T>(1 / (1 - 0.375));
      for (std::size_t e = 0; e < kN; ++e) {
        const bool hit = ph::StreamWord(seed, e) < 0.375 * 4294967296.0;
        bad_bernoulli += bern[e] != (hit ? T{1} : T{0});
        bad_dropout += out[e] != (hit ? T{0} : x[e] * scale);
      }
      BOOST_TEST(bad_bernoulli == 0u);
      BOOST_TEST(bad_dropout == 0u);
    }
  });
}

BOOST_AUTO_TEST_CASE(float32_transforms_within_bound) { TransformsAccurate<float>(); }
BOOST_AUTO_TEST_CASE(float64_transforms_within_bound) { TransformsAccurate<double>(); }

// [0, 1) skips low + (high - low) u (u itself, bit for bit): the numbers
// must still be exactly u24 / u53 of the stream.
BOOST_AUTO_TEST_CASE(unit_uniform_is_the_definition) {
  ForEachTarget([&](std::int64_t) {
    for (const std::uint64_t seed : kSeeds) {
      for (const std::uint64_t first :
           {std::uint64_t{0}, std::uint64_t{77}, std::uint64_t{1000003}}) {
        std::vector<float> f(3001);
        std::vector<double> d(3001);
        k::Uniform(f.data(), f.size(), seed, first, 0, 1);
        k::Uniform(d.data(), d.size(), seed, first, 0, 1);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < f.size(); ++i) {
          bad += f[i] != static_cast<float>(U24(ph::StreamWord(seed, first + i), false));
          bad += d[i] != static_cast<double>(U53(ph::StreamWord64(seed, first + i), false));
        }
        BOOST_TEST(bad == 0u, "seed " << seed << " first " << first);
      }
    }
  });
}

BOOST_AUTO_TEST_CASE(edge_probabilities_and_in_place_dropout) {
  std::vector<float> x(100, 2.0f), y(100);
  k::Bernoulli(y.data(), y.size(), 3, 0, 0.0);
  BOOST_TEST(std::count(y.begin(), y.end(), 0.0f) == 100);
  k::Bernoulli(y.data(), y.size(), 3, 0, 1.0);
  BOOST_TEST(std::count(y.begin(), y.end(), 1.0f) == 100);
  k::Dropout(x.data(), y.data(), x.size(), 3, 0, 1.0);
  BOOST_TEST(std::count(y.begin(), y.end(), 0.0f) == 100);
  k::Dropout(x.data(), y.data(), x.size(), 3, 0, 0.0);
  BOOST_TEST(std::count(y.begin(), y.end(), 2.0f) == 100);
  std::vector<float> expected(100);
  k::Dropout(x.data(), expected.data(), x.size(), 3, 0, 0.5);
  k::Dropout(x.data(), x.data(), x.size(), 3, 0, 0.5);
  BOOST_TEST(x == expected);
  std::vector<std::int64_t> b(50);
  k::Binomial(b.data(), b.size(), 3, 0, 0, 0.5);
  BOOST_TEST(std::count(b.begin(), b.end(), 0) == 50);
  k::Binomial(b.data(), b.size(), 3, 0, 12, 1.0);
  BOOST_TEST(std::count(b.begin(), b.end(), 12) == 50);
}

// Moments of 2^20 samples per seed (binomial: 2^16).
template <typename T>
void Moments() {
  constexpr std::size_t kN = std::size_t{1} << 20;
  const std::string type = sizeof(T) == 4 ? " float32" : " float64";
  for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{2024}}) {
    const std::string s = type + " seed " + std::to_string(seed);
    std::vector<T> x(kN);
    k::Uniform(x.data(), kN, seed, 0, 0, 1);
    CheckMoments("uniform" + s, x, 0.5, 1.0 / 12, 1.8);
    k::Normal(x.data(), kN, seed, 0, 0, 1);
    CheckMoments("normal" + s, x, 0, 1, 3);
    k::Normal(x.data(), kN, seed, 12345, -3, 0.5);
    CheckMoments("normal(-3, 0.5)" + s, x, -3, 0.25, 3);
    k::Exponential(x.data(), kN, seed, 0, 2);
    CheckMoments("exponential(2)" + s, x, 0.5, 0.25, 9);
    k::Bernoulli(x.data(), kN, seed, 0, 0.3);
    CheckMoments("bernoulli(0.3)" + s, x, 0.3, 0.21, 1 / 0.21 - 3);
    std::vector<T> b(kN / 16);
    const struct {
      std::int64_t n;
      double p;
    } cases[] = {{5, 0.3}, {40, 0.2}, {1000, 0.4}, {1000, 0.9}, {100000, 0.01}, {3, 0.999}};
    for (const auto& c : cases) {
      k::Binomial(b.data(), b.size(), seed, 0, c.n, c.p);
      const double var = static_cast<double>(c.n) * c.p * (1 - c.p);
      CheckMoments("binomial(" + std::to_string(c.n) + ", " + std::to_string(c.p) + ")" + s, b,
                   static_cast<double>(c.n) * c.p, var, 3 + (1 - 6 * c.p * (1 - c.p)) / var);
      BOOST_TEST(std::count_if(b.begin(), b.end(),
                               [&](T v) { return v < 0 || v > static_cast<T>(c.n) || v != std::floor(v); }) ==
                 0);
    }
    // Tails: the fraction of |z| > 2 and > 3 of the normal samples.
    k::Normal(x.data(), kN, seed, 0, 0, 1);
    const double beyond2 = static_cast<double>(std::count_if(x.begin(), x.end(), [](T v) { return std::fabs(v) > 2; })) / kN;
    const double beyond3 = static_cast<double>(std::count_if(x.begin(), x.end(), [](T v) { return std::fabs(v) > 3; })) / kN;
    BOOST_TEST(std::fabs(beyond2 - 0.0455003) <= 5 * std::sqrt(0.0455 * 0.9545 / kN));
    BOOST_TEST(std::fabs(beyond3 - 0.0026998) <= 5 * std::sqrt(0.0027 * 0.9973 / kN));
  }
}

BOOST_AUTO_TEST_CASE(float32_moments) { Moments<float>(); }
BOOST_AUTO_TEST_CASE(float64_moments) { Moments<double>(); }

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace opgen::kernel_tests
