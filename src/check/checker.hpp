#pragma once
// Stage 2 of the pipeline: everything that can be known about a rule file without inputs.
// Names, types, the let and table-call graphs, duplicate and unreachable rules. Collects
// every problem; never stops at the first.

#include <vector>

#include "load/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::check {

/// Diagnostics for `file` (errors, warnings, notes), in source order per section.
std::vector<Diagnostic> check_rule_file(const syntax::RuleFile& file);

/// Indices of file.lets with dependencies first, or std::nullopt when they form a cycle
/// (check_rule_file reports the cycle).
std::optional<std::vector<int>> let_order(const syntax::RuleFile& file);

}  // namespace snnplan::check
