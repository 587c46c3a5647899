// The CMake consumer's test: a built-in op and the example's own ops (the
// pointwise one also against the reference function generated from its
// formula), a check from its spec, and both namespaces in one registry.
// Prints each failure and exits non-zero when any check fails.
#include <cmath>
#include <cstdio>
#include <opgen/opgen.hpp>
#include <string>

#include "tone.hpp"
#include "tone_reference.hpp"

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
  const Tensor x = Tensor::from<float>({0, 0.25f, 1, 4}, {2, 2});

  // A built-in op, with broadcasting: [2, 2] + [2].
  const Tensor sum = opgen::math::add(x, Tensor::from<float>({1, 10}, {2}));
  expect(sum.data<float>()[1] == 10.25f && sum.data<float>()[2] == 2.0f, "math.add broadcasts");

  // The example's pointwise op, on float32 and float64.
  const Tensor g = tonemap::ops::gamma(x, 2.0);
  expect(g.dtype() == opgen::DType::float32, "gamma keeps float32");
  expect(near(g.data<float>()[1], 0.5) && near(g.data<float>()[3], 2), "gamma(x, 2) is sqrt(x)");
  for (int i = 0; i < 4; ++i) {
    // The scalar reference function generated from the op's formula.
    const float want = tonemap::ops::reference::gamma<float>(x.data<float>()[i], 2.0);
    expect(near(g.data<float>()[i], want), "gamma matches its formula");
  }
  const Tensor g64 = tonemap::ops::gamma(Tensor::from<double>({8}, {1}), 3.0);
  expect(g64.dtype() == opgen::DType::float64 && near(g64.data<double>()[0], 2),
         "gamma(8, 3) is 2");

  // Its custom op.
  const Tensor brighter = tonemap::ops::exposure(x, 2.0);
  expect(near(brighter.data<float>()[3], 16), "exposure(4, 2 stops) is 16");

  // A check from the spec, reported under the op's name.
  try {
    tonemap::ops::gamma(x, 0.0);
    expect(false, "gamma rejects g = 0");
  } catch (const opgen::Error& e) {
    expect(std::string(e.what()).find("tone.gamma: g must be positive") != std::string::npos,
           "the error names the op and the check");
  }

  // Both namespaces are in opgen's registry.
  expect(opgen::registry().find("tone.exposure") != nullptr, "tone.exposure is registered");
  expect(opgen::registry().find("math.add") != nullptr, "math.add is registered");

  if (failures == 0) std::printf("cmake consumer: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
