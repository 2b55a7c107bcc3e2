#include "language/matchers.hpp"

#include <array>

#include "language/messages.hpp"
#include "language/operations.hpp"

namespace snnplan::language {
namespace {

using detail::RValue;
using detail::Wide;
using syntax::Op;

bool eq(const RValue& fact, const RValue& operand, const SourceLocation&) {
  return detail::values_equal(fact, operand);
}
bool ne(const RValue& fact, const RValue& operand, const SourceLocation&) {
  return !detail::values_equal(fact, operand);
}
// An ordering matcher: the order `kOrder` between fact and operand; messages name the matcher
// as its row does.
template <MatchOp kMatcher, Op kOrder>
bool ordered(const RValue& fact, const RValue& operand, const SourceLocation& at) {
  return holds(kOrder, compare_or_fail(fact, operand, at, matcher(kMatcher).name));
}
template <MatchOp kMatcher>
bool on_integers(Wide fact, Wide operand) {
  return integers_hold(kMatcher, fact, operand);
}

bool in_list(const RValue& fact, const RValue& operand, const SourceLocation& at) {
  if (operand.kind != RValue::Kind::list) type_failure(at, messages::matcher_needs_list());
  for (const RValue& option : operand.list())
    if (detail::values_equal(fact, option)) return true;
  return false;
}
bool one_of(const RValue& fact, const RValue& operand, const SourceLocation& at) {
  return in_list(fact, operand, at);
}
bool not_one_of(const RValue& fact, const RValue& operand, const SourceLocation& at) {
  return !in_list(fact, operand, at);
}

// One row per line: the table is the definition (clang-format would split every field).
// clang-format off
constexpr std::array kMatchers = {
    MatcherInfo{MatchOp::eq, "eq", OperandShape::value, 0, false, true, "==", eq,
                on_integers<MatchOp::eq>, "the fact equals the value (also written `fact: value`)",
                Op::equal, std::nullopt, true, Pins::operand},
    MatcherInfo{MatchOp::ne, "ne", OperandShape::value, 0, false, false, "!=", ne,
                on_integers<MatchOp::ne>, "the fact differs from the value",
                Op::not_equal, std::nullopt, true, Pins::nothing},
    MatcherInfo{MatchOp::lt, "lt", OperandShape::value, 0, true, false, "<", ordered<MatchOp::lt, Op::less>,
                on_integers<MatchOp::lt>, "the fact is less than the value",
                Op::less, MatchOp::le, false, Pins::nothing},
    MatcherInfo{MatchOp::le, "le", OperandShape::value, 0, true, false, "<=", ordered<MatchOp::le, Op::less_equal>,
                on_integers<MatchOp::le>, "the fact is at most the value",
                Op::less_equal, MatchOp::lt, false, Pins::nothing},
    MatcherInfo{MatchOp::gt, "gt", OperandShape::value, 0, true, false, ">", ordered<MatchOp::gt, Op::greater>,
                on_integers<MatchOp::gt>, "the fact is greater than the value",
                Op::greater, MatchOp::ge, false, Pins::nothing},
    MatcherInfo{MatchOp::ge, "ge", OperandShape::value, 0, true, false, ">=", ordered<MatchOp::ge, Op::greater_equal>,
                on_integers<MatchOp::ge>, "the fact is at least the value",
                Op::greater_equal, MatchOp::gt, false, Pins::nothing},
    MatcherInfo{MatchOp::one_of, "one_of", OperandShape::list, 0, false, false, "in", one_of, nullptr,
                "the fact equals one of the items (also written `fact: [a, b]`)",
                std::nullopt, std::nullopt, true, Pins::only_item},
    MatcherInfo{MatchOp::not_one_of, "not_one_of", OperandShape::list, 0, false, false, "not in", not_one_of, nullptr,
                "the fact equals none of the items",
                std::nullopt, std::nullopt, true, Pins::nothing},
};
// clang-format on

constexpr bool rows_in_enum_order() {
  for (std::size_t k = 0; k < kMatchers.size(); ++k)
    if (static_cast<std::size_t>(kMatchers[k].op) != k) return false;
  return true;
}
static_assert(rows_in_enum_order(), "kMatchers must list the matchers in MatchOp order");

// The analysis' fields agree with the rest of the row: a matcher compares as an expression
// operator exactly when its operand is one value, orders exactly when that operator does, and
// its ordering neighbour is an ordering whose neighbour it is.
constexpr bool analysis_fields_agree() {
  for (const MatcherInfo& row : kMatchers) {
    if (row.compares_as.has_value() != (row.operand == OperandShape::value)) return false;
    const bool orders = row.compares_as && *row.compares_as != Op::equal &&
                        *row.compares_as != Op::not_equal;
    if (orders != row.orders || row.ordering_neighbour.has_value() != row.orders) return false;
    if (row.by_equality == row.orders) return false;
    if (row.ordering_neighbour &&
        kMatchers[static_cast<std::size_t>(*row.ordering_neighbour)].ordering_neighbour != row.op)
      return false;
  }
  return true;
}
static_assert(analysis_fields_agree(), "a matcher row's analysis fields contradict the row");

}  // namespace

std::span<const MatcherInfo> matchers() {
  return kMatchers;
}

const MatcherInfo& matcher(MatchOp op) {
  return kMatchers[static_cast<std::size_t>(op)];
}

const MatcherInfo* find_matcher(std::string_view name) {
  for (const MatcherInfo& info : kMatchers)
    if (name == info.name) return &info;
  return nullptr;
}

const MatcherInfo* matcher_meant_by(std::string_view alias) {
  // What other languages call them. Edit distance would offer `gt` for `gte`: an off-by-one
  // at the threshold.
  struct Alias {
    std::string_view alias;
    MatchOp op;
  };
  static constexpr Alias kAliases[] = {
      {"gte", MatchOp::ge},
      {"geq", MatchOp::ge},
      {">=", MatchOp::ge},
      {"=>", MatchOp::ge},
      {"lte", MatchOp::le},
      {"leq", MatchOp::le},
      {"<=", MatchOp::le},
      {"=<", MatchOp::le},
      {">", MatchOp::gt},
      {"<", MatchOp::lt},
      {"neq", MatchOp::ne},
      {"!=", MatchOp::ne},
      {"<>", MatchOp::ne},
      {"==", MatchOp::eq},
      {"=", MatchOp::eq},
      {"equals", MatchOp::eq},
      {"in", MatchOp::one_of},
      {"any_of", MatchOp::one_of},
      {"not_in", MatchOp::not_one_of},
      {"nin", MatchOp::not_one_of},
  };
  for (const Alias& a : kAliases)
    if (a.alias == alias) return &matcher(a.op);
  return nullptr;
}

}  // namespace snnplan::language
