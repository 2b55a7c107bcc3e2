#pragma once
// `snnplan recommend --batch`: JSON Lines in, JSON Lines out, one line per line, in order.

#include <functional>
#include <iosfwd>
#include <string>

#include "cli/exit_code.hpp"
#include "snnplan/live_rule_set.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// Runs `run` on the batch input named by --batch: stdin for "-" (named "<stdin>" in
/// messages), else the file. A missing file or a directory is a UsageError (reading a
/// directory would otherwise look like an empty batch and succeed).
ExitCode with_batch_input(const std::string& batch, std::istream& in,
                          const std::function<ExitCode(std::istream& lines, const std::string& source_name)>& run);

/// For a batch line that failed: hands `emit` the output line (no newline), {"error": message}
/// plus "line" for a bad-input line, which is then also reported on `err` as
/// "source:line: error: message". `worst` becomes the worse of itself and the line's code.
void fail_line(EvaluationErrorKind kind, const std::string& message, std::size_t line_number, const std::string& source_name,
               std::ostream& err, ExitCode& worst, const std::function<void(const std::string& line)>& emit);

/// Reads `in` to the end. Each line yields the record or {"error": message}; a bad line
/// also adds "line" and a stderr message, and the run goes on. Returns the worst outcome.
ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules,
                   const std::string& source_name);

/// The same with hot reload: before each line the file behind `rules` is re-read when it
/// changed; a rejected edit is reported by `rules`' listener and the last good rules go on.
ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, LiveRuleSet& rules,
                   const std::string& source_name);

}  // namespace snnplan::cli
