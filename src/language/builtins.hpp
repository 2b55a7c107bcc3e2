#pragma once
// The functions expressions may call, described once: one row per builtin with its name,
// signature (arity, the kinds of its arguments and of its result), its implementation, how
// the table analysis treats it and a line for docs/rules.md. The checker reads the signature,
// the compiler resolves names to rows, the evaluator calls the implementation.
//
// Adding a builtin: its row and implementation in builtins.cpp, a test; then regenerate
// docs/rules.md (docs/architecture.md says how).

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/runtime_value.hpp"
#include "core/value_kinds.hpp"

namespace snnplan::language {

/// The longest list repeat() builds: beyond it, a rule error.
inline constexpr std::size_t kMaxRepeatedItems = std::size_t{1} << 16;

/// The largest number divisors() searches (its divisors are found up to the square root).
inline constexpr detail::Wide kMaxDivisorsArgument = detail::Wide{1} << 48;

struct BuiltinInfo;

/// What the table analysis knows of a builtin beyond evaluating it at a point.
enum class BuiltinAnalysis : std::uint8_t {
  prefix_test,        ///< starts_with(input, 'constant'): the input's values split by prefix
  picks_an_argument,  ///< the result is one of the arguments, chosen by comparing them (min, max)
  /// the result is one of the arguments, chosen by something the analysis does not model
  /// (try: whether the first fails); it follows every argument's values, as for `c ? a : b`
  returns_an_argument,
  /// index_of(input, constant), contains(input, constant) on a list input: its
  /// representatives hold the constants in every order (analyse/domains.cpp)
  list_item,
  list_length,  ///< len(input) of a list input: its representatives' lengths
  opaque,       ///< nothing: a condition that uses it is beyond the exact analysis (a note)
};

/// When the evaluator computes a call's arguments.
enum class ArgumentEvaluation : std::uint8_t {
  before_the_call,  ///< all of them, in order, before the implementation runs
  on_demand,        ///< when the implementation asks (BuiltinArguments::evaluate): try()
};

/// Computes argument k of the call being made, for builtins whose arguments are evaluated on
/// demand. Implemented by the evaluator; it throws EvaluationFailure as evaluation does.
class ArgumentSource {
 public:
  virtual detail::RValue evaluate(std::size_t k) = 0;

 protected:
  ~ArgumentSource() = default;
};

/// An argument of the wrong kind, or arguments that cannot be compared: thrown by an
/// implementation, placed by the evaluator at that argument's position in the rule file.
struct ArgumentError {
  std::size_t index;
  std::string message;
};

/// The arguments of one call: evaluated before it, or (ArgumentEvaluation::on_demand) given
/// by a source that evaluates them when asked.
class BuiltinArguments {
 public:
  BuiltinArguments(const BuiltinInfo& builtin, std::span<const detail::RValue> values,
                   detail::ValueStore& store)
      : builtin_(builtin), values_(values), size_(values.size()), store_(store) {}
  BuiltinArguments(const BuiltinInfo& builtin, std::size_t size, ArgumentSource& source,
                   detail::ValueStore& store)
      : builtin_(builtin), source_(&source), size_(size), store_(store) {}

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Argument k, computed now when arguments are evaluated on demand (each call computes it
  /// again), else the value computed before the call.
  [[nodiscard]] detail::RValue evaluate(std::size_t k) const {
    return source_ ? source_->evaluate(k) : values_[k];
  }
  // The accessors below are for arguments evaluated before the call.
  [[nodiscard]] const detail::RValue& operator[](std::size_t k) const noexcept {
    return values_[k];
  }
  /// Argument k, which must be of its parameter's kinds (ArgumentError otherwise).
  [[nodiscard]] const detail::RValue& need(std::size_t k) const;  // inline, below
  /// Argument k, which must be of `kind`; `expected` names it in the message.
  [[nodiscard]] const detail::RValue& need(std::size_t k, detail::RValue::Kind kind,
                                           const char* expected) const;
  [[nodiscard]] detail::ValueStore& store() const noexcept { return store_; }
  [[nodiscard]] const BuiltinInfo& builtin() const noexcept { return builtin_; }

 private:
  [[noreturn]] void refuse(std::size_t k) const;  // need()'s ArgumentError
  const BuiltinInfo& builtin_;
  std::span<const detail::RValue> values_;
  ArgumentSource* source_ = nullptr;
  std::size_t size_;
  detail::ValueStore& store_;
};

struct BuiltinParameter {
  detail::KindSet kinds = detail::kAny;
  const char* expected = "any value";  ///< the kinds as a message names them
};

struct BuiltinInfo {
  const char* name;
  std::size_t min_args;
  std::size_t max_args;  ///< SIZE_MAX: any number
  /// The first and second argument; any further arguments are like the second (parameter()).
  std::array<BuiltinParameter, 2> parameters;
  detail::KindSet result;
  /// The result has the kinds of the arguments (min, max), within `result`.
  bool result_from_arguments;
  detail::RValue (*call)(const BuiltinArguments& args);
  ArgumentEvaluation arguments;
  BuiltinAnalysis analysis;
  const char* signature;  ///< for docs/rules.md: "starts_with(text, prefix) -> bool"
  const char* summary;
  /// The items of the list it returns are the value of this argument (repeat's item), so a
  /// list's item type is checked there; -1 for none.
  int items_from_argument;

  /// What argument k (from 0) must be.
  [[nodiscard]] constexpr const BuiltinParameter& parameter(std::size_t k) const { return parameters[k < 2 ? k : 1]; }
};

// Inline: every builtin checks its arguments' kinds, and nearly every check passes.
inline const detail::RValue& BuiltinArguments::need(std::size_t k) const {
  if (!(detail::kind_bit(values_[k]) & builtin_.parameter(k).kinds)) refuse(k);
  return values_[k];
}

/// Every builtin.
std::span<const BuiltinInfo> builtins();
/// The builtin called `name`, or nullptr.
const BuiltinInfo* find_builtin(std::string_view name);

}  // namespace snnplan::language
