#pragma once
// `snnplan diff` once for every front end: two rule sets compared over the whole declared input
// domain (analyse/rule_diff.hpp), some inputs held at a value when asked. The CLI prints the
// result with diff(1)'s exit codes, the workbench of `snnplan serve` sends it as JSON.

#include <functional>
#include <string>
#include <variant>

#include "analyse/rule_diff.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::usecases {

/// The inputs a diff holds fixed, read in the front end's own form (flags, JSON) against the
/// old rule set; or why they are refused. Called only once the two rule sets are known to
/// declare the same inputs, so that a mismatch is reported before a bad input.
using ReadFixedInputs = std::function<std::variant<Inputs, std::string>(const RuleSet& before)>;

/// Two rule sets compared, or why they were not.
struct ComparedRuleSets {
  /// How the two rule sets' declared inputs differ; empty when they are the same (only then
  /// are they compared).
  std::string input_mismatch;
  /// Why the inputs to hold fixed were refused; empty when they were not.
  std::string refused_inputs;
  analyse::RuleDiff diff;

  /// Whether some input gets another answer, or the search stopped before it reached every
  /// input: a gate on this must not pass an edit nobody compared.
  [[nodiscard]] bool changed() const { return !diff.changes.empty() || !diff.complete; }
};

/// How the declared inputs of `before` and `after` differ; empty when they are the same, which
/// comparing them (and mapping both) needs.
[[nodiscard]] std::string input_mismatch(const RuleSet& before, const RuleSet& after);

/// Which inputs get a different answer from `after` than from `before`.
[[nodiscard]] ComparedRuleSets compare_rule_sets(const RuleSet& before, const RuleSet& after,
                                                 const ReadFixedInputs& fixed_inputs);

}  // namespace snnplan::usecases
