#pragma once
/// \file
/// Values that cross the library boundary: inputs given to a rule set and the fields of the
/// record it returns.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace snnplan {

namespace detail {
/// The integer types a Value takes: not bool (a Value of its own kind) and not the character
/// types, so that Value('x') does not compile rather than meaning 120.
template <typename T>
concept Integer = std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
                  !std::is_same_v<T, wchar_t> && !std::is_same_v<T, char8_t> &&
                  !std::is_same_v<T, char16_t> && !std::is_same_v<T, char32_t>;
}  // namespace detail

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
  /// Any integer type (int, unsigned, long long, std::size_t, std::uint64_t, ...). Throws
  /// std::out_of_range for an unsigned value above INT64_MAX, which a Value cannot hold.
  template <detail::Integer Integer>
  Value(Integer i) : storage_(to_int64(i)) {}
  Value(double f) : storage_(f) {}
  Value(std::string s) : storage_(std::move(s)) {}
  Value(std::string_view s) : storage_(std::string(s)) {}
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
  template <typename Integer>
  static std::int64_t to_int64(Integer i) {
    if constexpr (std::is_unsigned_v<Integer> &&
                  std::numeric_limits<Integer>::max() > std::uint64_t{INT64_MAX}) {
      if (i > std::uint64_t{INT64_MAX}) throw_out_of_range(i);
    }
    return static_cast<std::int64_t>(i);
  }
  [[noreturn]] static void throw_out_of_range(std::uint64_t value);

  Storage storage_;
};

/// Named inputs for an evaluation, e.g. {{"model", "spikformer"}, {"world_size", 8}}.
/// Inputs left out take the rule file's defaults; a null value also means "use the default".
using Inputs = std::vector<std::pair<std::string, Value>>;

/// Python-like rendering used by rationale templates: strings raw, lists as "[2, 4]".
std::string to_display_string(const Value& value);

}  // namespace snnplan
