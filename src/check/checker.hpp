#pragma once
// Stage 2 of the pipeline: everything that can be known about a rule file without inputs.
// Names, types, the let and table-call graphs, duplicate and unreachable rules. Collects
// every problem; never stops at the first.

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime_value.hpp"
#include "language/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::check {

/// What the checker needs to know about a rule file named in `uses`: its inputs and the
/// fields of the record a call returns.
struct UsedRules {
  std::map<std::string, syntax::KindSet> inputs;
  std::set<std::string> required_inputs;
  std::vector<std::pair<std::string, syntax::KindSet>> fields;
  /// The kinds of the items of its list fields (`list[int]`: int; the rationale: string).
  std::map<std::string, syntax::KindSet> field_items;
  /// Inputs with one_of: the values allowed (views into the used rule set's compiled rules,
  /// which outlive the check) and whether the input is lower-cased first.
  struct Restriction {
    const std::vector<detail::RValue>* one_of = nullptr;
    bool lower = false;
  };
  std::map<std::string, Restriction> restrictions;
};

/// Diagnostics for `file` (errors, warnings, notes), in source order. `used` describes the
/// rule files named in its `uses` section (by their names there).
std::vector<Diagnostic> check_rule_file(const syntax::RuleFile& file,
                                        const std::map<std::string, UsedRules>& used = {});

/// Source order (line, then column); diagnostics at one position keep their order.
void sort_by_position(std::vector<Diagnostic>& diagnostics);

/// How many of `diagnostics` have `severity` (what check's summary line counts).
inline std::size_t count_severity(const std::vector<Diagnostic>& diagnostics, Severity severity) {
  return static_cast<std::size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [&](const Diagnostic& d) { return d.severity == severity; }));
}

/// Keeps the first of diagnostics that say the same at the same place: a YAML alias makes the
/// loader and the checker read the aliased text once per use, and each problem in it is one
/// problem.
void drop_repeats(std::vector<Diagnostic>& diagnostics);

/// Indices of file.lets with dependencies first, or std::nullopt when they form a cycle
/// (check_rule_file reports the cycle).
std::optional<std::vector<int>> let_order(const syntax::RuleFile& file);

}  // namespace snnplan::check
