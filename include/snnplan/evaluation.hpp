#pragma once
/// \file
/// Evaluation without copies: RuleSet::evaluate(inputs, evaluation) fills a reusable
/// Evaluation whose fields are views -- of the rule set's own text (rationale lines, constant
/// strings), of the caller's inputs, or of the Evaluation's storage (the rendered header,
/// computed values). Reusing one Evaluation per thread, an evaluation allocates nothing once
/// its storage has grown to the rule set's needs. Use evaluate(inputs) for an owning Record.
///
/// Inputs by position: an InputLayout from RuleSet::input_layout(names) finds the inputs' slots
/// once; RuleSet::evaluate(layout, values, evaluation) then takes values[k] as input names[k],
/// with no name to look up on each call.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/evaluation_result.hpp"
#include "snnplan/record.hpp"
#include "snnplan/value_view.hpp"

namespace snnplan {

namespace detail {
struct CompiledRules;
class ValueStore;
}

/// Input names resolved once to a rule set's input slots, for RuleSet::evaluate(layout, values,
/// evaluation). Made by RuleSet::input_layout(); a name that is no input of the rule set (or a
/// name given twice) makes a layout that is not ok(), whose error() is what evaluating by name
/// reports for it -- evaluating with it fails with that error. A layout belongs to the compiled
/// rules it was made from (and keeps them alive): evaluating another rule set with it fails.
/// Copies share nothing mutable; safe to use from many threads at once.
///
///     const auto layout = rules.input_layout({"model", "world_size", "prefer", "batch_size"});
///     if (!layout.ok()) return fail(layout.error().message);
///     const std::vector<snnplan::Value> values{"spikformer", 8, "memory", 64};
///     snnplan::Evaluation evaluation;
///     rules.evaluate(layout, values, evaluation);  // as evaluate({{"model", "spikformer"}, ...})
class InputLayout {
 public:
  /// False when a name is no input of the rule set or is given twice.
  [[nodiscard]] bool ok() const noexcept { return !error_; }
  /// Precondition: !ok().
  [[nodiscard]] const EvaluationError& error() const noexcept { return *error_; }
  /// The names, in the order the values are given.
  [[nodiscard]] std::span<const std::string> names() const noexcept { return names_; }
  [[nodiscard]] std::size_t size() const noexcept { return names_.size(); }

 private:
  friend class RuleSet;
  InputLayout() = default;
  std::shared_ptr<const detail::CompiledRules> rules_;
  std::vector<std::string> names_;
  std::vector<int> slots_;  // names_[k] is the rule set's input slots_[k]
  std::optional<EvaluationError> error_;
};

/// The outcome of RuleSet::evaluate(inputs, evaluation): the record's fields as views, or the
/// error. Reuse one per thread; it is not safe to share between threads.
class Evaluation {
 public:
  Evaluation();
  ~Evaluation();
  Evaluation(Evaluation&&) noexcept;
  Evaluation& operator=(Evaluation&&) noexcept;
  Evaluation(const Evaluation&) = delete;
  Evaluation& operator=(const Evaluation&) = delete;

  /// False before the first evaluation, after a failed one and once moved from.
  [[nodiscard]] bool ok() const noexcept { return ok_; }
  /// Precondition: !ok().
  [[nodiscard]] const EvaluationError& error() const noexcept { return error_; }

  /// Field names and values, in the order the rule file declares them (empty unless ok()).
  [[nodiscard]] std::span<const std::string> names() const noexcept;
  [[nodiscard]] std::span<const ValueView> values() const noexcept {
    return ok_ ? std::span<const ValueView>(values_) : std::span<const ValueView>();
  }
  /// The field called `name`, or nullptr.
  [[nodiscard]] const ValueView* find(std::string_view name) const noexcept;

  /// An owning Record of the same fields; throws std::logic_error unless ok().
  [[nodiscard]] Record to_record() const;

  struct Storage;  // the library's: the evaluation's value store

 private:
  friend class RuleSet;
  friend class RuleSetAccess;  // evaluation by slot, for the library's own front ends
  /// Readies this evaluation for one of `rules` (not ok(), no fields) and returns its store.
  detail::ValueStore& start(const std::shared_ptr<const detail::CompiledRules>& rules);
  std::unique_ptr<Storage> storage_;
  /// The compiled rules of the last evaluation: views of their text stay valid even when
  /// the RuleSet is replaced meanwhile (hot reload).
  std::shared_ptr<const detail::CompiledRules> rules_;
  /// The fields of the last evaluation when it succeeded (cleared when one fails): not cleared
  /// when the next one starts, so after a success an evaluation of the same rules writes over
  /// them without resizing. values() shows them only while ok().
  std::vector<ValueView> values_;
  EvaluationError error_;
  bool ok_ = false;
};

}  // namespace snnplan
