// The consumer's test: a built-in op and the consumer's own ops, their
// checks, and both namespaces in one registry. Exits non-zero on failure.
#include <cmath>
#include <cstdio>
#include <string>

#include <opgen/opgen.hpp>

#include "audio.hpp"

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-6 * (1 + std::fabs(b)); }

}  // namespace

int main() {
  using opgen::Tensor;
  const Tensor x = Tensor::from<float>({-4, 0, 0.5f, 4}, {4});

  // A built-in op, with broadcasting.
  const Tensor sum = opgen::math::add(x, Tensor::from<float>({1}, {1}));
  expect(sum.data<float>()[3] == 5.0f, "math.add broadcasts");

  // The consumer's pointwise op, through opgen's broadcasting driver.
  const Tensor clipped = consumer::audio::soft_clip(x, 2.0);
  expect(near(clipped.data<float>()[0], 2 * std::tanh(-2.0)), "soft_clip(-4, 2)");
  expect(near(clipped.data<float>()[2], 2 * std::tanh(0.25)), "soft_clip(0.5, 2)");
  expect(clipped.dtype() == opgen::DType::float32, "soft_clip keeps the dtype");

  // Its custom op.
  const Tensor louder = consumer::audio::gain(x, 20.0);
  expect(near(louder.data<float>()[3], 40), "gain(4, 20 dB)");

  // Checks from the spec: the constraint and the dtype of a float32 input.
  try {
    consumer::audio::soft_clip(x, -1.0);
    expect(false, "soft_clip rejects a negative limit");
  } catch (const opgen::Error& e) {
    expect(std::string(e.what()).find("audio.soft_clip: limit must be positive") !=
               std::string::npos,
           "the error names the op and the check");
  }
  try {
    consumer::audio::gain(Tensor::from<double>({1}, {1}), 0.0);
    expect(false, "gain rejects float64");
  } catch (const opgen::Error&) {
  }

  // The consumer's namespace is in the same registry as the built-in ones.
  expect(opgen::registry().find("audio.soft_clip") != nullptr, "audio.soft_clip is registered");
  expect(opgen::registry().find("math.add") != nullptr, "math.add is registered");
  const auto out = opgen::registry().call("audio.gain", {x}, {{"db", 0.0}});
  expect(out.size() == 1 && near(out[0].data<float>()[0], -4), "audio.gain called by name");

  if (failures == 0) std::printf("consumer: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
