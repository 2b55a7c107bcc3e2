#include "cli/rule_files.hpp"

#include <cstdlib>

#include "snnplan/plan.hpp"

namespace snnplan::cli {

std::optional<std::string> rules_path(const std::optional<std::string>& flag) {
  if (flag) return flag;
  if (const char* env = std::getenv("SNNPLAN_RULES"); env && *env) return std::string(env);
  return std::nullopt;
}

void add_rules_root_option(CLI::App& command, std::vector<std::string>& roots) {
  command.add_option(
      "--rules-root", roots,
      "DIR whose files `uses:` may name, besides the rule file's own directory (repeatable)");
}

RuleSet load_rules(const std::optional<std::string>& path_flag, const LoadOptions& options) {
  const std::optional<std::string> path = rules_path(path_flag);
  return path ? RuleSet::from_file(*path, options) : RuleSet::builtin();
}

RuleSet load_plan_rules(const std::optional<std::string>& path_flag, const LoadOptions& options) {
  return path_flag ? RuleSet::from_file(*path_flag, options) : plan_rules();
}

}  // namespace snnplan::cli
