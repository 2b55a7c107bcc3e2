#pragma once
/// \file
/// Values that cross the library boundary: inputs given to a rule set and the fields of the
/// record it returns.

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace snnplan {

/// A null, boolean, 64-bit integer, float, string or list value.
/// (Inside the evaluator integers are wider, so intermediate results never wrap; what comes
/// out always fits 64 bits or the evaluation fails with a clear error.)
class Value {
 public:
  using List = std::vector<Value>;
  using Storage = std::variant<std::monostate, bool, std::int64_t, double, std::string, List>;

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : storage_(b) {}
  Value(int i) : storage_(static_cast<std::int64_t>(i)) {}
  Value(std::int64_t i) : storage_(i) {}
  Value(double f) : storage_(f) {}
  Value(std::string s) : storage_(std::move(s)) {}
  Value(const char* s) : storage_(std::string(s)) {}
  Value(List list) : storage_(std::move(list)) {}

  [[nodiscard]] bool is_null() const noexcept { return storage_.index() == 0; }
  [[nodiscard]] bool is_bool() const noexcept { return storage_.index() == 1; }
  [[nodiscard]] bool is_int() const noexcept { return storage_.index() == 2; }
  [[nodiscard]] bool is_float() const noexcept { return storage_.index() == 3; }
  [[nodiscard]] bool is_string() const noexcept { return storage_.index() == 4; }
  [[nodiscard]] bool is_list() const noexcept { return storage_.index() == 5; }

  /// Accessors throw std::bad_variant_access when the value holds another kind.
  [[nodiscard]] bool as_bool() const { return std::get<bool>(storage_); }
  [[nodiscard]] std::int64_t as_int() const { return std::get<std::int64_t>(storage_); }
  [[nodiscard]] double as_float() const { return std::get<double>(storage_); }
  [[nodiscard]] const std::string& as_string() const { return std::get<std::string>(storage_); }
  [[nodiscard]] const List& as_list() const { return std::get<List>(storage_); }
  [[nodiscard]] const Storage& storage() const noexcept { return storage_; }

  friend bool operator==(const Value&, const Value&) = default;

 private:
  Storage storage_;
};

/// Named inputs for an evaluation, e.g. {{"model", "spikformer"}, {"world_size", 8}}.
/// Inputs left out take the rule file's defaults; a null value also means "use the default".
using Inputs = std::vector<std::pair<std::string, Value>>;

/// Python-like rendering used by rationale templates: strings raw, lists as "[2, 4]".
std::string to_display_string(const Value& value);

}  // namespace snnplan
