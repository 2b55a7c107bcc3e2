#include "request/positional.hpp"

#include <string>

#include "api/rule_set_access.hpp"
#include "core/messages.hpp"
#include "evaluate/evaluator.hpp"
#include "evaluate/messages.hpp"

namespace snnplan::request {

PositionalLayout::PositionalLayout(std::span<const std::string_view> inputs,
                                   std::span<const std::string_view> fields)
    : input_names_(inputs),
      field_names_(fields),
      slots_(inputs.size(), -1),
      fields_(fields.size(), 0) {}

void PositionalLayout::bind(const RuleSet& rules) {
  if (rules_ && rules_->same_rules(rules)) return;
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
  const std::vector<std::string>& names = *compiled.field_names;
  missing_field_.reset();
  for (std::size_t k = 0; k < field_names_.size(); ++k) {
    std::size_t at = 0;
    while (at < names.size() && names[at] != field_names_[k]) ++at;
    if (at == names.size() && !missing_field_) missing_field_ = field_names_[k];
    fields_[k] = at;
  }
  for (std::size_t k = 0; k < input_names_.size(); ++k) {
    const auto slot = compiled.input_slots.find(std::string(input_names_[k]));
    slots_[k] = slot == compiled.input_slots.end() ? -1 : slot->second;
  }
  builtin_ = rules.same_rules(RuleSet::builtin());
  rules_ = RuleSetAccess::unobserved(rules);
}

bool PositionalCall::evaluate(const PositionalLayout& layout,
                              std::span<const detail::RValue> by_position) {
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(*layout.rules_);
  by_slot_.assign(compiled.inputs.size(), detail::RValue{});
  for (std::size_t k = 0; k < by_position.size(); ++k) {
    if (layout.slots_[k] < 0) {  // what binding the inputs by name reports for it
      std::vector<std::string> names;
      for (const auto& input : compiled.inputs) names.push_back(input.name);
      const std::string_view name = layout.input_names_[k];
      error_ = EvaluationError{EvaluationErrorKind::bad_input,
                               messages::unknown_input(name, messages::closest_match(name, names))};
      values_.clear();
      return false;
    }
    by_slot_[static_cast<std::size_t>(layout.slots_[k])] = by_position[k];
  }
  store_.reset();
  return evaluate::evaluate_views_by_slot(compiled, by_slot_, store_, values_, error_);
}

}  // namespace snnplan::request
