// The Python module `snnplan`: the rule engine for Python launchers.
//
//   import snnplan
//   rec = snnplan.recommend_snn_distributed_strategy("spikformer", 8, "memory", 64)
//   rec.mode, rec.mesh_shape            # 'fsdp2_tp', (4, 2)
//
// recommend_snn_distributed_strategy() is a drop-in for the reference Python function: same
// parameters, a frozen dataclass with the same 16 fields (so dataclasses.asdict/replace work),
// ValueError with the same messages. The value classes and the exception are plain Python
// classes (defined below in kPythonPart); the work is done by the C++ library with the GIL
// released, so evaluations in several Python threads run in parallel.

#include <pybind11/eval.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "snnplan/diagnostic.hpp"
#include "snnplan/microbatches.hpp"
#include "snnplan/recommendation.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/version.hpp"

namespace py = pybind11;

namespace {

// Executed in the module's namespace at import: the value types and the load exception.
constexpr const char* kPythonPart = R"PY(
import dataclasses as _dataclasses
from typing import Optional as _Optional, Tuple as _Tuple


@_dataclasses.dataclass(frozen=True)
class SNNDistributedRecommendation:
    """A recommended distributed strategy: the reference's record, field for field."""
    prefer: str
    model: str
    world_size: int
    mode: str
    optimizer_sharding: str = "none"
    memopt_level: int = 0
    mesh_shape: _Optional[_Tuple[int, ...]] = None
    tp_mesh_dim: int = 0
    dp_mesh_dim: _Optional[int] = None
    pp_microbatches: _Optional[int] = None
    pp_memopt_stage_budget_ratio: float = 0.5
    pp_schedule: str = "1f1b"
    pp_virtual_stages: int = 1
    pp_layout: _Optional[_Tuple[int, ...]] = None
    pp_delay_wgrad: bool = False
    rationale: _Tuple[str, ...] = ()


@_dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One problem found in a rule file. line and column count from 1; 0 means unknown."""
    severity: str  # "error", "warning" or "note"
    file: str
    line: int
    column: int
    code: str      # stable kebab-case identifier, e.g. "unknown-key"
    message: str

    def __str__(self):
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        return f"{where}: {self.severity}: {self.message}"


@_dataclasses.dataclass(frozen=True)
class InputInfo:
    """An input a rule file declares: its name, type ("int", "string", ...) and whether it is required."""
    name: str
    type: str
    required: bool


class RuleLoadError(ValueError):
    """A rule file could not be loaded. str() is "file:line:column: message" for the first
    error; .file, .line, .column and .message describe it (line/column 0 when unknown) and
    .diagnostics lists every Diagnostic found (errors and warnings)."""

    def __init__(self, text, diagnostics=()):
        super().__init__(text)
        self.diagnostics = list(diagnostics)
        first = next((d for d in self.diagnostics if d.severity == "error"),
                     self.diagnostics[0] if self.diagnostics else None)
        self.file = first.file if first else ""
        self.line = first.line if first else 0
        self.column = first.column if first else 0
        self.message = first.message if first else text

    def __reduce__(self):
        return (type(self), (self.args[0], self.diagnostics))
)PY";

// Borrowed forever: the classes live as long as the module (deliberately never released, so
// nothing runs at interpreter shutdown).
struct Classes {
  PyObject* recommendation = nullptr;
  PyObject* diagnostic = nullptr;
  PyObject* input_info = nullptr;
  PyObject* load_error = nullptr;
};
Classes classes;

py::object cls(PyObject* c) { return py::reinterpret_borrow<py::object>(c); }

// ---- Python -> C++ ---------------------------------------------------------------------

std::string type_name(py::handle obj) { return Py_TYPE(obj.ptr())->tp_name; }

std::string as_string(py::handle obj, const char* what) {
  if (!PyUnicode_Check(obj.ptr())) throw py::type_error(std::string(what) + " must be str, not " + type_name(obj));
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
  if (!data) throw py::error_already_set();  // e.g. lone surrogates (UnicodeEncodeError)
  return std::string(data, static_cast<std::size_t>(size));
}

// Python ints (bool included, as in Python) within 64 bits; larger ones are a ValueError.
std::int64_t as_int64(py::handle obj, const std::string& what) {
  if (!PyLong_Check(obj.ptr())) throw py::type_error(what + " must be int, not " + type_name(obj));
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (overflow != 0) {
    throw py::value_error(what + " = " + py::str(obj).cast<std::string>() +
                          " does not fit in a 64-bit integer");
  }
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<std::int64_t>(v);
}

// The reference treats its flags by truth value; None means "the rule file's default".
std::optional<bool> as_flag(py::handle obj) {
  if (obj.is_none()) return std::nullopt;
  const int truth = PyObject_IsTrue(obj.ptr());
  if (truth < 0) throw py::error_already_set();
  return truth != 0;
}

snnplan::Value as_value(py::handle obj, const std::string& name) {
  if (obj.is_none()) return snnplan::Value();
  if (PyBool_Check(obj.ptr())) return snnplan::Value(obj.ptr() == Py_True);
  if (PyLong_Check(obj.ptr())) return snnplan::Value(as_int64(obj, "input '" + name + "'"));
  if (PyFloat_Check(obj.ptr())) return snnplan::Value(PyFloat_AsDouble(obj.ptr()));
  if (PyUnicode_Check(obj.ptr())) return snnplan::Value(as_string(obj, ("input '" + name + "'").c_str()));
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    snnplan::Value::List items;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(obj)) items.push_back(as_value(item, name));
    return snnplan::Value(std::move(items));
  }
  throw py::type_error("input '" + name + "' must be str, int, float, bool, None or a list of those, not " +
                       type_name(obj));
}

// ---- C++ -> Python ---------------------------------------------------------------------

py::str to_str(const std::string& s) {
  // Rule output is built from valid UTF-8; "replace" only guards against surprises.
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

py::object to_python(const snnplan::Value& v) {
  struct Visitor {
    py::object operator()(std::monostate) const { return py::none(); }
    py::object operator()(bool b) const { return py::bool_(b); }
    py::object operator()(std::int64_t i) const { return py::int_(i); }
    py::object operator()(double f) const { return py::float_(f); }
    py::object operator()(const std::string& s) const { return to_str(s); }
    py::object operator()(const snnplan::Value::List& list) const {
      py::list out(list.size());
      for (std::size_t k = 0; k < list.size(); ++k) out[k] = to_python(list[k]);
      return out;
    }
  };
  return std::visit(Visitor{}, v.storage());
}

py::object int_tuple(const std::optional<std::vector<std::int64_t>>& v) {
  if (!v) return py::none();
  py::tuple out(v->size());
  for (std::size_t k = 0; k < v->size(); ++k) out[k] = py::int_((*v)[k]);
  return out;
}

py::object optional_int(const std::optional<std::int64_t>& v) {
  return v ? py::object(py::int_(*v)) : py::object(py::none());
}

py::object to_python(const snnplan::Recommendation& r) {
  py::tuple rationale(r.rationale.size());
  for (std::size_t k = 0; k < r.rationale.size(); ++k) rationale[k] = to_str(r.rationale[k]);
  py::dict fields;
  fields["prefer"] = to_str(r.prefer);
  fields["model"] = to_str(r.model);
  fields["world_size"] = py::int_(r.world_size);
  fields["mode"] = to_str(r.mode);
  fields["optimizer_sharding"] = to_str(r.optimizer_sharding);
  fields["memopt_level"] = py::int_(r.memopt_level);
  fields["mesh_shape"] = int_tuple(r.mesh_shape);
  fields["tp_mesh_dim"] = py::int_(r.tp_mesh_dim);
  fields["dp_mesh_dim"] = optional_int(r.dp_mesh_dim);
  fields["pp_microbatches"] = optional_int(r.pp_microbatches);
  fields["pp_memopt_stage_budget_ratio"] = py::float_(r.pp_memopt_stage_budget_ratio);
  fields["pp_schedule"] = to_str(r.pp_schedule);
  fields["pp_virtual_stages"] = py::int_(r.pp_virtual_stages);
  fields["pp_layout"] = int_tuple(r.pp_layout);
  fields["pp_delay_wgrad"] = py::bool_(r.pp_delay_wgrad);
  fields["rationale"] = std::move(rationale);
  return cls(classes.recommendation)(**fields);
}

const char* severity_name(snnplan::Severity s) {
  switch (s) {
    case snnplan::Severity::note: return "note";
    case snnplan::Severity::warning: return "warning";
    case snnplan::Severity::error: return "error";
  }
  return "error";
}

py::object to_python(const snnplan::Diagnostic& d) {
  return cls(classes.diagnostic)(severity_name(d.severity), to_str(d.location.file), d.location.line,
                                 d.location.column, to_str(d.code), to_str(d.message));
}

py::list diagnostics_list(const std::vector<snnplan::Diagnostic>& diagnostics) {
  py::list out;
  for (const auto& d : diagnostics) out.append(to_python(d));
  return out;
}

// Turns the library's exceptions into Python ones (registered with pybind11 below).
void translate_exception(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const snnplan::LoadError& e) {
    try {
      py::object error = cls(classes.load_error)(to_str(e.what()), diagnostics_list(e.diagnostics()));
      PyErr_SetObject(classes.load_error, error.ptr());
    } catch (py::error_already_set& failure) {
      failure.restore();
    }
  } catch (const snnplan::RuleError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const snnplan::InputError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  }
}

// ---- the functions ---------------------------------------------------------------------

// Rule errors are the reference's ValueError; bad inputs (unknown, missing, wrong type) are
// what Python reports as TypeError. The message keeps any NUL characters it holds.
[[noreturn]] void raise_evaluation_error(const snnplan::EvaluationError& error) {
  PyObject* type = error.kind == snnplan::EvaluationErrorKind::rule_error ? PyExc_ValueError : PyExc_TypeError;
  PyErr_SetObject(type, to_str(error.message).ptr());
  throw py::error_already_set();
}

py::object recommend(py::handle model, py::handle world_size, py::handle prefer, py::handle batch_size,
                     py::handle backend, py::handle zero, py::handle pipelining, py::handle fsdp2,
                     py::handle tensor_parallel, py::handle rules) {
  const std::string model_s = as_string(model, "model");
  const std::int64_t world = as_int64(world_size, "world_size");
  // The reference's first step is prefer.lower(): done here with Python's own str.lower() so
  // every Unicode special case (final sigma, dotted I, ...) matches it exactly.
  if (!PyUnicode_Check(prefer.ptr())) throw py::type_error("prefer must be str, not " + type_name(prefer));
  const std::string prefer_s = as_string(prefer.attr("lower")(), "prefer");
  const std::int64_t batch = as_int64(batch_size, "batch_size");
  const std::string backend_s = as_string(backend, "backend");
  auto flag = [](py::handle f) {
    const std::optional<bool> b = as_flag(f);
    return b ? snnplan::Value(*b) : snnplan::Value();  // null: the rule file's default
  };
  const snnplan::RuleSet* rule_set = nullptr;
  if (!rules.is_none()) {
    if (!py::isinstance<snnplan::RuleSet>(rules)) throw py::type_error("rules must be a snnplan.RuleSet or None, not " + type_name(rules));
    rule_set = &rules.cast<const snnplan::RuleSet&>();
  }
  // What snnplan::recommend() does, but keeping the error message as a std::string: a
  // message may hold NUL characters (from the inputs), which what() would cut off.
  const snnplan::Inputs inputs = {
      {"model", model_s},
      {"world_size", world},
      {"prefer", prefer_s},
      {"batch_size", batch},
      {"backend", backend_s},
      {"zero_redundancy_optimizer_available", flag(zero)},
      {"pipelining_available", flag(pipelining)},
      {"fsdp2_available", flag(fsdp2)},
      {"tensor_parallel_available", flag(tensor_parallel)},
  };
  std::optional<snnplan::EvaluationResult> result;
  std::optional<snnplan::Recommendation> recommendation;
  {
    py::gil_scoped_release unlocked;
    result = (rule_set ? *rule_set : snnplan::RuleSet::builtin()).evaluate(inputs);
    if (result->ok()) recommendation = snnplan::to_recommendation(result->record());
  }
  if (!result->ok()) raise_evaluation_error(result->error());
  return to_python(*recommendation);
}

std::int64_t microbatches(py::handle batch_size, py::handle num_stages) {
  const std::int64_t batch = as_int64(batch_size, "batch_size");
  const std::int64_t stages = as_int64(num_stages, "num_stages");
  std::variant<std::int64_t, std::string> result;
  {
    py::gil_scoped_release unlocked;  // up to ~1.5 * sqrt(batch_size) steps
    result = snnplan::pipeline_microbatches(batch, stages);
  }
  if (auto* error = std::get_if<std::string>(&result)) throw py::value_error(*error);
  return std::get<std::int64_t>(result);
}

snnplan::RuleSet from_file(py::handle path) {
  const std::string p = as_string(py::module_::import("os").attr("fsdecode")(path), "path");
  py::gil_scoped_release unlocked;
  return snnplan::RuleSet::from_file(p);
}

snnplan::RuleSet from_string(py::handle text, py::handle name) {
  const std::string t = as_string(text, "text");
  std::string n = as_string(name, "name");
  py::gil_scoped_release unlocked;
  return snnplan::RuleSet::from_string(t, std::move(n));
}

py::dict evaluate(const snnplan::RuleSet& rules, const py::kwargs& kwargs) {
  snnplan::Inputs inputs;
  inputs.reserve(kwargs.size());
  for (auto [key, value] : kwargs) {
    std::string name = key.cast<std::string>();
    snnplan::Value v = as_value(value, name);
    inputs.emplace_back(std::move(name), std::move(v));
  }
  std::optional<snnplan::EvaluationResult> result;
  {
    py::gil_scoped_release unlocked;
    result = rules.evaluate(inputs);
  }
  if (!result->ok()) raise_evaluation_error(result->error());
  const snnplan::Record& record = result->record();
  py::dict out;
  for (std::size_t k = 0; k < record.names().size(); ++k) out[to_str(record.names()[k])] = to_python(record.values()[k]);
  return out;
}

py::list input_infos(const snnplan::RuleSet& rules) {
  py::list out;
  for (const auto& info : rules.inputs())
    out.append(cls(classes.input_info)(to_str(info.name), to_str(info.type), info.required));
  return out;
}

}  // namespace

PYBIND11_MODULE(snnplan, m) {
  py::options options;
  options.disable_function_signatures();  // each docstring starts with a signature inspect reads

  m.doc() = "snnplan: which parallel strategy to train a spiking neural network with, from rule tables.";
  m.attr("__version__") = snnplan::version;
  m.attr("RULE_FORMAT_VERSION") = snnplan::rule_format_version;
  py::exec(kPythonPart, m.attr("__dict__"));
  classes.recommendation = m.attr("SNNDistributedRecommendation").ptr();
  classes.diagnostic = m.attr("Diagnostic").ptr();
  classes.input_info = m.attr("InputInfo").ptr();
  classes.load_error = m.attr("RuleLoadError").ptr();
  for (PyObject* c : {classes.recommendation, classes.diagnostic, classes.input_info, classes.load_error}) Py_INCREF(c);
  py::register_exception_translator(&translate_exception);

  py::class_<snnplan::RuleSet>(m, "RuleSet",
                               "An immutable, checked and compiled rule file. evaluate() may be called from "
                               "many threads at once (it releases the GIL).")
      .def_static("from_file", &from_file, py::arg("path"),
                  "from_file(path)\n--\n\n"
                  "Loads, checks and compiles the rule file at path (str or os.PathLike).\n"
                  "Raises RuleLoadError (a ValueError) with the position of the first error.")
      .def_static("from_string", &from_string, py::arg("text"), py::arg("name") = "<string>",
                  "from_string(text, name='<string>')\n--\n\n"
                  "Same as from_file for rule-file text; name is used in diagnostics.")
      .def_static("builtin", [] { return snnplan::RuleSet::builtin(); },
                  "builtin()\n--\n\nThe default rules (rules/snn_distributed.yaml, compiled in).")
      .def("evaluate", &evaluate,
           "evaluate(self, /, **inputs)\n--\n\n"
           "Evaluates the rules for the given inputs and returns the record as a dict, fields in\n"
           "the rule file's order (lists as lists, None for null). Inputs left out or None take\n"
           "the rule file's defaults.\n\n"
           "Raises ValueError when the rules refuse the inputs (the message the rule file gives,\n"
           "e.g. an unsupported prefer); TypeError when an input is unknown, missing or of the\n"
           "wrong type; ValueError when an int does not fit in 64 bits.")
      .def_property_readonly("file_name", &snnplan::RuleSet::file_name, "The name the rules were loaded under.")
      .def_property_readonly("inputs", &input_infos, "The declared inputs, as a list of InputInfo.")
      .def_property_readonly("warnings", [](const snnplan::RuleSet& r) { return diagnostics_list(r.warnings()); },
                             "Warnings found while loading, as a list of Diagnostic.")
      .def("__repr__", [](const snnplan::RuleSet& r) {
        return "<snnplan.RuleSet " + py::repr(to_str(r.file_name())).cast<std::string>() + ">";
      });

  m.def("recommend_snn_distributed_strategy", &recommend, py::arg("model"), py::arg("world_size"),
        py::arg("prefer"), py::arg("batch_size"), py::arg("backend") = "inductor",
        py::arg("zero_redundancy_optimizer_available") = py::none(), py::arg("pipelining_available") = py::none(),
        py::arg("fsdp2_available") = py::none(), py::arg("tensor_parallel_available") = py::none(), py::kw_only(),
        py::arg("rules") = py::none(),
        "recommend_snn_distributed_strategy(model, world_size, prefer, batch_size, backend='inductor', "
        "zero_redundancy_optimizer_available=None, pipelining_available=None, fsdp2_available=None, "
        "tensor_parallel_available=None, *, rules=None)\n--\n\n"
        "Recommends a distributed strategy: a drop-in for the reference function of the same name.\n"
        "Returns a frozen SNNDistributedRecommendation. An availability flag of None takes the rule\n"
        "file's default (available); other values count by truth value. rules selects a RuleSet\n"
        "with the same schema (default: RuleSet.builtin()).\n\n"
        "Raises ValueError with the reference's message (e.g. an unsupported prefer, or a batch\n"
        "that cannot be split into pipeline microbatches); TypeError for arguments of the wrong\n"
        "type (model, prefer and backend are str; world_size and batch_size are int); ValueError\n"
        "for ints that do not fit in 64 bits.");

  m.def("recommended_pipeline_microbatches", &microbatches, py::arg("batch_size"), py::arg("num_stages"),
        "recommended_pipeline_microbatches(batch_size, num_stages)\n--\n\n"
        "The largest microbatch count m with num_stages <= m <= min(batch_size, 4 * num_stages)\n"
        "that divides batch_size. Raises ValueError with the reference's message when there is\n"
        "none or an argument is not positive; TypeError for non-int arguments.");

  m.attr("__all__") = py::make_tuple("recommend_snn_distributed_strategy", "recommended_pipeline_microbatches",
                                     "RuleSet", "RuleLoadError", "SNNDistributedRecommendation", "Diagnostic",
                                     "InputInfo");
}
