#pragma once
/// \file
/// Why an input got its answer: the steps the evaluator took, for `snnplan explain`.

#include <string>
#include <vector>

#include "snnplan/evaluation_result.hpp"
#include "snnplan/source_location.hpp"

namespace snnplan {

/// One step of an evaluation, in the order it happened.
struct TraceStep {
  enum class Kind {
    enter_table,    ///< a table is walked (start, `next` or fallback)
    rule_skipped,   ///< a rule's condition failed; detail names the first failing matcher
    rule_fired,     ///< the first rule whose condition held
    fallback,       ///< detail lists the overridden inputs
    derived_value,  ///< a `let` value was computed; detail is "name = value"
    error,          ///< the evaluation stopped with this message
    // A search (table: the let's name): a tier starts (rule: the tier), a candidate is removed
    // by a constraint (rule) or tested against `fits` (fits / too big; detail: its values and
    // the constraint's message), the tier's counts, the chosen candidate.
    search_tier,
    candidate_removed,
    candidate_fits,
    candidate_too_big,
    search_summary,
    search_chosen,
  };
  Kind kind = Kind::enter_table;
  int depth = 0;  ///< nesting of table calls, 0 for the start table
  std::string table;
  std::string rule;
  SourceLocation location;
  std::string detail;
};

/// The result of an evaluation together with its trace.
struct Explanation {
  EvaluationResult result;
  std::vector<TraceStep> steps;
};

/// "enter_table", "rule_skipped", ... (stable names for JSON output).
const char* to_string(TraceStep::Kind kind);

/// The rule path of an evaluation: every fired rule as "table/rule", in the order the rules
/// fired (the start table's rule, then those of the tables it reached through `next` or a
/// fallback). What `--trace` batch lines, `snnplan diff` and `expect_rules:` in rule tests
/// name, so all of them agree on one spelling.
std::vector<std::string> fired_rule_path(const std::vector<TraceStep>& steps);

}  // namespace snnplan
