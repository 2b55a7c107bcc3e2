#pragma once
// Checking a rule file as `snnplan check` does, once for every front end: the load with the
// table analysis, the warning policy (`--error`, `--ignore`, `--strict`) applied to what it
// reports, and the verdict with the counts of the summary line. The CLI prints the result, the
// workbench of `snnplan serve` sends it as JSON and the language server publishes its
// diagnostics; none of them loads or counts on its own.

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/diagnostic.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::usecases {

/// What `--error`, `--ignore` and `--strict` ask of a check. The default keeps the findings as
/// the load reported them and fails a file only for an error.
class WarningPolicy {
 public:
  WarningPolicy() = default;
  /// Throws std::invalid_argument with the message when a code is not in the code table or an
  /// error is to be ignored (only warnings and notes can be).
  WarningPolicy(const std::vector<std::string>& error_codes,
                const std::vector<std::string>& ignored_codes, bool strict);

  /// The diagnostics as the policy has them: ignored ones dropped, --error ones made errors.
  [[nodiscard]] std::vector<Diagnostic> apply(std::vector<Diagnostic> diagnostics) const;
  [[nodiscard]] bool fails(std::size_t errors, std::size_t warnings) const {
    return errors > 0 || (strict_ && warnings > 0);
  }
  [[nodiscard]] bool strict() const { return strict_; }

 private:
  bool strict_ = false;
  std::set<std::string_view> errors_;  // views of the code table's rows
  std::set<std::string_view> ignored_;
};

struct CheckRequest {
  WarningPolicy policy = {};
  bool show_allowed = false;  ///< also the findings `allow:` accepts, as notes with the reason
  bool overlaps = false;      ///< also rules partly covered by earlier ones (notes)
  std::vector<std::string> rule_roots;  ///< LoadOptions::rule_roots
};

/// One rule file checked.
struct CheckedRules {
  std::optional<RuleSet> rules;  ///< when the file loads
  /// With the policy applied. A file that loads: in source order; one that does not: in the
  /// order the load reported them.
  std::vector<Diagnostic> diagnostics;
  std::vector<SourceText> sources;  ///< the texts the diagnostics quote, as they were loaded
  std::size_t errors = 0;           ///< among `diagnostics`
  std::size_t warnings = 0;
  std::size_t rule_count = 0;  ///< these three: of a file that loads
  std::size_t table_count = 0;
  std::size_t allowed = 0;  ///< findings the file accepts with `allow:`
  bool strict = false;      ///< the policy's --strict, which the summary of a failure names
  bool failed = false;      ///< the file does not load, or the policy fails it

  /// `snnplan check`'s summary line of the file, called `name`.
  [[nodiscard]] std::string summary(std::string_view name) const;
};

/// Reads a rule file with the options it is given: the front end's own way to its text (a file
/// through the compiled-rules cache, standard input, a text being edited). Throws LoadError.
using RuleLoader = std::function<RuleSet(const LoadOptions&)>;

/// Checks the rule file `load` reads; its LoadError is the verdict of a file that does not load.
[[nodiscard]] CheckedRules check_rules(const RuleLoader& load, const CheckRequest& request);

/// Checks `text` as the rule file at `path`: its `uses:` are found from that file's directory.
[[nodiscard]] CheckedRules check_rule_text(std::string_view text, const std::string& path,
                                           const CheckRequest& request);

}  // namespace snnplan::usecases
