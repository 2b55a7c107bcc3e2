#pragma once
// The decision map of `snnplan map` once for every front end: what a map asks of its rule files,
// checked before any cell is evaluated, and its cells evaluated. Each cell goes through the fast
// path (RuleSet::evaluate(inputs, Evaluation&)); its rule path comes from the regions of the
// table analysis (analyse/partition.hpp), on which a rule path is constant, with one traced
// evaluation per region -- or a traced evaluation per cell where the regions are not exact.
// Each distinct answer is kept once; render/map.hpp renders the result.
//
// How an axis is written is the front end's (`--x NAME=A..B:STEP`, the page's JSON object), as
// are the words of a refusal; what an axis so read means (its values, checked against the
// input it names and the limit on cells), and what the files must declare, are here.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "render/map.hpp"
#include "snnplan/input_info.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::usecases {

/// One axis as a front end read it from its own syntax: the input's name and at most one of a
/// range of ints or listed values (which the front end reads on request, typed for the input).
/// With neither, the axis takes every value of the input -- its `one_of` list, else false and
/// true for a bool -- or, for an int input without `one_of`, `default_range` when given.
struct AxisRequest {
  struct Range {
    std::int64_t from = 0;
    std::int64_t to = 0;
    std::int64_t step = 1;
  };
  std::string name;
  std::optional<Range> range;
  /// How many values the request lists, read with the AxisValueReader (0: an empty list).
  std::optional<std::size_t> listed;
  std::optional<Range> default_range;
};

/// Reads the request's value `index` (0 <= index < listed) for `input`; throws or returns a
/// message, in the front end's own words, when it is not a value of the input's type.
using AxisValueReader =
    std::function<std::variant<Value, std::string>(const InputInfo& input, std::size_t index)>;

/// Why an axis request is refused; the front end words it.
struct AxisProblem {
  enum class Kind {
    unknown_input,    ///< `name` is not an input of the rule file
    needs_values,     ///< neither range nor values, and the input has no finite set of values
    empty_list,       ///< the request lists no values
    range_needs_int,  ///< a range for an input of another `type`
    step_below_one,   ///< a range whose `step` is below 1
    empty_range,      ///< a range whose `to` is below its `from`
    too_many_values,  ///< more than the limit (`count` values)
    bad_value,        ///< the reader's `message` for a listed value
  };
  Kind kind = Kind::unknown_input;
  std::string name;
  std::string type;       ///< range_needs_int: the input's type
  std::int64_t step = 0;  ///< step_below_one
  double count = 0;       ///< too_many_values: how many values the axis would have
  std::string message;    ///< bad_value
};

/// The axis `request` asks for over `rules`' inputs, with at most `most_values` values (a range
/// is counted before any value is made, so a range over all of int64 is refused at once).
[[nodiscard]] std::variant<render::MapAxis, AxisProblem> map_axis(const AxisRequest& request,
                                                                  const RuleSet& rules,
                                                                  std::size_t most_values,
                                                                  const AxisValueReader& read);

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

/// Whether a map of `rules` can be coloured by `color_by`: "mode", "rule" (the fired rule path),
/// a record field, or several of those joined by commas (a cell's colour is their values together,
/// e.g. a planned layout: tensor_model_parallel_size,pipeline_model_parallel_size).
[[nodiscard]] bool can_colour_by(const RuleSet& rules, const std::string& color_by);

/// What a map of `rules` is coloured by when nobody says: its `mode` field (the recommenders'),
/// else its first record field (a planner's tensor-parallel size), else the fired rule path.
[[nodiscard]] std::string default_colour(const RuleSet& rules);

/// Fills `map.outcomes` and `map.cells` from its axes, fixed inputs, `color_by` and `diff`:
/// `files` holds the rule set (or, for a diff, the old and the new one), for which map_gap()
/// finds nothing.
void evaluate_map(render::DecisionMap& map, const std::vector<RuleSet>& files);

}  // namespace snnplan::usecases
