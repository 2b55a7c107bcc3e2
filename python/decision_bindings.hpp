#pragma once
// The Python side of decision records (snnplan/decision.hpp, snnplan/decision_log.hpp):
// snnplan.DecisionLog, RuleSet.decide/with_decision_log/with_shadow/observed, and the
// decision_log= keyword of RuleSet's constructors. A log write that fails is a RuntimeWarning
// (once per log), never an exception of the decision.

#include <pybind11/pybind11.h>

#include "snnplan/rule_set.hpp"
#include "snnplan/value.hpp"

namespace snnplan::python {

/// How the module reads keyword arguments as inputs (RuleSet.evaluate's reading).
using InputsOf = Inputs (*)(const pybind11::kwargs&);

/// Adds DecisionLog to `m` and the decision methods to `rule_set`.
void bind_decisions(pybind11::module_& m, pybind11::class_<RuleSet>& rule_set, InputsOf inputs_of);

/// `rules` as a constructor's decision_log= asks: None gives the environment's log
/// (SNNPLAN_DECISION_LOG, as the CLI), False none, a DecisionLog or a path that log.
RuleSet with_log_argument(const RuleSet& rules, pybind11::handle decision_log);

}  // namespace snnplan::python
