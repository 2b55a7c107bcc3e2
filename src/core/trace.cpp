#include "snnplan/explain.hpp"

namespace snnplan {

const char* to_string(TraceStep::Kind kind) {
  switch (kind) {
    case TraceStep::Kind::enter_table: return "enter_table";
    case TraceStep::Kind::rule_skipped: return "rule_skipped";
    case TraceStep::Kind::rule_fired: return "rule_fired";
    case TraceStep::Kind::fallback: return "fallback";
    case TraceStep::Kind::derived_value: return "derived_value";
    case TraceStep::Kind::error: return "error";
  }
  return "?";
}


}  // namespace snnplan
