#pragma once
// Which rule file a subcommand uses: --rules, else SNNPLAN_RULES, else the built-in table.
// A file that cannot be used throws LoadError (app.cpp prints its diagnostics, exit 3).

#include <optional>
#include <string>

#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// The rule file chosen by --rules, else SNNPLAN_RULES (empty counts as unset); nullopt: none.
std::optional<std::string> rules_path(const std::optional<std::string>& flag);

/// The rules chosen by --rules, then SNNPLAN_RULES, else the built-in table.
RuleSet load_rules(const std::optional<std::string>& path_flag);

/// The plan rules chosen by --rules, else the built-in rules/snn_plan.yaml.
RuleSet load_plan_rules(const std::optional<std::string>& path_flag);

}  // namespace snnplan::cli
