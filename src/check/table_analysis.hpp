#pragma once
// Stage 2 of the pipeline, second half: what the rules of each table do over the declared
// input domains. Finds rules that can never fire (shadowed by the rules above them) and
// inputs for which no rule of a table fires (gaps), each with a positioned diagnostic; says
// so with a note where a condition is beyond what it decides exactly. See the comment at the
// top of table_analysis.cpp for what the analysis proves and what it does not.

#include <vector>

#include "language/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::check {

/// Warnings "shadowed-rule" and "table-gap", notes "analysis-incomplete" (and "table-gap"
/// notes where the way a table is entered was not modelled), in no particular order.
/// Precondition: `file` checks without errors (every name resolves, no cycles).
std::vector<Diagnostic> analyse_tables(const syntax::RuleFile& file);

}  // namespace snnplan::check
