#pragma once
// The decision map of `snnplan map` once for every front end: what a map asks of its rule files,
// checked before any cell is evaluated, and its cells evaluated. Each cell goes through the fast
// path (RuleSet::evaluate(inputs, Evaluation&)); its rule path comes from the regions of the
// table analysis (analyse/partition.hpp), on which a rule path is constant, with one traced
// evaluation per region -- or a traced evaluation per cell where the regions are not exact.
// Each distinct answer is kept once; render/map.hpp renders the result.
//
// How an axis is written is the front end's (`--x NAME=A..B:STEP`, the page's JSON object), as
// are the words of a refusal; which input it names, and what the files must declare, are here.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/map.hpp"
#include "snnplan/input_info.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::usecases {

/// What a map's rule file lacks for it.
struct MapGap {
  enum class Kind {
    undeclared_input,  ///< the map fixes an input the file does not declare
    missing_input,     ///< an input without a default that the map neither fixes nor varies
  };
  Kind kind = Kind::missing_input;
  std::string input;
  std::string file;  ///< the rule file's name
};

/// The first gap of `files` (in order; within a file, undeclared inputs first) for `map`'s axes
/// and fixed inputs; none when every file can answer every cell.
[[nodiscard]] std::optional<MapGap> map_gap(const render::DecisionMap& map,
                                            const std::vector<RuleSet>& files);

/// Whether a map of `rules` can be coloured by `color_by`: "mode", "rule" (the fired rule path)
/// or a record field.
[[nodiscard]] bool can_colour_by(const RuleSet& rules, const std::string& color_by);

/// Fills `map.outcomes` and `map.cells` from its axes, fixed inputs, `color_by` and `diff`:
/// `files` holds the rule set (or, for a diff, the old and the new one), for which map_gap()
/// finds nothing.
void evaluate_map(render::DecisionMap& map, const std::vector<RuleSet>& files);

}  // namespace snnplan::usecases
