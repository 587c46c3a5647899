// The property tests' Boost.Test module: one suite per namespace, from the
// generated <ns>_property_test.cpp files.
#define BOOST_TEST_MODULE property
#include <boost/test/unit_test.hpp>
