#pragma once
// Shapes: which integer conditions (atoms), string constants and prefixes an expression's
// value depends on, found without inputs by walking the compiled expression. This is the
// analysis' symbolic half; values at a point always come from the evaluator (its Probe).

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyse/model.hpp"

namespace snnplan::analyse {

/// One possible shape of a value: what the analysis knows about it without inputs.
struct Alt {
  enum class K : std::uint8_t { null, boolean, integer, floating, string, list, other };
  K k = K::other;
  TermP term;            // integer
  bool constant = true;  // floating: does not depend on inputs
  int input = -1;        // string: the input it is, or -1 for the literal `str`
  std::string str;
  std::vector<std::vector<Alt>> items;  // list: the alternatives at each position
};

class Shapes {
 public:
  explicit Shapes(Model& model) : m_(model), lets_(model.rules.lets.size()) {}

  /// What a matcher depends on; records the constants and prefixes inputs are tested with.
  Facts matcher(const detail::CompiledMatcher& matcher);
  /// What an expression depends on (for `with` values).
  Facts expression(const detail::Node& node);

 private:
  struct LetShape {
    std::vector<Alt> alts;
    Facts facts;
  };

  std::vector<Alt> capped(std::vector<Alt> alts, const SourceLocation& at, Facts& f);
  std::vector<Alt> of_slot(int slot, const SourceLocation& at, Facts& f);
  std::vector<Alt> of_input(std::size_t input, const SourceLocation& at, Facts& f);
  std::vector<Alt> of(const detail::Node& n, Facts& f);
  std::vector<Alt> binary(const detail::Node& n, Facts& f);
  std::vector<Alt> call(const detail::Node& n, Facts& f);
  std::optional<std::vector<Alt>> list_call(const detail::Node& n, Facts& f);
  bool has_list(const Term& t) const;
  void atom(const TermP& left, const TermP& right, const SourceLocation& at, Facts& f);
  bool has_sampled(const Term& t) const;
  TermP arith(syntax::Op op, const TermP& a, const TermP& b, std::string& why) const;
  void compare(const Alt& a, const Alt& b, bool ordering, const SourceLocation& at, Facts& f);

  Model& m_;
  std::vector<std::optional<LetShape>> lets_;
};

}  // namespace snnplan::analyse
