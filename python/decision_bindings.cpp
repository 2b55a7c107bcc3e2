#include "decision_bindings.hpp"

#include <pybind11/stl.h>

#include <cerrno>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "messages.hpp"
#include "decisions/record_json.hpp"
#include "snnplan/decision_log.hpp"

namespace py = pybind11;

namespace snnplan::python {
namespace {

// A write failure of a log made here: a RuntimeWarning, raised on the thread that made the
// decision (which may have released the GIL). A warnings filter that turns it into an error
// cannot fail the decision either: the error is printed as unraisable instead.
bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

void warn_write_failure(const std::string& message) {
  if (finalizing()) {  // a thread still deciding at interpreter exit: no warnings machinery
    std::cerr << message << std::endl;
    return;
  }
  const py::gil_scoped_acquire locked;
  if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1) < 0) PyErr_WriteUnraisable(nullptr);
}

std::vector<std::string> names_of(py::handle names, const char* what) {
  std::vector<std::string> out;
  if (names.is_none()) return out;
  if (PyUnicode_Check(names.ptr())) throw py::type_error(messages::py_log_names_not_str(what));
  for (py::handle name : py::iter(names)) {
    if (!PyUnicode_Check(name.ptr())) throw py::type_error(messages::py_log_names_not_str(what));
    out.push_back(name.cast<std::string>());
  }
  return out;
}

std::shared_ptr<DecisionLog> open_log(py::handle path, py::handle labels, py::handle drop_inputs,
                                      py::handle mask_inputs) {
  const std::string file = py::module_::import("os").attr("fsdecode")(path).cast<std::string>();
  DecisionLogOptions options;
  if (!labels.is_none()) {
    const py::dict copied = py::module_::import("builtins").attr("dict")(labels);  // any mapping
    for (auto [name, value] : copied) {
      if (!PyUnicode_Check(name.ptr()) || !PyUnicode_Check(value.ptr()))
        throw py::type_error(messages::py_log_labels_not_str());
      options.labels.emplace_back(name.cast<std::string>(), value.cast<std::string>());
    }
  }
  options.drop_inputs = names_of(drop_inputs, "drop_inputs");
  options.mask_inputs = names_of(mask_inputs, "mask_inputs");
  options.on_first_failure = &warn_write_failure;
  try {
    return std::make_shared<DecisionLog>(file, std::move(options));
  } catch (const std::system_error& error) {
    errno = error.code().value();  // the open's, whatever ran since
    PyErr_SetFromErrnoWithFilename(PyExc_OSError, file.c_str());
    throw py::error_already_set();
  }
}

// A DecisionLog, or a path to open one at (with the options, which a DecisionLog already has).
std::shared_ptr<DecisionLog> log_of(py::handle log, py::handle labels, py::handle drop_inputs,
                                    py::handle mask_inputs) {
  if (py::isinstance<DecisionLog>(log)) {
    if (!labels.is_none() || !drop_inputs.is_none() || !mask_inputs.is_none())
      throw py::type_error(messages::py_log_options_with_log());
    return log.cast<std::shared_ptr<DecisionLog>>();
  }
  return open_log(log, labels, drop_inputs, mask_inputs);
}

py::object decision_record(const Decision& decision) {
  return py::module_::import("json").attr("loads")(py::str(decisions::record_line(decision)));
}

}  // namespace

RuleSet with_log_argument(const RuleSet& rules, py::handle decision_log) {
  if (decision_log.is_none()) return with_environment_log(rules);
  if (decision_log.ptr() == Py_False) return rules;
  return rules.with_decision_sink(log_of(decision_log, py::none(), py::none(), py::none()));
}

void bind_decisions(py::module_& m, py::class_<RuleSet>& rule_set, InputsOf inputs_of) {
  // $SNNPLAN_DECISION_LOG opened from Python reports a failed write as a warning too.
  DecisionLog::set_environment_failure_report(&warn_write_failure);
  py::class_<DecisionLog, std::shared_ptr<DecisionLog>>(
      m, "DecisionLog",
      "DecisionLog(path, *, labels=None, drop_inputs=None, mask_inputs=None)\n--\n\n"
      "A decision log: one JSON line per decision (the record `snnplan schema decision-log`\n"
      "documents), appended whole to path so that the ranks of a job may share the file;\n"
      "`snnplan replay` re-evaluates it. labels: a dict of str written into every record (host,\n"
      "job, rank); drop_inputs: input names left out; mask_inputs: input names written as\n"
      "'<masked>'. Raises OSError when the file cannot be opened. A write that fails later never\n"
      "fails the decision: it is a RuntimeWarning, once; failed_writes counts them.")
      .def(py::init(&open_log), py::arg("path"), py::kw_only(), py::arg("labels") = py::none(),
           py::arg("drop_inputs") = py::none(), py::arg("mask_inputs") = py::none())
      .def_property_readonly("path", &DecisionLog::path, "The file the log appends to.")
      .def_property_readonly("failed_writes", &DecisionLog::failed_writes,
                             "How many records could not be written.")
      .def("__repr__", [](const DecisionLog& log) {
        return "<snnplan.DecisionLog " + py::repr(py::str(log.path())).cast<std::string>() + ">";
      });

  rule_set
      .def(
          "decide",
          [inputs_of](const RuleSet& rules, const py::kwargs& kwargs) {
            const Inputs inputs = inputs_of(kwargs);
            std::optional<Decision> decision;
            {
              const py::gil_scoped_release unlocked;
              decision = rules.decide(inputs);
            }
            return decision_record(*decision);
          },
          "decide(self, /, **inputs)\n--\n\n"
          "evaluate() with the answer's provenance: a dict, the record a decision-log line holds\n"
          "(without labels or masking): decision_id, timestamp, rules_sha256 (the revision),\n"
          "rules_file, builtin, inputs, answer (the record, or None), error (None, or {'kind':\n"
          "'rule_error' | 'bad_input', 'message': ...}), rules (the fired rules as 'table/rule')\n"
          "and eval_us. Refusals are the decision's error, not an exception; a TypeError only\n"
          "for inputs of a Python type the rules cannot take. An observed rule set also logs it.")
      .def(
          "with_decision_log",
          [](const RuleSet& rules, py::handle log, py::handle labels, py::handle drop_inputs,
             py::handle mask_inputs) {
            return rules.with_decision_sink(log_of(log, labels, drop_inputs, mask_inputs));
          },
          py::arg("log"), py::kw_only(), py::arg("labels") = py::none(),
          py::arg("drop_inputs") = py::none(), py::arg("mask_inputs") = py::none(),
          "with_decision_log(self, log, *, labels=None, drop_inputs=None, mask_inputs=None)\n--\n\n"
          "These rules, recording every decision -- of evaluate(), decide(), plan(rules=...) and\n"
          "recommend_snn_distributed_strategy(rules=...) -- in log: a DecisionLog, or a path to\n"
          "open one at with the options (see DecisionLog). Replaces any log the rules have.")
      .def(
          "with_shadow",
          [](const RuleSet& rules, const RuleSet& candidate, py::handle log, py::handle labels,
             py::handle drop_inputs, py::handle mask_inputs) {
            return rules.with_shadow(candidate, log_of(log, labels, drop_inputs, mask_inputs));
          },
          py::arg("candidate"), py::arg("log"), py::kw_only(), py::arg("labels") = py::none(),
          py::arg("drop_inputs") = py::none(), py::arg("mask_inputs") = py::none(),
          "with_shadow(self, candidate, log, *, labels=None, drop_inputs=None, mask_inputs=None)\n"
          "--\n\n"
          "Shadow mode: these rules, answering as before -- always their answer -- and also\n"
          "evaluating candidate (a RuleSet) for the same inputs; every decision on which the two\n"
          "disagree is recorded in log (a DecisionLog or a path) with the candidate's answer under\n"
          "'shadow'. A log these rules have goes on recording every decision.")
      .def_property_readonly("observed", &RuleSet::observed,
                             "Whether decisions are recorded (a decision log or shadow mode).");
}

}  // namespace snnplan::python
