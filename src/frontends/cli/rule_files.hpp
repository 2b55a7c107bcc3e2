#pragma once
// Which rule file a subcommand uses: --rules, else SNNPLAN_RULES, else the built-in table.
// "-" reads the rule file from standard input (named "<stdin>" in diagnostics).
// A file that cannot be used throws LoadError (app.cpp prints its diagnostics, exit 3).

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// How a rule file or a batch given as "-" is named in messages.
inline constexpr const char* kStdinName = "<stdin>";

/// The rule file chosen by --rules, else SNNPLAN_RULES (empty counts as unset); nullopt: none.
std::optional<std::string> rules_path(const std::optional<std::string>& flag);

/// Adds --rules-root DIR (repeatable) to a subcommand that loads rule files: directories
/// `uses:` may reach besides the loaded file's own (LoadOptions::rule_roots); and --no-cache,
/// which keeps load_rule_file() away from the compiled-rules cache for this run.
void add_rules_root_option(CLI::App& command, std::vector<std::string>& roots);

/// Forgets a --no-cache of an earlier run (called as each run starts).
void reset_cache_choice() noexcept;

/// The rule file at `path`, or the one on `in` when `path` is "-". A file on disk goes
/// through the compiled-rules cache (LoadOptions::use_cache) unless --no-cache was given.
RuleSet load_rule_file(const std::string& path, std::istream& in, const LoadOptions& options = {});

/// The rules chosen by --rules, then SNNPLAN_RULES, else the built-in table.
RuleSet load_rules(const std::optional<std::string>& path_flag, std::istream& in, const LoadOptions& options = {});

/// The plan rules chosen by --rules, else the built-in rules/snn_plan.yaml.
RuleSet load_plan_rules(const std::optional<std::string>& path_flag, std::istream& in,
                        const LoadOptions& options = {});

}  // namespace snnplan::cli
