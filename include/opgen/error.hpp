// The one exception type opgen throws for bad input.
#pragma once

#include <stdexcept>
#include <string>

namespace opgen {

/// Thrown for every invalid call: wrong dtype, count, shape or argument, a
/// failed constraint, an unknown op name. Derived from std::invalid_argument
/// so existing handlers catch it.
///
/// `what()` is the full message, `"<op>: <message>"` when the op is known,
/// e.g. "nn.leaky_relu: alpha must be non-negative (check: alpha >= 0; alpha = -1)".
class Error : public std::invalid_argument {
 public:
  /// An error raised by op `op` ("math.add") about parameter `param`
  /// (empty when it concerns no single parameter).
  Error(std::string op, std::string param, const std::string& message);
  /// An error about op `op` that names no parameter.
  Error(std::string op, const std::string& message);
  /// An error outside any op (tensor construction, registry).
  explicit Error(const std::string& message);

  /// Qualified op name ("math.add"), or empty.
  const std::string& op() const noexcept { return op_; }
  /// Parameter the error is about, or empty.
  const std::string& param() const noexcept { return param_; }
  /// The message without the "<op>: " prefix.
  const std::string& message() const noexcept { return message_; }

 private:
  std::string op_;
  std::string param_;
  std::string message_;
};

}  // namespace opgen
