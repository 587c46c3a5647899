// The negative tests' Boost.Test module: one suite per namespace, from the
// generated <ns>_negative_test.cpp files.
#define BOOST_TEST_MODULE negative
#include <boost/test/unit_test.hpp>
