#pragma once
// The library's own way into a RuleSet's compiled rules, for its front ends (the CLI's graph
// and rule tests, hot reload, the fuzzers): the public RuleSet does not expose them.

#include <memory>
#include <string_view>

#include "compile/compiled_rules.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan {

class RuleSetAccess {
 public:
  [[nodiscard]] static const detail::CompiledRules& compiled(const RuleSet& rules) noexcept {
    return *rules.rules_;
  }
  [[nodiscard]] static RuleSet wrap(std::shared_ptr<const detail::CompiledRules> rules) {
    return RuleSet(std::move(rules));
  }
  /// The built-in rule file `file_name` ("snn_plan.yaml"), from the compiled form embedded at
  /// build time when it matches the embedded text, else loaded from that text. Throws
  /// std::invalid_argument for a name that is not a built-in file.
  [[nodiscard]] static RuleSet builtin(std::string_view file_name);
};

}  // namespace snnplan
