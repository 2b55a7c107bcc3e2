// The compiled part of the Python package `snnplan` (python/snnplan/): the extension
// snnplan._snnplan. The package's __init__.py re-exports its functions and RuleSet beside the
// value classes of snnplan/_types.py, which this module builds its results from. The work is
// done by the C++ library with the GIL released, so evaluations in several Python threads run
// in parallel.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "api/request_inputs.hpp"
#include "api/rule_set_access.hpp"
#include "frontends/cli/app.hpp"
#include "frontends/cli/interrupt.hpp"
#include "frontends/cli/lines.hpp"
#include "frontends/cli/output.hpp"
#include "messages.hpp"
#include "decision_bindings.hpp"
#include "drop_in.hpp"
#include "request/plan_request.hpp"
#include "snnplan/decision_log.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/microbatches.hpp"
#include "snnplan/plan.hpp"
#include "snnplan/recommendation.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/rule_tests.hpp"
#include "snnplan/version.hpp"

namespace py = pybind11;

namespace {

// Borrowed forever: the classes live as long as the module (deliberately never released, so
// nothing runs at interpreter shutdown).
struct Classes {
  PyObject* diagnostic = nullptr;
  PyObject* input_info = nullptr;
  PyObject* load_error = nullptr;
  PyObject* plan = nullptr;
  PyObject* topology = nullptr;
  PyObject* feature_set = nullptr;
};
Classes classes;

py::object cls(PyObject* c) {
  return py::reinterpret_borrow<py::object>(c);
}

// ---- Python -> C++ ---------------------------------------------------------------------

std::string type_name(py::handle obj) {
  return Py_TYPE(obj.ptr())->tp_name;
}

[[noreturn]] void wrong_type(std::string_view what, std::string_view expected, py::handle got) {
  throw py::type_error(snnplan::messages::py_wrong_type(what, expected, type_name(got)));
}

std::string as_string(py::handle obj, const char* what) {
  if (!PyUnicode_Check(obj.ptr())) wrong_type(what, "str", obj);
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
  if (!data) throw py::error_already_set();  // e.g. lone surrogates (UnicodeEncodeError)
  return std::string(data, static_cast<std::size_t>(size));
}

// Python ints (bool included, as in Python) within 64 bits; larger ones are a ValueError.
std::int64_t as_int64(py::handle obj, const std::string& what) {
  if (!PyLong_Check(obj.ptr())) wrong_type(what, "int", obj);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (overflow != 0)
    throw py::value_error(
        snnplan::messages::py_int_too_large(what, py::str(obj).cast<std::string>()));
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<std::int64_t>(v);
}

snnplan::Value as_value(py::handle obj, const std::string& name) {
  if (obj.is_none()) return snnplan::Value();
  if (PyBool_Check(obj.ptr())) return snnplan::Value(obj.ptr() == Py_True);
  // An int or a str read at once; the words "input 'NAME'" are made only for a refusal (they
  // cost more than the reading, and an evaluation may take dozens of inputs).
  if (PyLong_Check(obj.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (overflow == 0 && !(v == -1 && PyErr_Occurred())) return snnplan::Value(static_cast<std::int64_t>(v));
    PyErr_Clear();
    return snnplan::Value(as_int64(obj, "input '" + name + "'"));
  }
  if (PyFloat_Check(obj.ptr())) return snnplan::Value(PyFloat_AsDouble(obj.ptr()));
  if (PyUnicode_Check(obj.ptr())) {
    Py_ssize_t size = 0;
    if (const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size))
      return snnplan::Value(std::string(data, static_cast<std::size_t>(size)));
    PyErr_Clear();
    return snnplan::Value(as_string(obj, ("input '" + name + "'").c_str()));
  }
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    snnplan::Value::List items;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(obj))
      items.push_back(as_value(item, name));
    return snnplan::Value(std::move(items));
  }
  wrong_type("input '" + name + "'", "str, int, float, bool, None or a list of those", obj);
}

// ---- C++ -> Python ---------------------------------------------------------------------

py::str to_str(std::string_view s) {
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

// A field of an evaluation into views, as to_python(Value) gives the same value.
py::object to_python(const snnplan::ValueView& v) {
  switch (v.kind()) {
    case snnplan::ValueView::Kind::null: return py::none();
    case snnplan::ValueView::Kind::boolean: return py::bool_(v.as_bool());
    case snnplan::ValueView::Kind::integer: return py::int_(v.as_int());
    case snnplan::ValueView::Kind::floating: return py::float_(v.as_float());
    case snnplan::ValueView::Kind::string: return to_str(v.as_string());
    case snnplan::ValueView::Kind::list: {
      const auto items = v.as_list();
      py::list out(items.size());
      for (std::size_t k = 0; k < items.size(); ++k) out[k] = to_python(items[k]);
      return out;
    }
  }
  return py::none();
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

py::object to_python(const snnplan::Diagnostic& d) {
  return cls(classes.diagnostic)(snnplan::to_string(d.severity), to_str(d.location.file),
                                 d.location.line, d.location.column, to_str(d.code),
                                 to_str(d.message));
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
      py::object error =
          cls(classes.load_error)(to_str(e.what()), diagnostics_list(e.diagnostics()));
      PyErr_SetObject(classes.load_error, error.ptr());
    } catch (py::error_already_set& failure) {
      failure.restore();
    }
  } catch (const snnplan::TestFileError& e) {  // a test file that cannot be read
    PyErr_SetString(PyExc_OSError, e.what());
  } catch (const snnplan::PlanInputError& e) {  // upstream's own exception class
    PyErr_SetString(e.python() == snnplan::PlanInputError::Python::type_error ? PyExc_TypeError
                                                                              : PyExc_ValueError,
                    e.what());
  } catch (const snnplan::RuleError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const snnplan::InputError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  }
}

// ---- the functions ---------------------------------------------------------------------

const snnplan::RuleSet& default_plan_rules() {
  static const snnplan::RuleSet rules = snnplan::with_environment_log(snnplan::plan_rules());
  return rules;
}

// The `rules=` argument: a RuleSet, or None for `fallback`.
const snnplan::RuleSet& rules_or(py::handle rules, const snnplan::RuleSet& fallback) {
  if (rules.is_none()) return fallback;
  if (!py::isinstance<snnplan::RuleSet>(rules))
    wrong_type("rules", "a snnplan.RuleSet or None", rules);
  return rules.cast<const snnplan::RuleSet&>();
}

// Rule errors are the reference's ValueError; bad inputs (unknown, missing, wrong type) are
// what Python reports as TypeError. The message keeps any NUL characters it holds.
[[noreturn]] void raise_evaluation_error(const snnplan::EvaluationError& error) {
  PyObject* type =
      error.kind == snnplan::EvaluationErrorKind::rule_error ? PyExc_ValueError : PyExc_TypeError;
  PyErr_SetObject(type, to_str(error.message).ptr());
  throw py::error_already_set();
}

snnplan::RuleSet from_file(py::handle path, py::handle rule_roots, py::handle decision_log) {
  py::object fsdecode = py::module_::import("os").attr("fsdecode");
  const std::string p = as_string(fsdecode(path), "path");
  snnplan::LoadOptions options;
  if (!rule_roots.is_none())
    for (py::handle root : py::iter(rule_roots))
      options.rule_roots.push_back(as_string(fsdecode(root), "rule_roots"));
  std::optional<snnplan::RuleSet> rules;
  {
    py::gil_scoped_release unlocked;
    rules = snnplan::RuleSet::from_file(p, options);
  }
  return snnplan::python::with_log_argument(*rules, decision_log);
}

snnplan::RuleSet from_string(py::handle text, py::handle name, py::handle decision_log) {
  const std::string t = as_string(text, "text");
  std::string n = as_string(name, "name");
  std::optional<snnplan::RuleSet> rules;
  {
    py::gil_scoped_release unlocked;
    rules = snnplan::RuleSet::from_string(t, std::move(n));
  }
  return snnplan::python::with_log_argument(*rules, decision_log);
}

// RuleSet.builtin(name): the CLI's built-in files (rules/NAME), as `plan-training` and
// `replay` reach them.
snnplan::RuleSet builtin(py::handle name, py::handle decision_log) {
  if (name.is_none())
    return snnplan::python::with_log_argument(snnplan::RuleSet::builtin(), decision_log);
  const std::string file = as_string(name, "name");
  std::vector<std::string_view> files;
  for (const auto& file_and_sha256 : snnplan::RuleSet::builtin_sha256()) files.push_back(file_and_sha256.first);
  if (std::find(files.begin(), files.end(), file) == files.end())
    throw py::value_error(snnplan::messages::py_unknown_builtin(file, files));
  return snnplan::python::with_log_argument(snnplan::RuleSetAccess::builtin(file), decision_log);
}

snnplan::Inputs inputs_of(const py::kwargs& kwargs) {
  snnplan::Inputs inputs;
  inputs.reserve(kwargs.size());
  for (auto [key, value] : kwargs) {
    // A keyword is a str (Python checks): its UTF-8 read directly, not through a caster.
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(key.ptr(), &size);
    if (!data) throw py::error_already_set();
    std::string name(data, static_cast<std::size_t>(size));
    snnplan::Value v = as_value(value, name);
    inputs.emplace_back(std::move(name), std::move(v));
  }
  return inputs;
}

// An Evaluation lent to one call from those this thread keeps: reused, its store keeps the
// chunks a large evaluation grew (a 4096-GPU planning search's columns), which a new one per
// call would allocate and fault in again each time (+22 us a call). Lent, not the thread's
// own: building a result dict may run Python code (a collection's finalizers) that evaluates
// again on this thread, and that call is lent another.
class LentEvaluation {
 public:
  LentEvaluation() {
    auto& kept = kept_here();
    if (kept.empty()) {
      evaluation_ = std::make_unique<snnplan::Evaluation>();
    } else {
      evaluation_ = std::move(kept.back());
      kept.pop_back();
    }
  }
  ~LentEvaluation() {
    auto& kept = kept_here();
    if (kept.size() < kKept) kept.push_back(std::move(evaluation_));  // room reserved: no throw
  }
  LentEvaluation(const LentEvaluation&) = delete;
  LentEvaluation& operator=(const LentEvaluation&) = delete;
  snnplan::Evaluation& operator*() const { return *evaluation_; }

 private:
  static constexpr std::size_t kKept = 4;  // nested calls deeper than this get a new one
  static std::vector<std::unique_ptr<snnplan::Evaluation>>& kept_here() {
    thread_local std::vector<std::unique_ptr<snnplan::Evaluation>> kept = [] {
      std::vector<std::unique_ptr<snnplan::Evaluation>> v;
      v.reserve(kKept);
      return v;
    }();
    return kept;
  }
  std::unique_ptr<snnplan::Evaluation> evaluation_;
};

py::dict evaluate(const snnplan::RuleSet& rules, const py::kwargs& kwargs) {
  const snnplan::Inputs inputs = inputs_of(kwargs);
  // Into views: no record of its own is built only to be copied into the dict.
  const LentEvaluation lent;
  snnplan::Evaluation& evaluation = *lent;
  {
    py::gil_scoped_release unlocked;
    (void)rules.evaluate(inputs, evaluation);
  }
  if (!evaluation.ok()) raise_evaluation_error(evaluation.error());
  const auto names = evaluation.names();
  const auto values = evaluation.values();
  py::dict out;
  for (std::size_t k = 0; k < names.size(); ++k) out[to_str(names[k])] = to_python(values[k]);
  return out;
}

py::list input_infos(const snnplan::RuleSet& rules) {
  py::list out;
  for (const auto& info : rules.inputs()) {
    py::tuple one_of(info.one_of.size());
    for (std::size_t k = 0; k < info.one_of.size(); ++k) one_of[k] = to_python(info.one_of[k]);
    out.append(cls(classes.input_info)(to_str(info.name), to_str(info.type), info.required,
                                       info.default_value ? to_python(*info.default_value) : py::none(),
                                       one_of, to_str(info.description)));
  }
  return out;
}

// ---- plan() ----------------------------------------------------------------------------
// Keyword arguments named like the keys of a `snnplan plan --batch` line (and the CLI's
// flags), so plan(**json.loads(line)) works. None means "the default", as null does there.
// Values the C++ side checks (topology, feature names, the rules' refusals) raise ValueError
// with the CLI's message; arguments of the wrong Python type raise TypeError.

bool is_mapping(py::handle obj) {
  return PyDict_Check(obj.ptr()) ||
         py::isinstance(obj, py::module_::import("collections.abc").attr("Mapping"));
}

// A list or tuple of str (a bare str is refused: it would be read as its characters).
std::optional<std::vector<std::string>> optional_strings(py::handle obj, const char* what) {
  if (obj.is_none()) return std::nullopt;
  if (!PyList_Check(obj.ptr()) && !PyTuple_Check(obj.ptr()))
    wrong_type(what, "a list or tuple of str", obj);
  std::vector<std::string> out;
  for (py::handle item : py::reinterpret_borrow<py::sequence>(obj))
    out.push_back(as_string(item, what));
  return out;
}

std::optional<bool> optional_bool(py::handle obj, const char* what) {
  if (obj.is_none()) return std::nullopt;
  if (!PyBool_Check(obj.ptr())) wrong_type(what, "bool", obj);
  return obj.ptr() == Py_True;
}

// A topology size or world size as Topology::from_mapping reads it, which words the refusals
// (upstream's TypeErrors, naming the Python type). An int beyond 64 bits is read as the
// nearest float, as the JSON form reads one.
snnplan::Value topology_value(py::handle obj) {
  if (obj.is_none()) return snnplan::Value();
  if (PyBool_Check(obj.ptr())) return snnplan::Value(obj.ptr() == Py_True);
  if (PyLong_Check(obj.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (overflow == 0) return snnplan::Value(static_cast<std::int64_t>(v));
    return snnplan::Value(PyLong_AsDouble(obj.ptr()));
  }
  if (PyFloat_Check(obj.ptr())) return snnplan::Value(PyFloat_AsDouble(obj.ptr()));
  if (PyUnicode_Check(obj.ptr())) return snnplan::Value(as_string(obj, "a topology size"));
  return snnplan::Value(snnplan::Value::List{});  // refused by from_mapping as a non-integer
}

// "dp=4,tp=2" as `--topology` reads it, or a mapping of sizes as the JSON line's "topology".
snnplan::TopologyMapping topology_mapping(py::handle topology) {
  try {
    if (PyUnicode_Check(topology.ptr()))
      return snnplan::Topology::parse_mapping(as_string(topology, "topology"));
  } catch (const snnplan::InputError& e) {
    throw py::value_error(e.what());
  }
  if (!is_mapping(topology))
    wrong_type("topology", "a str such as 'dp=4,tp=2' or a dict of dimension sizes", topology);
  snnplan::TopologyMapping dims;
  for (py::handle item : topology.attr("items")()) {
    const auto pair = py::reinterpret_borrow<py::tuple>(item);
    dims.emplace_back(as_string(pair[0], "a topology dimension name"), topology_value(pair[1]));
  }
  return dims;
}

// A dict (or other mapping) of feature flags, or a DistributedFeatureSet (its fields).
snnplan::FeatureFlags features_of(py::handle features) {
  snnplan::FeatureFlags out;
  if (features.is_none()) return out;
  if (py::isinstance(features, cls(classes.feature_set))) {
    for (py::handle field : py::module_::import("dataclasses").attr("fields")(features)) {
      const std::string name = as_string(field.attr("name"), "a feature name");
      out.emplace_back(name, py::cast<bool>(features.attr(name.c_str())));
    }
    return out;
  }
  if (!is_mapping(features))
    wrong_type("features", "a dict of feature flags or a DistributedFeatureSet", features);
  for (py::handle item : features.attr("items")()) {
    const auto pair = py::reinterpret_borrow<py::tuple>(item);
    const std::string name = as_string(pair[0], "a feature name");
    if (!PyBool_Check(pair[1].ptr())) wrong_type("feature '" + name + "'", "bool", pair[1]);
    out.emplace_back(name, pair[1].ptr() == Py_True);
  }
  return out;
}

py::tuple str_tuple(const std::vector<std::string>& items) {
  py::tuple out(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) out[k] = to_str(items[k]);
  return out;
}

py::dict dims_dict(const snnplan::Topology& t) {
  py::dict dims;
  for (const snnplan::Topology::Dimension& d : t.dims()) dims[to_str(d.name)] = py::int_(d.size);
  return dims;
}

py::object to_python(const snnplan::Topology& t) {
  return cls(classes.topology)(py::arg("world_size") = py::int_(t.world_size()),
                               py::arg("dims") = dims_dict(t));
}

// SNNDistributedTopology.__post_init__: the fields checked as upstream checks them; returns
// the ordered dimension names.
py::tuple topology_fields(py::handle world_size, py::handle dims) {
  snnplan::TopologyMapping mapping;
  for (py::handle item : dims.attr("items")()) {
    const auto pair = py::reinterpret_borrow<py::tuple>(item);
    if (!PyUnicode_Check(pair[0].ptr()))
      throw py::type_error(snnplan::messages::topology_name_type(Py_TYPE(pair[0].ptr())->tp_name));
    mapping.emplace_back(as_string(pair[0], "a topology dimension name"), topology_value(pair[1]));
  }
  return str_tuple(
      snnplan::Topology::from_fields(mapping, topology_value(world_size)).ordered_dim_names());
}

// SNNDistributedTopology.from_mapping: (world_size, dims) of the checked topology.
py::tuple topology_from_mapping(py::handle dims, py::handle world_size) {
  const snnplan::Topology t =
      snnplan::Topology::from_mapping(topology_mapping(dims), topology_value(world_size));
  t.require_64_bits();  // its sizes would be stand-ins, which a Python object must not show
  return py::make_tuple(py::int_(t.world_size()), dims_dict(t));
}

py::object to_python(const snnplan::FeatureSet& f) {
  py::dict flags;
  for (const snnplan::FeatureSet::Flag& flag : f.flags())
    flags[to_str(flag.name)] = py::bool_(flag.value);
  return cls(classes.feature_set)(**flags);
}

py::object to_python(const snnplan::Plan& p) {
  py::dict fields;
  fields["mode"] = to_str(p.mode);
  fields["objective"] = to_str(p.objective);
  fields["topology"] = to_python(p.topology);
  fields["model_family"] = to_str(p.model_family);
  fields["backend"] = to_str(p.backend);
  fields["batch_size"] = py::int_(p.batch_size);
  fields["optimizer_strategy"] = to_str(p.optimizer_strategy);
  fields["memopt_level"] = py::int_(p.memopt_level);
  fields["rationale"] = str_tuple(p.rationale);
  fields["notes"] = str_tuple(p.notes);
  fields["tensor_parallel_roots"] = p.tensor_parallel_roots
                                        ? py::object(str_tuple(*p.tensor_parallel_roots))
                                        : py::object(py::none());
  fields["mesh_shape"] = int_tuple(p.mesh_shape);
  fields["tp_mesh_dim"] = py::int_(p.tp_mesh_dim);
  fields["dp_mesh_dim"] = optional_int(p.dp_mesh_dim);
  fields["pp_microbatches"] = optional_int(p.pp_microbatches);
  fields["pp_schedule"] = to_str(p.pp_schedule);
  fields["pp_virtual_stages"] = py::int_(p.pp_virtual_stages);
  fields["pp_layout"] = int_tuple(p.pp_layout);
  fields["pp_delay_wgrad"] = py::bool_(p.pp_delay_wgrad);
  fields["experimental_features"] = to_python(p.experimental_features);
  return cls(classes.plan)(**fields);
}

// plan()'s arguments as a plan request's fields (request/plan_request.hpp reads them in the
// order `snnplan plan --batch` reads a line's keys, so the first problem reported is the same).
class ArgumentFields final : public snnplan::request::PlanFields {
 public:
  explicit ArgumentFields(std::vector<std::pair<std::string_view, py::handle>> arguments)
      : arguments_(std::move(arguments)) {}

  bool given(std::string_view key) override { return !argument(key).is_none(); }
  std::string text(std::string_view key) override {
    return as_string(argument(key), std::string(key).c_str());
  }
  std::vector<std::string> texts(std::string_view key) override {
    return optional_strings(argument(key), std::string(key).c_str())
        .value_or(std::vector<std::string>{});
  }
  std::int64_t integer(std::string_view key) override {
    return as_int64(argument(key), std::string(key));
  }
  bool flag(std::string_view key) override {
    return optional_bool(argument(key), std::string(key).c_str()).value_or(false);
  }
  snnplan::TopologyMapping topology() override { return topology_mapping(argument("topology")); }
  snnplan::Value world_size() override { return topology_value(argument("world_size")); }
  snnplan::FeatureFlags features() override { return features_of(argument("features")); }

 private:
  py::handle argument(std::string_view key) const {
    for (const auto& [name, value] : arguments_)
      if (name == key) return value;
    return py::none();
  }

  std::vector<std::pair<std::string_view, py::handle>> arguments_;
};

py::object plan(py::handle objective, py::handle topology, py::handle batch_size,
                py::handle world_size, py::handle backend, py::handle model_family, py::handle mode,
                py::handle tp_roots, py::handle tp_candidates, py::handle features,
                py::handle notes, py::handle rules) {
  ArgumentFields fields({{"objective", objective},
                         {"topology", topology},
                         {"batch_size", batch_size},
                         {"world_size", world_size},
                         {"backend", backend},
                         {"model_family", model_family},
                         {"mode", mode},
                         {"tp_roots", tp_roots},
                         {"tp_candidates", tp_candidates},
                         {"features", features},
                         {"notes", notes}});
  const snnplan::request::PlanRequest request = snnplan::request::read_plan_request(fields);
  // Without rules=: the built-in plan rules, recording in $SNNPLAN_DECISION_LOG when set (the
  // variable read at the first such call, not before).
  const snnplan::RuleSet& rule_set = rules.is_none() ? default_plan_rules() : rules_or(rules, snnplan::plan_rules());
  std::optional<snnplan::Plan> planned;
  {
    py::gil_scoped_release unlocked;
    planned = snnplan::plan(request.objective, request.topology, request.batch_size,
                            request.options, rule_set);
  }
  return to_python(*planned);
}

// snnplan.run_tests: the report as `snnplan test --format json` writes it, read by Python's
// json module, so the dict and the CLI's JSON cannot differ.
py::object run_tests(py::handle rules, py::handle tests, bool mutate) {
  const snnplan::RuleSet& rule_set = rules_or(rules, snnplan::RuleSet::builtin());
  py::object fsdecode = py::module_::import("os").attr("fsdecode");
  // One path (str, bytes or os.PathLike), or an iterable of them -- not a str's characters.
  const bool one = py::isinstance<py::str>(tests) || py::isinstance<py::bytes>(tests) ||
                   py::hasattr(tests, "__fspath__");
  const py::object all = one ? py::object(py::make_tuple(tests)) : py::reinterpret_borrow<py::object>(tests);
  std::vector<std::string> paths;
  for (py::handle path : py::iter(all)) paths.push_back(as_string(fsdecode(path), "tests"));
  std::string json;
  {
    py::gil_scoped_release unlocked;
    const snnplan::RuleTestReport report =
        snnplan::run_rule_tests(rule_set, paths, snnplan::RuleTestOptions{.mutate = mutate});
    if (!report.problems.empty()) throw snnplan::LoadError(report.problems);
    json = snnplan::to_json(report);
  }
  return py::module_::import("json").attr("loads")(to_str(json));
}

// `python -m snnplan ...`: the command line itself, linked into the extension, so it is the
// same version as the module and needs no program on PATH.
int run_cli(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv = {"snnplan"};
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  py::module_::import("sys").attr("stdout").attr("flush")();
  py::module_::import("sys").attr("stderr").attr("flush")();
  py::gil_scoped_release unlocked;  // it may wait on standard input
  // As the CLI's own main: every write to standard output checked (exit 4 on a full disk or a
  // reader that went away), and SIGINT / SIGTERM stopping a batch at a whole line (130 / 143)
  // -- `python -m snnplan` is the whole process, so taking over its handlers is what is wanted.
  snnplan::cli::interrupt::install();
  snnplan::cli::FdReader stdin_reader(0);
  snnplan::cli::FdWriter stdout_writer(1);
  std::istream in(&stdin_reader);
  std::ostream out(&stdout_writer);
  const int code = snnplan::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, std::cerr);
  std::cerr.flush();
  return code;
}

}  // namespace

PYBIND11_MODULE(_snnplan, m) {
  py::options options;
  options.disable_function_signatures();  // each docstring starts with a signature inspect reads

  m.doc() = "The compiled part of snnplan: use the package (import snnplan), which re-exports it.";
  m.attr("__version__") = snnplan::version;
  m.attr("RULE_FORMAT_VERSION") = snnplan::rule_format_version;
  // The inputs of a recommend request (api/request_inputs.hpp), for snnplan.torch.
  py::tuple recommend_inputs(snnplan::kRecommendInputs.size());
  for (std::size_t k = 0; k < snnplan::kRecommendInputs.size(); ++k)
    recommend_inputs[k] = py::str(std::string(snnplan::kRecommendInputs[k].name));
  m.attr("_RECOMMEND_INPUTS") = recommend_inputs;
  py::tuple probed_inputs(snnplan::kProbedInputs.size());
  for (std::size_t k = 0; k < snnplan::kProbedInputs.size(); ++k)
    probed_inputs[k] = py::str(std::string(snnplan::kProbedInputs[k]));
  m.attr("_PROBED_INPUTS") = probed_inputs;
  // The fields of a plan request (request/plan_request.hpp), which plan()'s keywords are.
  py::tuple plan_keys(snnplan::request::kPlanKeys.size());
  for (std::size_t k = 0; k < snnplan::request::kPlanKeys.size(); ++k)
    plan_keys[k] = py::str(std::string(snnplan::request::kPlanKeys[k].key));
  m.attr("_PLAN_KEYS") = plan_keys;
  const py::module_ types = py::module_::import("snnplan._types");
  const py::module_ plan_types = py::module_::import("snnplan._plan");
  classes.diagnostic = types.attr("Diagnostic").ptr();
  classes.input_info = types.attr("InputInfo").ptr();
  classes.load_error = types.attr("RuleLoadError").ptr();
  classes.plan = plan_types.attr("SNNDistributedPlan").ptr();
  classes.topology = plan_types.attr("SNNDistributedTopology").ptr();
  classes.feature_set = plan_types.attr("DistributedFeatureSet").ptr();
  for (PyObject* c : {classes.diagnostic, classes.input_info, classes.load_error, classes.plan,
                      classes.topology, classes.feature_set})
    Py_INCREF(c);
  py::register_exception_translator(&translate_exception);

  py::class_<snnplan::RuleSet> rule_set(
      m, "RuleSet",
      "An immutable, checked and compiled rule file. evaluate() may be called from "
      "many threads at once (it releases the GIL).");
  rule_set
      .def_static(
          "from_file", &from_file, py::arg("path"), py::kw_only(),
          py::arg("rule_roots") = py::none(), py::arg("decision_log") = py::none(),
          "from_file(path, *, rule_roots=None, decision_log=None)\n--\n\n"
          "Loads, checks and compiles the rule file at path (str or os.PathLike).\n"
          "rule_roots: more directories whose files `uses:` may name, besides the file's own.\n"
          "decision_log: where the rules record their decisions -- a DecisionLog or a path; None:\n"
          "$SNNPLAN_DECISION_LOG when set (as the CLI), else nowhere; False: nowhere.\n"
          "Raises RuleLoadError (a ValueError) with the position of the first error.")
      .def_static("from_string", &from_string, py::arg("text"), py::arg("name") = "<string>",
                  py::kw_only(), py::arg("decision_log") = py::none(),
                  "from_string(text, name='<string>', *, decision_log=None)\n--\n\n"
                  "Same as from_file for rule-file text; name is used in diagnostics.")
      .def_static("builtin", &builtin, py::arg("name") = py::none(), py::kw_only(),
                  py::arg("decision_log") = py::none(),
                  "builtin(name=None, *, decision_log=None)\n--\n\nThe default rules "
                  "(rules/snn_distributed.yaml, compiled in), or the built-in rule file of\nthat "
                  "name (\"snn_llm_planning.yaml\": what plan_training() decides with); "
                  "decision_log as for\nfrom_file. Raises ValueError for a name that is not a "
                  "built-in file.")
      .def_static(
          "builtin_plan",
          [](py::handle decision_log) {
            return snnplan::python::with_log_argument(snnplan::plan_rules(), decision_log);
          },
          py::kw_only(), py::arg("decision_log") = py::none(),
          "builtin_plan(*, decision_log=None)\n--\n\nThe built-in plan rules (rules/snn_plan.yaml, "
          "compiled in, using the built-in\nrules/snn_distributed.yaml): what plan() decides with "
          "when rules= is None. decision_log as for\nfrom_file.")
      .def("evaluate", &evaluate,
           "evaluate(self, /, **inputs)\n--\n\n"
           "Evaluates the rules for the given inputs and returns the record as a dict, fields in\n"
           "the rule file's order (lists as lists, None for null). Inputs left out or None take\n"
           "the rule file's defaults.\n\n"
           "Raises ValueError when the rules refuse the inputs (the message the rule file gives,\n"
           "e.g. an unsupported prefer); TypeError when an input is unknown, missing or of the\n"
           "wrong type; ValueError when an int does not fit in 64 bits.")
      .def_property_readonly("file_name", &snnplan::RuleSet::file_name,
                             "The name the rules were loaded under.")
      .def_property_readonly("sha256", &snnplan::RuleSet::sha256,
                             "SHA-256 (hex) of the rule file's bytes, as sha256sum and, for the built-in\n"
                             "files, snnplan --version print it (with uses:, of the file and the files it\n"
                             "uses): the revision that decision records and rank agreement compare.")
      .def_property_readonly("inputs", &input_infos, "The declared inputs, as a list of InputInfo.")
      .def_property_readonly(
          "warnings", [](const snnplan::RuleSet& r) { return diagnostics_list(r.warnings()); },
          "Warnings found while loading, as a list of Diagnostic.")
      .def("__repr__", [](const snnplan::RuleSet& r) {
        return "<snnplan.RuleSet " + py::repr(to_str(r.file_name())).cast<std::string>() + ">";
      });
  snnplan::python::bind_decisions(m, rule_set, &inputs_of);

  // The drop-in functions (drop_in.hpp), in plain CPython calls for speed; _drop_in.py calls
  // _init_drop_in and publishes them.
  static PyMethodDef drop_in_functions[] = {
      {"recommend_snn_distributed_strategy",
       reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&snnplan::python::recommend)),
       METH_FASTCALL | METH_KEYWORDS,
       "recommend_snn_distributed_strategy(model, world_size, prefer, batch_size, "
       "backend='inductor', "
       "zero_redundancy_optimizer_available=None, pipelining_available=None, fsdp2_available=None, "
       "tensor_parallel_available=None, *, rules=None)\n--\n\n"
       "Recommends a distributed strategy: a drop-in for the reference function of the same "
       "name.\n\n"
       "Returns a frozen SNNDistributedRecommendation. Every call the reference answers gets its\n"
       "answer, every call it refuses its exception: ValueError with its message for an "
       "unsupported\n"
       "prefer or a batch that cannot be split into pipeline microbatches; Python's own errors "
       "for\n"
       "missing, unknown or repeated arguments; the errors of the reference's own operations on\n"
       "arguments of other types (prefer.lower(), model.startswith(), comparing world_size and\n"
       "batch_size with ints). An availability flag of None takes the package's constant\n"
       "(snnplan.FSDP2_AVAILABLE, ...), probed from PyTorch at first use; others count by truth\n"
       "value. backend may be anything the reference formats (None gives 'None'). batch_size may "
       "be\n"
       "anything on the branches that do not read it.\n\n"
       "Beyond the reference: ints beyond 64 bits raise OverflowError where the answer reads "
       "them;\n"
       "other numbers (floats) for world_size and batch_size raise TypeError. rules (keyword "
       "only)\n"
       "selects a RuleSet with the same schema (default: RuleSet.builtin())."},
      {"recommended_pipeline_microbatches",
       reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&snnplan::python::microbatches)),
       METH_FASTCALL | METH_KEYWORDS,
       "recommended_pipeline_microbatches(batch_size, num_stages)\n--\n\n"
       "The largest microbatch count m with num_stages <= m <= min(batch_size, 4 * num_stages)\n"
       "that divides batch_size. Raises ValueError with the reference's message when there is "
       "none\n"
       "or an argument is not positive; TypeError for arguments that are not ints (Python's own "
       "for\n"
       "those it cannot compare with an int); OverflowError beyond 64 bits."},
      {"_recommend",
       reinterpret_cast<PyCFunction>(
           reinterpret_cast<void (*)()>(&snnplan::python::recommend_positional)),
       METH_FASTCALL, "recommend_snn_distributed_strategy() with its 10 arguments, positionally."},
      {"_microbatches",
       reinterpret_cast<PyCFunction>(
           reinterpret_cast<void (*)()>(&snnplan::python::microbatches_positional)),
       METH_FASTCALL, "recommended_pipeline_microbatches() with its 2 arguments, positionally."},
      {nullptr, nullptr, 0, nullptr}};
  if (PyModule_AddFunctions(m.ptr(), drop_in_functions) < 0) throw py::error_already_set();
  m.def("_init_drop_in", [](py::handle record_class, py::handle preferences,
                            py::handle recommend_signature, py::handle microbatches_signature,
                            py::handle constants, py::handle constant_names,
                            py::handle publish_constants) {
    if (!snnplan::python::init_drop_in(record_class.ptr(), py::type::of<snnplan::RuleSet>().ptr(),
                                       preferences.ptr(), recommend_signature.ptr(),
                                       microbatches_signature.ptr(), constants.ptr(),
                                       constant_names.ptr(), publish_constants.ptr()))
      throw py::error_already_set();
  });
  m.def("run_tests", &run_tests, py::arg("rules"), py::arg("tests"), py::kw_only(),
        py::arg("mutate") = false,
        "run_tests(rules, tests, *, mutate=False)\n--\n\n"
        "Runs rule-test files (docs/testing.md) against rules (a RuleSet; None: the built-in "
        "rules)\nas `snnplan test` does. tests: a path (str or os.PathLike) or an iterable of "
        "them.\nmutate: also run the tests against every mutant of the rules (when they all "
        "pass).\n\n"
        "Returns the report as a dict, the object `snnplan test --format json` writes: 'passed',\n"
        "'failed', 'tests' (name, file, line, column, tags, passed, differences), 'coverage' "
        "(per\nkind: percent, covered, total, unreachable; rules; missing) and, after mutation "
        "testing,\n'mutation'. A failed test is part of the report, not an exception.\n\n"
        "Raises RuleLoadError (a ValueError) with every problem of the test files at its "
        "position;\nOSError when a file cannot be read. Releases the GIL while the tests run.");
  m.def("_run_cli", &run_cli, py::arg("argv"),
        "_run_cli(argv)\n--\n\n"
        "Runs the snnplan command line in this process (python -m snnplan): argv without the\n"
        "program name; returns the exit code. Writes to the process's standard output and error.");

  m.def("topology_fields", &topology_fields, py::arg("world_size"), py::arg("dims"),
        "topology_fields(world_size, dims)\n--\n\n"
        "SNNDistributedTopology's checks (upstream's order and texts); returns the ordered "
        "dimension names.");
  m.def("topology_from_mapping", &topology_from_mapping, py::arg("dims"),
        py::arg("world_size") = py::none(),
        "topology_from_mapping(dims, world_size=None)\n--\n\n"
        "SNNDistributedTopology.from_mapping's reading and checks; returns (world_size, dims).");
  m.def(
      "plan", &plan, py::arg("objective"), py::arg("topology"), py::arg("batch_size"),
      py::kw_only(), py::arg("world_size") = py::none(), py::arg("backend") = "inductor",
      py::arg("model_family") = "generic", py::arg("mode") = py::none(),
      py::arg("tp_roots") = py::none(), py::arg("tp_candidates") = true,
      py::arg("features") = py::none(), py::arg("notes") = py::none(),
      py::arg("rules") = py::none(),
      "plan(objective, topology, batch_size, *, world_size=None, backend='inductor', "
      "model_family='generic', mode=None, tp_roots=None, tp_candidates=True, features=None, "
      "notes=None, rules=None)\n--\n\n"
      "The full distributed plan, as `snnplan plan` gives it: a frozen SNNDistributedPlan.\n"
      "The arguments are the keys of a `snnplan plan --batch` line and mirror the CLI's flags, so\n"
      "plan(**json.loads(line)) works; None means the default, as null does there.\n\n"
      "objective: speed, memory or capacity (case-insensitive). topology: 'dp=4,tp=2' (as\n"
      "--topology; world_size must then be an int) or a dict of sizes {'dp': 4, 'tp': 2} (as the\n"
      "JSON line). batch_size: int. world_size: checked against the product of the sizes.\n"
      "mode: override (none, dp, tp, fsdp2, fsdp2_tp). tp_roots, notes: lists of str.\n"
      "tp_candidates: bool. features: a dict of feature flags or a DistributedFeatureSet.\n"
      "rules: a RuleSet of plan rules (default: the built-in rules/snn_plan.yaml).\n\n"
      "Raises ValueError with the CLI's message when the rules refuse (unknown objective or mode,\n"
      "pp, tensor parallelism without candidates), for an invalid topology or an unknown feature,\n"
      "and for ints beyond 64 bits; TypeError for arguments of the wrong type. Releases the GIL\n"
      "while the rules run.");
}
