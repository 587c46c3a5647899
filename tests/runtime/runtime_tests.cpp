// The runtime test executable: Boost.Test generates main() here. The suites
// live in the other files of this folder, one concept per file.
#define BOOST_TEST_MODULE runtime
#include <boost/test/unit_test.hpp>
