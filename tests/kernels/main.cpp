// The kernel tests' Boost.Test module: one executable, one suite per kernel
// family (elementwise, transcendental, reduce, softmax, bitwise).
#define BOOST_TEST_MODULE kernels
#include <boost/test/unit_test.hpp>
