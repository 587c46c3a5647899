// Counter-based random numbers. Every kernel writes elements first ..
// first + n - 1 of a stream that is a pure function of (seed, element
// index), built on the Philox4x32-10 word stream W of kernels/philox.hpp:
// the numbers do not depend on the SIMD target, on how a tensor is split
// into calls (`first`), or on the number of threads. The transforms use only
// +, -, *, /, sqrt and exact conversions, in a fixed order and without fused
// multiply-add (random.cpp is compiled with -ffp-contract=off), so every
// target computes bit-identical results.
//
// Uniform words: u24(w) = (w >> 8) 2^-24 in [0, 1), and u53(v) = (v >> 11)
// 2^-53 for 64-bit values v (philox::StreamWord64); the "open at 0" forms
// add one step first: ((w >> 8) + 1) 2^-24 in (0, 1].
//
// Accuracy of the transforms against the exact function of the same words
// (measured by tests/kernels/random_test.cpp on every target, maximum over
// 2^20 samples in parentheses): log <= 2 ulp, sin/cos of 2 pi u <= 2 ulp;
// normal samples within 4 ulp of their magnitude (float32 1.6, float64 1.9).
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

/// out[i] = W[first + i], the raw Philox words (tests and users who want bits).
void RandomWords(std::uint32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first);

/// Uniform on [low, high): element e is low + (high - low) u, with
/// u = u24(W[e]) for float, u53(W64[e]) for double, rounded to the element
/// type (so high itself can appear only through that rounding; never for the
/// default [0, 1)). (high - low) is rounded to the element type first.
void Uniform(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double low,
             double high);
void Uniform(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double low,
             double high);

/// Normal with the given mean and standard deviation, by Box–Muller: element
/// e, with q = floor(e / 32) and l = e mod 16, takes u1 from value 32 q + l
/// and u2 from value 32 q + 16 + l (words for float, 64-bit values for
/// double; u1 open at 0, u2 at 1): mean + stddev r cos(2 pi u2) for
/// e mod 32 < 16, mean + stddev r sin(2 pi u2) otherwise, r = sqrt(-2 ln u1).
/// |z| <= 5.77 (float32) / 8.57 (float64) standard deviations.
void Normal(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double mean,
            double stddev);
void Normal(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double mean,
            double stddev);

/// Exponential with rate lambda > 0: element e is -ln(u) / lambda with
/// u = ((W[e] >> 8) + 1) 2^-24 (float) or ((W64[e] >> 11) + 1) 2^-53
/// (double), in (0, 1]; the result is >= 0 and at most 16.6 / lambda (float)
/// or 36.7 / lambda (double).
void Exponential(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
                 double lambda);
void Exponential(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
                 double lambda);

/// Bernoulli(p): element e is 1 when W[e] < p 2^32, else 0 (probability
/// exactly ceil(p 2^32) / 2^32; p <= 0 gives all 0, p >= 1 all 1). bool
/// outputs are bytes 0 or 1.
void Bernoulli(bool* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double p);
void Bernoulli(std::int32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double p);
void Bernoulli(std::int64_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double p);
void Bernoulli(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double p);
void Bernoulli(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double p);

/// Dropout: out[i] = 0 where Bernoulli(p) of element first + i is 1 (the
/// dropped elements are exactly those of random.bernoulli with the same
/// seed), else x[i] * s with s = 1 / (1 - p) rounded to the element type;
/// p >= 1 drops everything. Dropped NaNs give 0. out may be x.
void Dropout(const float* x, float* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
             double p);
void Dropout(const double* x, double* out, std::size_t n, std::uint64_t seed,
             std::uint64_t first, double p);

/// Binomial(n_trials, p), scalar: element e draws from its own Philox blocks,
/// counters (t, e mod 2^32, e / 2^32, 1) for t = 0, 1, ... (disjoint from the
/// word stream, whose last counter word is 0). With m = min(p, 1 - p): for
/// n_trials m < 10, inversion of the CDF with one 53-bit uniform (words 0
/// and 1 of block 0); otherwise Hörmann's BTRS rejection, one block per try.
/// Counts for p > 1/2 are n_trials minus a count for 1 - p. Uses the C
/// library's log and lgamma (BTRS only): identical on every SIMD target; a
/// different C library could, rarely, flip a rejection decision.
void Binomial(std::int32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p);
void Binomial(std::int64_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p);
void Binomial(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p);
void Binomial(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p);

}  // namespace opgen::kernels
