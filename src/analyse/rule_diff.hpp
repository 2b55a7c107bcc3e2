#pragma once
// What an edit of a rule file changes: the outcomes of two rule files compared over the whole
// declared input domain, cell by cell (analyse/partition.hpp), each file evaluated by the
// evaluator itself at every point the partition visits. Changes are grouped by the pair of
// regions (input_space.hpp: the old file's, the new file's) that gives them, each with a
// witness input at which both files were evaluated and differ. For `snnplan diff` and `snnplan map --diff`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyse/partition.hpp"
#include "compile/compiled_rules.hpp"
#include "snnplan/evaluation_result.hpp"
#include "snnplan/value.hpp"

namespace snnplan::analyse {

/// What one file answers for one input: the fired rules and the record or the error.
struct Answer {
  std::vector<std::string> rules;  // fired_rule_path(): "table/rule", in firing order
  std::optional<Record> record;
  std::optional<std::string> error;
  /// The region of the decision the input lies in (region_of() of the evaluation).
  [[nodiscard]] Region region() const { return Region{rules, error.has_value()}; }
};

/// The evaluator's answer for `inputs`, with its rule path (region_of()).
Answer answer(const detail::CompiledRules& rules, const Inputs& inputs);
/// Whether two answers differ in a record field (by name), a rationale line, an error text,
/// or error vs. answer. The rule paths alone do not count: a new rule that gives the same
/// record changes nothing a caller sees.
bool answers_differ(const Answer& a, const Answer& b);

/// One field that changes across a group: its old and new value, or none for "varies"
/// (different values at different inputs of the group). A field missing from a record, and
/// the record of an error, count as null; "error" is the error text as a field.
struct FieldChange {
  std::string field;
  std::optional<Value> old_value, new_value;
};

/// The changes given by one pair of regions: the old file's and the new file's.
struct ChangeGroup {
  std::vector<std::string> old_rules, new_rules;  // the regions' paths
  Answer old_answer, new_answer;  // at the witness
  std::vector<FieldChange> fields;
  Inputs witness;  // the inputs given (those left out get their defaults)
  std::vector<Cell> cells;  // the cells of the partition where the change is seen (where the
                            // region is a box less others, BoxRegion: its witness's box only)
  std::string region;  // the cells as readable conditions
};

struct RuleDiff {
  std::vector<ChangeGroup> changes;    // in order of first appearance in the search
  std::vector<std::string> undecided;  // "file:line:column: what" of each construct the
                                       // cells do not decide exactly, and of partial cells
  // False when the search stopped before it reached every region (too many combinations of
  // input values): then no change found does not mean no change.
  bool complete = true;
};

/// The inputs a point of `partition` gives (left-out inputs absent).
Inputs inputs_at(const Partition& partition, const Partition::Point& point);

/// How diff_rules() compares files made of boxes (analyse/boxes.hpp): `regions`, each
/// changed region computed from the rules' boxes where both files are single decision tables
/// (BoxDiff::for_each_region), cell by cell of their boxes otherwise; `cells`, cell by cell
/// always; `none`, by the grid only, as before the boxes. The tests compare them.
enum class BoxMethod : std::uint8_t { none, cells, regions };

/// Compares `old_rules` and `new_rules` (which declare the same input names; the caller
/// checks) over their input domain, `fixed` inputs held at one value each. Files made of
/// boxes are compared by `boxes`, others by the grid.
RuleDiff diff_rules(const detail::CompiledRules& old_rules, const detail::CompiledRules& new_rules,
                    const std::vector<FixedInput>& fixed, BoxMethod boxes = BoxMethod::regions);

/// Names of inputs only one of the two files declares, as a message; empty when they match.
std::string input_differences(const detail::CompiledRules& old_rules,
                              const detail::CompiledRules& new_rules);

}  // namespace snnplan::analyse
