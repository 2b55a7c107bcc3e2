#pragma once
// The harness of the bad-input matrix (issue 7): every subcommand x every flag x bad values,
// JSON Lines batch inputs, and the broken rule corpus, each row with the exit code and message
// that docs/cli.md's "Errors and exit codes" section promises. Rows are generated per kind of
// flag (integer, boolean, string, choice, path, ...); a failing row is named in the failure
// output. The matrix is split by stage over bad_input_*_test.cpp:
//   bad_input_flags_test.cpp       recommend, explain, microbatches, check, test and graph flags,
//                                  and the case that reads each subcommand's --help and fails
//                                  when a flag has no row, so a new flag cannot slip past
//   bad_input_plan_test.cpp        plan, plan-training and replay flags, unknown subcommands
//   bad_input_batch_test.cpp       JSON Lines batch inputs
//   bad_input_broken_rules_test.cpp  the broken rule corpus under every command
//   bad_input_fixed_bugs_test.cpp  bugs the matrix found outside the CLI's own code
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace bad_input_matrix {

namespace fs = std::filesystem;
using snnplan::testing::CliRun;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

inline const std::string kRules = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
inline const std::string kRuleTests = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.test.yaml";
inline const std::string kPlanRules = std::string(SNNPLAN_RULES_DIR) + "/snn_plan.yaml";
inline const std::string kDirectory = SNNPLAN_TEST_DATA;
inline const std::string kMissing = "/nonexistent/snnplan/file.yaml";

// The exit codes of the table in docs/cli.md.
constexpr int kOk = 0;
constexpr int kRuleError = 1;
constexpr int kBadInput = 2;
constexpr int kRulesUnusable = 3;
constexpr int kWriteFailed = 4;

// One command line and what it must do. `err` and `out` are substrings that must appear on
// stderr and stdout; an empty `err` means stderr must be empty.
struct Row {
  std::string what;
  std::vector<std::string> args;
  int code = 0;
  std::string err;
  std::string out = {};
  std::string stdin_text = {};
};

// Without SNNPLAN_RULES, whatever the environment of the test run holds.
class NoRulesVariable {
 public:
  NoRulesVariable() {
    if (const char* old = std::getenv("SNNPLAN_RULES")) old_ = old;
    ::unsetenv("SNNPLAN_RULES");
  }
  ~NoRulesVariable() {
    if (old_) ::setenv("SNNPLAN_RULES", old_->c_str(), 1);
  }
  NoRulesVariable(const NoRulesVariable&) = delete;
  NoRulesVariable& operator=(const NoRulesVariable&) = delete;

 private:
  std::optional<std::string> old_;
};

inline std::string quoted(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" '\"\\$") == std::string::npos && arg.size() < 80)
    return arg;
  if (arg.size() >= 80)
    return "'" + arg.substr(0, 20) + "...(" + std::to_string(arg.size()) + " bytes)'";
  return "'" + arg + "'";
}

inline std::string command_line(const std::vector<std::string>& args) {
  std::string line = "snnplan";
  for (const std::string& arg : args) line += " " + quoted(arg);
  return line;
}

inline std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// `args` without the flag `flag` and its value.
inline std::vector<std::string> without(const std::vector<std::string>& args, const std::string& flag) {
  std::vector<std::string> kept;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k] == flag) {
      ++k;
      continue;
    }
    kept.push_back(args[k]);
  }
  return kept;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline void check_row(const Row& row) {
  INFO("row: ", row.what);
  INFO("command: ", command_line(row.args));
  const CliRun run = run_cli(row.args, row.stdin_text);
  INFO("exit code: ", run.code);
  INFO("stderr: ", run.err);
  INFO("stdout: ", run.out.substr(0, 2000));
  CHECK(run.code == row.code);
  if (row.err.empty())
    CHECK(run.err.empty());
  else
    CHECK(contains(run.err, row.err));
  if (!row.out.empty()) CHECK(contains(run.out, row.out));
  // Refusals print nothing on stdout, except where stdout is the report: check's diagnostics,
  // explain's trace (which ends with the error), a batch's output lines.
  const bool reports_on_stdout =
      !row.args.empty() && (row.args[0] == "check" || row.args[0] == "explain");
  if (row.code == kBadInput && row.out.empty() && row.stdin_text.empty() && !reports_on_stdout)
    CHECK(run.out.empty());
}

inline void check_rows(const std::vector<Row>& rows) {
  REQUIRE_FALSE(rows.empty());
  for (const Row& row : rows) check_row(row);
}

// ---- rows by kind of flag ----------------------------------------------------------------------
// `base` is a valid command line that already holds `flag` with a good value `good`; each row
// replaces that value. `missing` is CLI11's word for the value's type in "1 required ... missing".

inline std::string usage_error(const std::string& message) {
  return "error: " + message + "\nRun with --help for usage.\n";
}

// `refusal_of_flag` is the message for a flag name given as the value, when the option's own
// check (a choice, a range) refuses it before the check for flag names does.
inline void add_common_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
                     const std::string& flag, const std::string& good,
                     const std::string& missing = "TEXT", const std::string& refusal_of_flag = "") {
  const std::vector<std::string> rest = without(base, flag);
  rows.push_back({flag + " without its value (last on the line)", with(rest, {flag}), kBadInput,
                  usage_error(flag + ": 1 required " + missing + " missing")});
  // CLI11 alone would take the next flag as the value and run.
  rows.push_back({flag + " without its value (before another flag)", with(rest, {flag, "--help"}),
                  kBadInput,
                  usage_error(flag + ": " +
                              (refusal_of_flag.empty() ? "expected a value, got the flag --help"
                                                       : refusal_of_flag))});
  rows.push_back({flag + " given twice", with(rest, {flag, good, flag, good}), kBadInput,
                  usage_error(flag + ": At Most 1 required but received 2")});
}

inline void add_integer_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
                      const std::string& flag, const std::string& good) {
  const std::vector<std::string> rest = without(base, flag);
  for (const std::string bad :
       {"", "abc", "8x", "1.5", "1e3", "0x10", "+8", " 8", "8 ", "\xef\xbc\x98" /* fullwidth 8 */})
    rows.push_back({flag + " = '" + bad + "' is not an integer", with(rest, {flag, bad}), kBadInput,
                    "error: " + flag + ": expected an integer, got '" + bad + "'\n"});
  for (const std::string huge :
       {"9223372036854775808", "-9223372036854775809", "99999999999999999999",
        "-99999999999999999999", "340282366920938463463374607431768211456"})
    rows.push_back({flag + " = " + huge + " is beyond 64 bits", with(rest, {flag, huge}), kBadInput,
                    "error: " + flag + ": " + huge + " does not fit in a 64-bit integer\n"});
  add_common_rows(rows, base, flag, good, "INT");
}

inline void add_boolean_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
                      const std::string& flag) {
  const std::vector<std::string> rest = without(base, flag);
  for (const std::string bad : {"", "yes", "no", "1", "0", "on", "off", "t", "truee", " true"})
    rows.push_back({flag + " = '" + bad + "' is not true or false", with(rest, {flag, bad}),
                    kBadInput, "error: " + flag + ": expected true or false, got '" + bad + "'\n"});
  for (const std::string spelling : {"TRUE", "False"})
    rows.push_back({flag + " = " + spelling + " is accepted (case-insensitive)", with(rest, {flag, spelling}), kOk, ""});
  add_common_rows(rows, base, flag, "true", "BOOL");
}

// A free-text flag: the value must be UTF-8; what it means is up to the rules.
inline void add_text_rows(std::vector<Row>& rows, const std::vector<std::string>& base, const std::string& flag,
                   const std::string& good, const std::string& placeholder = "TEXT") {
  const std::vector<std::string> rest = without(base, flag);
  for (const std::string bad :
       {"\xff", "m\xc3\x28", "\xed\xa0\x80" /* a UTF-16 surrogate */, "\xc0\xae" /* overlong */})
    rows.push_back({flag + " with invalid UTF-8", with(rest, {flag, bad}), kBadInput,
                    "error: " + flag + ": value is not valid UTF-8\n"});
  add_common_rows(rows, base, flag, good, placeholder);
}

inline void add_choice_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
                     const std::string& flag, const std::vector<std::string>& choices) {
  const std::vector<std::string> rest = without(base, flag);
  std::string set;
  for (const std::string& c : choices) set += (set.empty() ? "" : ",") + c;
  for (const std::string bad : {"", "xml", "JSON", "text "})
    rows.push_back({flag + " = '" + bad + "' is not one of " + set, with(rest, {flag, bad}), kBadInput,
                    usage_error(flag + ": " + bad + " not in {" + set + "}")});
  add_common_rows(rows, base, flag, choices.front(), "{" + set + "}", "--help not in {" + set + "}");
}

// --rules FILE: a file that cannot be used is exit 3, reported where the file is named.
inline void add_rules_flag_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  const std::vector<std::string> rest = without(base, "--rules");
  rows.push_back({"--rules '' is a file that cannot be read, not the built-in rules",
                  with(rest, {"--rules", ""}), kRulesUnusable,
                  "error: cannot read rule file '': No such file or directory\n"});
  rows.push_back({"--rules naming a missing file", with(rest, {"--rules", kMissing}),
                  kRulesUnusable,
                  kMissing + ": error: cannot read rule file '" + kMissing +
                      "': No such file or directory\n"});
  rows.push_back({"--rules naming a file that is not a rule file", with(rest, {"--rules", kRuleTests}), kRulesUnusable,
                  kRuleTests + ":4:1: error: unknown key 'tests' in the rule file\n" + kRuleTests +
                      ":1:1: error: missing required key 'snnplan' in the rule file (the format version, 1 or 2)\n"});
  add_common_rows(rows, base, "--rules", kRules, "FILE");
}

// -o / --output, which every subcommand has: refused before anything runs, or exit 4 when the
// file cannot be created.
inline void add_output_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  rows.push_back({"-o '' names no file", with(base, {"-o", ""}), kBadInput,
                  "error: -o/--output needs a file name, but got ''\n"});
  rows.push_back({"--output in a directory that does not exist",
                  with(base, {"--output", "/nonexistent/snnplan/out.txt"}), kWriteFailed,
                  "error: cannot write output: cannot create a file beside "
                  "'/nonexistent/snnplan/out.txt': No such file or "
                  "directory\n"});
  add_common_rows(rows, base, "--output", "/nonexistent/snnplan/out.txt", "FILE");
}

// --rules-root DIR, repeatable, on every subcommand that loads rule files.
inline void add_rules_root_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  rows.push_back({"--rules-root without its value (last on the line)", with(base, {"--rules-root"}),
                  kBadInput, usage_error("--rules-root: 1 required DIR missing")});
  rows.push_back({"--rules-root without its value (before another flag)",
                  with(base, {"--rules-root", "--help"}), kBadInput,
                  usage_error("--rules-root: expected a value, got the flag --help")});
  // --no-cache, beside --rules-root: a flag without a value.
  rows.push_back({"--no-cache given a value", with(base, {"--no-cache=x"}), kBadInput,
                  usage_error("Could not convert: --no-cache = x")});
}

// Flags no subcommand has.
inline void add_unknown_flag_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  for (const std::string bad : {"--bogus", "--world_size", "-x"})
    rows.push_back({"unknown flag " + bad, with(base, {bad}), kBadInput,
                    usage_error("The following argument was not expected: " + bad)});
}

// Flags and arguments no subcommand has.
inline void add_unknown_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  add_unknown_flag_rows(rows, base);
  rows.push_back({"an unexpected positional argument", with(base, {"extra"}), kBadInput,
                  usage_error("The following argument was not expected: extra")});
}

inline const std::vector<std::string> kRecommend = {
    "recommend", "--model", "spikformer", "--world-size", "8", "--prefer", "memory", "--batch-size",
    "64"};
inline const std::vector<std::string> kPlan = {"plan",      "--objective",  "memory", "--topology",
                                               "dp=4,tp=2", "--batch-size", "64"};
// A good batch line's members, for recommend and plan.
inline const std::string kGood =
    R"("model": "spikformer", "world_size": 8, "prefer": "memory", "batch_size": 64)";
inline const std::string kGoodPlan =
    R"("objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64)";

// One batch line and what becomes of it: refused (exit 2, an error line with "line": 1 and
// the same message on stderr), or answered (`message` empty: exit `code`).
struct LineRow {
  std::string what;
  std::string line;
  std::string message;  // substring of the refusal; empty: the line is answered
  int code = -1;        // -1: kBadInput when `message` is set, else kOk
};

// Runs `command` with each row's line on stdin, one at a time.
inline void check_batch_rows(const std::vector<std::string>& command, const std::vector<LineRow>& rows) {
  REQUIRE_FALSE(rows.empty());
  for (const LineRow& row : rows) {
    INFO("row: ", row.what);
    INFO("command: ", command_line(command));
    INFO("line: ", row.line);
    const CliRun run = run_cli(command, row.line + "\n");
    INFO("exit code: ", run.code);
    INFO("stdout: ", run.out);
    INFO("stderr: ", run.err);
    const int code = row.code != -1 ? row.code : row.message.empty() ? kOk : kBadInput;
    CHECK(run.code == code);
    REQUIRE(std::count(run.out.begin(), run.out.end(), '\n') ==
            1);  // one output line per input line
    const auto output = nlohmann::json::parse(run.out, nullptr, false);
    REQUIRE_FALSE(output.is_discarded());
    if (code ==
        kRuleError) {  // the rules' error: an error line without a line number, nothing on stderr
      CHECK(output.contains("error"));
      CHECK_FALSE(output.contains("line"));
      CHECK(run.err.empty());
    } else if (row.message.empty()) {
      CHECK_FALSE(output.contains("error"));
      CHECK(run.err.empty());
    } else {
      REQUIRE(output.contains("error"));
      CHECK(output.at("line") == 1);
      CHECK(contains(output.at("error").get<std::string>(), row.message));
      CHECK(run.err.rfind("<stdin>:1: error: ", 0) == 0);
      CHECK(contains(run.err, row.message));
      CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    }
  }
}

// One file of the broken rule corpus and the first error `check` reports for it.
struct BrokenFile {
  std::string path;
  std::string first_error;  // "<path>:LINE:COL: error: MESSAGE"
  std::string code;         // its diagnostic code, which `check` prints after the message
};

// The rows of each subcommand, defined beside their cases; the --help case counts them all.
std::vector<Row> recommend_rows();              // bad_input_flags_test.cpp
std::vector<Row> explain_rows();                // bad_input_flags_test.cpp
std::vector<Row> microbatches_rows();           // bad_input_flags_test.cpp
std::vector<Row> check_rows_for_subcommand();   // bad_input_flags_test.cpp
std::vector<Row> test_rows();                   // bad_input_flags_test.cpp
std::vector<Row> graph_rows();                  // bad_input_flags_test.cpp
std::vector<Row> replay_rows();                 // bad_input_plan_test.cpp
std::vector<Row> plan_rows();                   // bad_input_plan_test.cpp
std::vector<Row> plan_training_rows();          // bad_input_plan_test.cpp
std::vector<Row> top_level_rows();              // bad_input_plan_test.cpp
std::vector<LineRow> recommend_line_rows();     // bad_input_batch_test.cpp
std::vector<LineRow> plan_line_rows();          // bad_input_batch_test.cpp
std::vector<BrokenFile> broken_files();         // bad_input_broken_rules_test.cpp

}  // namespace bad_input_matrix
