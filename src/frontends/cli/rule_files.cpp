#include "frontends/cli/rule_files.hpp"

#include <cstdlib>
#include <istream>
#include <iterator>

#include "snnplan/plan.hpp"

namespace snnplan::cli {

std::optional<std::string> rules_path(const std::optional<std::string>& flag) {
  if (flag) return flag;
  if (const char* env = std::getenv("SNNPLAN_RULES"); env && *env) return std::string(env);
  return std::nullopt;
}

namespace {
// Per thread, so that runs of the CLI in threads of one process (tests) do not share it.
thread_local bool no_cache = false;
}  // namespace

void add_rules_root_option(CLI::App& command, std::vector<std::string>& roots) {
  command
      .add_option("--rules-root", roots,
                  "DIR whose files `uses:` may name, besides the rule file's own directory (repeatable)")
      ->type_name("DIR");
  command.add_flag_callback(
      "--no-cache", [] { no_cache = true; },
      "neither read nor write the compiled-rules cache ($XDG_CACHE_HOME/snnplan; also SNNPLAN_NO_CACHE=1)");
}

void reset_cache_choice() noexcept { no_cache = false; }

RuleSet load_rule_file(const std::string& path, std::istream& in, const LoadOptions& options) {
  if (path != "-") {
    LoadOptions cached = options;
    cached.use_cache = !no_cache;
    return RuleSet::from_file(path, cached);
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return RuleSet::from_string(text, kStdinName, options);
}

RuleSet load_rules(const std::optional<std::string>& path_flag, std::istream& in, const LoadOptions& options) {
  const std::optional<std::string> path = rules_path(path_flag);
  return path ? load_rule_file(*path, in, options) : RuleSet::builtin();
}

RuleSet load_plan_rules(const std::optional<std::string>& path_flag, std::istream& in, const LoadOptions& options) {
  return path_flag ? load_rule_file(*path_flag, in, options) : plan_rules();
}

}  // namespace snnplan::cli
