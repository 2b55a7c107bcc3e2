#pragma once
// The operator workbench without HTTP: what each endpoint of `snnplan serve` answers for the
// text the page sends (docs/serve.md). Every answer comes from the library's own entry points
// -- usecases::check_rule_text of `snnplan check`, RuleSet::explain of `explain`,
// usecases::compare_rule_sets of `diff`, usecases::evaluate_map of `map --diff`, run_rule_tests of
// `test` -- never from running the CLI.
//
// One Workbench serves every request thread at once: the text a request sends is loaded on
// that thread; what several requests share (the version on disk, the last text that loaded)
// is behind one mutex and held as immutable RuleSets, which any thread may evaluate.

#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "snnplan/rule_set.hpp"
#include "usecases/check.hpp"

namespace snnplan::serve {

/// An endpoint's answer: an HTTP status and its JSON body.
struct Reply {
  int status = 200;
  nlohmann::ordered_json body;
};

/// Writes `text` to `path` so that the file holds either its old content or all of `text`
/// (the CLI passes its -o mechanism, cli::AtomicFileOutput). Throws std::runtime_error with
/// the reason when it cannot.
using SaveFile = std::function<void(const std::string& path, const std::string& text)>;

struct WorkbenchOptions {
  std::string path;                     ///< the rule file, as named on the command line
  std::vector<std::string> test_paths;  ///< --tests files, read at every test run
  std::vector<std::string> rule_roots;  ///< where `uses:` may reach besides the file's folder
  SaveFile save;
};

class Workbench {
 public:
  /// Reads the rule file. Throws std::runtime_error (messages::cannot_read_file) when it
  /// cannot be read; a file that does not load is no error (the page shows why).
  explicit Workbench(WorkbenchOptions options);

  /// GET /api/file: the path, the text as loaded, its SHA-256 and the test files.
  [[nodiscard]] Reply file() const;
  /// POST /api/check {"text"}: diagnostics as `snnplan check` words them, the tables as rows
  /// and the inputs for the form.
  [[nodiscard]] Reply check(const std::string& text);
  /// POST /api/decide {"text", "inputs"}: the answer and the explain steps, per rule whether it
  /// fired or which condition failed.
  [[nodiscard]] Reply decide(const std::string& text, const nlohmann::json& inputs);
  /// POST /api/diff {"text", "inputs"?}: `snnplan diff` of the version on disk against `text`.
  [[nodiscard]] Reply diff(const std::string& text, const nlohmann::json& inputs);
  /// POST /api/map {"text", "x", "y", "inputs"}: the decision map of both versions.
  [[nodiscard]] Reply map(const std::string& text, const nlohmann::json& request);
  /// POST /api/tests {"text", "mutate"?}: the --tests files run against `text`.
  [[nodiscard]] Reply tests(const std::string& text, bool mutate);
  /// POST /api/save {"text", "base_sha256"?}: writes `text` if it checks without errors and
  /// the file on disk is still the version loaded (or the one named by base_sha256).
  [[nodiscard]] Reply save(const std::string& text, const std::string& base_sha256);

 private:
  /// `text` checked as `snnplan check` checks it, its diagnostics in source order.
  [[nodiscard]] usecases::CheckedRules load(const std::string& text) const;
  /// The rule set for `text`, or the last one that loaded (`stale`); nullopt when none has.
  [[nodiscard]] std::optional<RuleSet> usable(const std::string& text, bool& stale);
  [[nodiscard]] std::optional<RuleSet> disk_rules() const;
  [[nodiscard]] Reply diff_between(const RuleSet& before, const RuleSet& after,
                                   const nlohmann::json& inputs) const;

  WorkbenchOptions options_;
  mutable std::mutex mutex_;  // guards everything below
  std::string disk_text_;     // the version loaded or last saved: what diff and save compare with
  std::string disk_sha256_;
  std::optional<RuleSet> disk_rules_;  // none when that version does not load
  std::optional<RuleSet> last_good_;   // the last text that loaded
  nlohmann::ordered_json last_good_outline_;
};

}  // namespace snnplan::serve
