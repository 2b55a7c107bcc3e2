#pragma once
// Lookups of a rule file's declarations by name, for the checker's typing of values.

#include <string>

#include <map>

#include "check/checker.hpp"
#include "language/syntax.hpp"

namespace snnplan::check {

/// The derived value `name` of `file`, or nullptr.
const syntax::LetDecl* derived_value(const syntax::RuleFile& file, const std::string& name);

/// The kinds the items of list value `e` may have where a declaration says so (a name of an
/// input declared `list[int]` or `list[string]`, a field `rec.f` of a called rule set's
/// record, by `record_of`: call-let name -> the called rules); 0 where none does.
syntax::KindSet declared_items(const syntax::RuleFile& file, const syntax::Expr& e,
                               const std::map<std::string, const UsedRules*>& record_of);

}  // namespace snnplan::check
