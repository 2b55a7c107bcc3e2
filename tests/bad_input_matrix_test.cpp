// The bad-input matrix (issue 7): every subcommand x every flag x bad values, JSON Lines batch
// inputs, and the broken rule corpus, each row with the exit code and message that docs/cli.md's
// "Errors and exit codes" section promises. Rows are generated per kind of flag (integer,
// boolean, string, choice, path, ...); a failing row is named in the failure output.
//
// The last test case reads each subcommand's --help and fails when a flag has no row, so a new
// flag cannot slip past the matrix.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using snnplan::testing::CliRun;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

const std::string kRules = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
const std::string kRuleTests = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.test.yaml";
const std::string kPlanRules = std::string(SNNPLAN_RULES_DIR) + "/snn_plan.yaml";
const std::string kDirectory = SNNPLAN_TEST_DATA;
const std::string kMissing = "/nonexistent/snnplan/file.yaml";
const fs::path kBrokenCorpus = fs::path(SNNPLAN_TEST_DATA) / "broken";

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

std::string quoted(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" '\"\\$") == std::string::npos && arg.size() < 80)
    return arg;
  if (arg.size() >= 80)
    return "'" + arg.substr(0, 20) + "...(" + std::to_string(arg.size()) + " bytes)'";
  return "'" + arg + "'";
}

std::string command_line(const std::vector<std::string>& args) {
  std::string line = "snnplan";
  for (const std::string& arg : args) line += " " + quoted(arg);
  return line;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// `args` without the flag `flag` and its value.
std::vector<std::string> without(const std::vector<std::string>& args, const std::string& flag) {
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

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void check_row(const Row& row) {
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

void check_rows(const std::vector<Row>& rows) {
  REQUIRE_FALSE(rows.empty());
  for (const Row& row : rows) check_row(row);
}

// ---- rows by kind of flag ----------------------------------------------------------------------
// `base` is a valid command line that already holds `flag` with a good value `good`; each row
// replaces that value. `missing` is CLI11's word for the value's type in "1 required ... missing".

std::string usage_error(const std::string& message) {
  return "error: " + message + "\nRun with --help for usage.\n";
}

// `refusal_of_flag` is the message for a flag name given as the value, when the option's own
// check (a choice, a range) refuses it before the check for flag names does.
void add_common_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
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

void add_integer_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
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

void add_boolean_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
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
void add_text_rows(std::vector<Row>& rows, const std::vector<std::string>& base, const std::string& flag,
                   const std::string& good, const std::string& placeholder = "TEXT") {
  const std::vector<std::string> rest = without(base, flag);
  for (const std::string bad :
       {"\xff", "m\xc3\x28", "\xed\xa0\x80" /* a UTF-16 surrogate */, "\xc0\xae" /* overlong */})
    rows.push_back({flag + " with invalid UTF-8", with(rest, {flag, bad}), kBadInput,
                    "error: " + flag + ": value is not valid UTF-8\n"});
  add_common_rows(rows, base, flag, good, placeholder);
}

void add_choice_rows(std::vector<Row>& rows, const std::vector<std::string>& base,
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
void add_rules_flag_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
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
                      ":1:1: error: missing required key 'snnplan' in the rule file (the format version, 1)\n"});
  add_common_rows(rows, base, "--rules", kRules, "FILE");
}

// -o / --output, which every subcommand has: refused before anything runs, or exit 4 when the
// file cannot be created.
void add_output_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
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
void add_rules_root_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  rows.push_back({"--rules-root without its value (last on the line)", with(base, {"--rules-root"}),
                  kBadInput, usage_error("--rules-root: 1 required DIR missing")});
  rows.push_back({"--rules-root without its value (before another flag)",
                  with(base, {"--rules-root", "--help"}), kBadInput,
                  usage_error("--rules-root: expected a value, got the flag --help")});
  // --no-cache, beside --rules-root: a flag without a value.
  rows.push_back({"--no-cache given a value", with(base, {"--no-cache=x"}), kBadInput,
                  usage_error("Could not convert: --no-cache = x")});
}

// Flags and arguments no subcommand has.
void add_unknown_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  for (const std::string bad : {"--bogus", "--world_size", "-x"})
    rows.push_back({"unknown flag " + bad, with(base, {bad}), kBadInput,
                    usage_error("The following argument was not expected: " + bad)});
  rows.push_back({"an unexpected positional argument", with(base, {"extra"}), kBadInput,
                  usage_error("The following argument was not expected: extra")});
}

// ---- subcommands -------------------------------------------------------------------------------

const std::vector<std::string> kRecommend = {"recommend", "--model",  "spikformer", "--world-size",
                                             "8",         "--prefer", "memory",     "--batch-size",
                                             "64"};

const std::vector<std::string> kAvailabilityFlags = {"--zero-redundancy-optimizer-available",
                                                     "--pipelining-available", "--fsdp2-available",
                                                     "--tensor-parallel-available"};

// The input flags shared by recommend and explain (`base` holds the four required ones).
void add_input_flag_rows(std::vector<Row>& rows, const std::vector<std::string>& base) {
  rows.push_back({"--probe-torch with an interpreter that does not exist",
                  with(base, {"--probe-torch", "snnplan-no-such-python"}), kBadInput,
                  "error: --probe-torch: cannot run snnplan-no-such-python: No such file or directory\n"});
  add_integer_rows(rows, base, "--world-size", "8");
  add_integer_rows(rows, base, "--batch-size", "64");
  for (const std::string& flag : kAvailabilityFlags)
    add_boolean_rows(rows, with(base, {flag, "true"}), flag);
  add_text_rows(rows, base, "--model", "spikformer");
  add_text_rows(rows, base, "--prefer", "memory");
  add_text_rows(rows, with(base, {"--backend", "inductor"}), "--backend", "inductor");

  // Values the command line accepts and the rules judge, as the reference does.
  rows.push_back(
      {"a negative --world-size goes to the rules, which answer mode none like the reference",
       with(without(base, "--world-size"), {"--world-size", "-1"}), kOk, ""});
  rows.push_back({"a negative --batch-size goes to the rules, which accept it like the reference",
                  with(without(base, "--batch-size"), {"--batch-size", "-64"}), kOk, ""});
  rows.push_back(
      {"an empty --prefer is the reference's ValueError (exit 1)",
       with(without(base, "--prefer"), {"--prefer", ""}), kRuleError,
       "error: Unsupported prefer=''. Expected one of ('speed', 'memory', 'capacity').\n"});
  rows.push_back(
      {"an unknown --prefer is the reference's ValueError (exit 1)",
       with(without(base, "--prefer"), {"--prefer", "fast"}), kRuleError,
       "error: Unsupported prefer='fast'. Expected one of ('speed', 'memory', 'capacity').\n"});
  rows.push_back(
      {"an input string longer than 64 KiB",
       with(without(base, "--model"), {"--model", std::string(65537, 'a')}), kBadInput,
       "error: input 'model' has a string of 65537 bytes, longer than the limit of 65536 bytes\n"});
  for (const std::string required : {"--model", "--world-size", "--prefer", "--batch-size"}) {
    std::string input = required.substr(2);
    std::replace(input.begin(), input.end(), '-', '_');
    rows.push_back({"without " + required, without(base, required), kBadInput,
                    "error: missing required input '" + input + "'\n"});
  }

  // --input NAME=VALUE
  for (const std::string bad : {"", "model", "=3", "=", " model=x"})
    rows.push_back(
        {"--input '" + bad + "' is not NAME=VALUE", with(base, {"--input", bad}), kBadInput,
         bad == " model=x" ? "error: unknown input ' model' (did you mean 'model'?)\n"
                           : "error: --input: expected NAME=VALUE, got '" + bad + "'\n"});
  rows.push_back({"--input naming an input the built-in rules do not have suggests --rules",
                  with(base, {"--input", "colour=red"}), kBadInput,
                  "error: unknown input 'colour': the built-in rules do not declare it (for "
                  "another rule file's inputs, give that file with --rules FILE)\n"});
  rows.push_back({"--input with a misspelt input name gets a suggestion",
                  with(base, {"--input", "batchsize=8"}), kBadInput,
                  "error: unknown input 'batchsize' (did you mean 'batch_size'?)\n"});
  rows.push_back({"--input with a value of the wrong type",
                  with(without(base, "--world-size"), {"--input", "world_size=abc"}), kBadInput,
                  "error: --input world_size: expected an integer, got 'abc'\n"});
  rows.push_back(
      {"--input with an integer beyond 64 bits",
       with(without(base, "--world-size"), {"--input", "world_size=99999999999999999999"}),
       kBadInput,
       "error: --input world_size: 99999999999999999999 does not fit in a 64-bit integer\n"});
  rows.push_back({"--input with a boolean spelt wrong",
                  with(base, {"--input", "fsdp2_available=yes"}), kBadInput,
                  "error: --input fsdp2_available: expected true or false, got 'yes'\n"});
  rows.push_back({"--input setting an input that a flag already set",
                  with(base, {"--input", "model=resnet"}), kBadInput,
                  "error: input 'model' is given twice (first by --model)\n"});
  rows.push_back({"--input setting the same input twice",
                  with(without(base, "--world-size"), {"--input", "world_size=8", "--input", "world_size=4"}), kBadInput,
                  "error: input 'world_size' is given twice (first by --input world_size=...)\n"});
  rows.push_back({"--input without its value", with(base, {"--input"}), kBadInput, usage_error("--input: 1 required NAME=VALUE missing")});
  rows.push_back({"--input accepts a valid assignment", with(without(base, "--world-size"), {"--input", "world_size=8"}), kOk, ""});

  add_rules_flag_rows(rows, base);
  add_unknown_rows(rows, base);
}

std::vector<Row> recommend_rows() {
  std::vector<Row> rows;
  add_input_flag_rows(rows, kRecommend);
  add_choice_rows(rows, with(kRecommend, {"--format", "json"}), "--format",
                  {"json", "yaml", "text"});

  // --batch FILE|-
  const std::vector<std::string> batch = {"recommend", "--batch"};
  rows.push_back({"--batch '' names no file", with(batch, {""}), kBadInput,
                  "error: cannot open batch file '': No such file or directory\n"});
  rows.push_back({"--batch naming a missing file", with(batch, {kMissing}), kBadInput,
                  "error: cannot open batch file '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"--batch naming a directory", with(batch, {kDirectory}), kBadInput,
                  "error: cannot open batch file '" + kDirectory + "': it is a directory\n"});
  rows.push_back({"--batch without its value", batch, kBadInput, usage_error("--batch: 1 required FILE missing")});
  rows.push_back({"--batch given twice", with(batch, {"-", "--batch", "-"}), kBadInput,
                  usage_error("--batch: At Most 1 required but received 2")});
  for (const std::string flag :
       {"--model", "--world-size", "--prefer", "--batch-size", "--backend"})
    rows.push_back(
        {"--batch with the input flag " + flag, with(batch, {"-", flag, "8"}), kBadInput,
         "error: " + flag +
             " cannot be combined with --batch (batch inputs come from the JSON lines)\n"});
  for (const std::string& flag : kAvailabilityFlags)
    rows.push_back(
        {"--batch with the input flag " + flag, with(batch, {"-", flag, "true"}), kBadInput,
         "error: " + flag +
             " cannot be combined with --batch (batch inputs come from the JSON lines)\n"});
  rows.push_back(
      {"--batch with --input", with(batch, {"-", "--input", "model=x"}), kBadInput,
       "error: --input cannot be combined with --batch (batch inputs come from the JSON lines)\n"});
  rows.push_back(
      {"--batch with --trace adds the rule path", with(batch, {"-", "--trace"}), kOk, "",
       "\"rules\":[\"recommend/single-rank-speed\"]",
       "{\"model\": \"m\", \"world_size\": 1, \"prefer\": \"speed\", \"batch_size\": 8}\n"});
  for (const std::string format : {"yaml", "text"}) {
    rows.push_back({"--batch with --format " + format, with(batch, {"-", "--format", format}),
                    kBadInput,
                    "error: --format " + format +
                        " cannot be combined with --batch (batch output is JSON Lines)\n"});
    rows.push_back({"--trace with --format " + format,
                    with(kRecommend, {"--trace", "--format", format}), kBadInput,
                    "error: --trace cannot be combined with --format " + format +
                        " (the trace is part of the JSON output)\n"});
  }
  rows.push_back({"--batch with --format json is the batch's own format",
                  with(batch, {"-", "--format", "json"}), kOk, ""});

  // --trace and --watch are switches: they take no value; repeating one is harmless.
  rows.push_back({"--trace given a value", with(kRecommend, {"--trace", "yes"}), kBadInput,
                  usage_error("The following argument was not expected: yes")});
  rows.push_back({"--trace=maybe", with(kRecommend, {"--trace=maybe"}), kBadInput,
                  usage_error("Could not convert: --trace = maybe")});
  rows.push_back({"--trace given twice is the same as once",
                  with(kRecommend, {"--trace", "--trace"}), kOk, "", "\"trace\""});
  rows.push_back({"--watch without --batch", with(kRecommend, {"--watch"}), kBadInput,
                  "error: --watch needs --batch (it re-reads the rule file between lines)\n"});
  rows.push_back({"--watch with --batch but no rule file",
                  {"recommend", "--batch", "-", "--watch"},
                  kBadInput,
                  "error: --watch needs a rule file (--rules FILE or SNNPLAN_RULES)\n"});
  rows.push_back({"--watch with --rules '' names no file",
                  {"recommend", "--batch", "-", "--watch", "--rules", ""},
                  kRulesUnusable,
                  "error: cannot read rule file '': No such file or directory\n"});
  rows.push_back({"--watch=maybe", {"recommend", "--batch", "-", "--watch=maybe"}, kBadInput,
                  usage_error("Could not convert: --watch = maybe")});
  rows.push_back({"--jobs without --batch", with(kRecommend, {"--jobs", "2"}), kBadInput,
                  "error: --jobs needs --batch (it answers batch lines on several threads)\n"});
  for (const std::string jobs : {"0", "257", "two", "2x", "-1"})
    rows.push_back({"--jobs " + jobs, {"recommend", "--batch", "-", "--jobs", jobs}, kBadInput,
                    usage_error("--jobs: expected an integer from 1 to 256, got '" + jobs + "'")});
  add_output_rows(rows, kRecommend);
  add_rules_root_rows(rows, kRecommend);
  return rows;
}

std::vector<Row> explain_rows() {
  std::vector<Row> rows;
  std::vector<std::string> base = kRecommend;
  base[0] = "explain";
  add_input_flag_rows(rows, base);
  add_choice_rows(rows, with(base, {"--format", "text"}), "--format", {"text", "json"});
  for (const std::string flag : {"--batch", "--trace", "--watch"})
    rows.push_back({flag + " belongs to recommend only", with(base, {flag}), kBadInput,
                    usage_error("The following argument was not expected: " + flag)});
  // With --format json the error is part of the JSON on stdout; nothing goes to stderr.
  rows.push_back({"a rule error with --format json is in the JSON, exit 1",
                  with(without(base, "--prefer"), {"--prefer", "fast", "--format", "json"}),
                  kRuleError, "",
                  "\"error\": \"Unsupported prefer='fast'. Expected one of ('speed', 'memory', "
                  "'capacity').\""});
  rows.push_back({"a bad input with --format json is in the JSON, exit 2",
                  with(without(base, "--world-size"), {"--format", "json"}), kBadInput, "",
                  "\"error\": \"missing required input 'world_size'\""});
  add_output_rows(rows, base);
  add_rules_root_rows(rows, base);
  return rows;
}

std::vector<Row> microbatches_rows() {
  std::vector<Row> rows;
  const std::vector<std::string> base = {"microbatches", "--batch-size", "64", "--num-stages", "4"};
  add_integer_rows(rows, base, "--batch-size", "64");
  add_integer_rows(rows, base, "--num-stages", "4");
  add_choice_rows(rows, with(base, {"--format", "text"}), "--format", {"text", "json"});
  // Numbers the command line accepts and the reference refuses (its ValueError: exit 1).
  for (const std::string value : {"0", "-1", "-9223372036854775808"}) {
    rows.push_back({"--batch-size " + value + " is the reference's ValueError",
                    with(without(base, "--batch-size"), {"--batch-size", value}), kRuleError,
                    "error: batch_size must be positive, but got " + value + ".\n"});
    rows.push_back({"--num-stages " + value + " is the reference's ValueError",
                    with(without(base, "--num-stages"), {"--num-stages", value}), kRuleError,
                    "error: num_stages must be positive, but got " + value + ".\n"});
  }
  rows.push_back({"a batch smaller than the stages is the reference's ValueError",
                  {"microbatches", "--batch-size", "3", "--num-stages", "4"},
                  kRuleError,
                  "error: batch_size (3) must be >= num_stages (4)"});
  rows.push_back({"the largest 64-bit batch size is accepted",
                  {"microbatches", "--batch-size", "9223372036854775807", "--num-stages", "1"},
                  kOk,
                  "",
                  "\n"});
  rows.push_back({"without --batch-size", without(base, "--batch-size"), kBadInput,
                  usage_error("--batch-size is required")});
  rows.push_back({"without --num-stages", without(base, "--num-stages"), kBadInput,
                  usage_error("--num-stages is required")});
  add_unknown_rows(rows, base);
  add_output_rows(rows, base);
  return rows;
}

std::vector<Row> check_rows_for_subcommand() {
  std::vector<Row> rows;
  const std::vector<std::string> base = {"check", kRules};
  // check's diagnostics are its report: they go to stdout, with exit 3.
  rows.push_back({"check '' names a file that cannot be read",
                  {"check", ""},
                  kRulesUnusable,
                  "",
                  "error: cannot read rule file '': No such file or directory [cannot-read]\n"});
  rows.push_back({"check of a missing file",
                  {"check", kMissing},
                  kRulesUnusable,
                  "",
                  kMissing + ": error: cannot read rule file '" + kMissing +
                      "': No such file or directory [cannot-read]\n"});
  rows.push_back({"check of a good and a missing file still fails", {"check", kRules, kMissing}, kRulesUnusable, "",
                  "cannot read rule file '" + kMissing + "'"});
  rows.push_back({"check without a file", {"check"}, kBadInput, usage_error("files is required")});
  rows.push_back({"--strict=maybe", with(base, {"--strict=maybe"}), kBadInput,
                  usage_error("Could not convert: --strict = maybe")});
  rows.push_back({"--strict given a value is a second file name", with(base, {"--strict", "yes"}),
                  kRulesUnusable, "", "yes: error: cannot read rule file 'yes'"});
  rows.push_back(
      {"--strict given twice is the same as once", with(base, {"--strict", "--strict"}), kOk, ""});
  rows.push_back({"--error with an unknown code", with(base, {"--error", "shadowed"}), kBadInput,
                  "error: --error shadowed: unknown diagnostic code 'shadowed' (did you mean "
                  "'shadowed-rule'?)\n"});
  rows.push_back(
      {"--error with a code list", with(base, {"--error", "unreachable-rule,table-gap"}), kOk, ""});
  rows.push_back({"--ignore with an error's code", with(base, {"--ignore", "type-mismatch"}),
                  kBadInput,
                  "error: --ignore type-mismatch: 'type-mismatch' is an error and cannot be "
                  "ignored (only warnings and notes can)\n"});
  rows.push_back(
      {"--ignore with an empty code", with(base, {"--ignore", ""}), kBadInput,
       "error: --ignore : unknown diagnostic code '' (the codes are listed in docs/rules.md)\n"});
  rows.push_back({"--show-allowed=maybe", with(base, {"--show-allowed=maybe"}), kBadInput,
                  usage_error("Could not convert: --show-allowed = maybe")});
  rows.push_back({"--overlaps notes overlaps and passes", with(base, {"--overlaps"}), kOk, ""});
  rows.push_back({"--overlaps=maybe", with(base, {"--overlaps=maybe"}), kBadInput,
                  usage_error("Could not convert: --overlaps = maybe")});
  add_choice_rows(rows, with(base, {"--format", "text"}), "--format", {"text", "json"});
  for (const std::string bad : {"--bogus", "--world_size", "-x"})
    rows.push_back({"unknown flag " + bad, with(base, {bad}), kBadInput,
                    usage_error("The following argument was not expected: " + bad)});
  add_output_rows(rows, base);
  add_rules_root_rows(rows, base);
  return rows;
}

std::vector<Row> test_rows() {
  std::vector<Row> rows;
  // Flags are tried on a small rule file: a run of the default table's tests with coverage
  // enumerates its whole domain for the witnesses, which the flags' rows do not need.
  const std::string small_rules = std::string(SNNPLAN_TEST_DATA) + "/rule_tests/threshold.yaml";
  const std::string small_tests = std::string(SNNPLAN_TEST_DATA) + "/rule_tests/threshold.test.yaml";
  const std::vector<std::string> base = {"test", small_rules, small_tests};
  rows.push_back({"test '' RULES names a rule file that cannot be read, not the built-in rules",
                  {"test", "", kRuleTests},
                  kRulesUnusable,
                  "error: cannot read rule file '': No such file or directory\n"});
  rows.push_back({"test of a missing rule file", {"test", kMissing, kRuleTests}, kRulesUnusable,
                  "error: cannot read rule file '" + kMissing + "'"});
  rows.push_back({"test with an empty test file name",
                  {"test", kRules, ""},
                  kBadInput,
                  "error: cannot read test file '': No such file or directory\n"});
  rows.push_back({"test with a missing test file",
                  {"test", kRules, kMissing},
                  kBadInput,
                  "error: cannot read test file '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"test with a directory as the test file", {"test", kRules, kDirectory}, kBadInput,
                  "error: cannot read test file '" + kDirectory + "': it is a directory\n"});
  rows.push_back(
      {"test with a rule file as the test file",
       {"test", kRules, kRules},
       kBadInput,
       kRules + ":1:1: error: a test file must be a mapping with a list under 'tests'\n"});
  rows.push_back({"test without files", {"test"}, kBadInput, usage_error("rules is required")});
  rows.push_back({"test without a test file", {"test", kRules}, kBadInput, "error: tests is required\n"});
  rows.push_back({"--coverage=maybe", with(base, {"--coverage=maybe"}), kBadInput, usage_error("Could not convert: --coverage = maybe")});
  rows.push_back({"--coverage given twice is the same as once", with(base, {"--coverage", "--coverage"}), kOk, "", "rule coverage:\n"});
  for (const std::string bad : {"", "abc", "-1", "100.5", "101", "1e999", "nan", "NaN", "inf", "-inf", "50%", "0x10", " 50", "5,5",
                                "rule=101", "rule=-1", "rule=nan", "branch=50", "rule=50,rule=60", "rule=", "=50",
                                "rule=50,", "rule:50", "condition=50;boundary=50"})
    rows.push_back({"--min-coverage '" + bad + "' is not a percentage or KIND=PERCENT list", with(base, {"--min-coverage", bad}), kBadInput,
                    usage_error("--min-coverage: expected a percentage from 0 to 100 or KIND=PERCENT,... with KIND rule, "
                                "condition or boundary, got '" + bad + "'")});
  for (const std::string good : {"0", "100", "99.5", "1e2", "+50", "1e-400", "rule=100", "condition=0,rule=50",
                                 "rule=0,condition=0,boundary=0"})
    rows.push_back({"--min-coverage " + good + " is accepted", with(base, {"--min-coverage", good}), kOk, "", "5 passed, 0 failed"});
  add_common_rows(rows, with(base, {"--min-coverage", "50"}), "--min-coverage", "50", "[KIND=]PERCENT",
                  "expected a percentage from 0 to 100 or KIND=PERCENT,... with KIND rule, condition or boundary, got "
                  "'--help'");
  add_choice_rows(rows, with(base, {"--format", "text"}), "--format", {"text", "json", "junit"});
  // Mutation testing and generated tests.
  const std::vector<std::string> mutate = {"test", small_rules, small_tests, "--mutate"};
  rows.push_back({"--mutate runs the mutants", mutate, kOk, "", "mutation score 100.0% (10 of 10)"});
  rows.push_back({"--min-score without --mutate", {"test", small_rules, small_tests, "--min-score", "50"}, kBadInput,
                  usage_error("--min-score requires --mutate")});
  for (const std::string bad : {"", "101", "-1", "nan", "50%"})
    rows.push_back({"--min-score '" + bad + "' is not a number from 0 to 100", with(mutate, {"--min-score", bad}), kBadInput,
                    usage_error("--min-score: expected a number from 0 to 100, got '" + bad + "'")});
  rows.push_back({"--min-score 100 is met", with(mutate, {"--min-score", "100"}), kOk, "", "mutation testing: 10 mutants"});
  add_common_rows(rows, with(mutate, {"--min-score", "50"}), "--min-score", "50", "PERCENT:0-100",
                  "expected a number from 0 to 100, got '--help'");
  rows.push_back({"--generate writes a test file", {"test", "--generate", small_rules}, kOk, "", "tests:\n  - name: \"region 1: main/default\""});
  rows.push_back({"--generate with a test file", {"test", "--generate", small_rules, small_tests}, kBadInput,
                  "error: --generate writes a test file for the rules; it takes no test files (and no --mutate or --min-coverage)\n"});
  rows.push_back({"--generate with --mutate", {"test", "--generate", small_rules, "--mutate"}, kBadInput,
                  "error: --generate writes a test file for the rules; it takes no test files (and no --mutate or --min-coverage)\n"});
  rows.push_back({"--boundaries without --generate", with(base, {"--boundaries"}), kBadInput,
                  usage_error("--boundaries requires --generate")});
  rows.push_back({"--generate --boundaries adds the threshold's sides", {"test", "--generate", small_rules, "--boundaries"}, kOk, "",
                  "input: {model: vgg, world_size: 7}"});
  for (const std::string bad : {"--bogus", "--world_size", "-x"})
    rows.push_back({"unknown flag " + bad, with(base, {bad}), kBadInput,
                    usage_error("The following argument was not expected: " + bad)});
  add_output_rows(rows, base);
  add_rules_root_rows(rows, base);
  return rows;
}

std::vector<Row> graph_rows() {
  std::vector<Row> rows;
  const std::vector<std::string> base = {"graph"};
  add_rules_flag_rows(rows, with(base, {"--rules", kRules}));
  const std::vector<std::string> only = {"graph", "--only", "tables"};
  for (const std::string bad : {"", "bogus", "Tables", "tables,values"})
    rows.push_back({"--only '" + bad + "' is not a part of the graph", with(base, {"--only", bad}), kBadInput,
                    usage_error("--only: " + bad + " not in {all,tables,values}")});
  add_common_rows(rows, only, "--only", "tables", "{all,tables,values}", "--help not in {all,tables,values}");
  add_unknown_rows(rows, base);
  add_output_rows(rows, base);
  add_rules_root_rows(rows, base);
  return rows;
}

const std::vector<std::string> kPlan = {"plan",      "--objective",  "memory", "--topology",
                                        "dp=4,tp=2", "--batch-size", "64"};

// `snnplan replay LOG`: an empty log (/dev/null) replays nothing and exits 0.
std::vector<Row> replay_rows() {
  std::vector<Row> rows;
  const std::vector<std::string> base = {"replay", "/dev/null"};
  rows.push_back({"an empty log replays nothing", base, kOk, ""});
  rows.push_back({"a missing log", {"replay", kMissing}, kBadInput,
                  "error: cannot open decision log '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"a directory for the log", {"replay", kDirectory}, kBadInput,
                  "error: cannot open decision log '" + kDirectory + "': it is a directory\n"});
  rows.push_back({"no log", {"replay"}, kBadInput, usage_error("log is required")});
  rows.push_back({"--rules - with the log on standard input too", {"replay", "-", "--rules", "-"}, kBadInput,
                  "error: --rules - and - cannot both read standard input ('-'); give one of them a file\n"});
  add_choice_rows(rows, with(base, {"--format", "json"}), "--format", {"text", "json"});
  add_rules_flag_rows(rows, base);
  add_rules_root_rows(rows, base);
  add_output_rows(rows, base);
  add_unknown_rows(rows, base);
  return rows;
}

std::vector<Row> plan_rows() {
  std::vector<Row> rows;
  const std::vector<std::string>& base = kPlan;
  auto replaced = [&](const std::string& flag, const std::string& value) {
    return with(without(base, flag), {flag, value});
  };

  // --objective: free text that the plan rules judge.
  add_text_rows(rows, base, "--objective", "memory");
  for (const std::string bad :
       {"", "fast", "Speedy"}) {  // the reference's message shows the value lower-cased
    std::string lowered = bad;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    rows.push_back({"--objective '" + bad + "' is the reference's ValueError",
                    replaced("--objective", bad), kRuleError,
                    "error: Unsupported objective='" + lowered +
                        "'. Expected one of ('speed', 'memory', 'capacity').\n"});
  }

  // --topology NAME=SIZE,...
  const std::string expected_form = " (expected NAME=SIZE,NAME=SIZE,..., e.g. dp=4,tp=2)\n";
  const std::vector<std::pair<std::string, std::string>> topologies = {
      {"", "error: dims must not be empty.\n"},
      {"dp", "error: cannot parse topology 'dp': entry 'dp' has no '='" + expected_form},
      {"dp=", "error: cannot parse topology 'dp=': dimension 'dp' has no size" + expected_form},
      {"=4", "error: cannot parse topology '=4': entry '=4' has no dimension name" + expected_form},
      {"dp=4,,tp=2", "error: cannot parse topology 'dp=4,,tp=2': entry 2 is empty" + expected_form},
      {"dp=abc",
       "error: cannot parse topology 'dp=abc': the size of dimension 'dp' is not an integer: "
       "'abc'" +
           expected_form},
      {"dp=4.5",
       "error: cannot parse topology 'dp=4.5': the size of dimension 'dp' is not an integer: "
       "'4.5'" +
           expected_form},
      {"dp=99999999999999999999",
       "error: cannot parse topology 'dp=99999999999999999999': the size of dimension 'dp' does "
       "not "
       "fit in a 64-bit integer: '99999999999999999999'" +
           expected_form},
      {"dp=4,dp=2",
       "error: cannot parse topology 'dp=4,dp=2': dimension 'dp' is given more than once" +
           expected_form},
      {"dp=0", "error: world_size must be positive, but got 0.\n"},
      {"dp=-4", "error: world_size must be positive, but got -4.\n"},
      {"dp=-4,tp=-1", "error: Topology dimension 'dp' must be positive, but got -4.\n"},
      {"dp=4294967296,tp=4294967296",
       "error: Topology dims {'dp': 4294967296, 'tp': 4294967296} give "
       "world_size=18446744073709551616, beyond the 64-bit world sizes snnplan plans for.\n"},
  };
  for (const auto& [topology, message] : topologies)
    rows.push_back({"--topology '" + topology + "'", replaced("--topology", topology), kBadInput, message});
  add_text_rows(rows, base, "--topology", "dp=4,tp=2", "NAME=SIZE,...");

  // --world-size: an integer that must match the topology.
  add_integer_rows(rows, with(base, {"--world-size", "8"}), "--world-size", "8");
  for (const std::string bad : {"0", "-8"})
    rows.push_back({"--world-size " + bad + " is not positive", with(base, {"--world-size", bad}),
                    kBadInput, "error: world_size must be positive, but got " + bad + ".\n"});
  rows.push_back({"--world-size that is not the product of the sizes",
                  with(base, {"--world-size", "16"}), kBadInput,
                  "error: Topology dims {'dp': 4, 'tp': 2} multiply to 8, but world_size=16.\n"});

  add_integer_rows(rows, base, "--batch-size", "64");
  rows.push_back({"a negative --batch-size goes to the rules, which accept it like the reference",
                  replaced("--batch-size", "-64"), kOk, ""});

  add_text_rows(rows, with(base, {"--model-family", "generic"}), "--model-family", "generic");
  add_text_rows(rows, with(base, {"--backend", "inductor"}), "--backend", "inductor");
  add_text_rows(rows, with(base, {"--mode", "dp"}), "--mode", "dp");
  for (const std::string bad : {"", "bogus", "DP "}) {
    std::string lowered = bad;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    rows.push_back({"--mode '" + bad + "' is the plan rules' error", with(base, {"--mode", bad}),
                    kRuleError,
                    "error: Unsupported mode='" + lowered +
                        "'. Expected one of ('none', 'dp', 'tp', 'fsdp2', 'fsdp2_tp', 'pp').\n"});
  }
  rows.push_back({"--mode pp is refused for the pipeline path", with(base, {"--mode", "pp"}),
                  kRuleError,
                  "error: Pipeline parallelism ('pp') is not supported by the unified "
                  "analyze/plan/apply API."});

  for (const std::string bad : {",", "a,,b", "a,", ",a"})
    rows.push_back({"--tp-roots '" + bad + "' has an empty name", with(base, {"--tp-roots", bad}),
                    kBadInput,
                    "error: --tp-roots: empty name in '" + bad + "' (expected NAME,NAME,...)\n"});
  rows.push_back({"--tp-roots '' is an empty list", with(base, {"--tp-roots", ""}), kOk, "", "\"tensor_parallel_roots\": []"});
  add_text_rows(rows, with(base, {"--tp-roots", "a,b"}), "--tp-roots", "a,b", "LIST");

  for (const std::string bad : {"", "1", "0", "y", "maybe", "on"})
    rows.push_back({"--tp-candidates '" + bad + "' is not yes or no",
                    with(base, {"--tp-candidates", bad}), kBadInput,
                    "error: --tp-candidates: expected yes or no, got '" + bad + "'\n"});
  for (const std::string good : {"YES", "true"})
    rows.push_back({"--tp-candidates " + good + " is accepted", with(base, {"--tp-candidates", good}), kOk, ""});
  add_common_rows(rows, with(base, {"--tp-candidates", "yes"}), "--tp-candidates", "yes", "{yes,no}");

  // --feature NAME=true|false (repeatable, each feature once)
  for (const std::string bad : {"", "allow_pipeline", "=true", "="})
    rows.push_back({"--feature '" + bad + "' is not NAME=true|false",
                    with(base, {"--feature", bad}), kBadInput,
                    "error: --feature: expected NAME=true|false, got '" + bad + "'\n"});
  for (const std::string bad : {"", "yes", "1", "off"})
    rows.push_back({"--feature allow_pipeline='" + bad + "' is not true or false", with(base, {"--feature", "allow_pipeline=" + bad}),
                    kBadInput, "error: --feature allow_pipeline: expected true or false, got '" + bad + "'\n"});
  rows.push_back({"--feature with a name the plan rules do not declare is upstream's TypeError",
                  with(base, {"--feature", "allow_pipelines=true"}), kBadInput,
                  "error: DistributedFeatureSet.__init__() got an unexpected keyword argument 'allow_pipelines'\n"});
  rows.push_back({"--feature naming the same feature twice", with(base, {"--feature", "allow_pipeline=true", "--feature", "allow_pipeline=false"}),
                  kBadInput, "error: --feature allow_pipeline: given more than once\n"});
  rows.push_back({"--feature may be repeated for different features",
                  with(base, {"--feature", "allow_pipeline=true", "--feature", "allow_zero_optimizer=false"}), kOk, ""});
  rows.push_back({"--feature without its value", with(base, {"--feature"}), kBadInput, usage_error("--feature: 1 required NAME=BOOL missing")});

  // --note TEXT (repeatable)
  rows.push_back({"--note with invalid UTF-8", with(base, {"--note", "\xff"}), kBadInput,
                  "error: --note: value is not valid UTF-8\n"});
  rows.push_back({"--note may be repeated", with(base, {"--note", "a", "--note", "b"}), kOk, "",
                  "\"notes\": [\n    \"a\",\n    \"b\"\n  ]"});
  rows.push_back({"--note without its value", with(base, {"--note"}), kBadInput,
                  usage_error("--note: 1 required TEXT missing")});

  add_rules_flag_rows(rows, with(base, {"--rules", kPlanRules}));
  add_choice_rows(rows, with(base, {"--format", "json"}), "--format", {"json", "yaml", "text"});

  // --batch
  rows.push_back({"--batch '' names no file",
                  {"plan", "--batch", ""},
                  kBadInput,
                  "error: cannot open batch file '': No such file or directory\n"});
  rows.push_back({"--batch naming a missing file",
                  {"plan", "--batch", kMissing},
                  kBadInput,
                  "error: cannot open batch file '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"--batch naming a directory", {"plan", "--batch", kDirectory}, kBadInput,
                  "error: cannot open batch file '" + kDirectory + "': it is a directory\n"});
  for (const std::string flag : {"--objective", "--topology", "--world-size", "--batch-size", "--model-family", "--backend",
                                  "--mode", "--tp-roots", "--tp-candidates", "--feature", "--note"})
    rows.push_back({"--batch with the input flag " + flag, {"plan", "--batch", "-", flag, "x"}, kBadInput,
                    "error: " + flag + " cannot be combined with --batch (batch inputs come from the JSON lines)\n"});
  add_common_rows(rows, {"plan", "--batch", "-"}, "--batch", "-", "FILE");
  rows.push_back({"plan --trace without --batch",
                  {"plan", "--objective", "memory", "--topology", "dp=4", "--batch-size", "64", "--trace"},
                  kBadInput, "error: plan --trace needs --batch (the rule path is added to each batch line)\n"});
  rows.push_back({"plan --batch with --trace adds the rule path", {"plan", "--batch", "-", "--trace"}, kOk, "",
                  "\"rules\":[\"recommend/by-preference-memory\",\"memory/fsdp2-tp\"",
                  "{\"objective\": \"memory\", \"topology\": {\"dp\": 4, \"tp\": 2}, \"batch_size\": 64}\n"});
  rows.push_back({"plan --jobs without --batch",
                  {"plan", "--objective", "memory", "--topology", "dp=4", "--batch-size", "64", "--jobs", "2"},
                  kBadInput, "error: --jobs needs --batch (it answers batch lines on several threads)\n"});
  rows.push_back({"plan --jobs 0", {"plan", "--batch", "-", "--jobs", "0"}, kBadInput,
                  usage_error("--jobs: expected an integer from 1 to 256, got '0'")});
  rows.push_back({"plan --trace given a value", {"plan", "--batch", "-", "--trace", "yes"}, kBadInput,
                  usage_error("The following argument was not expected: yes")});
  for (const std::string format : {"yaml", "text"})
    rows.push_back({"plan --batch with --format " + format,
                    {"plan", "--batch", "-", "--format", format},
                    kBadInput,
                    "error: --format " + format +
                        " cannot be combined with --batch (batch output is JSON Lines)\n"});

  for (const std::string required : {"--objective", "--topology", "--batch-size"})
    rows.push_back({"without " + required, without(base, required), kBadInput,
                    "error: " + required + " is required (or give --batch FILE with one JSON object per line)\n"});
  for (const auto& [flag, placeholder] : std::vector<std::pair<std::string, std::string>>{
           {"--objective", "TEXT"}, {"--topology", "NAME=SIZE,..."}, {"--batch-size", "INT"}}) {
    const auto at = std::find(base.begin(), base.end(), flag);
    add_common_rows(rows, base, flag, *(at + 1), placeholder);
  }
  add_unknown_rows(rows, base);
  add_output_rows(rows, base);
  add_rules_root_rows(rows, base);
  return rows;
}

std::vector<Row> top_level_rows() {
  return {
      {"no subcommand", {}, kBadInput, usage_error("A subcommand is required")},
      {"only an unknown flag names it", {"--bogus"}, kBadInput,
       usage_error("unknown option '--bogus' (before a subcommand snnplan takes only --help and --version; a "
                   "subcommand's options follow it, as in snnplan recommend --model ...)")},
      {"an unknown flag with a value near one of snnplan's own gets a suggestion", {"--versoin=1"}, kBadInput,
       usage_error("unknown option '--versoin' (before a subcommand snnplan takes only --help and --version; a "
                   "subcommand's options follow it, as in snnplan recommend --model ...); did you mean '--version'?")},
      {"a misspelt subcommand gets a suggestion", {"recomend"}, kBadInput,
       usage_error("unknown subcommand 'recomend' (the subcommands are recommend, explain, microbatches, check, test, "
                   "graph, plan, schema, diff, map, replay, lsp, serve, completion, help); did you mean 'recommend'?")},
      {"an unknown subcommand", {"deploy", "--model", "x"}, kBadInput,
       usage_error("unknown subcommand 'deploy' (the subcommands are recommend, explain, microbatches, check, test, "
                   "graph, plan, schema, diff, map, replay, lsp, serve, completion, help); did you mean 'replay'?")},
      {"an empty subcommand", {""}, kBadInput, "error: unknown subcommand ''"},
  };
}

// ---- JSON Lines
// ----------------------------------------------------------------------------------

// One batch line and what becomes of it: refused (exit 2, an error line with "line": 1 and
// the same message on stderr), or answered (`message` empty: exit `code`).
struct LineRow {
  std::string what;
  std::string line;
  std::string message;  // substring of the refusal; empty: the line is answered
  int code = -1;        // -1: kBadInput when `message` is set, else kOk
};

void check_batch_rows(const std::vector<std::string>& command, const std::vector<LineRow>& rows) {
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

const std::string kGood =
    R"("model": "spikformer", "world_size": 8, "prefer": "memory", "batch_size": 64)";
const std::string kGoodPlan =
    R"("objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64)";

// Malformed JSON is refused the same way on both batch paths.
// `nul_inside_string` is the message for a raw NUL byte inside a string.
std::vector<LineRow> malformed_json_rows(const std::string& good,
                                         const std::string& nul_inside_string) {
  const std::string object = "{" + good + "}";
  return {
      {"an empty line", "", "empty line (expected a JSON object)"},
      {"a line of blanks", " \t \r", "empty line (expected a JSON object)"},
      {"truncated after a key", R"({"model": )",
       "not valid JSON: parse error at line 1, column 11: syntax error while parsing value - "
       "unexpected end of input"},
      {"truncated inside a string", R"({"model": "spik)", "invalid string: missing closing quote"},
      {"truncated before the closing brace", "{" + good,
       "syntax error while parsing object - unexpected end of input; expected '}'"},
      {"an extra closing brace", object + "}", "unexpected '}'; expected end of input"},
      {"two objects on one line", object + " " + object, "unexpected '{'; expected end of input"},
      {"a trailing comma", "{" + good + ",}",
       "syntax error while parsing object key - unexpected '}'; expected string literal"},
      {"single quotes", "{'model': 'x'}",
       "syntax error while parsing object key - invalid literal"},
      {"a key without quotes", "{model: 1}",
       "syntax error while parsing object key - invalid literal"},
      {"a comment", object + " // note", "invalid literal"},
      {"an array instead of an object", "[" + object + "]",
       "a batch line must be a JSON object, got an array"},
      {"a string instead of an object", R"("spikformer")",
       "a batch line must be a JSON object, got a string"},
      {"a number instead of an object", "8", "a batch line must be a JSON object, got a number"},
      {"null instead of an object", "null", "a batch line must be a JSON object, got null"},
      {"arrays nested 10,000 deep", std::string(10000, '[') + std::string(10000, ']'),
       "a batch line must be a JSON object, got an array"},
      {"a number beyond the double range", R"({"batch_size": 1e400})",
       "not valid JSON: number overflow parsing '1e400'"},
      {"a raw NUL byte inside a string", std::string("{\"model\": \"a") + '\0' + "b\"}",
       nul_inside_string},
      {"a raw control character inside a string", "{\"model\": \"a\tb\"}",
       "control character U+0009 (HT) must be escaped"},
      {"invalid UTF-8 in a string (a lone continuation byte)", "{\"model\": \"a\x80\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a string (0xFF)", "{\"model\": \"\xff\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a string (an overlong '/')", "{\"model\": \"\xc0\xaf\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a string (a truncated sequence)", "{\"model\": \"\xe2\x82\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a key", "{\"mod\xffl\": 1}",
       "syntax error while parsing object key - invalid string: ill-formed UTF-8 byte"},
      {"a lone UTF-16 surrogate escape", R"({"model": "\ud800"})",
       "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"},
      {"invalid UTF-8 outside strings", object + "\xff", "invalid literal"},
  };
}

std::vector<LineRow> recommend_line_rows() {
  std::vector<LineRow> rows = malformed_json_rows(
      kGood,
      "a NUL byte at column 13 (JSON text cannot contain one; inside a string write \\u0000)");
  auto line = [](const std::string& fields) { return "{" + kGood + ", " + fields + "}"; };
  auto replaced = [](const std::string& key, const std::string& value) {
    std::string fields = kGood;
    const auto at = fields.find("\"" + key + "\": ");
    const auto end = fields.find(',', at);
    fields.replace(at, (end == std::string::npos ? fields.size() : end) - at,
                   "\"" + key + "\": " + value);
    return "{" + fields + "}";
  };
  const std::vector<LineRow> more = {
      {"the good line", "{" + kGood + "}", ""},
      {"an unknown key is refused, not ignored", line(R"("colour": "red")"),
       "unknown input 'colour'"},
      {"a misspelt key is refused with a suggestion",
       R"({"model": "m", "world_size": 8, "prefer": "speed", "batchsize": 64})",
       "unknown input 'batchsize' (did you mean 'batch_size'?)"},
      {"a key that differs in case",
       R"({"Model": "m", "world_size": 8, "prefer": "speed", "batch_size": 64})",
       "unknown input 'Model' (did you mean 'model'?)"},
      {"an empty key", line(R"("": 1)"), "unknown input ''"},
      {"an object for a string input", replaced("model", R"({"name": "spikformer"})"),
       "input 'model' must be a string, number, boolean, null or an array of those, got an object"},
      {"an array for a string input", replaced("model", R"(["spikformer"])"),
       "input 'model' must be string, got list"},
      {"a number for a string input", replaced("model", "5"),
       "input 'model' must be string, got int"},
      {"a string for an integer input", replaced("world_size", R"("8")"),
       "input 'world_size' must be int, got string"},
      {"a boolean for an integer input", replaced("world_size", "true"),
       "input 'world_size' must be int, got bool"},
      {"a float for an integer input", replaced("world_size", "8.5"),
       "input 'world_size' must be an integer that fits in 64 bits, got 8.5"},
      {"a whole float for an integer input", replaced("world_size", "8.0"),
       "input 'world_size' must be an integer that fits in 64 bits, got 8.0"},
      {"an integer beyond 64 bits", replaced("world_size", "9223372036854775808"),
       "input 'world_size': 9223372036854775808 does not fit in a 64-bit integer"},
      {"a negative integer beyond 64 bits", replaced("world_size", "-99999999999999999999"),
       "input 'world_size': -99999999999999999999 does not fit in a 64-bit integer"},
      {"a string for a boolean input", line(R"("fsdp2_available": "true")"),
       "input 'fsdp2_available' must be bool, got string"},
      {"a number for a boolean input", line(R"("fsdp2_available": 1)"),
       "input 'fsdp2_available' must be bool, got int"},
      {"null for a required input", replaced("model", "null"), "missing required input 'model'"},
      {"a missing required input", R"({"model": "m", "prefer": "speed", "batch_size": 64})",
       "missing required input 'world_size'"},
      {"a string longer than 64 KiB", replaced("model", "\"" + std::string(65537, 'a') + "\""),
       "input 'model' has a string of 65537 bytes, longer than the limit of 65536 bytes"},
      {"null for an optional input takes the default",
       line(R"("fsdp2_available": null, "backend": null)"), ""},
      {"a negative world size goes to the rules, like the reference", replaced("world_size", "-8"),
       ""},
      {"an escaped NUL (\\u0000) is a character of the string",
       replaced("model", R"("spik\u0000former")"), ""},
      {"a byte order mark before the object is skipped", "\xef\xbb\xbf{" + kGood + "}", ""},
      {"a CR before the newline is skipped", "{" + kGood + "}\r", ""},
      {"an unknown prefer is the reference's ValueError, without a line number",
       replaced("prefer", R"("fast")"), "", kRuleError},
  };
  rows.insert(rows.end(), more.begin(), more.end());
  return rows;
}

std::vector<LineRow> plan_line_rows() {
  std::vector<LineRow> rows = malformed_json_rows(
      kGoodPlan,
      "a NUL byte at column 13 (JSON text cannot contain one; inside a string write \\u0000)");
  auto line = [](const std::string& fields) { return "{" + kGoodPlan + ", " + fields + "}"; };
  const std::vector<LineRow> more = {
      {"the good line", "{" + kGoodPlan + "}", ""},
      {"an unknown key is refused, not ignored", line(R"("colour": "red")"),
       "unknown input 'colour'"},
      {"a misspelt key is refused with a suggestion", line(R"("wrld_size": 8)"),
       "unknown input 'wrld_size' (did you mean 'world_size'?)"},
      {"a repeated key is refused", line(R"("objective": "speed")"),
       "duplicate key 'objective' in a JSON object"},
      {"a repeated dimension is refused",
       R"({"objective": "memory", "topology": {"dp": 4, "dp": 2}, "batch_size": 64})",
       "duplicate key 'dp' in a JSON object"},
      {"a NUL byte after the object is refused, not taken for the end of the line",
       "{" + kGoodPlan + "}" + '\0' + "garbage",
       "a NUL byte at column " + std::to_string(kGoodPlan.size() + 3) +
           " (JSON text cannot contain one; inside a string write \\u0000)"},
      {"a topology string instead of an object",
       R"({"objective": "memory", "topology": "dp=4,tp=2", "batch_size": 64})",
       "input 'topology' must be an object of dimension sizes such as {\"dp\": 4, \"tp\": 2}, got "
       "a string"},
      {"a nested object as a dimension size",
       R"({"objective": "memory", "topology": {"dp": {"size": 4}}, "batch_size": 64})",
       "Topology dimension 'dp' must be an integer, but got dict."},
      {"a float batch size", R"({"objective": "memory", "topology": {"dp": 4}, "batch_size": 6.5})",
       "input 'batch_size' must be an integer that fits in 64 bits, got 6.5"},
      {"a string batch size",
       R"({"objective": "memory", "topology": {"dp": 4}, "batch_size": "64"})",
       "input 'batch_size' must be an integer, got a string"},
      {"a batch size beyond 64 bits",
       R"({"objective": "memory", "topology": {"dp": 4}, "batch_size": 18446744073709551616})",
       "input 'batch_size' must be an integer that fits in 64 bits, got 1.8446744073709552e+19"},
      {"a string for a boolean", line(R"("tp_candidates": "yes")"),
       "input 'tp_candidates' must be true or false, got a string"},
      {"a string for a list", line(R"("tp_roots": "a,b")"),
       "input 'tp_roots' must be an array of strings, got a string"},
      {"a feature that is not a boolean", line(R"("features": {"allow_pipeline": "no"})"),
       "feature 'allow_pipeline' must be true or false, got \"no\""},
      {"an unknown objective is the plan rules' error, without a line number",
       R"({"objective": "fast", "topology": {"dp": 4}, "batch_size": 64})", "", kRuleError},
  };
  rows.insert(rows.end(), more.begin(), more.end());
  return rows;
}

// ---- the broken rule corpus --------------------------------------------------------------------

struct BrokenFile {
  std::string path;
  std::string first_error;  // "<path>:LINE:COL: error: MESSAGE"
  std::string code;         // its diagnostic code, which `check` prints after the message
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Each tests/data/broken/<case>.yaml with the first line of <case>.expected, the file name in
// it replaced by the path the CLI is given.
std::vector<BrokenFile> broken_files() {
  std::vector<BrokenFile> files;
  for (const auto& entry : fs::directory_iterator(kBrokenCorpus)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().filename().string();
    const std::string path = entry.path().string();
    const std::string text = read_text(fs::path(entry.path()).replace_extension(".expected"));
    std::string expected = text.substr(0, text.find('\n'));
    for (auto at = expected.find(name); at != std::string::npos;
         at = expected.find(name, at + path.size()))
      expected.replace(at, name.size(), path);
    // The second line: "code: CODE".
    std::string code = text.substr(std::min(text.size(), text.find('\n') + 1));
    code = code.substr(0, code.find('\n'));
    if (code.rfind("code: ", 0) == 0) code.erase(0, 6);
    files.push_back({path, expected, code});
  }
  std::sort(files.begin(), files.end(),
            [](const BrokenFile& a, const BrokenFile& b) { return a.path < b.path; });
  return files;
}

// The first line of `text` that reports an error (warnings about the same file may come first).
std::string first_error_line(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (contains(line, ": error: ")) return line;
  return "(no error line)";
}

// "file:line:column: error: message" of one diagnostic of `check --format json`.
std::string fmt_location(const nlohmann::json& d) {
  return d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()) + ":" +
         std::to_string(d.at("column").get<int>()) +
         ": error: " + d.at("message").get<std::string>();
}

// The flags a subcommand's --help lists (without --help itself).
std::set<std::string> flags_in_help(const std::string& subcommand) {
  const CliRun help = run_cli({subcommand, "--help"});
  std::set<std::string> flags;
  const std::regex flag(R"((^|[\s,])(--[a-z0-9][a-z0-9-]*))");
  for (auto it = std::sregex_iterator(help.out.begin(), help.out.end(), flag);
       it != std::sregex_iterator(); ++it)
    flags.insert((*it)[2].str());
  flags.erase("--help");
  return flags;
}

std::set<std::string> flags_in_rows(const std::vector<Row>& rows) {
  std::set<std::string> flags;
  for (const Row& row : rows)
    for (const std::string& arg : row.args)
      if (arg.rfind("--", 0) == 0) flags.insert(arg.substr(0, arg.find('=')));
  return flags;
}

}  // namespace

TEST_SUITE("bad-input matrix") {
  TEST_CASE(
      "recommend answers every bad flag value with exit code 2 and a message naming the flag") {
    const NoRulesVariable no_rules;
    check_rows(recommend_rows());
  }

  TEST_CASE("explain answers every bad flag value as recommend does") {
    const NoRulesVariable no_rules;
    check_rows(explain_rows());
  }

  TEST_CASE(
      "microbatches refuses bad numbers with exit code 2 and leaves non-positive ones to the "
      "reference's error") {
    check_rows(microbatches_rows());
  }

  TEST_CASE(
      "check reports unreadable files on stdout with exit code 3 and bad flags with exit code 2") {
    check_rows(check_rows_for_subcommand());
  }

  TEST_CASE(
      "test refuses unusable rule files with exit code 3 and bad test files or percentages with "
      "exit code 2") {
    const NoRulesVariable no_rules;
    check_rows(test_rows());
  }

  TEST_CASE(
      "graph refuses an unusable rule file with exit code 3 and a bad --only with exit code 2") {
    const NoRulesVariable no_rules;
    check_rows(graph_rows());
  }

  TEST_CASE(
      "plan answers every bad flag value with exit code 2 and leaves objective and mode to the "
      "plan rules") {
    check_rows(plan_rows());
  }

  TEST_CASE("replay answers a missing, unreadable or doubly read log and every bad flag with its exit code") {
    check_rows(replay_rows());
  }

  TEST_CASE("an unknown or missing subcommand is a usage error with exit code 2") {
    check_rows(top_level_rows());
  }

  TEST_CASE(
      "recommend --batch refuses each malformed JSON line on its own output line with exit code "
      "2") {
    check_batch_rows({"recommend", "--batch", "-"}, recommend_line_rows());
  }

  TEST_CASE(
      "plan --batch refuses each malformed JSON line on its own output line with exit code 2") {
    check_batch_rows({"plan", "--batch", "-"}, plan_line_rows());
  }

  TEST_CASE(
      "a batch exits with its worst line: 2 for any bad line, else 1 for any rule error, else 0") {
    const std::string ok = "{" + kGood + "}\n";
    const std::string rule_error =
        R"({"model": "m", "world_size": 8, "prefer": "fast", "batch_size": 64})"
        "\n";
    const std::string bad = "{\"colour\": 1}\n";
    const std::vector<std::pair<std::string, int>> batches = {{"", kOk},
                                                              {ok + ok, kOk},
                                                              {ok + rule_error + ok, kRuleError},
                                                              {rule_error + bad, kBadInput},
                                                              {bad + rule_error + ok, kBadInput}};
    for (const auto& [input, code] : batches) {
      INFO("batch: ", input);
      const CliRun run = run_cli({"recommend", "--batch", "-"}, input);
      CHECK(run.code == code);
      CHECK(std::count(run.out.begin(), run.out.end(), '\n') ==
            std::count(input.begin(), input.end(), '\n'));
    }
  }

  TEST_CASE("every broken rule file makes check exit 3 with its expected first error on stdout") {
    const auto files = broken_files();
    REQUIRE(files.size() >= 30);
    for (const BrokenFile& file : files) {
      INFO("file: ", file.path);
      const CliRun run = run_cli({"check", file.path});
      INFO("stdout: ", run.out);
      CHECK(run.code == kRulesUnusable);
      CHECK(first_error_line(run.out) == file.first_error + " [" + file.code + "]");
      CHECK(run.err.empty());

      const CliRun json = run_cli({"check", "--format", "json", file.path});
      CHECK(json.code == kRulesUnusable);
      const auto diagnostics = nlohmann::json::parse(json.out, nullptr, false);
      REQUIRE(diagnostics.is_array());
      const auto error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                      [](const auto& d) { return d.at("severity") == "error"; });
      REQUIRE(error != diagnostics.end());
      CHECK(error->at("file") == file.path);
      CHECK(file.first_error == fmt_location(*error));
    }
  }

  TEST_CASE(
      "every broken rule file makes recommend, explain, graph, test and plan exit 3 with the same "
      "first error on stderr") {
    const NoRulesVariable no_rules;
    for (const BrokenFile& file : broken_files()) {
      const std::vector<std::vector<std::string>> commands = {
          with(kRecommend, {"--rules", file.path}),
          {"recommend", "--rules", file.path, "--batch", "-"},
          {"explain", "--rules", file.path, "--model", "m"},
          {"graph", "--rules", file.path},
          {"test", file.path, kRuleTests},
          with(kPlan, {"--rules", file.path}),
      };
      for (const auto& command : commands) {
        INFO("command: ", command_line(command));
        const CliRun run = run_cli(command, "{" + kGood + "}\n");
        INFO("stderr: ", run.err);
        CHECK(run.code == kRulesUnusable);
        CHECK(first_error_line(run.err) == file.first_error);
        CHECK(run.out.empty());
      }
    }
  }

  TEST_CASE(
      "--input for a float input takes decimal numbers and refuses infinity, nan, hex and the "
      "double range's outside") {
    const TempFile rules("float_input.yaml", R"(snnplan: 1
inputs:
  ratio: {type: float, default: 0.5}
record:
  r: {type: float, init: = ratio}
  why: {type: rationale}
start: main
tables:
  main:
    - name: all
      because: "ratio {ratio}"
)");
    const std::vector<std::string> base = {"recommend", "--rules", rules.path(), "--format",
                                           "text"};
    std::vector<Row> rows;
    for (const std::string good : {"2.5", "-0.25", ".5", "+3", "1e3", "1e-400"})
      rows.push_back({"--input ratio=" + good + " is a float",
                      with(base, {"--input", "ratio=" + good}), kOk, ""});
    for (const std::string bad : {"", "inf", "-inf", "nan", "0x10", " 1.5", "1e", "1.5x", "--1"})
      rows.push_back({"--input ratio='" + bad + "' is not a number",
                      with(base, {"--input", "ratio=" + bad}), kBadInput,
                      "error: --input ratio: expected a number, got '" + bad + "'\n"});
    for (const std::string huge : {"1e400", "-1e400"})
      rows.push_back(
          {"--input ratio=" + huge + " is beyond a double",
           with(base, {"--input", "ratio=" + huge}), kBadInput,
           "error: --input ratio: " + huge + " is beyond the range of a 64-bit float\n"});
    const std::string long_number = "1" + std::string(400, '0');
    rows.push_back({"a 401-digit --input float is shown by its head and length",
                    with(base, {"--input", "ratio=" + long_number}), kBadInput,
                    "error: --input ratio: 100000000000000000000000... (401 characters) is beyond "
                    "the range of a 64-bit float\n"});
    check_rows(rows);
  }

  TEST_CASE("the matrix has rows for every flag that each subcommand's --help lists") {
    const std::vector<std::pair<std::string, std::vector<Row>>> subcommands = {
        {"recommend", recommend_rows()},
        {"explain", explain_rows()},
        {"microbatches", microbatches_rows()},
        {"check", check_rows_for_subcommand()},
        {"test", test_rows()},
        {"graph", graph_rows()},
        {"plan", plan_rows()},
        {"replay", replay_rows()}};
    for (const auto& [name, rows] : subcommands) {
      INFO("subcommand: ", name);
      const std::set<std::string> listed = flags_in_help(name);
      CHECK(listed.size() >= 2);
      const std::set<std::string> covered = flags_in_rows(rows);
      for (const std::string& flag : listed) {
        INFO("flag: ", flag);
        CHECK(covered.count(flag) == 1);
      }
    }
    std::size_t total = top_level_rows().size() + recommend_line_rows().size() +
                        plan_line_rows().size() + 5 /* worst-line batches */;
    for (const auto& [name, rows] : subcommands) total += rows.size();
    total += broken_files().size() * 8;  // check (text and JSON) and six commands with --rules
    MESSAGE("the bad-input matrix has ", total, " rows");
    CHECK(total >= 700);
  }
}

// Bugs the matrix found outside the CLI's own code, now fixed; kept as their regression tests.
TEST_SUITE("bad-input matrix: fixed bugs") {
  TEST_CASE(
      "recommend --batch refuses a line that repeats a key, as plan --batch does "
      "(src/request/json_inputs.cpp)") {
    check_batch_rows({"recommend", "--batch", "-"},
                     {{"a repeated key", "{" + kGood + R"(, "model": "resnet"})",
                       "duplicate key 'model' in a JSON object"}});
  }

  TEST_CASE(
      "recommend --batch refuses a NUL byte after the object instead of ignoring the rest "
      "(src/request/json_inputs.cpp)") {
    check_batch_rows({"recommend", "--batch", "-"},
                     {{"a NUL byte after the object", "{" + kGood + "}" + '\0' + "garbage",
                       "a NUL byte at column"}});
  }

  TEST_CASE(
      "a rule-test file reads numbers as rule files do: 08 is 8, and beyond 64 bits or a double is "
      "refused (src/load/rule_tests.cpp)") {
    // Before: YAML::convert read 08 as the float 8.0 (an octal failure), an integer beyond 64
    // bits as a float and 1e400 as a string, so such tests failed for the wrong reason.
    const auto test_file = [](const std::string& world_size) {
      return "tests:\n  - name: t\n    input: {model: vgg, world_size: " + world_size +
             ", prefer: speed, batch_size: 32}\n    expect: {mode: dp}\n";
    };
    const TempFile leading_zero("leading_zero.test.yaml", test_file("08"));
    const TempFile huge_integer("huge_integer.test.yaml", test_file("99999999999999999999"));
    const TempFile huge_float("huge_float.test.yaml", test_file("1e400"));
    check_rows({
        {"a test input 08 is the integer 8",
         {"test", kRules, leading_zero.path()},
         kOk,
         "",
         "1 passed, 0 failed"},
        {"a test input beyond 64 bits",
         {"test", kRules, huge_integer.path()},
         kBadInput,
         huge_integer.path() +
             ":3:37: error: integer 99999999999999999999 does not fit in 64 bits\n"},
        {"a test input beyond the double range",
         {"test", kRules, huge_float.path()},
         kBadInput,
         huge_float.path() + ":3:37: error: float 1e400 is beyond the range of a 64-bit float\n"},
    });
  }

  TEST_CASE(
      "check shows an error in a used file with that file's line, not the checked file's "
      "(src/cli/commands/check.cpp)") {
    const TempFile used("broken_used.yaml", R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, init: = x *}
start: main
tables:
  main:
    - name: all
      set: {}
)");
    const TempFile user("user.yaml", R"(snnplan: 1
uses:
  other: broken_used.yaml
inputs:
  x: {type: int}
let:
  r:
    call: other
    with: {x: = x}
record:
  out: {type: int, init: = r.out}
start: main
tables:
  main:
    - name: all
      set: {}
)");
    check_row({"check of a file using a broken one",
               {"check", user.path()},
               kRulesUnusable,
               "",
               used.path() +
                   ":5:31: error: expression: expected a value, found 'end of expression' "
                   "[expression-syntax]\n"
                   "    out: {type: int, init: = x *}\n"
                   "                                ^\n" +
                   user.path() + ":3:10: error: rule file '" + used.path() +
                   "' (used as 'other') has errors [uses]\n"
                   "    other: broken_used.yaml\n"
                   "           ^\n"});
  }

  TEST_CASE(
      "an empty rule file name gets a message without an empty location in front "
      "(src/api/diagnostic.cpp)") {
    const NoRulesVariable no_rules;
    const CliRun run = run_cli({"recommend", "--rules", "", "--model", "x", "--world-size", "1",
                                "--prefer", "speed", "--batch-size", "1"});
    CHECK(run.code == kRulesUnusable);
    CHECK(run.err ==
          "error: cannot read rule file '': No such file or directory\n");  // was ": error: ..."
  }

  TEST_CASE(
      "graph keeps a backslash in a table name as a backslash instead of a DOT line break "
      "(src/render/dot.cpp)") {
    const TempFile rules("odd_names.yaml", R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, default: 0}
start: 'ma"in\n'
tables:
  'ma"in\n':
    - name: all
      set: {out: 1}
)");
    // The name is m a " i n \ n: in DOT the quote and the backslash are escaped, and the label's
    // own break before the rule count is DOT's \n.
    check_row({"graph of a table named with a quote and a backslash",
               {"graph", "--rules", rules.path(), "--only", "tables"},
               kOk,
               "",
               R"(label="ma\"in\\n\n1 rule")"});
  }

  TEST_CASE(
      "test coverage counts only the tested file's rules, not same-named rules of a file it uses "
      "(src/testing/rule_tests.cpp)") {
    // Both files have main/r1 and main/r2; the outer r1 needs model y, the test gives model x,
    // so only the inner file's r1 fires (through the call) and the outer file's r2.
    const TempFile inner("inner.yaml", R"(snnplan: 1
inputs:
  model: {type: string}
record:
  out: {type: string, default: none}
start: main
tables:
  main:
    - name: r1
      set: {out: inner}
    - name: r2
      set: {out: never}
)");
    const TempFile outer("outer.yaml", R"(snnplan: 1
uses:
  inner: inner.yaml
inputs:
  model: {type: string}
let:
  from_inner:
    call: inner
    with: {model: = model}
record:
  out: {type: string, default: none}
start: main
tables:
  main:
    - name: r1
      when: {model: y}
      set: {out: outer}
    - name: r2
      set: {out: = from_inner.out}
)");
    const TempFile tests("outer.test.yaml", "tests:\n  - name: x\n    input: {model: x}\n    expect: {out: inner}\n");
    check_row({"coverage of a file using another", {"test", outer.path(), tests.path(), "--coverage"}, kOk, "",
               "rule coverage:\n  main/r1  0 cases\n  main/r2  1 case\nnot covered:\n  main/r1\n"
               "    condition: model eq y is true (" + outer.path() + ":16:14)\n"
               "      covered by input: {model: \"y\"}\n"
               "1 passed, 0 failed; rule coverage 50.0% (1 of 2), condition coverage 50.0% (1 of 2), "
               "boundary coverage 100.0% (0 of 0)\nrules no test fired: main/r1\n"});
    check_row({"--min-coverage 100 fails for it", {"test", outer.path(), tests.path(), "--min-coverage", "100"}, kRuleError,
               "error: rule coverage 50.0% is below the minimum 100%\n"});
  }

  TEST_CASE(
      "a test file with a repeated key is refused at the repeat, as rule files are "
      "(src/load/rule_tests.cpp)") {
    const TempFile tests("repeated.test.yaml",
                         "tests:\n  - name: x\n    input: {model: vgg, world_size: 1, prefer: "
                         "speed, batch_size: 8, model: resnet}\n"
                         "    expect: {mode: none}\n");
    check_row({"a repeated input",
               {"test", kRules, tests.path()},
               kBadInput,
               tests.path() + ":3:70: error: duplicate key 'model'\n"});
  }

  TEST_CASE(
      "a test file with a second YAML document is refused instead of its tests being ignored "
      "(src/load/rule_tests.cpp)") {
    const TempFile tests("two_documents.test.yaml",
                         "tests:\n  - name: x\n    input: {model: vgg, world_size: 1, prefer: "
                         "speed, batch_size: 8}\n"
                         "    expect: {mode: none}\n---\ntests:\n  - name: y\n    input: {model: "
                         "vgg}\n    expect: {mode: dp}\n");
    check_row({"a second document",
               {"test", kRules, tests.path()},
               kBadInput,
               tests.path() + ":5:1: error: YAML syntax error: a second YAML document starts here "
                              "(a rule file holds one; "
                              "remove the '---' or '...' and what follows)\n"});
  }

  TEST_CASE("a test file's expect_error must be a string, not a mapping (src/load/rule_tests.cpp)") {
    const TempFile tests(
        "bad_expect_error.test.yaml",
        "tests:\n  - name: x\n    input: {model: vgg}\n    expect_error: {a: 1}\n");
    check_row({"expect_error given a mapping",
               {"test", kRules, tests.path()},
               kBadInput,
               tests.path() +
                   ":4:19: error: expect_error must be a string (the expected error message)\n"});
  }

  TEST_CASE(
      "a rule file named with a ./ that uses itself is one cycle error (src/api/rule_set.cpp)") {
    const TempFile self("self.yaml", R"(snnplan: 1
uses:
  again: self.yaml
inputs:
  x: {type: int}
record:
  out: {type: int, default: 0}
start: main
tables:
  main:
    - name: all
      set: {}
)");
    const fs::path path(self.path());
    const std::string dotted =
        (path.parent_path() / "." / path.filename()).string();  // .../tmp/./self.yaml
    const CliRun run = run_cli({"check", dotted});
    CHECK(run.code == kRulesUnusable);
    CHECK(run.out == dotted + ":3:10: error: rule files use each other in a cycle: " + dotted +
                         " -> " + self.path() +
                         " [uses]\n"
                         "    again: self.yaml\n"
                         "           ^\n" +
                         dotted + ": failed \u2014 1 error, 0 warnings\n");
  }

  TEST_CASE(
      "recommend --batch takes JSON arrays for list inputs and checks their items "
      "(src/request/json_inputs.cpp, src/evaluate)") {
    // Arrays were refused outright, so a rule file with a required list input could not be
    // used in batch mode; and items of the wrong kind passed the evaluator's input check.
    const TempFile rules("list_inputs.yaml", R"(snnplan: 1
inputs:
  xs: {type: "list[int]"}
  names: {type: "list[string]", default: []}
record:
  n: {type: int, init: = len(xs)}
  why: {type: rationale}
start: main
tables:
  main:
    - name: all
      because: "xs {xs} names {names}"
)");
    const std::string input = R"({"xs": [1, 2, 3]}
{"xs": [], "names": ["a", "b"]}
{"xs": ["a"]}
{"xs": [1.5]}
{"xs": [1], "names": [null]}
{"xs": [1, [2]]}
{"xs": [1, {"a": 1}]}
{"xs": [99999999999999999999]}
{"xs": 1}
)";
    const CliRun run = run_cli({"recommend", "--batch", "-", "--rules", rules.path()}, input);
    CHECK(run.code == kBadInput);
    CHECK(run.out ==
          R"({"n":3,"why":["xs [1, 2, 3] names []"]}
{"n":0,"why":["xs [] names [a, b]"]}
{"error":"input 'xs' must be list[int], got a list holding string","line":3}
{"error":"input 'xs' must be list[int], got a list holding float","line":4}
{"error":"input 'names' must be list[string], got a list holding null","line":5}
{"error":"input 'xs' must be a string, number, boolean, null or an array of those, got an array holding an array","line":6}
{"error":"input 'xs' must be a string, number, boolean, null or an array of those, got an array holding an object","line":7}
{"error":"input 'xs': 99999999999999999999 does not fit in a 64-bit integer","line":8}
{"error":"input 'xs' must be list, got int","line":9}
)");
  }

  TEST_CASE("a directory given as the rule file is reported as unreadable (src/api/rule_set.cpp)") {
    const NoRulesVariable no_rules;
    check_row(
        {"--rules naming a directory", with(kRecommend, {"--rules", kDirectory}), kRulesUnusable,
         kDirectory + ": error: cannot read rule file '" + kDirectory + "': it is a directory\n"});
  }
}
