#pragma once
// The texts of the `snnplan` command line (cli/): flags, subcommands, output and interrupted
// runs, in one place; tests assert them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/messages.hpp"

namespace snnplan::messages {
// ---- inputs -------------------------------------------------------------------------------------
inline std::string input_not_in_builtin_rules(std::string_view name) {
  return fmt::format(
      "unknown input '{}': the built-in rules do not declare it (for another rule file's inputs, "
      "give that file with --rules FILE)",
      name);
}

// ---- flags, batches and the PyTorch probe -------------------------------------------------------
inline std::string watch_needs_batch() {
  return "--watch needs --batch (it re-reads the rule file between lines)";
}
inline constexpr std::string_view kCorpusFile = "corpus file";
inline std::string explain_with_batch() {
  return "--explain shows one request's search; give the request as flags, not --batch";
}
inline std::string format_with_explain(std::string_view format, std::string_view choices) {
  return fmt::format("--explain writes the search as {}; --format {} writes a plan only", choices, format);
}
// `default_value`: the input's default as YAML, none when it is required (null has nothing to
// stand for then).
inline std::string planning_input_help(std::string_view input, std::string_view description, std::string_view type,
                                       const std::optional<std::string>& default_value) {
  const std::string what = description.empty() ? fmt::format("the request's {}", input) : std::string(description);
  return default_value ? fmt::format("{}; {}, default {}", what, type, *default_value)
                       : fmt::format("{}; {}, required", what, type);
}
inline constexpr std::string_view kPlanningFlagsFooter =
    "A request flag given null or none takes the input's default.";
inline std::string jobs_needs_batch() {
  return "--jobs needs --batch (it answers batch lines on several threads)";
}
inline std::string watch_needs_rules() {
  return "--watch needs a rule file (--rules FILE or SNNPLAN_RULES)";
}
inline std::string flag_not_integer(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected an integer, got '{}'", flag, text);
}
inline std::string flag_out_of_range(std::string_view flag, std::string_view text) {
  return fmt::format("{}: {} does not fit in a 64-bit integer", flag, text);
}
inline std::string flag_not_number(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected a number, got '{}'", flag, text);
}
inline std::string flag_float_out_of_range(std::string_view flag, std::string_view text) {
  return fmt::format("{}: {} is beyond the range of a 64-bit float", flag, shown_number(text));
}
inline std::string flag_not_bool(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected true or false, got '{}'", flag, text);
}
inline std::string flag_not_utf8(std::string_view flag) {
  return fmt::format("{}: value is not valid UTF-8", flag);
}
inline std::string input_assignment(std::string_view text) {
  return fmt::format("--input: expected NAME=VALUE, got '{}'", text);
}
inline std::string batch_with_flags(std::string_view flag) {
  return fmt::format("{} cannot be combined with --batch (batch inputs come from the JSON lines)",
                     flag);
}
/// `why` is empty for a file that does not exist or cannot be read.
/// What with_batch_input() reads: names the input in cannot_open_batch().
inline constexpr std::string_view kBatchFile = "batch file";
inline constexpr std::string_view kDecisionLogFile = "decision log";
/// `what`: kBatchFile, or kDecisionLogFile for `snnplan replay`.
inline std::string cannot_open_batch(std::string_view path, std::string_view why = {},
                                     std::string_view what = kBatchFile) {
  if (why.empty()) return fmt::format("cannot open {} '{}'", what, path);
  return fmt::format("cannot open {} '{}': {}", what, path, why);
}
/// --probe-torch: the interpreter could not be started.
inline std::string probe_cannot_run(std::string_view python, std::string_view why) {
  return fmt::format("--probe-torch: cannot run {}: {}", python, why);
}
/// --probe-torch: the probe raised (PyTorch raising something other than ImportError).
inline std::string probe_failed(std::string_view python, std::string_view how, std::string_view last_line) {
  return fmt::format("--probe-torch: probing PyTorch with {} failed ({}): {}", python, how,
                     last_line.empty() ? std::string_view("no output") : last_line);
}
inline std::string probe_unreadable(std::string_view python, std::string_view last_line) {
  return fmt::format("--probe-torch: {} did not answer the probe as expected: {}", python, last_line);
}
/// What --probe-torch found, on stderr: which interpreter answered and its four values.
inline std::string probe_result(std::string_view python, const std::optional<std::string>& torch,
                                std::string_view found) {
  return fmt::format("snnplan: probed PyTorch with {} ({}):{}", python,
                     torch ? "torch " + *torch : std::string("no torch"), found);
}
/// `first` is how the input was given first, e.g. "--model" or "--input model=...".
inline std::string input_given_twice(std::string_view name, std::string_view first) {
  return fmt::format("input '{}' is given twice (first by {})", name, first);
}
inline std::string batch_format(std::string_view format) {
  return fmt::format("--format {} cannot be combined with --batch (batch output is JSON Lines)",
                     format);
}

// ---- `snnplan map`, --trace and the command line itself -----------------------------------------
inline std::string map_unknown_axis(std::string_view flag, std::string_view name,
                                    std::string_view file) {
  return fmt::format("{} {}: not an input of {}", flag, name.empty() ? "''" : name, file);
}
inline std::string map_axis_needs_values(std::string_view flag, std::string_view name) {
  return fmt::format(
      "{} {}: give its values, as NAME=A..B[:STEP] or NAME=V1,V2,... (only a bool input or one "
      "with one_of may go without)",
      flag, name);
}
inline std::string map_range_needs_int(std::string_view where, std::string_view type) {
  return fmt::format(
      "{}: a range A..B needs an int input, this one is {}; list its values as V1,V2,...", where,
      type);
}
inline std::string map_range_step(std::string_view where, std::int64_t step) {
  return fmt::format("{}: the step must be at least 1, got {}", where, step);
}
inline std::string map_range_empty(std::string_view where, std::string_view range) {
  return fmt::format("{}: the range {} has no values", where, range);
}
inline std::string map_too_many_cells(double cells, std::size_t limit) {
  return fmt::format("the map would have {:.0f} cells, more than the limit of {} (1024 x 1024)",
                     cells, limit);
}
inline std::string map_same_axis(std::string_view name) {
  return fmt::format("--x and --y are both {}: map two different inputs", name);
}
inline std::string map_input_required(std::string_view name) {
  return fmt::format("input '{}' has no default: give it with --input {}=VALUE (or as an axis)",
                     name, name);
}
inline std::string map_unknown_field(std::string_view field, std::string_view file) {
  return fmt::format("--color-by {}: not a record field of {} (nor 'rule')", field, file);
}
inline std::string map_diff_with_rules() {
  return "--diff OLD NEW names the rule files: --rules cannot be given too";
}
inline std::string trace_needs_batch(std::string_view command) {
  return fmt::format("{} --trace needs --batch (the rule path is added to each batch line)",
                     command);
}
inline std::string trace_format(std::string_view format) {
  return fmt::format(
      "--trace cannot be combined with --format {} (the trace is part of the JSON output)", format);
}
inline std::string flag_value_missing(std::string_view flag_given) {
  return fmt::format("expected a value, got the flag {}", flag_given);
}
inline std::string unknown_subcommand(std::string_view name, const std::vector<std::string>& names,
                                      std::string_view suggestion) {
  std::string listed;
  for (const std::string& known : names) listed += (listed.empty() ? "" : ", ") + known;
  const std::string base = fmt::format("unknown subcommand '{}' (the subcommands are {})", name, listed);
  if (suggestion.empty()) return base;
  return fmt::format("{}; did you mean '{}'?", base, suggestion);
}
/// An option before the subcommand that is not one of snnplan's own (--help, --version).
inline std::string unknown_option(std::string_view flag, std::string_view suggestion) {
  const std::string base = fmt::format(
      "unknown option '{}' (before a subcommand snnplan takes only --help and --version; "
      "a subcommand's options follow it, as in snnplan recommend --model ...)", flag);
  if (suggestion.empty()) return base;
  return fmt::format("{}; did you mean '{}'?", base, suggestion);
}
/// Two arguments of one command that both name "-".
inline std::string stdin_read_twice(std::string_view first, std::string_view second) {
  return fmt::format("{} and {} cannot both read standard input ('-'); give one of them a file", first, second);
}
inline std::string watch_stdin() {
  return "--watch needs a rule file it can re-read, not standard input (--rules -)";
}

// ---- `snnplan plan` -----------------------------------------------------------------------------
inline std::string feature_given_twice(std::string_view name) {
  return fmt::format("--feature {}: given more than once", name);
}
inline std::string feature_assignment(std::string_view text) {
  return fmt::format("--feature: expected NAME=true|false, got '{}'", text);
}
inline std::string flag_not_yes_no(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected yes or no, got '{}'", flag, text);
}
inline std::string flag_empty_item(std::string_view flag, std::string_view text) {
  return fmt::format("{}: empty name in '{}' (expected NAME,NAME,...)", flag, text);
}
inline std::string plan_flag_required(std::string_view flag) {
  return fmt::format("{} is required (or give --batch FILE with one JSON object per line)", flag);
}

// ---- --version, output and interrupted runs -----------------------------------------------------
inline std::string run_with_help() { return "Run with --help for usage."; }
/// `snnplan --version`: the library, the rule format it reads and each built-in rule file's
/// SHA-256 (as sha256sum prints it for the file in rules/).
/// One built-in rule file for --version: its bytes' SHA-256 and, when it `uses:` others, its
/// revision (RuleSet::sha256(), what decision records name), else empty.
struct BuiltinRevision {
  std::string_view file;
  std::string_view sha256;
  std::string revision;
};
inline std::string version_report(std::string_view version, int rule_format,
                                  const std::vector<BuiltinRevision>& builtins) {
  std::string out = fmt::format("snnplan {}\nrule format {}\n", version, rule_format);
  for (const BuiltinRevision& b : builtins) {
    out += fmt::format("built-in rules {} sha256:{}", b.file, b.sha256);
    if (!b.revision.empty()) out += fmt::format(" revision:{} (with the files it uses)", b.revision);
    out += '\n';
  }
  return out;
}
inline std::string rejected_edit() {
  return "snnplan: rejected an edit of the rule file; the previous rules stay in use:";
}
// Output (-o FILE and standard output) and interrupted runs.
inline std::string cannot_write_output(std::string_view reason) {
  return fmt::format("cannot write output: {}", reason);
}
/// When the stream that failed gives no reason of its own (not a file descriptor).
inline std::string output_stream_failed() {
  return "the output stream failed";
}
inline std::string output_path_empty() {
  return "-o/--output needs a file name, but got ''";
}
inline std::string output_is_directory(std::string_view path) {
  return fmt::format("'{}' is a directory", path);
}
inline std::string cannot_create_output(std::string_view path, std::string_view reason) {
  return fmt::format("cannot create a file beside '{}': {}", path, reason);
}
inline std::string signal_name(int signal) {
  return signal == 2 ? "SIGINT" : signal == 15 ? "SIGTERM" : fmt::format("signal {}", signal);
}
/// A batch stopped by a signal: how far it got, and where that went.
inline std::string batch_interrupted(int signal, std::size_t lines, std::string_view output_file) {
  if (output_file.empty())
    return fmt::format("interrupted by {}: {} complete line{} written", signal_name(signal), lines,
                       lines == 1 ? "" : "s");
  return fmt::format("interrupted by {} after {} line{}: '{}' was left as it was",
                     signal_name(signal), lines, lines == 1 ? "" : "s", output_file);
}
inline std::string interrupted(int signal, std::string_view output_file) {
  if (output_file.empty()) return fmt::format("interrupted by {}", signal_name(signal));
  return fmt::format("interrupted by {}: '{}' was left as it was", signal_name(signal),
                     output_file);
}
inline std::string batch_line_too_long(std::size_t limit) {
  return fmt::format(
      "line is longer than the limit of {} bytes; it was skipped without being read whole", limit);
}

// ---- `snnplan test` -----------------------------------------------------------------------------
inline std::string coverage_kind_below(std::string_view kind, double percent, double minimum) {
  return fmt::format("{} coverage {:.1f}% is below the minimum {}%", kind, percent, minimum);
}
inline std::string mutation_score_below(double score, double minimum) {
  return fmt::format("mutation score {:.1f}% is below the minimum {}%", score, minimum);
}
inline std::string mutation_needs_passing_tests() {
  return "mutation testing needs every test to pass first";
}
inline std::string flag_not_in_range(std::uint64_t low, std::uint64_t high, std::string_view text) {
  return fmt::format("expected an integer from {} to {}, got '{}'", low, high, text);
}
inline std::string flag_not_percentage(std::string_view text) {
  return fmt::format("expected a number from 0 to 100, got '{}'", text);
}
inline std::string cannot_generate(std::string_view why) { return fmt::format("cannot generate tests: {}", why); }
inline std::string test_files_required() { return "tests is required"; }
inline std::string generate_with_test_files() {
  return "--generate writes a test file for the rules; it takes no test files (and no --mutate or --min-coverage)";
}
inline std::string flag_not_min_coverage(std::string_view text) {
  return fmt::format("expected a percentage from 0 to 100 or KIND=PERCENT,... with KIND rule, condition, "
                     "boundary or search, got '{}'", text);
}

}  // namespace snnplan::messages
