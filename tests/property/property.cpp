// The runner of the generated property tests (see property.hpp).
#include "property.hpp"

#include <hwy/targets.h>

#include <random>

namespace opgen::property {

namespace {

template <class T>
std::vector<T> float_specials() {
  using L = std::numeric_limits<T>;
  return {L::quiet_NaN(), L::infinity(), -L::infinity(), T{0},       -T{0},        L::denorm_min(),
          -L::min(),      L::max(),      -L::max(),      T{1},       T{-1},        T{0.5},
          T{-2.5},        T{3},          L::epsilon(),   T{1e-30},   T{-1e30}};
}

template <class T>
void fill_float(T* p, std::mt19937_64& rng, Accuracy accuracy) {
  std::uniform_real_distribution<double> uniform(-10, 10);
  std::uniform_real_distribution<double> binade(-20, 4);
  std::uniform_int_distribution<int> pick(0, 3);
  std::int64_t i = 0;
  if (accuracy == Accuracy::exact) {
    for (T v : float_specials<T>()) p[i++] = v;
  }
  for (; i < kLength; ++i) {
    switch (pick(rng)) {
      case 0:
        p[i] = static_cast<T>(uniform(rng));
        break;
      case 1: {  // magnitudes over many binades, either sign
        const double m = std::exp2(binade(rng));
        p[i] = static_cast<T>((rng() & 1) ? -m : m);
        break;
      }
      case 2:  // halves: ties of rounding
        p[i] = static_cast<T>(std::round(uniform(rng) * 2) / 2);
        break;
      default:
        p[i] = static_cast<T>(accuracy == Accuracy::exact ? uniform(rng) * 1e6 : uniform(rng) / 10);
        break;
    }
  }
}

template <class T>
void fill_int(T* p, std::mt19937_64& rng) {
  using L = std::numeric_limits<T>;
  const T specials[] = {T{0}, T{1}, T{-1}, L::min(), L::max(), T{sizeof(T) * 8}, T{-7}};
  std::int64_t i = 0;
  for (T v : specials) p[i++] = v;
  std::uniform_int_distribution<T> small(-100, 100);
  for (; i < kLength; ++i) p[i] = (rng() & 1) ? static_cast<T>(rng()) : small(rng);
}

}  // namespace

std::string Row::describe() const {
  std::ostringstream s;
  s.precision(std::numeric_limits<double>::max_digits10);
  s << "(";
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    if (k > 0) s << ", ";
    const Tensor& t = inputs_[k];
    switch (t.dtype()) {
      case DType::float32:
        s << get<float>(k);
        break;
      case DType::float64:
        s << get<double>(k);
        break;
      case DType::int32:
        s << get<std::int32_t>(k);
        break;
      case DType::int64:
        s << get<std::int64_t>(k);
        break;
      case DType::bool_:
        s << (get<bool>(k) ? "true" : "false");
        break;
    }
  }
  s << ")";
  return s.str();
}

Tensor random_tensor(DType dtype, std::uint64_t seed, Accuracy accuracy) {
  std::mt19937_64 rng(seed);
  Tensor t = Tensor::empty(Shape{kLength}, dtype);
  switch (dtype) {
    case DType::float32:
      fill_float(t.data<float>(), rng, accuracy);
      break;
    case DType::float64:
      fill_float(t.data<double>(), rng, accuracy);
      break;
    case DType::int32:
      fill_int(t.data<std::int32_t>(), rng);
      break;
    case DType::int64:
      fill_int(t.data<std::int64_t>(), rng);
      break;
    case DType::bool_: {
      bool* p = t.data<bool>();
      for (std::int64_t i = 0; i < kLength; ++i) p[i] = (rng() & 1) != 0;
      break;
    }
  }
  return t;
}

void ForEachTargetAndSeed(const std::function<void(std::uint64_t)>& body) {
  // As kernel_tests::ForEachTarget, without the kernel tests' digests.
  struct Reset {
    ~Reset() { kernel_tests::SetTargetForTest(0); }
  } reset;
  kernel_tests::SetTargetForTest(0);
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  BOOST_TEST_REQUIRE(!targets.empty());
  for (const std::int64_t target : targets) {
    kernel_tests::SetTargetForTest(target);
    BOOST_TEST_CONTEXT("target " << hwy::TargetName(target)) {
      BOOST_TEST_REQUIRE(kernel_tests::DispatchedTarget() == target);
      for (std::uint64_t seed : kSeeds) {
        BOOST_TEST_CONTEXT("seed " << seed) { body(seed); }
      }
    }
  }
}

}  // namespace opgen::property
