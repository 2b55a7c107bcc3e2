#pragma once
// The cells of `snnplan map`'s decision map: each cell of the grid evaluated through the fast
// path (RuleSet::evaluate(inputs, Evaluation&)); their rule paths come from the regions of the
// table analysis (analyse/partition.hpp), on which a rule path is constant, with one traced
// evaluation per region -- or a traced evaluation per cell where the regions are not exact.
// Each distinct answer is kept once (render/map.hpp renders the result).

#include <vector>

#include "render/map.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::render {

/// Fills `map.outcomes` and `map.cells` from its axes, fixed inputs, `color_by` and `diff`:
/// `files` holds the rule set (or, for a diff, the old and the new one), each of which
/// declares every input the map sets and whose every required input the map gives.
void evaluate_map(DecisionMap& map, const std::vector<RuleSet>& files);

}  // namespace snnplan::render
