#pragma once
// Integer conditions as the analysis sees them: a comparison of two integer expressions is
// the sign of a Term (left minus right) built from inputs, constants, + - *, and / % by
// constants. Such a term is periodic-affine in each input (see table_analysis.cpp), which is
// what lets the search find every threshold. Terms are evaluated with the rule language's own
// integer arithmetic (language/operations.hpp).

#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/runtime_value.hpp"
#include "language/syntax.hpp"
#include "snnplan/source_location.hpp"

namespace snnplan::analyse {

using detail::RValue;
using detail::Wide;

inline constexpr Wide kLo = std::numeric_limits<std::int64_t>::min();
inline constexpr Wide kHi = std::numeric_limits<std::int64_t>::max();
/// Residue classes per int input the search may split its domain into.
inline constexpr Wide kMaxPeriod = 4096;

Wide floor_div(Wide a, Wide b);
Wide ceil_div(Wide a, Wide b);
Wide wide_abs(Wide a);
/// lcm(a, b), or 0 when it exceeds `cap`.
Wide lcm_capped(Wide a, Wide b, Wide cap);

struct Term;
using TermP = std::shared_ptr<const Term>;
struct Term {
  enum class Kind : std::uint8_t { constant, var, operation };
  Kind kind = Kind::constant;
  syntax::Op op = syntax::Op::add;  // operation: + - * / % (-x is 0 - x)
  Wide c = 0;                       // constant; the divisor of / and %
  int var = -1;
  TermP a, b;                       // operands (no b for / and %, whose divisor is c)
};

TermP term_const(Wide c);
TermP term_var(int input);
void term_vars(const Term& t, std::set<int>& out);
/// A text that is the same for equal terms (atoms are kept by it).
std::string term_key(const Term& t);
/// Product of the divisors of a term (its period), or 0 when above kMaxPeriod.
Wide term_period(const Term& t);
/// The term at a point (a value per input slot); false on overflow or when an input is not
/// an integer (`saw_null` tells the two apart).
bool eval_term(const Term& t, std::span<const RValue> point, Wide& out, bool& saw_null);

/// An integer condition: the sign of `term`.
struct Atom {
  TermP term;
  std::vector<int> sampled;  // int inputs sampled around boundaries
  std::vector<int> params;   // int inputs with one_of, enumerated like bools
  Wide period = 1;
  SourceLocation location;
};

}  // namespace snnplan::analyse
