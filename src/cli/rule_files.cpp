#include "cli/rule_files.hpp"

#include <cstdlib>

#include "snnplan/plan.hpp"

namespace snnplan::cli {

std::optional<std::string> rules_path(const std::optional<std::string>& flag) {
  if (flag) return flag;
  if (const char* env = std::getenv("SNNPLAN_RULES"); env && *env) return std::string(env);
  return std::nullopt;
}

RuleSet load_rules(const std::optional<std::string>& path_flag) {
  const std::optional<std::string> path = rules_path(path_flag);
  return path ? RuleSet::from_file(*path) : RuleSet::builtin();
}

RuleSet load_plan_rules(const std::optional<std::string>& path_flag) {
  return path_flag ? RuleSet::from_file(*path_flag) : plan_rules();
}

}  // namespace snnplan::cli
