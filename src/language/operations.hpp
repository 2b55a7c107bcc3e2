#pragma once
// What the rule language's operators mean, defined once: arithmetic, comparison, truth,
// negation and lower-casing over runtime values. The evaluator computes with these, and the
// table analysis reasons with the very same functions (through the evaluator's probe and the
// integer helpers below), so what `check` proves is what `recommend` does.
//
// An operation that cannot produce a value throws EvaluationFailure with the message a user
// reads; the evaluator turns it into an EvaluationError value at its boundary.

#include <string>

#include "core/runtime_value.hpp"
#include "language/syntax.hpp"
#include "snnplan/evaluation_result.hpp"
#include "snnplan/source_location.hpp"

namespace snnplan::language {

using detail::RValue;
using detail::ValueStore;
using detail::Wide;

/// Why an evaluation stops (thrown; see the file comment).
struct EvaluationFailure {
  EvaluationErrorKind kind;
  std::string message;
  /// A value of the wrong kind (type_failure): a mistake in the rule file, which try() does
  /// not catch.
  bool wrong_kind = false;
};

/// The rules raised an error (exit code 1).
[[noreturn]] void rule_failure(std::string message);
/// A problem the checker could not rule out statically (a value of the wrong kind from a
/// mixed-kind expression): a rule error with the rule-file position.
[[noreturn]] void type_failure(const SourceLocation& at, std::string message);

// ---- integers -------------------------------------------------------------------------------

enum class IntegerStatus : std::uint8_t { ok, overflow, division_by_zero };

/// `a op b` for + - * / % on 128-bit integers with Python's semantics (the quotient rounds
/// toward negative infinity, the remainder takes the divisor's sign); never wraps. Inline:
/// the evaluator's integer arithmetic runs it without a call.
inline IntegerStatus integer_arithmetic(syntax::Op op, Wide a, Wide b, Wide& out) {
  switch (op) {
    case syntax::Op::add:
      return __builtin_add_overflow(a, b, &out) ? IntegerStatus::overflow : IntegerStatus::ok;
    case syntax::Op::subtract:
      return __builtin_sub_overflow(a, b, &out) ? IntegerStatus::overflow : IntegerStatus::ok;
    case syntax::Op::multiply:
      return __builtin_mul_overflow(a, b, &out) ? IntegerStatus::overflow : IntegerStatus::ok;
    case syntax::Op::divide:
    case syntax::Op::modulo: {
      if (b == 0) return IntegerStatus::division_by_zero;
      if (b == -1) {
        if (op == syntax::Op::modulo) {
          out = 0;
          return IntegerStatus::ok;
        }
        return __builtin_sub_overflow(Wide{0}, a, &out) ? IntegerStatus::overflow
                                                        : IntegerStatus::ok;
      }
      // 64-bit operands divide natively: 128-bit division is a library call.
      const bool narrow = detail::fits_int64(a) && detail::fits_int64(b);
      Wide q = narrow ? Wide{static_cast<std::int64_t>(a) / static_cast<std::int64_t>(b)} : a / b;
      Wide m = narrow ? Wide{static_cast<std::int64_t>(a) % static_cast<std::int64_t>(b)} : a % b;
      if (m != 0 && ((m < 0) != (b < 0))) {
        q -= 1;
        m += b;
      }
      out = op == syntax::Op::divide ? q : m;
      return IntegerStatus::ok;
    }
    default:
      return IntegerStatus::overflow;
  }
}

// ---- values ---------------------------------------------------------------------------------

/// -1, 0 or 1 when `a` and `b` are ordered; kUnordered when a float is NaN (every ordering
/// comparison is false); kIncomparable when their kinds cannot be ordered. Integers and
/// floats compare exactly (no rounding of the integer), strings by bytes.
inline constexpr int kUnordered = 2;
inline constexpr int kIncomparable = 3;
int compare(const RValue& a, const RValue& b);
/// compare(), failing with the "cannot compare" message for `op` when the kinds do not order.
int compare_or_fail(const RValue& a, const RValue& b, const SourceLocation& at, const char* op);

/// Whether an ordering comparison holds, given compare()'s result (NaN: never).
inline bool holds(syntax::Op op, int order) {
  switch (op) {
    case syntax::Op::less:
      return order == -1;
    case syntax::Op::less_equal:
      return order == -1 || order == 0;
    case syntax::Op::greater:
      return order == 1;
    case syntax::Op::greater_equal:
      return order == 0 || order == 1;
    default:
      return false;
  }
}

/// Fails: `value`, not a bool, stands where a condition must be (truth()'s refusal).
[[noreturn]] void not_a_condition(const RValue& value, const SourceLocation& at);
/// The value of a condition; fails unless it is a bool. Inline: every `&&`, `||`, `!` and
/// `?:` asks.
inline bool truth(const RValue& value, const SourceLocation& at) {
  if (value.kind != RValue::Kind::boolean) not_a_condition(value, at);
  return value.b;
}
/// Python's int / int: the quotient as the nearest double.
double true_quotient(Wide a, Wide b);
/// Python's float // float (`y` not zero): the quotient rounded toward negative infinity.
double float_floor_quotient(double x, double y);
/// `a op b` for + - * / // %: integers exactly, floats as doubles, strings and lists joined
/// by +.
RValue arithmetic(syntax::Op op, const RValue& a, const RValue& b, const SourceLocation& at,
                  ValueStore& store);
/// Unary minus.
RValue negate(const RValue& value, const SourceLocation& at);

/// Python's str.lower() of a string value: the value itself when nothing changes (no copy),
/// else the lowered text kept in `store`.
RValue lowered(const RValue& value, ValueStore& store);
/// Python's str.lower() (full Unicode simple case mappings where C.UTF-8 exists).
std::string lower(std::string_view text);

}  // namespace snnplan::language
