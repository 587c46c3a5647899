// The process-wide op registry.
#include "opgen/registry.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "opgen/error.hpp"
#include "suggestion.hpp"

namespace opgen {

std::string_view ArgValue::type_name() const noexcept {
  // In the order of the variant's alternatives.
  static constexpr std::array<std::string_view, std::variant_size_v<Variant>> kNames = {
      "int",   "float",   "bool",   "string",   "dtype",
      "int[]", "float[]", "bool[]", "string[]", "dtype[]"};
  return kNames[v_.index()];
}

Registry::Registry() {
  // Through `*this`: calling registry() here would re-enter the
  // initialisation of its function-local static.
  detail::register_builtin(*this);
}

Registry& registry() {
  static Registry r;
  return r;
}

std::vector<std::string> Registry::namespaces() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  names.reserve(namespaces_.size());
  for (const auto& entry : namespaces_) names.push_back(entry.first);
  return names;
}

const OpInfo* Registry::find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  const auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : &ops_[it->second];
}

namespace {

// The op part of a qualified name: "add" for "math.add".
std::string_view unqualified(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

// "unknown op 'math.ad'; did you mean 'math.add'?". A name without a
// namespace is matched against the ops' own names, so "add" suggests
// "math.add".
std::string unknown_op_message(std::string_view name, const std::vector<OpInfo>& ops) {
  std::string message = "unknown op '" + std::string(name) + "'";
  const bool qualified = name.find('.') != std::string_view::npos;
  std::vector<std::string_view> candidates;
  std::vector<std::string_view> targets;  // the name each candidate suggests
  for (const OpInfo& op : ops) {
    candidates.push_back(qualified ? std::string_view(op.name) : unqualified(op.name));
    targets.push_back(op.name);
    for (const std::string& alias : op.aliases) {
      candidates.push_back(qualified ? std::string_view(alias) : unqualified(alias));
      targets.push_back(alias);
    }
  }
  std::ptrdiff_t best = -1;
  if (!qualified) {
    const auto exact = std::find(candidates.begin(), candidates.end(), name);
    if (exact != candidates.end()) best = exact - candidates.begin();
  }
  if (best < 0) best = detail::closest(name, candidates);
  if (best >= 0) {
    message += "; did you mean '" + std::string(targets[static_cast<std::size_t>(best)]) + "'?";
  }
  return message;
}

}  // namespace

std::vector<Tensor> Registry::call(std::string_view name, Span<Tensor> inputs,
                                   const Args& args) const {
  // Copy what the call needs under the lock, and run the op outside it: an
  // op may take long, and a namespace registered meanwhile may move ops_.
  OpInvoker invoke = nullptr;
  std::string op_name;
  {
    std::lock_guard lock(mutex_);
    const auto it = by_name_.find(std::string(name));
    if (it == by_name_.end()) throw Error(unknown_op_message(name, ops_));
    invoke = ops_[it->second].invoke;
    op_name = ops_[it->second].name;
  }
  if (invoke == nullptr) {
    throw Error(op_name, "cannot be called by name (its namespace registered no invoker)");
  }
  return invoke(inputs, args);
}

void Registry::add(NamespaceInfo (*make)()) {
  {
    std::lock_guard lock(mutex_);
    if (std::find(added_.begin(), added_.end(), make) != added_.end()) return;
  }
  // Built outside the lock: `make` is generated code that only fills in data.
  NamespaceInfo ns = make();

  std::lock_guard lock(mutex_);
  if (std::find(added_.begin(), added_.end(), make) != added_.end()) return;
  added_.push_back(make);

  // A namespace goes in whole or not at all, so that a clash never leaves
  // half of it callable.
  std::vector<std::string> clashes;
  const std::string not_added = "; namespace '" + ns.name + "' not added";
  if (const auto it = namespaces_.find(ns.name); it != namespaces_.end()) {
    clashes.push_back("namespace '" + ns.name + "' from " + ns.source +
                      " is already registered from " + it->second);
  } else {
    std::unordered_set<std::string> own;
    for (const OpInfo& op : ns.ops) {
      auto check = [&](const std::string& name, const std::string& what) {
        if (const auto it = by_name_.find(name); it != by_name_.end()) {
          const OpInfo& other = ops_[it->second];
          clashes.push_back(what + " from " + ns.source + " is already taken by op '" + other.name +
                            "'" + (other.source.empty() ? std::string() : " from " + other.source) +
                            not_added);
        } else if (!own.insert(name).second) {
          clashes.push_back(what + " is used twice in " + ns.source + not_added);
        }
      };
      check(op.name, "op '" + op.name + "'");
      for (const std::string& alias : op.aliases) {
        check(alias, "alias '" + alias + "' of op '" + op.name + "'");
      }
    }
  }
  if (!clashes.empty()) {
    problems_.insert(problems_.end(), clashes.begin(), clashes.end());
    return;
  }

  namespaces_.emplace(ns.name, ns.source);
  for (OpInfo& op : ns.ops) ops_.push_back(std::move(op));
  std::sort(ops_.begin(), ops_.end(),
            [](const OpInfo& a, const OpInfo& b) { return a.name < b.name; });
  // Sorting moved ops around: index every name and alias afresh.
  by_name_.clear();
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    by_name_.emplace(ops_[i].name, i);
    for (const std::string& alias : ops_[i].aliases) by_name_.emplace(alias, i);
  }
}

std::vector<std::string> Registry::problems() const {
  std::lock_guard lock(mutex_);
  return problems_;
}

}  // namespace opgen
