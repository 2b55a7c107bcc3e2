#pragma once
// Stage 4 of the pipeline: inputs -> facts -> first-hit walk of the start table -> record.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compile/compiled_rules.hpp"
#include "snnplan/evaluation_result.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/value_view.hpp"

namespace snnplan::evaluate {

/// The longest string an input (or an item of a list input) may have, in bytes.
inline constexpr std::size_t kMaxInputStringBytes = 64 * 1024;
/// Room on the stack for one evaluation's computed values; beyond it, the heap.
inline constexpr std::size_t kEvaluationStackBytes = 4096;

/// Evaluates `rules` for `inputs`. Thread-safe: all state lives on this call's stack.
/// When `trace` is given, every step is appended to it (for `explain`).
EvaluationResult evaluate(const detail::CompiledRules& rules, const Inputs& inputs,
                          std::vector<TraceStep>* trace = nullptr);

/// The given inputs checked as evaluate() checks them (known names, lengths, types, allowed
/// values), without the others; std::nullopt when evaluate() would accept them.
std::optional<EvaluationError> check_inputs(const detail::CompiledRules& rules,
                                            const Inputs& inputs);

/// evaluate() into views of `store` (and of the rules and inputs): see snnplan/evaluation.hpp.
/// Returns false with `error` set when there is no record.
bool evaluate_views(const detail::CompiledRules& rules, const Inputs& inputs,
                    detail::ValueStore& store, std::vector<ValueView>& out, EvaluationError& error);

/// evaluate_views() for inputs given by slot, in the rule set's input order (a null value: not
/// given, so the default applies), for a front end that has its inputs' slots: no names to look
/// up, strings as views (which must outlive the fields). The Python module's drop-ins use it.
bool evaluate_views_by_slot(const detail::CompiledRules& rules, std::span<const detail::RValue> inputs,
                            detail::ValueStore& store, std::vector<ValueView>& out, EvaluationError& error);

/// The slots of `names` among `rules`' inputs, into `slots` (one each, in order), for inputs
/// bound by position (RuleSet::input_layout). False with `error` set for a name that is no
/// input (the message evaluate() gives when it is given by name) or one named twice.
bool input_slots(const detail::CompiledRules& rules, std::span<const std::string_view> names,
                 std::vector<int>& slots, EvaluationError& error);

/// evaluate_views() for inputs by position: `values[k]` is input `slots[k]` (from input_slots;
/// a null value: not given), bound exactly as the same inputs given by name are (lengths, types,
/// defaults, allowed values, the same messages); strings are views of `values`. The caller
/// checks that there is one value per slot.
bool evaluate_views_at(const detail::CompiledRules& rules, std::span<const int> slots,
                       std::span<const Value> values, detail::ValueStore& store,
                       std::vector<ValueView>& out, EvaluationError& error);

/// An invariant (`ensure`) a record breaks: its index in CompiledRules::invariants and the
/// message the evaluation fails with.
struct BrokenInvariant {
  int invariant = -1;
  std::string message;
};

/// For the proof of `ensure` (analyse/invariants.cpp): evaluates `rules` at `inputs` (by slot,
/// as evaluate_views_by_slot takes them) exactly as evaluate() does and returns the invariant
/// the record breaks; std::nullopt when it breaks none or the evaluation fails for another
/// reason. With `trace`, the evaluation's steps are appended to it (for the rule path).
std::optional<BrokenInvariant> broken_invariant(const detail::CompiledRules& rules,
                                                std::span<const detail::RValue> inputs,
                                                std::vector<TraceStep>* trace = nullptr);

/// The evaluator's own semantics at one point of a rule set's input domain, for the table
/// analysis: inputs given by slot (already normalised and validated, as the analysis'
/// representatives are), derived values computed on first use exactly as evaluate() computes
/// them, conditions decided by the same code. It never builds a record.
class Probe {
 public:
  enum class Outcome : std::uint8_t { no, yes, error };

  explicit Probe(const detail::CompiledRules& rules);
  ~Probe();
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  /// Moves to a new point: one value per input slot. Values computed at the previous point
  /// (and returned by value()) are gone.
  void at(std::span<const detail::RValue> inputs);
  /// Whether every matcher of `rule` holds at this point; on error `why` (if given) gets the
  /// message evaluate() would report.
  Outcome matches(const detail::CompiledRule& rule, std::string* why = nullptr);
  /// The value of `node` at this point, or std::nullopt when computing it fails.
  std::optional<detail::RValue> value(const detail::Node& node);
  /// `value` given to input `input` as evaluate() takes it (type checked, lowered), or
  /// std::nullopt when evaluate() would refuse it. Allowed values (one_of) are not checked.
  std::optional<detail::RValue> normalised(int input, detail::RValue value);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace snnplan::evaluate
