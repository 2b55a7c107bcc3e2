#pragma once
// Which rule file a subcommand uses: --rules, else SNNPLAN_RULES, else the built-in table.
// A file that cannot be used throws LoadError (app.cpp prints its diagnostics, exit 3).

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// The rule file chosen by --rules, else SNNPLAN_RULES (empty counts as unset); nullopt: none.
std::optional<std::string> rules_path(const std::optional<std::string>& flag);

/// Adds --rules-root DIR (repeatable) to a subcommand that loads rule files: directories
/// `uses:` may reach besides the loaded file's own (LoadOptions::rule_roots).
void add_rules_root_option(CLI::App& command, std::vector<std::string>& roots);

/// The rules chosen by --rules, then SNNPLAN_RULES, else the built-in table.
RuleSet load_rules(const std::optional<std::string>& path_flag, const LoadOptions& options = {});

/// The plan rules chosen by --rules, else the built-in rules/snn_plan.yaml.
RuleSet load_plan_rules(const std::optional<std::string>& path_flag,
                        const LoadOptions& options = {});

}  // namespace snnplan::cli
