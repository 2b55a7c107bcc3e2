#pragma once
// The record of the drop-in `recommend` (drop_in.cpp): the fields of
// SNNDistributedRecommendation, where they are in a rule set's records, and the dataclass
// instance built from an evaluation's views without its __init__. Inline: it is on every call's
// path, and only drop_in.cpp includes it.

#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "api/messages.hpp"
#include "api/request_inputs.hpp"
#include "cpython.hpp"
#include "request/positional.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/value_view.hpp"

namespace snnplan::python {

// The fields of SNNDistributedRecommendation (snnplan/_types.py), in its order, with the
// values the rules may give each; init_drop_in() checks the dataclass has exactly these.
enum class FieldKind : std::uint8_t {
  text,
  integer,
  optional_integer,
  number,
  flag,
  optional_integers,
  lines
};
struct FieldSpec {
  const char* name;
  FieldKind kind;
};
constexpr std::array<FieldSpec, 16> kFields = {{
    {"prefer", FieldKind::text},
    {"model", FieldKind::text},
    {"world_size", FieldKind::integer},
    {"mode", FieldKind::text},
    {"optimizer_sharding", FieldKind::text},
    {"memopt_level", FieldKind::integer},
    {"mesh_shape", FieldKind::optional_integers},
    {"tp_mesh_dim", FieldKind::integer},
    {"dp_mesh_dim", FieldKind::optional_integer},
    {"pp_microbatches", FieldKind::optional_integer},
    {"pp_memopt_stage_budget_ratio", FieldKind::number},
    {"pp_schedule", FieldKind::text},
    {"pp_virtual_stages", FieldKind::integer},
    {"pp_layout", FieldKind::optional_integers},
    {"pp_delay_wgrad", FieldKind::flag},
    {"rationale", FieldKind::lines},
}};

inline const char* expected_kind(FieldKind kind) {
  switch (kind) {
    case FieldKind::text:
      return "a string";
    case FieldKind::integer:
      return "an int";
    case FieldKind::optional_integer:
      return "an int or null";
    case FieldKind::number:
      return "a number";
    case FieldKind::flag:
      return "a bool";
    case FieldKind::optional_integers:
      return "a list or null";
    case FieldKind::lines:
      return "a list";
  }
  return "";
}

// The reference's parameters that are inputs of the rules (all but `rules`): the rows of a
// recommend request (api/request_inputs.hpp), the availabilities last.
inline constexpr std::array<std::string_view, kRecommendInputs.size()> kInputNames = [] {
  std::array<std::string_view, kRecommendInputs.size()> out{};
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = kRecommendInputs[k].name;
  return out;
}();
constexpr std::size_t kFirstAvailability = kRecommendInputs.size() - kProbedInputCount;
static_assert([] {
  for (std::size_t k = 0; k < kRecommendInputs.size(); ++k)
    if (kRecommendInputs[k].probed != (k >= kFirstAvailability)) return false;
  return true;
}(), "the drop-in reads the availabilities as the last arguments");
// The fields' names, for the layout.
inline constexpr std::array<std::string_view, kFields.size()> kFieldNames = [] {
  std::array<std::string_view, kFields.size()> out{};
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = kFields[k].name;
  return out;
}();

struct Module {
  PyTypeObject* recommendation = nullptr;  // the dataclass
  PyObject* rule_set_type = nullptr;
  std::array<PyObject*, kFields.size()> keys{};      // interned field names
  PyObject* one = nullptr;                           // the int 1, for `world_size <= 1`
  PyObject* empty = nullptr;                         // "", the format spec of f-strings
  PyObject* preferences = nullptr;                   // SNN_DISTRIBUTED_PREFERENCES (_drop_in.py)
  PyObject* no_arguments = nullptr;                  // ()
  // A record's __dict__ as a split table (keys shared with the class, values in their own
  // array) that make_record copies and fills; null where that is not possible (record_dict_of).
  PyObject* record_dict = nullptr;
  std::array<std::uint8_t, kFields.size()> value_index{};  // each field's place in the values
  PyObject* default_backend = nullptr;               // "inductor"
  std::array<PyObject*, kRecommendInputs.size() + 1> recommend_parameters{};  // interned names, `rules` last
  std::array<PyObject*, 2> microbatches_parameters{};
  PyObject* recommend_signature = nullptr;     // the Python functions with the reference's
  PyObject* microbatches_signature = nullptr;  // signatures (_drop_in.py), for unusual calls
  // Where the inputs and the fields are in the rule set last seen (bound on each call).
  request::PositionalLayout layout{{kInputNames.begin(), kInputNames.end()},
                                   {kFieldNames.begin(), kFieldNames.end()}};
  // An availability argument left at None reads the package's constant of the same meaning
  // (snnplan.FSDP2_AVAILABLE, ...) at call time, as the reference reads its module's; the
  // first such read with the constants not set yet calls publish_constants, which probes
  // PyTorch once and sets all four (_drop_in.py).
  PyObject* constants = nullptr;                  // the package's namespace
  std::array<PyObject*, kProbedInputCount> constant_names{};  // in the order of the arguments
  PyObject* publish_constants = nullptr;
#if PY_VERSION_HEX < 0x030C0000
  // The constants last read (borrowed from the namespace) and the namespace's version tag then
  // (PEP 509: any change to the dict changes it), so that a call reads them again only after a
  // change: four dict lookups were ~600 instructions of a ~12,000-instruction call. Python 3.12
  // deprecates the tag; there every call looks the constants up.
  std::uint64_t constants_version = 0;
  std::array<PyObject*, kProbedInputCount> constants_seen{};
#endif
};
inline Module module;  // lives as long as the interpreter: deliberately never released

// Python strings of the texts records are made of, remembered by where the text is: most are
// the rule set's own constants (modes, rationale lines), at the same address every call, so a
// record reuses their str objects instead of decoding them again. An entry is used only when
// its text is still the same (an address of the evaluation's store may hold another text next
// time), and only ASCII strings are kept (their UTF-8 is their data).
class StrCache {
 public:
  PyObject* get(std::string_view text) {
    // Fibonacci hashing of the address: neighbouring texts land far apart.
    const auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(text.data()));
    Entry& entry = entries_[(address * 0x9E3779B97F4A7C15ULL) >> (64 - kBits)];
    if (entry.data == text.data() && entry.str &&
        static_cast<std::size_t>(PyUnicode_GET_LENGTH(entry.str)) == text.size() &&
        std::memcmp(PyUnicode_DATA(entry.str), text.data(), text.size()) == 0)
      return Py_NewRef(entry.str);
    PyObject* str = to_str(text);
    if (str && PyUnicode_IS_ASCII(str)) {
      PyObject* old = entry.str;
      entry.str = Py_NewRef(str);
      entry.data = text.data();
      Py_XDECREF(old);
    }
    return str;
  }

 private:
  struct Entry {
    const char* data = nullptr;
    PyObject* str = nullptr;
  };
  static constexpr int kBits = 8;
  std::array<Entry, std::size_t{1} << kBits> entries_{};
};
inline StrCache strings;  // used with the GIL held; lives as long as the interpreter

inline PyObject* int_tuple(std::span<const ValueView> items, const char* name) {
  Ref out(PyTuple_New(static_cast<Py_ssize_t>(items.size())));
  if (!out) return nullptr;
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (!items[k].is_int())
      return raise(PyExc_TypeError, messages::record_field_items(name, "a non-integer"));
    PyObject* item = PyLong_FromLongLong(items[k].as_int());
    if (!item) return nullptr;
    PyTuple_SET_ITEM(out.get(), static_cast<Py_ssize_t>(k), item);
  }
  return out.release();
}

inline PyObject* str_tuple(std::span<const ValueView> items, const char* name) {
  Ref out(PyTuple_New(static_cast<Py_ssize_t>(items.size())));
  if (!out) return nullptr;
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (!items[k].is_string())
      return raise(PyExc_TypeError, messages::record_field_items(name, "a non-string"));
    PyObject* item = strings.get(items[k].as_string());
    if (!item) return nullptr;
    PyTuple_SET_ITEM(out.get(), static_cast<Py_ssize_t>(k), item);
  }
  return out.release();
}

// The reference stores its arguments themselves in the record (model=model, world_size=
// world_size, the lowered prefer): a field equal to what the engine was given is that object.
struct Given {
  PyObject* object;
  std::string_view text;  // for strings
  std::int64_t integer;   // for ints
};

inline PyObject* field_value(const ValueView& v, FieldKind kind, const char* name, const Given* given) {
  bool fits = false;
  switch (kind) {
    case FieldKind::text:
      fits = v.is_string();
      break;
    case FieldKind::integer:
      fits = v.is_int();
      break;
    case FieldKind::optional_integer:
      fits = v.is_int() || v.is_null();
      break;
    case FieldKind::number:
      fits = v.is_float() || v.is_int();
      break;
    case FieldKind::flag:
      fits = v.is_bool();
      break;
    case FieldKind::optional_integers:
    case FieldKind::lines:
      fits = v.is_list() || (kind == FieldKind::optional_integers && v.is_null());
      break;
  }
  if (!fits)
    return raise(PyExc_TypeError, messages::record_field_kind("record", name, expected_kind(kind)));
  if (v.is_null()) Py_RETURN_NONE;
  switch (kind) {
    case FieldKind::text:
      if (given && given->text == v.as_string()) return Py_NewRef(given->object);
      return strings.get(v.as_string());
    case FieldKind::integer:
    case FieldKind::optional_integer:
      if (given && given->integer == v.as_int()) return Py_NewRef(given->object);
      return PyLong_FromLongLong(v.as_int());
    case FieldKind::number:
      return PyFloat_FromDouble(v.is_float() ? v.as_float() : static_cast<double>(v.as_int()));
    case FieldKind::flag:
      return PyBool_FromLong(v.as_bool() ? 1 : 0);
    case FieldKind::optional_integers:
      return int_tuple(v.as_list(), name);
    case FieldKind::lines:
      return str_tuple(v.as_list(), name);
  }
  return nullptr;
}

// Each field's value object for a record of `call`'s evaluation, `first_line`, when given,
// replacing the rationale's first line; false with a Python error set.
inline bool record_values(const request::PositionalCall& call, const Given& prefer,
                          const Given& model, const Given& world_size,
                          const std::optional<std::string>& first_line,
                          std::array<PyObject*, kFields.size()>& out) {
  const std::span<const ValueView> values = call.values();
  for (std::size_t k = 0; k < kFields.size(); ++k) {
    const Given* given = k == 0 ? &prefer : k == 1 ? &model : k == 2 ? &world_size : nullptr;
    Ref value(field_value(values[call.field(k)], kFields[k].kind, kFields[k].name, given));
    if (value && first_line && kFields[k].kind == FieldKind::lines &&
        PyTuple_GET_SIZE(value.get()) > 0) {
      PyObject* line = to_str(*first_line);
      if (!line || PyTuple_SetItem(value.get(), 0, line) < 0) value.reset(nullptr);
    }
    if (!value) {
      for (std::size_t done = 0; done < k; ++done) Py_CLEAR(out[done]);
      return false;
    }
    out[k] = value.release();
  }
  return true;
}

// The record as `__init__` would leave it, the frozen dataclass's own __setattr__ bypassed:
// object.__new__(cls), then each field set as object.__setattr__ sets it, beside the class's
// shared keys. Steals `fields`.
inline PyObject* record_by_setattr(std::array<PyObject*, kFields.size()>& fields) {
  Ref record(module.recommendation->tp_new(module.recommendation, module.no_arguments, nullptr));
  int status = record ? 0 : -1;
  for (std::size_t k = 0; k < kFields.size(); ++k) {
    const Ref value(fields[k]);
    if (status == 0) status = PyObject_GenericSetAttr(record.get(), module.keys[k], value.get());
  }
  return status == 0 ? record.release() : nullptr;
}

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
// The 16 object.__setattr__ stores above are ~3,000 of a call's ~10,000 instructions: each is a
// type lookup and a search of the shared keys. CPython 3.11 lays a split table out as the
// public PyDictObject with `ma_values` an array of value pointers in the shared keys' order
// (Include/internal/pycore_dict.h: struct _dictvalues { PyObject *values[1]; }), and
// PyDict_Copy of a split table copies that array and shares the keys. So a record's dict is a
// copy of a prototype's whose values are replaced in place, the places found once here, and
// is attached to an instance allocated without values (the state `__dict__` leaves it in):
// the same keys in the same order, the same dict to vars(), ~1,000 instructions fewer.
inline constexpr bool kSplitRecordDict = true;

// The prototype: a record made by record_by_setattr with each field's name as its value, so
// where each name sits in its values is where that field goes. Null, with no error, when its
// dict is no split table holding exactly the 16 fields in the first 16 places (a class whose
// shared keys hold other names first); records are then made by record_by_setattr.
inline PyObject* record_dict_of(std::array<std::uint8_t, kFields.size()>& value_index) {
  std::array<PyObject*, kFields.size()> names{};
  for (std::size_t k = 0; k < kFields.size(); ++k) names[k] = Py_NewRef(module.keys[k]);
  Ref prototype(record_by_setattr(names));
  if (!prototype) return nullptr;
  Ref dict(PyObject_GenericGetDict(prototype.get(), nullptr));
  if (!dict) return nullptr;
  const auto* table = reinterpret_cast<const PyDictObject*>(dict.get());
  if (!PyDict_CheckExact(dict.get()) || !table->ma_values ||
      table->ma_used != static_cast<Py_ssize_t>(kFields.size()))
    return nullptr;
  // 16 distinct places hold the 16 values, so the values array has at least 16.
  PyObject* const* held = reinterpret_cast<PyObject* const*>(table->ma_values);
  std::array<bool, kFields.size()> placed{};
  for (std::size_t at = 0; at < kFields.size(); ++at) {
    std::size_t k = 0;
    while (k < kFields.size() && held[at] != module.keys[k]) ++k;
    if (k == kFields.size() || placed[k]) return nullptr;
    placed[k] = true;
    value_index[k] = static_cast<std::uint8_t>(at);
  }
  return dict.release();
}

// A record holding `fields` (stolen) in a copy of the prototype's dict; null with an error set.
inline PyObject* record_by_dict(std::array<PyObject*, kFields.size()>& fields) {
  Ref dict(PyDict_Copy(module.record_dict));
  const auto* prototype = reinterpret_cast<const PyDictObject*>(module.record_dict);
  auto* table = reinterpret_cast<PyDictObject*>(dict.get());
  if (!dict) {
    for (PyObject*& field : fields) Py_CLEAR(field);
    return nullptr;
  }
  if (!table->ma_values || table->ma_keys != prototype->ma_keys)  // not as 3.11 copies
    return record_by_setattr(fields);
  auto** held = reinterpret_cast<PyObject**>(table->ma_values);
  for (std::size_t k = 0; k < kFields.size(); ++k) {
    PyObject*& place = held[module.value_index[k]];
    Py_SETREF(place, fields[k]);
  }
  // PyDict_SetItem would start tracking a dict given a container (a tuple field, a str
  // subclass with attributes); the copy is tracked only when the prototype still is.
  if (!PyObject_GC_IsTracked(dict.get())) PyObject_GC_Track(dict.get());
  Ref record(module.recommendation->tp_alloc(module.recommendation, 0));
  if (!record || PyObject_GenericSetDict(record.get(), dict.get(), nullptr) < 0) return nullptr;
  return record.release();
}
#else
inline constexpr bool kSplitRecordDict = false;
inline PyObject* record_dict_of(std::array<std::uint8_t, kFields.size()>&) { return nullptr; }
inline PyObject* record_by_dict(std::array<PyObject*, kFields.size()>& fields) {
  return record_by_setattr(fields);
}
#endif

// The record of `call`'s evaluation; `first_line`, when given, replaces the rationale's first
// line.
inline PyObject* make_record(const request::PositionalCall& call, const Given& prefer,
                             const Given& model, const Given& world_size,
                             const std::optional<std::string>& first_line) {
  if (const auto& missing = call.missing_field())
    return raise(PyExc_TypeError, messages::record_lacks_field("record", *missing));
  std::array<PyObject*, kFields.size()> fields{};
  if (!record_values(call, prefer, model, world_size, first_line, fields)) return nullptr;
  return module.record_dict ? record_by_dict(fields) : record_by_setattr(fields);
}

// Releasing and retaking the GIL costs about 70 ns, a tenth of a whole call, and a call of a
// microsecond gains nothing from running beside other threads. So a drop-in releases it only
// when its evaluation may take long: rules other than the built-in ones (whatever they
// compute), or a batch size whose microbatch search (pipeline_microbatches, up to about
// 1.5 * sqrt(batch_size) steps) may run past a few microseconds. The reference holds the GIL
// for its whole call in every case.
constexpr std::int64_t kBatchSizeHoldingTheGil = std::int64_t{1} << 24;  // <= ~6,000 steps

inline bool may_take_long(std::int64_t batch_size) { return batch_size >= kBatchSizeHoldingTheGil; }

// The GIL released for the scope, when `release` says so.
class MaybeWithoutGil {
 public:
  explicit MaybeWithoutGil(bool release) : state_(release ? PyEval_SaveThread() : nullptr) {}
  MaybeWithoutGil(const MaybeWithoutGil&) = delete;
  MaybeWithoutGil& operator=(const MaybeWithoutGil&) = delete;
  ~MaybeWithoutGil() {
    if (state_) PyEval_RestoreThread(state_);
  }

 private:
  PyThreadState* state_;
};

}  // namespace snnplan::python
