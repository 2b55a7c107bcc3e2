#pragma once
/// \file
/// A value that refers to storage owned elsewhere: the fields of an Evaluation.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "snnplan/value.hpp"

namespace snnplan {

/// A field value that refers to storage owned elsewhere (see the file comment). Valid while
/// the inputs and the Evaluation it came from are alive and the Evaluation is not reused (the
/// Evaluation keeps the rule set's compiled text alive itself). Like a span's operator[],
/// the as_*() accessors do not check the kind: test it first (is_*() or kind()).
class ValueView {
 public:
  enum class Kind : std::uint8_t { null, boolean, integer, floating, string, list };

  ValueView() noexcept : i_(0) {}
  static ValueView of_bool(bool v) noexcept { ValueView r; r.kind_ = Kind::boolean; r.b_ = v; return r; }
  static ValueView of_int(std::int64_t v) noexcept { ValueView r; r.kind_ = Kind::integer; r.i_ = v; return r; }
  static ValueView of_float(double v) noexcept { ValueView r; r.kind_ = Kind::floating; r.f_ = v; return r; }
  static ValueView of_string(std::string_view v) noexcept {
    ValueView r;
    r.kind_ = Kind::string;
    r.s_ = {v.data(), v.size()};
    return r;
  }
  static ValueView of_list(std::span<const ValueView> v) noexcept {
    ValueView r;
    r.kind_ = Kind::list;
    r.l_ = {v.data(), v.size()};
    return r;
  }

  [[nodiscard]] Kind kind() const noexcept { return kind_; }
  [[nodiscard]] bool is_null() const noexcept { return kind_ == Kind::null; }
  [[nodiscard]] bool is_bool() const noexcept { return kind_ == Kind::boolean; }
  [[nodiscard]] bool is_int() const noexcept { return kind_ == Kind::integer; }
  [[nodiscard]] bool is_float() const noexcept { return kind_ == Kind::floating; }
  [[nodiscard]] bool is_string() const noexcept { return kind_ == Kind::string; }
  [[nodiscard]] bool is_list() const noexcept { return kind_ == Kind::list; }

  /// Preconditions: the value holds that kind (unchecked, as for a span's operator[]).
  [[nodiscard]] bool as_bool() const noexcept { return b_; }
  [[nodiscard]] std::int64_t as_int() const noexcept { return i_; }
  [[nodiscard]] double as_float() const noexcept { return f_; }
  [[nodiscard]] std::string_view as_string() const noexcept { return {s_.data, s_.size}; }
  [[nodiscard]] std::span<const ValueView> as_list() const noexcept { return {l_.data, l_.size}; }

  /// An owning copy.
  [[nodiscard]] Value to_value() const;

 private:
  struct Text {
    const char* data;
    std::size_t size;
  };
  struct Items {
    const ValueView* data;
    std::size_t size;
  };
  Kind kind_ = Kind::null;
  union {
    bool b_;
    std::int64_t i_;
    double f_;
    Text s_;
    Items l_;
  };
};

bool operator==(const ValueView& view, const Value& value);

}  // namespace snnplan
