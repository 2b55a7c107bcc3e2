#pragma once
// `snnplan recommend --batch`: JSON Lines in, JSON Lines out, one line per line, in order.

#include <iosfwd>
#include <string>

#include "cli/exit_code.hpp"
#include "snnplan/live_rule_set.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// Reads `in` to the end. Each line yields the record or {"error": message}; a bad line
/// also adds "line" and a stderr message, and the run goes on. Returns the worst outcome.
ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules,
                   const std::string& source_name);

/// The same with hot reload: before each line the file behind `rules` is re-read when it
/// changed; a rejected edit is reported by `rules`' listener and the last good rules go on.
ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, LiveRuleSet& rules,
                   const std::string& source_name);

}  // namespace snnplan::cli
