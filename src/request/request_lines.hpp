#pragma once
// One request line answered by a rule set, once for every front end: each line of `recommend
// --batch` and `plan-training --batch` (a worker of the batch owns one RequestLines), a call
// of snnplan_evaluate() in the C API. A plain line (json_slots.hpp) goes straight into the
// input slots and its record is written from the evaluation's views; any other line goes
// through the exact reader (json_inputs.hpp), which words what is wrong with it. The front
// ends only frame the outcome: the batch numbers error lines and counts refusals, the C API
// maps the outcome to a status.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "render/json.hpp"
#include "request/json_slots.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::request {

/// What one line gave: on success its answer was appended to the caller's buffer (one JSON
/// line, without the newline); else the error.
struct LineOutcome {
  bool ok = true;
  EvaluationErrorKind kind = EvaluationErrorKind::bad_input;
  std::string message;
  /// When traced, the steps the rules took before refusing (empty when the line was not
  /// evaluated): the error line then carries "rules" and "trace".
  std::vector<TraceStep> steps;
};

struct LineOptions {
  /// Each line is explained: its record is followed by "rules" (the fired rule path) and
  /// "trace", and so is its error line.
  bool traced = false;
  /// Inputs a line takes when it leaves them out or gives them as null (`--probe-torch`'s
  /// findings); those the rules do not declare are dropped.
  Inputs fallbacks;
};

/// Answers the lines of one rule set, one after another, into a reused Evaluation: after the
/// first, a plain line allocates nothing for its fields. Not shared between threads.
class RequestLines {
 public:
  explicit RequestLines(const RuleSet& rules, LineOptions options = {});

  /// Whether these are the lines of `rules` (false after a hot reload replaced them).
  [[nodiscard]] bool answers_for(const RuleSet& rules) const noexcept { return reader_.reads_for(rules); }

  /// Appends the answer to `line` to `output` (nothing when it is refused). Throws only what the
  /// rules cannot help (std::bad_alloc and the like).
  LineOutcome answer(const std::string& line, std::string& output);

 private:
  RuleSet rules_;
  LineOptions options_;
  JsonSlotReader reader_;
  render::RecordLineWriter writer_;
  Evaluation evaluation_;
};

/// Each of `fallbacks` that `rules` declares, for `inputs` that leave it out or give it as null.
void add_fallbacks(const RuleSet& rules, const Inputs& fallbacks, Inputs& inputs);

/// Appends the error line of a refused line: {"error": message}, with "line" (counted from 1)
/// for a bad input when `line_number` is given, and "rules" and "trace" when `traced`.
void append_refusal(std::string& out, const LineOutcome& outcome, std::optional<std::size_t> line_number,
                    bool traced);

}  // namespace snnplan::request
