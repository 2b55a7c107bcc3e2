#pragma once
// Small CPython helpers of the drop-in functions (drop_in.cpp): owned references, str <-> UTF-8,
// 64-bit ints, and the exceptions they raise. Inline: they are on every call's path.

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "messages.hpp"

namespace snnplan::python {

// An owned reference, released at scope exit.
class Ref {
 public:
  Ref() = default;
  explicit Ref(PyObject* o) : o_(o) {}
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  ~Ref() { Py_XDECREF(o_); }
  void reset(PyObject* o) {
    Py_XDECREF(o_);
    o_ = o;
  }
  [[nodiscard]] PyObject* get() const { return o_; }
  PyObject* release() {
    PyObject* o = o_;
    o_ = nullptr;
    return o;
  }
  explicit operator bool() const { return o_ != nullptr; }

 private:
  PyObject* o_ = nullptr;
};

// A str's UTF-8 bytes into `out`. Lone surrogates (which Python strings may hold and the
// reference formats like any character) pass through as "surrogatepass" encodes them.
inline bool utf8(PyObject* s, std::string& out);

// The text of the str `s` for one call: a plain ASCII str's own bytes, not copied (the caller's
// arguments outlive the call), else its UTF-8 kept in `keep`. Saves a copy per string argument.
inline bool text_of(PyObject* s, std::string& keep, std::string_view& out) {
  if (PyUnicode_IS_COMPACT_ASCII(s)) {
    out = {static_cast<const char*>(PyUnicode_DATA(s)), static_cast<std::size_t>(PyUnicode_GET_LENGTH(s))};
    return true;
  }
  if (!utf8(s, keep)) return false;
  out = keep;
  return true;
}

inline bool utf8(PyObject* s, std::string& out) {
  Py_ssize_t size = 0;
  if (const char* data = PyUnicode_AsUTF8AndSize(s, &size)) {
    out.assign(data, static_cast<std::size_t>(size));
    return true;
  }
  if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return false;
  PyErr_Clear();
  Ref bytes(PyUnicode_AsEncodedString(s, "utf-8", "surrogatepass"));
  if (!bytes) return false;
  out.assign(PyBytes_AS_STRING(bytes.get()),
             static_cast<std::size_t>(PyBytes_GET_SIZE(bytes.get())));
  return true;
}

inline PyObject* to_str(std::string_view s) {
  return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogatepass");
}

// A Python int within 64 bits (bool included: Python's bool is an int).
enum class IntStatus { ok, not_int, too_large, error };
inline IntStatus int64_of(PyObject* o, std::int64_t& out) {
  if (!PyLong_Check(o)) return IntStatus::not_int;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow != 0) return IntStatus::too_large;
  if (v == -1 && PyErr_Occurred()) return IntStatus::error;
  out = static_cast<std::int64_t>(v);
  return IntStatus::ok;
}

inline PyObject* raise(PyObject* type, const std::string& message) {
  Ref text(to_str(message));
  if (text) PyErr_SetObject(type, text.get());
  return nullptr;
}

inline PyObject* overflow(std::string_view what, PyObject* value) {
  Ref shown(PyObject_Str(value));
  std::string text;
  if (!shown || !utf8(shown.get(), text)) return nullptr;
  return raise(PyExc_OverflowError, messages::py_int_too_large(what, text));
}

inline PyObject* unsupported(std::string_view what, std::string_view expected, PyObject* value) {
  return raise(PyExc_TypeError, messages::py_wrong_type(what, expected, Py_TYPE(value)->tp_name));
}

}  // namespace snnplan::python
