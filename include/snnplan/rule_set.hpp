#pragma once
/// \file
/// A loaded, checked and compiled rule file: build once, evaluate many times from any thread.

#include <initializer_list>
#include <memory>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "snnplan/decision.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/evaluation_result.hpp"
#include "snnplan/input_info.hpp"
#include "snnplan/record.hpp"
#include "snnplan/value.hpp"

namespace snnplan {

namespace detail {
struct CompiledRules;
}
struct Explanation;  // explain.hpp
struct TraceStep;    // explain.hpp
class Evaluation;    // evaluation.hpp
class InputLayout;   // evaluation.hpp

/// How much checking a load does beyond what makes a file unusable.
struct LoadOptions {
  /// Decide each table over its inputs' domains: shadowed rules and gaps (warnings with a
  /// witness input). Its cost grows with the number of rules and conditions, so loading
  /// skips it unless asked; `snnplan check` asks. The `ensure` invariants it proves for every
  /// input are then not checked again on each evaluation (the built-in rules are embedded so).
  bool analyse_tables = false;
  /// With analyse_tables: also report each rule (other than a catch-all) that matches some
  /// inputs an earlier rule takes first while firing for others, with such an input (notes
  /// "overlapping-rule", `snnplan check --overlaps`). Off by default: in a first-hit table an
  /// overlap is usually meant.
  bool report_overlaps = false;
  /// Directories whose files `uses:` may name, besides the directory of the file loaded
  /// first (which is always a rule root). A used file outside every root -- an absolute
  /// path, a `..` or a symlink that leads out -- is refused before it is opened, so a rule
  /// file cannot make snnplan read (and quote) any file the process could read. Bare names
  /// of built-in rule files are reachable whatever the roots.
  /// (`= {}` keeps `LoadOptions{.analyse_tables = true}` free of missing-initializer warnings.)
  std::vector<std::string> rule_roots = {};
  /// from_file only: keep the compiled form of the file in a cache directory
  /// ($XDG_CACHE_HOME/snnplan, else ~/.cache/snnplan) and, when the same file (the same
  /// bytes under the same name, with the same options) is loaded again, read it back instead
  /// of parsing YAML. The rule set is the same either way (explanations, warnings, messages).
  /// A cache file that is corrupt, truncated or from another build is replaced; one that
  /// cannot be written is no error. Files with `uses:` are not cached. The environment
  /// variable SNNPLAN_NO_CACHE (any value but "" and "0") turns it off. The CLI asks for it
  /// unless given --no-cache.
  bool use_cache = false;
};

/// An immutable compiled rule set. Copies share the same compiled rules; evaluate() is const
/// and safe to call from many threads at once.
class RuleSet {
 public:
  /// Loads, checks and compiles a rule file. Throws LoadError (with every diagnostic found)
  /// when the file cannot be read or has errors; warnings do not prevent loading.
  static RuleSet from_file(const std::string& path, const LoadOptions& options = {});
  /// Same as from_file for text in memory; `file_name` is used in diagnostics.
  static RuleSet from_string(std::string_view text, std::string file_name = "<string>",
                             const LoadOptions& options = {});
  /// The default rules, compiled into the library from rules/snn_distributed.yaml.
  static const RuleSet& builtin();
  /// The text of the built-in rule file rules/snn_distributed.yaml.
  static std::string_view builtin_text() noexcept;
  /// The text of another built-in rule file by name ("snn_plan.yaml"), if there is one.
  static std::optional<std::string_view> builtin_text(std::string_view file_name) noexcept;
  /// (file name, SHA-256 in hex) of each built-in rule file: what `sha256sum rules/<file>`
  /// prints for the files this library was built from (`snnplan --version` shows them).
  static std::vector<std::pair<std::string_view, std::string_view>> builtin_sha256();

  /// Evaluates the start table for `inputs`. Never throws for bad inputs or rule errors:
  /// those come back as an EvaluationError. (std::bad_alloc may still propagate.)
  [[nodiscard]] EvaluationResult evaluate(const Inputs& inputs) const;

  /// evaluate() into `out`, whose fields are views instead of copies (evaluation.hpp): the
  /// fastest way to evaluate many times. Returns out.ok(). Never throws for bad inputs or
  /// rule errors. Safe from many threads with one Evaluation per thread. `inputs` must stay
  /// alive while the fields are used.
  bool evaluate(const Inputs& inputs, Evaluation& out) const;
  /// Refused: fields may be views of the inputs' strings, which a temporary would take away.
  bool evaluate(Inputs&& inputs, Evaluation& out) const = delete;

  /// The slots of the inputs `names`, found once, for evaluate(layout, values, out): see
  /// InputLayout (evaluation.hpp). Never throws for names that are no inputs: the layout is
  /// then not ok() and says why.
  [[nodiscard]] InputLayout input_layout(std::span<const std::string_view> names) const;
  [[nodiscard]] InputLayout input_layout(std::initializer_list<std::string_view> names) const;

  /// evaluate(inputs, out) for inputs given by position: values[k] is input layout.names()[k]
  /// (a null Value: not given, as by name). Types, lengths, defaults and allowed values are
  /// checked exactly as by name, with the same messages. Fails (out.error(), kind bad_input)
  /// without evaluating when the layout is not ok(), was made by another rule set's
  /// input_layout() (copies of one RuleSet, observed or not, share theirs), or
  /// values.size() != layout.size(). Never throws for bad inputs or rule errors. `values` must
  /// stay alive while the fields are used (string fields may be views of them).
  bool evaluate(const InputLayout& layout, std::span<const Value> values, Evaluation& out) const;

  /// The given inputs checked as evaluate() checks them -- known names, lengths, types and
  /// allowed values (`one_of`, with its `error` template; inputs not given stand at their
  /// default or null there) -- without the others. std::nullopt when evaluate() would accept
  /// them. For a caller that must report a bad input before it can compute the rest:
  /// snnplan::plan() checks the objective before it checks the topology, as upstream does.
  [[nodiscard]] std::optional<EvaluationError> check_inputs(const Inputs& inputs) const;

  /// evaluate() that also records every step taken (see explain.hpp). Slower; for people.
  [[nodiscard]] Explanation explain(const Inputs& inputs) const;

  /// evaluate() with its provenance: a new decision id, this rule set's revision and the fired
  /// rules. Never throws for bad inputs or rule errors (they are the decision's result).
  [[nodiscard]] Decision decide(const Inputs& inputs) const;

  /// SHA-256 (hex) of the rules this set was loaded from: for a file without `uses:` that of its
  /// bytes, which is what `sha256sum FILE` and, for the built-in files, `snnplan --version`
  /// print; with `uses:` the SHA-256 of the text "<sha256 of the file>\n" followed by a line
  /// "<name> <revision>\n" per used file, so that an edit of a used file changes it too.
  /// Computed at the first call.
  [[nodiscard]] const std::string& sha256() const;

  /// Observed rule sets. The copy returned shares the compiled rules and hands every decision
  /// made through evaluate(), explain() and decide() to `sink` (a DecisionLog, decision_log.hpp):
  /// the answer is the same, each evaluation is traced for its fired rules. nullptr: none.
  [[nodiscard]] RuleSet with_decision_sink(std::shared_ptr<DecisionSink> sink) const;
  /// Shadow mode: the copy returned also evaluates `candidate` on the same inputs and hands each
  /// decision on which the two disagree, with the candidate's answer in Decision::shadow, to
  /// `disagreements`. The answer returned is always this rule set's.
  [[nodiscard]] RuleSet with_shadow(RuleSet candidate, std::shared_ptr<DecisionSink> disagreements) const;
  /// Whether decisions are handed to a sink (with_decision_sink or with_shadow).
  [[nodiscard]] bool observed() const noexcept { return observers_ != nullptr; }
  /// Whether `other` is this very load of rules (a copy of it, or an observed copy), not only
  /// the same text: e.g. `rules.same_rules(RuleSet::builtin())`.
  [[nodiscard]] bool same_rules(const RuleSet& other) const noexcept { return rules_ == other.rules_; }

  [[nodiscard]] const std::vector<InputInfo>& inputs() const noexcept;
  /// The declared input `name`, or nullptr when the rules do not declare it.
  [[nodiscard]] const InputInfo* input(std::string_view name) const noexcept;
  [[nodiscard]] const std::string& file_name() const noexcept;
  /// Warnings found while loading (errors make loading fail instead).
  [[nodiscard]] const std::vector<Diagnostic>& warnings() const noexcept;

 private:
  friend class RuleSetAccess;  // the library's own front ends (src/api/rule_set_access.hpp)
  struct Observers;            // sinks and the shadow candidate (src/api/rule_set.cpp)
  explicit RuleSet(std::shared_ptr<const detail::CompiledRules> rules) : rules_(std::move(rules)) {}
  // decide() with the evaluation's steps left in `steps`; observed_decision() also hands the
  // decision to the sinks (and compares with the shadow candidate).
  Decision traced_decision(const Inputs& inputs, std::vector<TraceStep>& steps) const;
  // `shown`, when given, is what the record says was given (RuleSetAccess::observe_as).
  Decision observed_decision(const Inputs& inputs, std::vector<TraceStep>& steps,
                             const Inputs* shown = nullptr) const;
  std::shared_ptr<const detail::CompiledRules> rules_;
  std::shared_ptr<const Observers> observers_;  // null unless observed: one test per evaluation
};

}  // namespace snnplan
