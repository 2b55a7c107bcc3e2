#pragma once
// `allow: [code, ...]` with `reason:` on an input, a rule or a table: the warnings and notes
// reported there with those codes are accepted in place. They leave the rule set's
// warnings (so `check --strict` passes) and are kept apart, with the reason, for
// `check --show-allowed`.

#include <set>
#include <string>
#include <vector>

#include "language/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::check {

/// A finding an `allow:` accepted, and why.
struct AllowedDiagnostic {
  Diagnostic diagnostic;
  std::string reason;
  SourceLocation allowed_at;  ///< the code's entry in the allow list
};

/// Moves the warnings and notes of `diagnostics` that an allowance of `file` accepts out of it
/// and returns them. A diagnostic is inside a rule from where the rule starts to where the
/// next rule (or table) starts, inside a table from its name to the next table's name, at an
/// input when it is at its name; a rule's allowance is tried before its table's. With
/// `report_unused` (the whole analysis ran, so every finding that could be accepted was reported),
/// each allowed code that accepted nothing adds an "unused-allow" warning at its entry, but for
/// the codes in `not_looked_for` (findings this run did not ask for, such as overlaps).
std::vector<AllowedDiagnostic> apply_allowances(const syntax::RuleFile& file,
                                                std::vector<Diagnostic>& diagnostics,
                                                bool report_unused,
                                                const std::set<std::string>& not_looked_for = {});

}  // namespace snnplan::check
