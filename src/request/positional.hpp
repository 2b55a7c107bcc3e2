#pragma once
// A request whose inputs and answer fields are fixed by position ahead of time: a drop-in
// function's parameters and the fields of the record it returns (the Python module's
// recommend()). A PositionalLayout finds the positions in a rule set's input slots and record
// fields once per rule set; a PositionalCall, one per thread, takes a call's values by position
// (strings as views) and reads the answer's fields by position -- no name is looked up on a
// call, and the front end never touches the compiled rules.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime_value.hpp"
#include "snnplan/evaluation_result.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/value_view.hpp"

namespace snnplan::request {

class PositionalLayout {
 public:
  /// The names of the inputs and of the fields, by position.
  PositionalLayout(std::vector<std::string> inputs, std::vector<std::string> fields);

  /// Finds the positions in `rules`, unless they are those of the same compiled rules already.
  /// Keeps the rules alive without their observers (a decision log the caller let go closes).
  /// Not safe while another thread binds the same layout (the Python module holds the GIL).
  void bind(const RuleSet& rules);

 private:
  friend class PositionalCall;
  std::vector<std::string> input_names_, field_names_;
  std::optional<RuleSet> rules_;
  bool builtin_ = false;
  std::vector<int> slots_;           // per input: its slot, -1 when the rules lack it
  std::vector<std::size_t> fields_;  // per field: its position in the records
  std::optional<std::string> missing_field_;
};

/// One thread's calls with a layout, reused call after call: after the first calls a call
/// allocates nothing.
class PositionalCall {
 public:
  /// Takes the layout's binding and `by_position` (value k for input k; a null value, or none
  /// past the end: not given) into this call's own storage, so that evaluate() may run while
  /// another thread binds the layout to other rules (the Python module releases the GIL to
  /// evaluate). False, with error() set, when the rules lack an input: the error that
  /// evaluating it by name gives. Strings are views that must outlive the evaluation's fields.
  /// Precondition: the layout is bound.
  bool prepare(const PositionalLayout& layout, std::span<const detail::RValue> by_position);
  /// Evaluates what prepare() took; false with error() set when there is no record.
  bool evaluate();

  /// Whether the prepared rules are the built-in rule set.
  [[nodiscard]] bool builtin() const noexcept { return builtin_; }
  /// The record's fields after a successful evaluate(), in the rules' order.
  [[nodiscard]] std::span<const ValueView> values() const noexcept { return values_; }
  [[nodiscard]] const EvaluationError& error() const noexcept { return error_; }
  /// Field `k`'s position in values() (valid unless missing_field()).
  [[nodiscard]] std::size_t field(std::size_t k) const noexcept { return fields_[k]; }
  /// The first of the layout's fields the prepared rules' records lack, if any.
  [[nodiscard]] const std::optional<std::string>& missing_field() const noexcept {
    return missing_field_;
  }

 private:
  std::optional<RuleSet> rules_;
  bool builtin_ = false;
  std::vector<std::size_t> fields_;
  std::optional<std::string> missing_field_;
  std::vector<detail::RValue> by_slot_;
  detail::ValueStore store_;
  std::vector<ValueView> values_;
  EvaluationError error_;
};

}  // namespace snnplan::request
