#pragma once
// The texts of the rule language's operations and builtins (language/): runtime errors of
// operators, matchers and builtins, in one place; tests assert them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
// ---- comparisons --------------------------------------------------------------------------------
inline std::string incomparable(std::string_view op, std::string_view left,
                                std::string_view right) {
  return fmt::format("cannot compare {} with {} using '{}'", left, right, op);
}

// ---- operators, matchers and builtins at run time -----------------------------------------------
inline std::string integer_overflow(std::string_view what) {
  return fmt::format("integer overflow: {} is beyond the 128-bit range of intermediate results",
                     what);
}
inline std::string negation(std::string_view operand) {
  return fmt::format("-({})", operand);
}
inline std::string division_by_zero() {
  return "division by zero";
}
inline std::string runtime_type(std::string_view where, std::string_view what) {
  return fmt::format("{}: {}", where, what);
}
inline std::string matcher_needs_list() {
  return "one_of needs a list";
}
inline std::string builtin_argument(std::size_t position, std::string_view builtin) {
  return fmt::format("argument {} of {}()", position, builtin);
}
inline std::string operand_kinds(std::string_view op, std::string_view left,
                                 std::string_view right) {
  return fmt::format("cannot apply '{}' to {} and {}", op, left, right);
}
// The builtin pipeline_microbatches: the reference's ValueError texts, word for word.
inline std::string microbatches_not_positive(std::string_view name, std::string_view got) {
  return fmt::format("{} must be positive, but got {}.", name, got);
}
inline std::string microbatches_fewer_than_stages(std::string_view batch_size,
                                                  std::string_view num_stages) {
  return fmt::format(
      "batch_size ({}) must be >= num_stages ({}) for pipeline parallelism with the current "
      "microbatch "
      "splitting implementation.",
      batch_size, num_stages);
}
inline std::string microbatches_no_divisor(std::string_view batch_size, std::string_view num_stages,
                                           std::string_view target) {
  return fmt::format(
      "batch_size ({}) must be divisible by at least one microbatch count in [{}, {}] for pipeline "
      "parallelism.",
      batch_size, num_stages, target);
}
inline std::string repeat_too_long(std::string_view count, std::size_t limit) {
  return fmt::format(
      "repeat() would build a list of {} items (nested ones included), more than the limit of {}",
      count, limit);
}
// int() of a float that has no integer value: Python's ValueError and OverflowError texts.
inline std::string int_of_nan() {
  return "cannot convert float NaN to integer";
}
inline std::string int_of_infinity() {
  return "cannot convert float infinity to integer";
}
inline std::string divisors_too_large(std::string_view value, std::string_view limit) {
  return fmt::format("divisors() of {}: only numbers up to {} are searched", value, limit);
}
inline std::string repr_too_long(std::size_t limit) {
  return fmt::format("repr() would write more than {} bytes", limit);
}

// ---- types: a value where its place wants another kind ----------------------------------------
inline std::string type_mismatch(std::string_view what, std::string_view expected,
                                 std::string_view got) {
  return fmt::format("{} must be {}, but it is {}", what, expected, got);
}

}  // namespace snnplan::messages
