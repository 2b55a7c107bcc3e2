#include "request/positional.hpp"

#include <stdexcept>

#include "api/rule_set_access.hpp"
#include "core/messages.hpp"
#include "evaluate/evaluator.hpp"
#include "evaluate/messages.hpp"

namespace snnplan::request {

PositionalLayout::PositionalLayout(std::vector<std::string> inputs, std::vector<std::string> fields)
    : input_names_(std::move(inputs)),
      field_names_(std::move(fields)),
      slots_(input_names_.size(), -1),
      fields_(field_names_.size(), 0) {}

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
    const auto slot = compiled.input_slots.find(input_names_[k]);
    slots_[k] = slot == compiled.input_slots.end() ? -1 : slot->second;
  }
  builtin_ = rules.same_rules(RuleSet::builtin());
  rules_ = RuleSetAccess::unobserved(rules);
}

bool PositionalCall::prepare(const PositionalLayout& layout,
                             std::span<const detail::RValue> by_position) {
  if (!layout.rules_) throw std::logic_error("PositionalCall::prepare: the layout is not bound");
  if (!rules_ || !rules_->same_rules(*layout.rules_)) {  // the fields are those of the rules
    rules_ = layout.rules_;
    builtin_ = layout.builtin_;
    fields_ = layout.fields_;
    missing_field_ = layout.missing_field_;
  }
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(*rules_);
  by_slot_.assign(compiled.inputs.size(), detail::RValue{});
  values_.clear();
  for (std::size_t k = 0; k < layout.input_names_.size(); ++k) {
    if (layout.slots_[k] < 0) {  // what binding the inputs by name reports for it
      std::vector<std::string> names;
      for (const auto& input : compiled.inputs) names.push_back(input.name);
      const std::string& name = layout.input_names_[k];
      error_ = EvaluationError{EvaluationErrorKind::bad_input,
                               messages::unknown_input(name, messages::closest_match(name, names))};
      return false;
    }
    if (k < by_position.size()) by_slot_[static_cast<std::size_t>(layout.slots_[k])] = by_position[k];
  }
  return true;
}

bool PositionalCall::evaluate() {
  store_.reset();
  return evaluate::evaluate_views_by_slot(RuleSetAccess::compiled(*rules_), by_slot_, store_,
                                          values_, error_);
}

}  // namespace snnplan::request
