#include "language/builtins.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "language/messages.hpp"
#include "language/microbatches.hpp"
#include "language/operations.hpp"
#include "language/python_repr.hpp"

namespace snnplan::language {
namespace {

using detail::RValue;
using detail::Wide;
using Kind = RValue::Kind;
using namespace detail;  // the kind bits kString, kList, ...

// Compared with same_text(): a prefix or suffix of a few bytes (a model family) in words
// inline, not a call of memcmp.
RValue starts_with(const BuiltinArguments& args) {
  const std::string_view text = args.need(0).s();
  const std::string_view prefix = args.need(1).s();
  return RValue::of_bool(text.size() >= prefix.size() &&
                         same_text(text.substr(0, prefix.size()), prefix));
}
RValue ends_with(const BuiltinArguments& args) {
  const std::string_view text = args.need(0).s();
  const std::string_view suffix = args.need(1).s();
  return RValue::of_bool(text.size() >= suffix.size() &&
                         same_text(text.substr(text.size() - suffix.size()), suffix));
}

RValue contains(const BuiltinArguments& args) {
  if (args[0].kind == Kind::string)
    return RValue::of_bool(args[0].s().find(args.need(1, Kind::string, "string").s()) !=
                           std::string_view::npos);
  for (const RValue& item : args.need(0).list())
    if (values_equal(item, args[1])) return RValue::of_bool(true);
  return RValue::of_bool(false);
}

RValue lower(const BuiltinArguments& args) {
  return lowered(args.need(0), args.store());
}

RValue len(const BuiltinArguments& args) {
  const RValue& v = args.need(0);
  return RValue::of_int(static_cast<Wide>(v.kind == Kind::string ? v.text.size : v.items.size));
}

// min and max: the first of the arguments that orders before (or after) all others.
template <int kBetter>
RValue pick(const BuiltinArguments& args) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < args.size(); ++k) {
    const int c = compare(args[k], args[best]);
    if (c == kIncomparable)
      throw ArgumentError{k, messages::incomparable(args.builtin().name, kind_name(args[k]),
                                                    kind_name(args[best]))};
    if (c == kBetter) best = k;
  }
  return args[best];
}

RValue index_of(const BuiltinArguments& args) {
  const RValue& list = args.need(0);
  for (std::size_t k = 0; k < list.items.size; ++k)
    if (values_equal(list.items.data[k], args[1])) return RValue::of_int(static_cast<Wide>(k));
  return RValue{};
}

RValue microbatches(const BuiltinArguments& args) {
  const Wide batch_size = args.need(0).i;  // in this order: the first wrong argument is reported
  const Wide num_stages = args.need(1).i;
  auto result = pipeline_microbatches(batch_size, num_stages);
  if (auto* message = std::get_if<std::string>(&result)) rule_failure(std::move(*message));
  return RValue::of_int(std::get<Wide>(result));
}

RValue repr(const BuiltinArguments& args) {
  std::string text;
  append_python_repr(text, args.need(0));
  return args.store().string(text);
}

RValue repr_tuple(const BuiltinArguments& args) {
  std::string text;
  append_python_repr(text, args.need(0), Brackets::tuple);
  return args.store().string(text);
}

// try(value, fallback): the fallback is computed only when computing the value raises a rule
// error. A value of the wrong kind is a mistake in the rule file, not an outcome of the
// inputs, and a bad input is the caller's: neither is caught.
RValue attempt(const BuiltinArguments& args) {
  try {
    return args.evaluate(0);
  } catch (const EvaluationFailure& failure) {
    if (failure.kind != EvaluationErrorKind::rule_error || failure.wrong_kind) throw;
  }
  return args.evaluate(1);
}

// The items of `list` at every depth (a list item counts, and so do its own items).
std::size_t items_at_every_depth(const RValue& list) {
  std::size_t total = list.items.size;
  for (const RValue& item : list.list())
    if (item.kind == Kind::list) total += items_at_every_depth(item);
  return total;
}

// repeat(item, count): Python's [item] * count, so a count below 1 gives an empty list. The
// limit counts nested items too, so repeating a repeated list cannot square it.
RValue repeat(const BuiltinArguments& args) {
  const RValue& item = args.need(0);
  const Wide count = args.need(1).i;
  const Wide per_copy =
      1 + static_cast<Wide>(item.kind == Kind::list ? items_at_every_depth(item) : 0);
  const auto limit = static_cast<Wide>(kMaxRepeatedItems);
  const Wide total = count > limit ? count : count * per_copy;  // no overflow: count <= limit
  if (total > limit)
    rule_failure(messages::repeat_too_long(detail::wide_to_string(total), kMaxRepeatedItems));
  const auto size = count > 0 ? static_cast<std::size_t>(count) : 0;
  RValue* items = args.store().values(size);
  std::uninitialized_fill_n(items, size, item);
  return RValue::of_items({items, size});
}

// divisors(n): the positive divisors of n, ascending (Python's
// `[d for d in range(1, n + 1) if n % d == 0]`, so none for n < 1), found up to sqrt(n).
RValue divisors(const BuiltinArguments& args) {
  const Wide n = args.need(0).i;
  if (n > kMaxDivisorsArgument)
    rule_failure(messages::divisors_too_large(detail::wide_to_string(n),
                                              detail::wide_to_string(kMaxDivisorsArgument)));
  // Two passes up to sqrt(n), counting then filling, so the list is one allocation in the
  // store: each divisor d <= sqrt(n) at the front in order, its partner n / d at the back.
  std::size_t count = 0;
  for (Wide d = 1; d * d <= n; ++d)
    if (n % d == 0) count += d * d == n ? 1 : 2;
  RValue* items = args.store().values(count);
  std::size_t front = 0;
  std::size_t back = count;
  for (Wide d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    new (items + front++) RValue(RValue::of_int(d));
    if (d * d != n) new (items + --back) RValue(RValue::of_int(n / d));
  }
  return RValue::of_items({items, count});
}

// int(x): Python's int() of a number or bool; a float is truncated toward zero.
RValue to_int(const BuiltinArguments& args) {
  const RValue& v = args.need(0);
  if (v.kind == Kind::integer) return v;
  if (v.kind == Kind::boolean) return RValue::of_int(v.b ? 1 : 0);
  if (std::isnan(v.f)) rule_failure(messages::int_of_nan());
  if (std::isinf(v.f)) rule_failure(messages::int_of_infinity());
  const double whole = std::trunc(v.f);
  constexpr double kLimit = 0x1p127;  // the 128-bit range of intermediate results
  if (whole >= kLimit || whole < -kLimit)
    rule_failure(messages::integer_overflow(fmt::format("int({})", whole)));
  return RValue::of_int(static_cast<Wide>(whole));
}

// float(x): Python's float() of a number or bool (an integer rounded to the nearest double).
RValue to_float(const BuiltinArguments& args) {
  const RValue& v = args.need(0);
  if (v.kind == Kind::floating) return v;
  if (v.kind == Kind::boolean) return RValue::of_float(v.b ? 1.0 : 0.0);
  return RValue::of_float(detail::to_double(v.i));
}

constexpr BuiltinParameter kString_{kString, "string"};
constexpr BuiltinParameter kInteger{kInt, "int"};
constexpr BuiltinParameter kStringOrList{kString | kList, "string or list"};
constexpr BuiltinParameter kAnyValue{};
constexpr BuiltinParameter kOrderable{kInt | kFloat | kString, "int, float or string"};
constexpr BuiltinParameter kList_{kList, "list"};
constexpr BuiltinParameter kNumberOrBool{kInt | kFloat | kBool, "int, float or bool"};
// What Python code can hold: every value but a record (another rule set's result).
constexpr BuiltinParameter kPlainValue{kAny & ~kRecord, "a value other than a record"};
constexpr std::size_t kAnyNumber = std::numeric_limits<std::size_t>::max();
constexpr auto kBefore = ArgumentEvaluation::before_the_call;

// One row per line: the table is the definition (clang-format would split every field).
// clang-format off
constexpr BuiltinInfo kBuiltins[] = {
    {"starts_with", 2, 2, {{kString_, kString_}}, kBool, false, starts_with, kBefore, BuiltinAnalysis::prefix_test,
     "starts_with(text, prefix) -> bool", "whether `text` begins with `prefix`", -1},
    {"ends_with", 2, 2, {{kString_, kString_}}, kBool, false, ends_with, kBefore, BuiltinAnalysis::opaque,
     "ends_with(text, suffix) -> bool", "whether `text` ends with `suffix`", -1},
    {"contains", 2, 2, {{kStringOrList, kAnyValue}}, kBool, false, contains, kBefore, BuiltinAnalysis::list_item,
     "contains(text_or_list, item) -> bool", "whether a string holds a substring, or a list an item", -1},
    {"lower", 1, 1, {{kString_, kAnyValue}}, kString, false, lower, kBefore, BuiltinAnalysis::opaque,
     "lower(text) -> string", "the text in lower case, as Python's str.lower() (Unicode simple case mappings)", -1},
    {"len", 1, 1, {{kStringOrList, kAnyValue}}, kInt, false, len, kBefore, BuiltinAnalysis::list_length,
     "len(text_or_list) -> int", "the length of a string (in bytes) or a list", -1},
    {"min", 1, kAnyNumber, {{kOrderable, kOrderable}}, kInt | kFloat | kString, true, pick<-1>, kBefore,
     BuiltinAnalysis::picks_an_argument, "min(a, b, ...) -> the smallest argument", "the first smallest argument", -1},
    {"max", 1, kAnyNumber, {{kOrderable, kOrderable}}, kInt | kFloat | kString, true, pick<1>, kBefore,
     BuiltinAnalysis::picks_an_argument, "max(a, b, ...) -> the largest argument", "the first largest argument", -1},
    {"index_of", 2, 2, {{{kList, "list"}, kAnyValue}}, kInt | kNull, false, index_of, kBefore, BuiltinAnalysis::list_item,
     "index_of(list, item) -> int or null", "the position of the first equal item, or null", -1},
    {"pipeline_microbatches", 2, 2, {{kInteger, kInteger}}, kInt, false, microbatches, kBefore, BuiltinAnalysis::opaque,
     "pipeline_microbatches(batch_size, num_stages) -> int",
     "the reference's `recommended_pipeline_microbatches()`, its errors word for word", -1},
    {"try", 2, 2, {{kAnyValue, kAnyValue}}, kAny, true, attempt, ArgumentEvaluation::on_demand, BuiltinAnalysis::returns_an_argument,
     "try(value, fallback) -> value or fallback", "`value`, or `fallback` when computing `value` raises a rule error (only then is `fallback` computed)", -1},
    {"repeat", 2, 2, {{kPlainValue, kInteger}}, kList, false, repeat, kBefore, BuiltinAnalysis::opaque,
     "repeat(item, count) -> list", "a list of `count` copies of `item`, as Python's `[item] * count` (empty when `count` < 1; at most 65536 items, counting those of nested lists)", 0},
    {"repr", 1, 1, {{kPlainValue, kAnyValue}}, kString, false, repr, kBefore, BuiltinAnalysis::opaque,
     "repr(value) -> string", "Python's `repr()`: `'x'` (quotes and escapes as Python chooses them), `True`, `None`, `0.5`, `[1, 'a']`", -1},
    {"repr_tuple", 1, 1, {{kList_, kAnyValue}}, kString, false, repr_tuple, kBefore, BuiltinAnalysis::opaque,
     "repr_tuple(list) -> string", "Python's `repr()` of the list as a tuple: `('dp', 'ep')`, `('dp',)`, `()`", -1},
    {"divisors", 1, 1, {{kInteger, kAnyValue}}, kList, false, divisors, kBefore, BuiltinAnalysis::opaque,
     "divisors(n) -> list", "the positive divisors of `n` in ascending order (none when `n` < 1; `n` at most 2^48), for a search's `for`", -1},
    {"int", 1, 1, {{kNumberOrBool, kAnyValue}}, kInt, false, to_int, kBefore, BuiltinAnalysis::opaque,
     "int(x) -> int", "Python's `int()`: a float truncated toward zero (NaN and infinity are errors), a bool as 0 or 1", -1},
    {"float", 1, 1, {{kNumberOrBool, kAnyValue}}, kFloat, false, to_float, kBefore, BuiltinAnalysis::opaque,
     "float(x) -> float", "Python's `float()` of an int (rounded to the nearest double), a float or a bool", -1},
};
// clang-format on

}  // namespace

void BuiltinArguments::refuse(std::size_t k) const {
  throw ArgumentError{k, messages::type_mismatch(messages::builtin_argument(k + 1, builtin_.name),
                                                 builtin_.parameter(k).expected,
                                                 kind_name(values_[k]))};
}

const RValue& BuiltinArguments::need(std::size_t k, RValue::Kind kind, const char* expected) const {
  if (values_[k].kind != kind)
    throw ArgumentError{k, messages::type_mismatch(messages::builtin_argument(k + 1, builtin_.name),
                                                   expected, kind_name(values_[k]))};
  return values_[k];
}

std::span<const BuiltinInfo> builtins() {
  return kBuiltins;
}

const BuiltinInfo* find_builtin(std::string_view name) {
  for (const BuiltinInfo& builtin : kBuiltins)
    if (name == builtin.name) return &builtin;
  return nullptr;
}

}  // namespace snnplan::language
