#pragma once
// The `overwritten-set` warnings: a `set` no record keeps, because the rule's fallback
// replaces the field or every rule of the table its `next` reaches sets it again.

#include <map>
#include <string>
#include <vector>

#include "language/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::check {

/// The warnings for `file`, whose tables are indexed by name in `table_index`. Only for files
/// whose table calls have no cycle (the search follows `next`).
std::vector<Diagnostic> overwritten_sets(const syntax::RuleFile& file,
                                         const std::map<std::string, int>& table_index);

}  // namespace snnplan::check
