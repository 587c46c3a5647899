// The ops test executable: Boost.Test generates main() here. The suites live
// in the other files of this folder, one per namespace (or feature), and are
// compiled only when -Dnamespaces selects what they call.
#define BOOST_TEST_MODULE ops
#include <boost/test/unit_test.hpp>
