#pragma once
// `snnplan diff` once for every front end: two rule sets compared over the whole declared input
// domain (analyse/rule_diff.hpp), or -- where that cannot reach the answers (a search) or when
// asked -- on a corpus and a seeded sample (sampled_diff.hpp); some inputs held at a value when
// asked. The CLI prints the result with diff(1)'s exit codes, the workbench of `snnplan serve`
// sends it as JSON.

#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "analyse/rule_diff.hpp"
#include "usecases/sampled_diff.hpp"
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
  /// The exact comparison's result; unused when `sampled` is set.
  analyse::RuleDiff diff;
  /// The sampled comparison's result, when the two were compared on a sample.
  std::optional<SampledDiff> sampled;

  /// Whether some input gets another answer, or the exact comparison stopped before it reached
  /// every input: a gate on this must not pass an edit nobody compared. A sample that found no
  /// change is reported as such (and says that it sampled).
  [[nodiscard]] bool changed() const {
    if (sampled) return sampled->changed > 0;
    return !diff.changes.empty() || !diff.complete;
  }
};

/// How the declared inputs of `before` and `after` differ; empty when they are the same, which
/// comparing them (and mapping both) needs.
[[nodiscard]] std::string input_mismatch(const RuleSet& before, const RuleSet& after);

/// Which inputs get a different answer from `after` than from `before`: exactly, over every
/// input, unless one of them has a search (needs_sampling) or `sample` asks for a sample; then
/// on `sample`'s corpus and draws (the defaults of SampleOptions when it is not given). A
/// corpus line that is not a request is refused in `refused_inputs`.
[[nodiscard]] ComparedRuleSets compare_rule_sets(const RuleSet& before, const RuleSet& after,
                                                 const ReadFixedInputs& fixed_inputs,
                                                 const std::optional<SampleOptions>& sample = {});

}  // namespace snnplan::usecases
