// Evaluation: the reusable, view-returning result of RuleSet::evaluate(inputs, evaluation).

#include "snnplan/evaluation.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include "api/messages.hpp"
#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"
#include "evaluate/evaluator.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan {

/// The evaluation's value store over a buffer of its own: reset before every evaluation, so
/// storage is reused and an evaluation that fits the buffer allocates nothing.
struct Evaluation::Storage {
  static constexpr std::size_t kBufferBytes = 8192;
  alignas(std::max_align_t) std::array<std::byte, kBufferBytes> buffer;
  detail::ValueStore store{buffer.data(), buffer.size()};
};

Evaluation::Evaluation() : storage_(std::make_unique<Storage>()) {}
Evaluation::~Evaluation() = default;
Evaluation::Evaluation(Evaluation&& other) noexcept
    : storage_(std::move(other.storage_)),
      rules_(std::move(other.rules_)),
      values_(std::move(other.values_)),
      error_(std::move(other.error_)),
      ok_(std::exchange(other.ok_, false)) {
  other.values_.clear();
}
Evaluation& Evaluation::operator=(Evaluation&& other) noexcept {
  if (this != &other) {
    storage_ = std::move(other.storage_);
    rules_ = std::move(other.rules_);
    values_ = std::move(other.values_);
    error_ = std::move(other.error_);
    ok_ = std::exchange(other.ok_, false);
    other.values_.clear();
  }
  return *this;
}

std::span<const std::string> Evaluation::names() const noexcept {
  if (!ok_ || !rules_) return {};
  return *rules_->field_names;
}

const ValueView* Evaluation::find(std::string_view name) const noexcept {
  const auto all = names();
  for (std::size_t k = 0; k < all.size(); ++k)
    if (all[k] == name) return &values_[k];
  return nullptr;
}

Record Evaluation::to_record() const {
  if (!ok_) throw std::logic_error("Evaluation::to_record() needs a successful evaluation");
  std::vector<Value> values;
  values.reserve(values_.size());
  for (const ValueView& v : values_) values.push_back(v.to_value());
  return Record(rules_->field_names, std::move(values));
}

detail::ValueStore& Evaluation::start(const std::shared_ptr<const detail::CompiledRules>& rules) {
  if (!storage_) storage_ = std::make_unique<Storage>();  // moved from
  // Not ok() first, so an exception (std::bad_alloc) leaves an evaluation that is not ok(),
  // whose values() are then empty (values_ keeps its size for the next evaluation).
  ok_ = false;
  storage_->store.reset();
  if (rules_ != rules) rules_ = rules;  // no refcount traffic when reused
  return storage_->store;
}

bool RuleSet::evaluate(const Inputs& inputs, Evaluation& out) const {
  if (observers_) [[unlikely]] {
    // Recorded from the traced evaluation by name; the views are computed as for any caller.
    std::vector<TraceStep> steps;
    (void)observed_decision(inputs, steps);
  }
  detail::ValueStore& store = out.start(rules_);
  out.ok_ = evaluate::evaluate_views(*rules_, inputs, store, out.values_, out.error_);
  return out.ok_;
}

InputLayout RuleSet::input_layout(std::span<const std::string_view> names) const {
  InputLayout layout;
  layout.rules_ = rules_;
  layout.names_.assign(names.begin(), names.end());
  EvaluationError error;
  if (!evaluate::input_slots(*rules_, names, layout.slots_, error)) layout.error_ = std::move(error);
  return layout;
}

InputLayout RuleSet::input_layout(std::initializer_list<std::string_view> names) const {
  return input_layout(std::span<const std::string_view>(names.begin(), names.size()));
}

bool RuleSet::evaluate(const InputLayout& layout, std::span<const Value> values,
                       Evaluation& out) const {
  detail::ValueStore& store = out.start(rules_);
  if (!layout.ok() || layout.rules_ != rules_ || values.size() != layout.size()) [[unlikely]] {
    out.values_.clear();
    out.error_ = !layout.ok() ? layout.error()
                 : layout.rules_ != rules_
                     ? EvaluationError{EvaluationErrorKind::bad_input,
                                       messages::layout_of_other_rules(rules_->file_name)}
                     : EvaluationError{EvaluationErrorKind::bad_input,
                                       messages::layout_value_count(values.size(), layout.size())};
    return false;
  }
  if (observers_) [[unlikely]] {
    // Decisions are recorded by name, as for evaluate(inputs, out).
    Inputs inputs;
    for (std::size_t k = 0; k < values.size(); ++k) inputs.emplace_back(layout.names_[k], values[k]);
    std::vector<TraceStep> steps;
    (void)observed_decision(inputs, steps);
  }
  out.ok_ = evaluate::evaluate_views_at(*rules_, layout.slots_, values, store, out.values_, out.error_);
  return out.ok_;
}

bool RuleSetAccess::evaluate_by_slot(const RuleSet& rules, std::span<const detail::RValue> inputs,
                                     Evaluation& out) {
  detail::ValueStore& store = out.start(rules.rules_);
  out.ok_ = evaluate::evaluate_views_by_slot(*rules.rules_, inputs, store, out.values_, out.error_);
  return out.ok_;
}

}  // namespace snnplan
