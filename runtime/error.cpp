#include "opgen/error.hpp"

#include <utility>

namespace opgen {

namespace {

// what() carries the op so that a bare `catch (const std::exception& e)` that
// prints e.what() still tells the user which call failed.
std::string full_message(const std::string& op, const std::string& message) {
  return op.empty() ? message : op + ": " + message;
}

}  // namespace

Error::Error(std::string op, std::string param, const std::string& message)
    : std::invalid_argument(full_message(op, message)),
      op_(std::move(op)),
      param_(std::move(param)),
      message_(message) {}

Error::Error(std::string op, const std::string& message)
    : Error(std::move(op), std::string(), message) {}

Error::Error(const std::string& message) : Error(std::string(), std::string(), message) {}

}  // namespace opgen
