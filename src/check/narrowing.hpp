#pragma once
// What a condition proves about null: the names it shows are not null where it holds (or
// where it fails). The checker types the branch of `c ? a : b`, the right operand of `&&` and
// `||`, and a rule's actions under what the condition guarding them proves, so that
// `mode == null ? rec.mode : mode` is a string, not "string or null".

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "language/syntax.hpp"

namespace snnplan::check {

/// Runs `body` with `names` known not to be null in `facts` (name -> the kinds it may have),
/// and restores their kinds after it, also when it throws.
template <typename Body>
auto with_non_null(std::map<std::string, syntax::KindSet>& facts, const std::set<std::string>& names, Body body) {
  std::vector<std::pair<std::string, syntax::KindSet>> saved;
  for (const std::string& name : names)
    if (auto it = facts.find(name); it != facts.end() && (it->second & syntax::kNull) && it->second != syntax::kNull) {
      saved.emplace_back(name, it->second);
      it->second &= static_cast<syntax::KindSet>(~syntax::KindSet{syntax::kNull});
    }
  struct Restore {
    std::map<std::string, syntax::KindSet>& facts;
    std::vector<std::pair<std::string, syntax::KindSet>>& saved;
    ~Restore() {
      for (auto& [name, kinds] : saved) facts[name] = kinds;
    }
  } restore{facts, saved};
  return body();
}

/// The names `condition` proves non-null when it evaluates to `truth`: `x != null` (true),
/// `x == null` (false), their negations, and conjunctions (true) or disjunctions (false) of
/// them. Anything else proves nothing.
std::set<std::string> non_null_when(const syntax::Expr& condition, bool truth);

/// The facts a rule's or an invariant's `when` proves non-null where it holds: matchers that
/// need the fact to equal, or to be ordered against, a value that is not null.
std::set<std::string> non_null_under(const std::vector<syntax::Matcher>& when);

/// The nullable inputs a table can see as null: those with a null default, and those a
/// fallback's `with` gives anything but a literal that is not null (an expression may be
/// null). Any other input is never null where rules read it: a null input means "not given",
/// so its default applies, and an input without one is missing.
std::set<std::string> inputs_that_may_be_null(const syntax::RuleFile& file);

}  // namespace snnplan::check
