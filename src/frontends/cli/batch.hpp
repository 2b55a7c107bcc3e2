#pragma once
// `--batch`: JSON Lines in, JSON Lines out, one line per line, in order -- for `recommend`
// and `plan` alike. The driver here owns what every batch must do the same way: bounded
// memory (lines over the limit are refused by number, output goes out in chunks of whole
// lines), a bad line gives an error line and the run goes on, SIGINT / SIGTERM stop after
// the current line, and a failed write stops the run.

#include <functional>
#include <optional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/cli/exit_code.hpp"
#include "frontends/cli/torch_probe.hpp"
#include "frontends/cli/messages.hpp"
#include "request/request_lines.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/live_rule_set.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// Runs `run` on the batch input named by --batch: stdin for "-" (named "<stdin>" in
/// messages), else the file. A missing file or a directory is a UsageError (reading a
/// directory would otherwise look like an empty batch and succeed); `what` names the input in
/// that message ("batch file", "decision log").
ExitCode with_batch_input(
    const std::string& batch, std::istream& in,
    const std::function<ExitCode(std::istream& lines, const std::string& source_name)>& run,
    std::string_view what = messages::kBatchFile);

/// What one input line gave (request/request_lines.hpp): on success its output line was
/// appended to the buffer handed to the answer (without the newline); else the error, which
/// becomes {"error": message}.
using request::LineOutcome;
using AnswerLine = std::function<LineOutcome(const std::string& line, std::string& output)>;
/// Makes one worker's answer (a worker keeps its own state, such as a reused Evaluation).
using MakeAnswer = std::function<AnswerLine()>;

/// How a batch runs.
struct BatchOptions {
  /// --trace: error lines also carry "rules" and "trace".
  bool traced = false;
  /// --jobs: lines answered by this many threads. Output stays in input order, line for line;
  /// with more than one, lines are read in blocks (as far as the input already holds, so a
  /// launcher feeding one line at a time through a pipe still gets each answer at once).
  unsigned jobs = 1;
  /// --probe-torch: lines that leave an availability input out (or null) take the probed value.
  std::optional<TorchProbe> probed;
  /// Called before each block is answered (each line, on one thread), on the reading thread:
  /// --watch re-reads the rule file there, so the workers of one block share one version of
  /// the rules.
  std::function<void()> before_block;
};

/// The most --jobs takes.
inline constexpr unsigned kMaxBatchJobs = 256;

/// Reads `in` to the end and answers each line. A bad line (including one longer than
/// kMaxBatchLineBytes) yields {"error": message, "line": N} and a "source:N: error: ..."
/// line on `err`; a line the rules refuse yields {"error": message}. Returns the worst
/// outcome. Throws Interrupted when a signal asked to stop (after writing whole lines only, in
/// order) and WriteFailed when `out` fails (without reading further). With `traced` (--trace)
/// every error line also has "rules" (the fired table/rule path, empty for a line that was not
/// evaluated) and "trace"; the answer writes its own successful lines with them.
ExitCode run_batch_lines(std::istream& in, std::ostream& out, std::ostream& err,
                         const std::string& source_name, const MakeAnswer& make_answer,
                         const BatchOptions& options = {});

/// `recommend --batch` with fixed rules.
ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules,
                   const std::string& source_name, const BatchOptions& options = {});

/// The same with hot reload: the file behind `rules` is re-read when it changed, before each
/// line (before each block with --jobs); a rejected edit is reported by `rules`' listener and
/// the last good rules go on.
ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, LiveRuleSet& rules,
                   const std::string& source_name, BatchOptions options = {});

}  // namespace snnplan::cli
