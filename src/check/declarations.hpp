#pragma once
// Lookups of a rule file's declarations by name, for the checker's typing of values.

#include <map>
#include <string>
#include <vector>

#include "check/checker.hpp"
#include "language/syntax.hpp"

namespace snnplan::check {

/// The derived value `name` of `file`, or nullptr.
const syntax::LetDecl* derived_value(const syntax::RuleFile& file, const std::string& name);

/// The kinds the items of list value `e` may have where a declaration says so (a name of an
/// input declared `list[int]` or `list[string]`, a field `rec.f` of a called rule set's
/// record, by `record_of`: call-let name -> the called rules); kAny for an input or field
/// declared `list` (items of any kind: the soundness campaign found a `list` input passed
/// silently into a `list[string]` field); 0 where no declaration says.
syntax::KindSet declared_items(const syntax::RuleFile& file, const syntax::Expr& e,
                               const std::map<std::string, const UsedRules*>& record_of);

/// Table name -> its index in file.tables. A name given twice is a `duplicate-name` error in
/// `out` (the loader refuses a repeated key of `tables`, but a syntax tree built otherwise,
/// like the soundness campaign's mutants, must not reach the compiler, which assumes one
/// table a name); the first table keeps the name.
std::map<std::string, int> index_tables(const syntax::RuleFile& file, std::vector<Diagnostic>& out);

}  // namespace snnplan::check
