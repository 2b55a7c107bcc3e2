#pragma once
// The library's own way into a RuleSet's compiled rules, for its front ends (the CLI's graph
// and rule tests, hot reload, the fuzzers): the public RuleSet does not expose them.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "check/checker.hpp"
#include "compile/compiled_rules.hpp"
#include "core/runtime_value.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan {

class RuleSetAccess {
 public:
  [[nodiscard]] static const detail::CompiledRules& compiled(const RuleSet& rules) noexcept {
    return *rules.rules_;
  }
  /// Appends the texts of `rules`' file and of the files it uses, as they were loaded: what
  /// diagnostics about them quote (`snnplan check`, the workbench of `snnplan serve`).
  static void add_sources(const detail::CompiledRules& rules, std::vector<SourceText>& out) {
    out.push_back(SourceText{rules.file_name, rules.source_text});
    for (const auto& used : rules.used) add_sources(*used, out);
  }
  [[nodiscard]] static RuleSet wrap(std::shared_ptr<const detail::CompiledRules> rules) {
    return RuleSet(std::move(rules));
  }
  /// The same compiled rules without their observers (no log, no shadow): for a front end that
  /// keeps a rule set only to know its layout, so a log the caller let go is closed.
  [[nodiscard]] static RuleSet unobserved(const RuleSet& rules) { return RuleSet(rules.rules_); }
  /// RuleSet::evaluate(inputs, out) for inputs given by slot, as evaluate::evaluate_views_by_slot
  /// takes them (a null value: not given; strings are views that must outlive the fields): for
  /// a front end that reads its inputs straight into slots (the batch's JSON lines). Inputs
  /// that bind by name to the same slots give the same outcome. Returns out.ok().
  static bool evaluate_by_slot(const RuleSet& rules, std::span<const detail::RValue> inputs,
                               Evaluation& out);
  /// For an observed rule set: decides `evaluated` and hands the decision to the sinks (and
  /// the shadow candidate) with `shown` as its inputs -- a front end that evaluates what it was
  /// given in another form (the Python drop-in: a batch size the branch does not read, a bool
  /// world_size) records what it was given. Does nothing for rules that are not observed.
  static void observe_as(const RuleSet& rules, const Inputs& evaluated, const Inputs& shown);
  /// The built-in rule file `file_name` ("snn_plan.yaml"), from the compiled form embedded at
  /// build time when it matches the embedded text, else loaded from that text. Throws
  /// std::invalid_argument for a name that is not a built-in file.
  [[nodiscard]] static RuleSet builtin(std::string_view file_name);
  /// builtin(file_name).sha256(), as computed at build time beside the compiled form (what
  /// `snnplan --version` prints without reading every built-in rule set back). Throws
  /// std::invalid_argument as builtin() for a name that is not a built-in file.
  [[nodiscard]] static std::string builtin_revision(std::string_view file_name);
  /// The bytes embedded for built-in file `file_name` (tools/serialize_builtins.cpp): the rules
  /// as a plain load of its text compiles them (its warnings, not the analysis' notes), with
  /// the invariants the table analysis proves marked (CompiledInvariant::proved), so that
  /// evaluating the built-in rules does not check again what holds for every input.
  [[nodiscard]] static std::string embedded_form(std::string_view file_name);
  /// RuleSet::from_file for a file whose text the caller already holds (an editor's unsaved
  /// buffer, for the language server): `path` names it in diagnostics, and its `uses:` are
  /// found from its directory and refused outside it and options.rule_roots, as from_file
  /// does. Never reads `path` itself, never uses the cache. Throws LoadError as from_file.
  /// What the checker knows of compiled rules that another file names in `uses` (their
  /// inputs, required inputs, allowed values and record fields); views into `rules`, which
  /// must outlive the result. The pipeline's own way, and the soundness campaign's.
  [[nodiscard]] static check::UsedRules used_schema(const detail::CompiledRules& rules);
  [[nodiscard]] static RuleSet from_text_at(std::string_view text, const std::string& path,
                                            const LoadOptions& options);
};

}  // namespace snnplan
