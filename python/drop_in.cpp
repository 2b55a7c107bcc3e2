// The drop-in functions (drop_in.hpp): plain CPython on the way in and out, the engine between.
// Time per call matters here (the module must be several times faster than the Python it
// replaces), so the record is built without the dataclass's __init__: its instance dict is
// filled directly, in the dataclass's field order, which is what __init__ would leave.

#include "drop_in.hpp"

#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "api/rule_set_access.hpp"
#include "api/messages.hpp"
#include "core/messages.hpp"
#include "evaluate/messages.hpp"
#include "cpython.hpp"
#include "drop_in_record.hpp"
#include "messages.hpp"
#include "core/runtime_value.hpp"
#include "language/microbatches.hpp"
#include "snnplan/decision_log.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::python {
namespace {

// ---- recommend ------------------------------------------------------------------------------

// One thread's inputs and evaluation, reused call after call. The inputs are given to the
// engine by slot, strings as views of the strings kept here.
struct Call {
  enum Slot : std::uint8_t { kModel, kWorldSize, kPrefer, kBatchSize, kBackend, kFirstFlag };
  std::array<detail::RValue, kInputNames.size()> inputs{};  // in the reference's parameter order
  std::string_view model, prefer, backend;          // the arguments' texts (text_of) ...
  std::string model_kept, prefer_kept, backend_kept;  // ... where they are not the str's own
  request::PositionalCall evaluation;

  bool busy = false;
  struct Busy {
    explicit Busy(Call& c) : call(c) { call.busy = true; }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;
    ~Busy() { call.busy = false; }
    Call& call;
  };

  // The rules, with the GIL released when they may take long (see MaybeWithoutGil). The layout
  // is found here, after any of the arguments' own code has run (which may have used other rules).
  bool evaluate(const RuleSet& rules) {
    // Bound and prepared under the GIL: another thread may bind the layout to its rules while
    // this one evaluates without it.
    module.layout.bind(rules);
    if (!evaluation.prepare(module.layout, inputs)) return false;
    const detail::RValue& batch_size = inputs[kBatchSize];
    const bool long_call = !evaluation.builtin() ||
                           batch_size.kind != detail::RValue::Kind::integer ||
                           !detail::fits_int64(batch_size.i) ||
                           may_take_long(static_cast<std::int64_t>(batch_size.i));
    MaybeWithoutGil unlocked(long_call);
    return evaluation.evaluate();
  }

  // Refusals by the rules are the reference's ValueError; inputs the rules cannot take, TypeError.
  PyObject* raise_error() const {
    const EvaluationError& error = evaluation.error();
    return raise(error.kind == EvaluationErrorKind::rule_error ? PyExc_ValueError : PyExc_TypeError,
                 error.message);
  }

  // The record's fields as owning values, to compare two evaluations.
  [[nodiscard]] std::vector<Value> snapshot() const {
    std::vector<Value> out;
    for (const ValueView& v : evaluation.values()) out.push_back(v.to_value());
    return out;
  }

  [[nodiscard]] std::optional<std::string> first_rationale_line() const {
    const std::size_t at = evaluation.field(kFields.size() - 1);  // rationale
    const std::span<const ValueView> values = evaluation.values();
    if (evaluation.missing_field() || at >= values.size()) return std::nullopt;
    const ValueView& lines = values[at];
    if (!lines.is_list() || lines.as_list().empty() || !lines.as_list()[0].is_string())
      return std::nullopt;
    return std::string(lines.as_list()[0].as_string());
  }

  // A bool world_size is the int 1 or 0 to the rules, but the reference's rationale shows True
  // or False. The rules are evaluated once more with a marker in its place: where the marker
  // appears in the first line is where world_size is shown (checked: the marker put back as
  // the int gives the first line the rules gave). Precondition: the last evaluation succeeded
  // with these inputs; it is repeated, so its views are what they were. nullopt: keep the line.
  std::optional<std::string> first_line_with_bool_world_size(const RuleSet& rules,
                                                             bool world_size) {
    const std::optional<std::string> as_int = first_rationale_line();
    constexpr std::int64_t kMarker = std::numeric_limits<std::int64_t>::min() + 1;
    inputs[kWorldSize] = detail::RValue::of_int(kMarker);
    const std::optional<std::string> marked =
        evaluate(rules) ? first_rationale_line() : std::nullopt;
    inputs[kWorldSize] = detail::RValue::of_int(world_size ? 1 : 0);
    if (!evaluate(rules) || !as_int || !marked) return std::nullopt;
    const std::string marker = std::to_string(kMarker);
    if (replace_all(*marked, marker, world_size ? "1" : "0") != *as_int) return std::nullopt;
    return replace_all(*marked, marker, world_size ? "True" : "False");
  }

  static std::string replace_all(std::string text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
    return text;
  }
};
thread_local Call this_thread_call;

// The package's constant for availability argument k (borrowed), probing PyTorch first when the
// constants are not set yet; nullptr with a Python error set when the probe raised.
PyObject* looked_up_constant(std::size_t k);

PyObject* availability_constant(std::size_t k) {
#if PY_VERSION_HEX < 0x030C0000
  const auto* constants = reinterpret_cast<const PyDictObject*>(module.constants);
  if (constants->ma_version_tag == module.constants_version && module.constants_seen[k])
    return module.constants_seen[k];
  PyObject* value = looked_up_constant(k);  // may publish the constants: the version moves on
  if (value) {
    if (constants->ma_version_tag != module.constants_version) {
      module.constants_seen.fill(nullptr);
      module.constants_version = constants->ma_version_tag;
    }
    module.constants_seen[k] = value;
  }
  return value;
#else
  return looked_up_constant(k);
#endif
}

// The package's constant k, probing PyTorch first when the constants are not set yet.
PyObject* looked_up_constant(std::size_t k) {
  PyObject* value = PyDict_GetItemWithError(module.constants, module.constant_names[k]);
  if (value || PyErr_Occurred()) return value;
  Ref published(PyObject_CallNoArgs(module.publish_constants));
  if (!published) return nullptr;
  value = PyDict_GetItemWithError(module.constants, module.constant_names[k]);
  if (!value && !PyErr_Occurred()) {
    std::string name;
    if (utf8(module.constant_names[k], name))
      raise(PyExc_AttributeError, messages::py_constant_missing(name));
  }
  return value;
}

// The rules of a call without rules=: the built-in ones, recording their decisions in
// $SNNPLAN_DECISION_LOG when that is set (read at the first such call, as the CLI reads it).
const RuleSet& default_rules() {
  static const RuleSet rules = with_environment_log(RuleSet::builtin());
  return rules;
}

const RuleSet* rules_of(PyObject* rules) {
  if (rules == Py_None) return &default_rules();
  const pybind11::handle handle(rules);
  if (!pybind11::isinstance(handle, pybind11::handle(module.rule_set_type))) {
    unsupported("rules", "a snnplan.RuleSet or None", rules);
    return nullptr;
  }
  return &handle.cast<const RuleSet&>();
}

// An argument as the record shows it: None, bools, ints of 64 bits, floats and str as they are,
// anything else as its repr().
Value given_value(PyObject* object) {
  if (object == Py_None) return Value();
  if (PyBool_Check(object)) return Value(object == Py_True);
  if (PyLong_Check(object)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(object, &overflow);
    if (overflow == 0 && !(v == -1 && PyErr_Occurred())) return Value(static_cast<std::int64_t>(v));
    PyErr_Clear();
  } else if (PyFloat_Check(object)) {
    return Value(PyFloat_AS_DOUBLE(object));
  }
  std::string text;
  Ref shown(PyUnicode_Check(object) ? Py_NewRef(object) : PyObject_Repr(object));
  if (!shown || !utf8(shown.get(), text)) PyErr_Clear();
  return Value(std::move(text));
}

// An observed rule set (a decision log, shadow mode) is handed the call's decision: the inputs
// are evaluated once more by name, through the path that records (the fired rules, the time,
// the shadow's answer), with the GIL released for the write. Only calls that are recorded pay.
// The record shows the arguments as given where the engine was given another form of them (a
// non-ASCII or non-str prefer's lower(), a bool world_size, a batch size the branch does not
// read); availability arguments left at None show the package's constants they took.
void record_decision(const RuleSet& rules, const Call& call, PyObject* const* args) {
  Inputs evaluated;
  Inputs shown;
  for (std::size_t k = 0; k < kInputNames.size(); ++k) {
    const detail::RValue& v = call.inputs[k];
    Value value;
    switch (v.kind) {
      case detail::RValue::Kind::string: value = Value(std::string(v.s())); break;
      case detail::RValue::Kind::integer: value = Value(static_cast<std::int64_t>(v.i)); break;
      case detail::RValue::Kind::boolean: value = Value(v.b); break;
      default: continue;  // the drop-in binds only these kinds
    }
    const bool other_form = (k == Call::kPrefer && PyUnicode_Check(args[k])) ||
                            (k == Call::kWorldSize && PyBool_Check(args[k])) ||
                            (k == Call::kBatchSize && (!PyLong_Check(args[k]) || PyBool_Check(args[k])));
    shown.emplace_back(kInputNames[k], other_form ? given_value(args[k]) : value);
    evaluated.emplace_back(kInputNames[k], std::move(value));
  }
  const MaybeWithoutGil unlocked(true);
  RuleSetAccess::observe_as(rules, evaluated, shown);
}

// Arguments the engine cannot take as they are are handled in the order the reference touches
// them. The reference refuses an unsupported prefer before it looks at any other argument, so
// before such an argument's own error is raised, the rules are asked about prefer alone.
class LooseArguments {
 public:
  LooseArguments(Call& call, const RuleSet& rules, PyObject* lowered_prefer)
      : call_(call), rules_(rules), lowered_(lowered_prefer) {}

  // False with the rules' refusal raised when they refuse prefer (as the reference does
  // first of all); true when they accept it.
  bool prefer_accepted() {
    if (checked_) return true;
    checked_ = true;
    const int known = PySequence_Contains(module.preferences, lowered_);
    if (known < 0) return false;
    if (known) return true;
    // Placeholders for the rest: a refusal of prefer comes before anything else is decided.
    const auto saved = call_.inputs;
    call_.inputs[Call::kModel] = detail::RValue::of_view("");
    call_.inputs[Call::kWorldSize] = detail::RValue::of_int(1);
    call_.inputs[Call::kBatchSize] = detail::RValue::of_int(1);
    call_.inputs[Call::kBackend] = detail::RValue::of_view("");
    for (std::size_t k = Call::kFirstFlag; k < call_.inputs.size(); ++k)
      call_.inputs[k] = detail::RValue{};
    const bool ok = call_.evaluate(rules_);
    call_.inputs = saved;
    if (!ok) {
      call_.raise_error();
      return false;
    }
    return true;
  }

 private:
  Call& call_;
  const RuleSet& rules_;
  PyObject* lowered_;
  bool checked_ = false;
};

// Binds a vectorcall's arguments to `parameters` (interned names; the first `positional` may be
// given by position) into `bound`. Returns true, binding nothing reliable, for any call that is
// not plain: more positional arguments than allowed, a keyword that is not exactly a parameter
// name or names one already bound, or a required parameter left out. Such calls go to the
// Python function of the same signature, for Python's own handling and error messages.
template <std::size_t N>
bool bind_plainly(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                  const std::array<PyObject*, N>& parameters, std::size_t positional,
                  std::size_t required, std::array<PyObject*, N>& bound) {
  const auto given = static_cast<std::size_t>(nargs);
  if (given > positional) return true;
  for (std::size_t k = 0; k < given; ++k) bound[k] = args[k];
  const std::size_t keywords = kwnames ? static_cast<std::size_t>(PyTuple_GET_SIZE(kwnames)) : 0;
  for (std::size_t i = 0; i < keywords; ++i) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, static_cast<Py_ssize_t>(i));
    std::size_t k = 0;
    while (k < N && parameters[k] != name) ++k;  // keywords in calls are interned, as are ours
    if (k == N) {
      if (!PyUnicode_CheckExact(name)) return true;
      k = 0;
      while (k < N && PyUnicode_Compare(parameters[k], name) != 0) ++k;
      if (k == N) return true;
    }
    if (bound[k]) return true;
    bound[k] = args[given + i];
  }
  for (std::size_t k = 0; k < required; ++k)
    if (!bound[k]) return true;
  return false;
}

// The 10 arguments in the reference's order, `rules` last.
PyObject* recommend_from(PyObject* const* args) {
  PyObject* const model = args[0];
  PyObject* const world_size = args[1];
  PyObject* const prefer = args[2];
  PyObject* const batch_size = args[3];
  PyObject* const backend = args[4];
  const RuleSet* rules = rules_of(args[kRecommendInputs.size()]);  // `rules`, after the inputs
  if (!rules) return nullptr;
  // A call made from inside another (a __format__ or lower() of an argument that recommends
  // itself) must not reuse the outer call's strings and inputs: it gets its own.
  std::unique_ptr<Call> own;
  if (this_thread_call.busy) own = std::make_unique<Call>();
  Call& call = own ? *own : this_thread_call;
  const Call::Busy busy(call);

  // prefer.lower(), the reference's first step: Python's own, for every Unicode special case
  // and every type (an ASCII str is lowered by the rules themselves, which agree on ASCII).
  Ref lowered_owner;
  PyObject* lowered = prefer;
  if (!PyUnicode_CheckExact(prefer) || !PyUnicode_IS_ASCII(prefer)) {
    lowered_owner.reset(PyObject_CallMethod(prefer, "lower", nullptr));
    if (!lowered_owner) return nullptr;
    lowered = lowered_owner.get();
  }
  LooseArguments loose(call, *rules, lowered);
  if (PyUnicode_Check(lowered)) {
    if (!text_of(lowered, call.prefer_kept, call.prefer)) return nullptr;
  } else {  // an object whose lower() is no str: the reference shows it as an f-string does
    Ref shown(PyObject_Format(lowered, module.empty));
    if (!shown || !utf8(shown.get(), call.prefer_kept)) return nullptr;
    call.prefer = call.prefer_kept;
  }
  call.inputs[Call::kPrefer] = detail::RValue::of_view(call.prefer);

  // model.startswith('spikformer'): a str (or subclass) is read as its text; anything else
  // gets the reference's own error from that call, or, if it has such a method, is refused.
  if (PyUnicode_Check(model)) {
    if (!text_of(model, call.model_kept, call.model)) return nullptr;
  } else {
    if (!loose.prefer_accepted()) return nullptr;
    Ref starts(PyObject_CallMethod(model, "startswith", "s", "spikformer"));
    if (!starts) return nullptr;
    return unsupported("model", "str", model);
  }
  call.inputs[Call::kModel] = detail::RValue::of_view(call.model);

  // The rationale's f-string formats world_size, then backend (format(x, ''), as {x} does).
  std::int64_t world = 0;
  const IntStatus world_status = int64_of(world_size, world);
  if (world_status == IntStatus::error) return nullptr;
  if (world_status == IntStatus::not_int) {
    if (!loose.prefer_accepted()) return nullptr;
    Ref shown(PyObject_Format(world_size, module.empty));
    if (!shown) return nullptr;
  }
  if (PyUnicode_Check(backend)) {
    if (!text_of(backend, call.backend_kept, call.backend)) return nullptr;
  } else {
    if (!loose.prefer_accepted()) return nullptr;
    Ref shown(PyObject_Format(backend, module.empty));
    if (!shown || !utf8(shown.get(), call.backend_kept)) return nullptr;
    call.backend = call.backend_kept;
  }
  call.inputs[Call::kBackend] = detail::RValue::of_view(call.backend);

  // `world_size <= 1` comes next: Python's own TypeError for what cannot be compared.
  if (world_status != IntStatus::ok) {
    if (!loose.prefer_accepted()) return nullptr;
    if (world_status == IntStatus::too_large) return overflow("world_size", world_size);
    if (PyObject_RichCompareBool(world_size, module.one, Py_LE) < 0) return nullptr;
    return unsupported("world_size", "int", world_size);
  }
  call.inputs[Call::kWorldSize] = detail::RValue::of_int(world);

  // The availability flags count by truth value; None takes the package's probed constant.
  for (std::size_t k = 0; k < kProbedInputCount; ++k) {
    PyObject* flag = args[kFirstAvailability + k];
    if (flag == Py_None && !(flag = availability_constant(k))) return nullptr;
    int truth = flag == Py_True ? 1 : flag == Py_False ? 0 : -2;
    if (truth == -2) {  // its __bool__ may take the constant out of the namespace: hold it meanwhile
      const Ref held(Py_NewRef(flag));
      truth = PyObject_IsTrue(held.get());
    }
    if (truth < 0) return nullptr;
    call.inputs[Call::kFirstFlag + k] = detail::RValue::of_bool(truth != 0);
  }

  // batch_size is read on some branches only. One that is no 64-bit int is taken as unread when
  // the rules give the same answer for the smallest batch size and for a large one: twice
  // world_size (where that fits), the default rules' largest pipeline threshold, which their
  // microbatch search then divides at once (the largest 64-bit int could make it take minutes).
  std::int64_t batch = 0;
  const IntStatus batch_status = int64_of(batch_size, batch);
  if (batch_status == IntStatus::error) return nullptr;
  bool ok = false;
  if (batch_status == IntStatus::ok) {
    call.inputs[Call::kBatchSize] = detail::RValue::of_int(batch);
    ok = call.evaluate(*rules);
  } else {
    if (!loose.prefer_accepted()) return nullptr;
    constexpr std::int64_t kLargest = std::numeric_limits<std::int64_t>::max();
    const std::int64_t large = world >= 1 && world <= kLargest / 2 ? 2 * world : kLargest;
    call.inputs[Call::kBatchSize] = detail::RValue::of_int(large);
    const bool ok_at_large = call.evaluate(*rules);
    const std::optional<std::vector<Value>> at_large =
        ok_at_large ? std::optional<std::vector<Value>>(call.snapshot()) : std::nullopt;
    const std::string error_at_large = ok_at_large ? std::string() : call.evaluation.error().message;
    call.inputs[Call::kBatchSize] =
        detail::RValue::of_int(std::numeric_limits<std::int64_t>::min());
    ok = call.evaluate(*rules);
    const bool same = ok == ok_at_large &&
                      (ok ? call.snapshot() == *at_large : call.evaluation.error().message == error_at_large);
    if (!same) {  // the branch reads batch_size: `batch_size >= ...` as the reference compares it
      if (batch_status == IntStatus::too_large) return overflow("batch_size", batch_size);
      if (PyObject_RichCompareBool(batch_size, module.one, Py_GE) < 0) return nullptr;
      return unsupported("batch_size", "int", batch_size);
    }
  }
  if (rules->observed()) record_decision(*rules, call, args);
  if (!ok) return call.raise_error();
  std::optional<std::string> first_line;
  if (PyBool_Check(world_size))
    first_line = call.first_line_with_bool_world_size(*rules, world_size == Py_True);
  return make_record(call.evaluation, Given{lowered, call.prefer, 0}, Given{model, call.model, 0},
                     Given{world_size, {}, world}, first_line);
}

// The reference's parameters, in order: a call that names them all plainly is read here; any
// other (unknown or repeated keywords, missing or extra arguments, keywords that are not
// str) goes to the Python function with the same signature, which binds what can be bound and
// raises Python's own error for the rest.
constexpr std::size_t kRequired = [] {  // model .. batch_size
  std::size_t n = 0;
  while (n < kRecommendInputs.size() && kRecommendInputs[n].required) ++n;
  return n;
}();
constexpr std::size_t kPositional = kRecommendInputs.size();  // rules is keyword-only

}  // namespace

bool init_drop_in(PyObject* recommendation_class, PyObject* rule_set_type, PyObject* preferences,
                  PyObject* recommend_signature, PyObject* microbatches_signature,
                  PyObject* constants, PyObject* constant_names, PyObject* publish_constants) {
  if (!PyDict_Check(constants) || !PyTuple_Check(constant_names) ||
      PyTuple_GET_SIZE(constant_names) != static_cast<Py_ssize_t>(kProbedInputCount)) {
    raise(PyExc_TypeError, messages::py_availability_constants_mismatch());
    return false;
  }
  for (std::size_t k = 0; k < kProbedInputCount; ++k) {
    PyObject* name = PyTuple_GET_ITEM(constant_names, static_cast<Py_ssize_t>(k));
    if (!PyUnicode_Check(name)) {
      raise(PyExc_TypeError, messages::py_availability_constants_mismatch());
      return false;
    }
    module.constant_names[k] = Py_NewRef(name);
  }
  module.constants = Py_NewRef(constants);
  module.publish_constants = Py_NewRef(publish_constants);
  for (std::size_t k = 0; k < kInputNames.size(); ++k)
    if (!(module.recommend_parameters[k] = PyUnicode_InternFromString(std::string(kInputNames[k]).c_str())))
      return false;
  if (!(module.recommend_parameters.back() = PyUnicode_InternFromString("rules"))) return false;
  if (!(module.microbatches_parameters[0] = PyUnicode_InternFromString("batch_size")) ||
      !(module.microbatches_parameters[1] = PyUnicode_InternFromString("num_stages")) ||
      !(module.default_backend = PyUnicode_InternFromString("inductor")))
    return false;
  module.recommend_signature = Py_NewRef(recommend_signature);
  module.microbatches_signature = Py_NewRef(microbatches_signature);
  if (!PyType_Check(recommendation_class)) {
    raise(PyExc_TypeError, messages::py_record_class_mismatch("it is not a class"));
    return false;
  }
  Ref fields(PyObject_GetAttrString(recommendation_class, "__dataclass_fields__"));
  if (!fields) return false;
  Ref names(PySequence_List(fields.get()));
  if (!names) return false;
  if (PyList_GET_SIZE(names.get()) != static_cast<Py_ssize_t>(kFields.size())) {
    raise(PyExc_TypeError, messages::py_record_class_mismatch("it does not have 16 fields"));
    return false;
  }
  for (std::size_t k = 0; k < kFields.size(); ++k) {
    PyObject* key = PyUnicode_InternFromString(kFields[k].name);
    if (!key) return false;
    const int same = PyObject_RichCompareBool(
        PyList_GET_ITEM(names.get(), static_cast<Py_ssize_t>(k)), key, Py_EQ);
    if (same != 1) {
      if (same == 0)
        raise(PyExc_TypeError, messages::py_record_class_mismatch(
                                   fmt::format("field {} is not {}", k, kFields[k].name)));
      return false;
    }
    module.keys[k] = key;
  }
  if (!(module.no_arguments = PyTuple_New(0))) return false;
  Py_INCREF(recommendation_class);
  Py_INCREF(rule_set_type);
  module.recommendation = reinterpret_cast<PyTypeObject*>(recommendation_class);
  if (kSplitRecordDict) {
    module.record_dict = record_dict_of(module.value_index);
    if (!module.record_dict && PyErr_Occurred()) return false;
  }
  module.rule_set_type = rule_set_type;
  module.one = PyLong_FromLong(1);
  module.empty = PyUnicode_InternFromString("");
  Py_INCREF(preferences);
  module.preferences = preferences;
  return module.one && module.empty;
}

PyObject* recommend(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  std::array<PyObject*, kRecommendInputs.size() + 1> bound{};  // nullptr: not given
  if (bind_plainly(args, nargs, kwnames, module.recommend_parameters, kPositional, kRequired,
                   bound))
    return PyObject_Vectorcall(module.recommend_signature, args, static_cast<std::size_t>(nargs),
                               kwnames);
  if (!bound[4]) bound[4] = module.default_backend;
  for (std::size_t k = 5; k < bound.size(); ++k)
    if (!bound[k]) bound[k] = Py_None;
  return recommend_from(bound.data());
}

PyObject* recommend_positional(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 10)
    return raise(PyExc_TypeError, messages::py_positional_arguments("_recommend", 10, nargs));
  return recommend_from(args);
}

// ---- recommended_pipeline_microbatches ------------------------------------------------------

PyObject* microbatches_positional(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2)
    return raise(PyExc_TypeError, messages::py_positional_arguments("_microbatches", 2, nargs));
  // The reference compares batch_size with 0 (and refuses it when it is not positive) before it
  // looks at num_stages: an argument the engine cannot take is dealt with at its turn.
  const std::array<const char*, 2> names = {"batch_size", "num_stages"};
  std::array<std::int64_t, 2> values{};
  for (std::size_t k = 0; k < 2; ++k) {
    switch (int64_of(args[k], values[k])) {
      case IntStatus::ok:
        break;
      case IntStatus::error:
        return nullptr;
      case IntStatus::too_large:
        return overflow(names[k], args[k]);
      case IntStatus::not_int:
        // `x <= 0`: Python's own TypeError for what cannot be compared with an int.
        if (PyObject_RichCompareBool(args[k], module.one, Py_LE) < 0) return nullptr;
        return unsupported(names[k], "int", args[k]);
    }
    if (k == 0 && values[0] <= 0) {
      values[1] = 1;  // refused for batch_size alone, whatever num_stages is
      break;
    }
  }
  std::variant<detail::Wide, std::string> result;
  {
    const MaybeWithoutGil unlocked(may_take_long(values[0]));  // up to ~1.5 * sqrt(batch_size) steps
    result = language::pipeline_microbatches(values[0], values[1]);
  }
  if (std::holds_alternative<std::string>(result) &&
      (PyBool_Check(args[0]) || PyBool_Check(args[1]))) {
    // The reference's message shows True and False as such, not as 1 and 0.
    language::MicrobatchArgumentTexts shown;
    for (std::size_t k = 0; k < 2; ++k) {
      Ref text(PyObject_Str(args[k]));
      if (!text || !utf8(text.get(), k == 0 ? shown.batch_size : shown.num_stages)) return nullptr;
    }
    result = language::pipeline_microbatches(values[0], values[1], shown);
  }
  if (const auto* error = std::get_if<std::string>(&result)) return raise(PyExc_ValueError, *error);
  // The count divides batch_size and is at most batch_size, so it fits 64 bits.
  return PyLong_FromLongLong(static_cast<long long>(std::get<detail::Wide>(result)));
}

PyObject* microbatches(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  std::array<PyObject*, 2> bound{};
  if (bind_plainly(args, nargs, kwnames, module.microbatches_parameters, 2, 2, bound))
    return PyObject_Vectorcall(module.microbatches_signature, args, static_cast<std::size_t>(nargs),
                               kwnames);
  return microbatches_positional(nullptr, bound.data(), 2);
}

}  // namespace snnplan::python
