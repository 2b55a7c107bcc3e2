#include "snnplan/explain.hpp"

namespace snnplan {

const char* to_string(TraceStep::Kind kind) {
  switch (kind) {
    case TraceStep::Kind::enter_table:
      return "enter_table";
    case TraceStep::Kind::rule_skipped:
      return "rule_skipped";
    case TraceStep::Kind::rule_fired:
      return "rule_fired";
    case TraceStep::Kind::fallback:
      return "fallback";
    case TraceStep::Kind::derived_value:
      return "derived_value";
    case TraceStep::Kind::error:
      return "error";
    case TraceStep::Kind::search_tier:
      return "search_tier";
    case TraceStep::Kind::candidate_removed:
      return "candidate_removed";
    case TraceStep::Kind::candidate_fits:
      return "candidate_fits";
    case TraceStep::Kind::candidate_too_big:
      return "candidate_too_big";
    case TraceStep::Kind::search_summary:
      return "search_summary";
    case TraceStep::Kind::search_chosen:
      return "search_chosen";
  }
  return "?";
}

std::vector<std::string> fired_rule_path(const std::vector<TraceStep>& steps) {
  std::vector<std::string> path;
  for (const TraceStep& step : steps) {
    if (step.kind == TraceStep::Kind::rule_fired) path.push_back(step.table + "/" + step.rule);
  }
  return path;
}

}  // namespace snnplan
