#include "usecases/diff.hpp"

#include "usecases/sampled_diff.hpp"

#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "api/rule_set_access.hpp"

namespace snnplan::usecases {

std::string input_mismatch(const RuleSet& before, const RuleSet& after) {
  return analyse::input_differences(RuleSetAccess::compiled(before), RuleSetAccess::compiled(after));
}

ComparedRuleSets compare_rule_sets(const RuleSet& before, const RuleSet& after,
                                   const ReadFixedInputs& fixed_inputs,
                                   const std::optional<SampleOptions>& sample) {
  ComparedRuleSets out;
  const detail::CompiledRules& old_rules = RuleSetAccess::compiled(before);
  const detail::CompiledRules& new_rules = RuleSetAccess::compiled(after);
  out.input_mismatch = input_mismatch(before, after);
  if (!out.input_mismatch.empty()) return out;
  auto given = fixed_inputs(before);
  if (auto* problem = std::get_if<std::string>(&given)) {
    out.refused_inputs = std::move(*problem);
    return out;
  }
  if (sample || needs_sampling(before, after)) {
    SampleOptions options = sample.value_or(SampleOptions{});
    options.fixed = std::move(std::get<Inputs>(given));
    if (options.corpus.empty() && options.test_corpus.empty())
      std::tie(options.test_corpus, options.test_corpus_file) = rule_tests_corpus(before);
    try {
      out.sampled = sampled_diff(before, after, options);
    } catch (const std::invalid_argument& e) {
      out.refused_inputs = e.what();
    }
    return out;
  }
  std::vector<analyse::FixedInput> fixed;
  for (auto& [name, value] : std::get<Inputs>(given))
    fixed.push_back(analyse::FixedInput{name, std::move(value)});
  try {
    out.diff = analyse::diff_rules(old_rules, new_rules, fixed);
  } catch (const std::invalid_argument& e) {
    out.refused_inputs = e.what();
  }
  return out;
}

}  // namespace snnplan::usecases
