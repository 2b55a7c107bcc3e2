#pragma once
// Stage 4 of the pipeline: inputs -> facts -> first-hit walk of the start table -> record.

#include "compile/compiled_rules.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::evaluate {

/// Evaluates `rules` for `inputs`. Thread-safe: all state lives on this call's stack.
EvaluationResult evaluate(const detail::CompiledRules& rules, const Inputs& inputs);

}  // namespace snnplan::evaluate
