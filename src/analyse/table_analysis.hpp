#pragma once
// The table analysis: what the rules of each table do over the declared input domains.
// Finds rules that can never fire (shadowed by the rules above them) and inputs for which no
// rule of a table fires (gaps), each with a positioned diagnostic; says so with a note where
// a condition is beyond what it decides exactly. It reasons about the compiled rules the
// evaluator runs, with the evaluator's own semantics. See the comment at the top of
// table_analysis.cpp for what it proves and what it does not.

#include <optional>
#include <vector>

#include "compile/compiled_rules.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::analyse {

/// What the analysis reports beyond its default findings.
struct AnalysisOptions {
  /// Notes "overlapping-rule": a rule (not a catch-all) that fires for some inputs and matches
  /// some inputs an earlier rule takes first, with such an input (DMN's overlap check).
  bool overlaps = false;
  /// Tables of boxes beyond the grid (more than kMaxPoints combinations) are split by the
  /// rules' boxes (analyse/boxes.hpp); true: every table of boxes is (the tests compare the
  /// two); false: the grid only.
  std::optional<bool> boxes = std::nullopt;
};

struct TableFindings {
  /// Warnings "shadowed-rule" and "table-gap", notes "analysis-incomplete" (and "table-gap"
  /// notes where the way a table is entered was not modelled), errors "invariant-violated"
  /// (analyse/invariants.hpp), in no particular order.
  std::vector<Diagnostic> diagnostics;
  /// Per `ensure` entry: proved to hold for every input (detail::CompiledInvariant::proved).
  std::vector<bool> proved_invariants;
};

TableFindings analyse_tables(const detail::CompiledRules& rules, const AnalysisOptions& options = {});

}  // namespace snnplan::analyse
