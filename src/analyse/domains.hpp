#pragma once
// The values the search tries for each input: fallback overrides evaluated and normalised by
// the evaluator, then representatives for every class of each input's domain.

#include "analyse/model.hpp"
#include "analyse/shapes.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::analyse {

/// The values fallbacks give inputs: constants are evaluated and normalised as the evaluator
/// does; expressions of the inputs are left unmodelled. Call after the matchers' shapes.
void resolve_overrides(Model& model, Shapes& shapes, evaluate::Probe& probe);
/// Representatives and placeholders of every input. Call after resolve_overrides.
void finish_inputs(Model& model);

}  // namespace snnplan::analyse
