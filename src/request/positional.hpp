#pragma once
// A request whose inputs and answer fields are fixed by position ahead of time: a drop-in
// function's parameters and the fields of the record it returns (the Python module's
// recommend()). The positions are bound to a rule set's input slots and record fields once per
// rule set (PositionalLayout); each call then gives its values by position, strings as views,
// and reads the fields by position (PositionalCall) -- no name is looked up on a call.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/runtime_value.hpp"
#include "snnplan/evaluation_result.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/value_view.hpp"

namespace snnplan::request {

class PositionalLayout {
 public:
  /// `inputs` and `fields` name the positions; the views must outlive the layout.
  PositionalLayout(std::span<const std::string_view> inputs,
                   std::span<const std::string_view> fields);

  /// Finds the positions in `rules`, unless they are those of the same compiled rules already.
  /// Keeps the rules alive without their observers (a decision log the caller let go closes).
  void bind(const RuleSet& rules);

  /// Whether the bound rules are the built-in rule set.
  [[nodiscard]] bool bound_to_builtin() const noexcept { return builtin_; }
  /// Input `k`'s slot in the bound rules, or -1 when they do not declare it.
  [[nodiscard]] int slot(std::size_t k) const noexcept { return slots_[k]; }
  /// Field `k`'s position in the bound rules' records (valid unless missing_field()).
  [[nodiscard]] std::size_t field(std::size_t k) const noexcept { return fields_[k]; }
  /// The first field the bound rules' records lack, if any.
  [[nodiscard]] std::optional<std::string_view> missing_field() const noexcept {
    return missing_field_;
  }

 private:
  friend class PositionalCall;
  std::span<const std::string_view> input_names_, field_names_;
  std::optional<RuleSet> rules_;
  bool builtin_ = false;
  std::vector<int> slots_;
  std::vector<std::size_t> fields_;
  std::optional<std::string_view> missing_field_;
};

/// One thread's evaluations with a layout, reused call after call: after the first calls an
/// evaluation allocates nothing.
class PositionalCall {
 public:
  /// Evaluates `by_position` (value k for the layout's input k; a null value: not given) with
  /// the layout's bound rules. False with error() set when there is no record -- for an input
  /// the rules do not declare, the error evaluating by name gives. Strings are views that must
  /// outlive the values.
  bool evaluate(const PositionalLayout& layout, std::span<const detail::RValue> by_position);

  /// The record's fields after a successful evaluate(), in the rules' order.
  [[nodiscard]] std::span<const ValueView> values() const noexcept { return values_; }
  [[nodiscard]] const EvaluationError& error() const noexcept { return error_; }

 private:
  std::vector<detail::RValue> by_slot_;
  detail::ValueStore store_;
  std::vector<ValueView> values_;
  EvaluationError error_;
};

}  // namespace snnplan::request
