#pragma once
// Stage 4 of the pipeline: inputs -> facts -> first-hit walk of the start table -> record.

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

/// evaluate() into views of `store` (and of the rules and inputs): see snnplan/evaluation.hpp.
/// Returns false with `error` set when there is no record.
bool evaluate_views(const detail::CompiledRules& rules, const Inputs& inputs, detail::ValueStore& store,
                    std::vector<ValueView>& out, EvaluationError& error);

}  // namespace snnplan::evaluate
