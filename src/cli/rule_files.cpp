#include "cli/rule_files.hpp"

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

void add_rules_root_option(CLI::App& command, std::vector<std::string>& roots) {
  command
      .add_option("--rules-root", roots,
                  "DIR whose files `uses:` may name, besides the rule file's own directory (repeatable)")
      ->type_name("DIR");
}

RuleSet load_rule_file(const std::string& path, std::istream& in, const LoadOptions& options) {
  if (path != "-") return RuleSet::from_file(path, options);
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
