// Every flag of recommend, explain, microbatches, check, test and graph: rows of the bad-input
// matrix (tests/bad_input_matrix.hpp has the harness and the list of its files).
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bad_input_matrix.hpp"

namespace bad_input_matrix {
namespace {

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
  add_unknown_flag_rows(rows, base);
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
                                "condition, boundary or search, got '" + bad + "'")});
  for (const std::string good : {"0", "100", "99.5", "1e2", "+50", "1e-400", "rule=100", "condition=0,rule=50",
                                 "rule=0,condition=0,boundary=0", "search=100"})
    rows.push_back({"--min-coverage " + good + " is accepted", with(base, {"--min-coverage", good}), kOk, "", "5 passed, 0 failed"});
  add_common_rows(rows, with(base, {"--min-coverage", "50"}), "--min-coverage", "50", "[KIND=]PERCENT",
                  "expected a percentage from 0 to 100 or KIND=PERCENT,... with KIND rule, condition, boundary or search, "
                  "got '--help'");
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
  // --corpus, --sample and --seed: where the regions cannot be enumerated (a search; its rows are
  // search_test.cpp's). A file whose regions can be ignores the corpus.
  const std::vector<std::string> generate = {"test", "--generate", small_rules};
  rows.push_back({"--corpus without --generate", with(base, {"--corpus", small_tests}), kBadInput,
                  usage_error("--corpus requires --generate")});
  rows.push_back({"--corpus naming a missing file", with(generate, {"--corpus", kMissing}), kBadInput,
                  "error: cannot open corpus file '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"--corpus of a file whose regions are enumerated", with(generate, {"--corpus", "-"}), kOk, "",
                  "tests:\n  - name: \"region 1: main/default\""});
  rows.push_back({"--corpus - with the rules from standard input", {"test", "--generate", "-", "--corpus", "-"},
                  kBadInput, "error: - and --corpus - cannot both read standard input ('-'); give one of them a file\n"});
  rows.push_back({"--sample without --corpus", with(generate, {"--sample", "5"}), kBadInput,
                  usage_error("--sample requires --corpus")});
  rows.push_back({"--seed without --corpus", with(generate, {"--seed", "5"}), kBadInput,
                  usage_error("--seed requires --corpus")});
  rows.push_back({"--generate --boundaries adds the threshold's sides", {"test", "--generate", small_rules, "--boundaries"}, kOk, "",
                  "input: {model: vgg, world_size: 7}"});
  add_unknown_flag_rows(rows, base);
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
        {"plan-training", plan_training_rows()},
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

}  // namespace bad_input_matrix
