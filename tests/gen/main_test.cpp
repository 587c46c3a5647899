#define BOOST_TEST_MODULE gen
#include <boost/test/unit_test.hpp>
