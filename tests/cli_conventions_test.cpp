// The command line's conventions (issue 17): help, version, placeholders, standard input for
// rule files, machine-readable test reports, schemas; and the public API's to_json and Value.
#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli_runner.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::testing::CliRun;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

const std::string kRules = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
const std::string kRuleTests = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.test.yaml";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::vector<std::string> kSpeed8 = {"recommend", "--model",  "cifar10dvs_vgg", "--world-size",
                                          "8",         "--prefer", "speed",          "--batch-size",
                                          "64"};

const std::string kFailingTests = R"(tests:
  - name: passes
    input: {model: x, world_size: 1, prefer: speed, batch_size: 8}
    expect: {mode: none}
  - name: wrong <mode> & more
    input: {model: x, world_size: 1, prefer: speed, batch_size: 8}
    expect: {mode: dp, memopt_level: 0}
)";

}  // namespace

TEST_SUITE("cli conventions") {
  TEST_CASE("--version names the rule format and each built-in rule file's SHA-256") {
    const CliRun run = run_cli({"--version"});
    CHECK(run.code == 0);
    std::string expected = std::string("snnplan ") + snnplan::version + "\nrule format 2\n";
    const auto hashes = snnplan::RuleSet::builtin_sha256();
    REQUIRE(hashes.size() == 3);
    // A file without uses: is its hash; the plan rules (uses: snn_distributed.yaml) also name
    // their revision, which is what their decision records carry.
    const std::string plan_revision = snnplan::plan_rules().sha256();
    for (const auto& [file, hash] : hashes) {
      CHECK(hash.size() == 64);
      expected += "built-in rules " + std::string(file) + " sha256:" + std::string(hash);
      if (file == "snn_plan.yaml") expected += " revision:" + plan_revision + " (with the files it uses)";
      expected += "\n";
    }
    CHECK(run.out == expected);
    CHECK(hashes.front().first == "snn_distributed.yaml");
    CHECK(snnplan::RuleSet::builtin().sha256() == hashes.front().second);
    CHECK(plan_revision != hashes[1].second);
    CHECK(hashes.back().first == "snn_llm_planning.yaml");
  }

  TEST_CASE("help prints the program's help and help CMD a subcommand's, both as --help does") {
    const CliRun top = run_cli({"help"});
    CHECK(top.code == 0);
    CHECK(top.out == run_cli({"--help"}).out);
    CHECK(top.out.find("Usage: snnplan [OPTIONS] SUBCOMMAND") != std::string::npos);

    const CliRun recommend = run_cli({"help", "recommend"});
    CHECK(recommend.code == 0);
    CHECK(recommend.out == run_cli({"recommend", "--help"}).out);
    CHECK(recommend.out.find("Usage: snnplan recommend [OPTIONS]") != std::string::npos);

    // Every subcommand --help lists, help and the completions know (they are set up after it).
    for (const char* command : {"recommend", "explain", "microbatches", "check", "test", "graph", "plan",
                                "schema", "diff", "map", "replay", "lsp", "completion", "help"}) {
      CAPTURE(command);
      CHECK(top.out.find(std::string("\n  ") + command + " ") != std::string::npos);
      const CliRun one = run_cli({"help", command});
      CHECK(one.code == 0);
      CHECK(one.out == run_cli({command, "--help"}).out);
      CHECK(run_cli({"completion", "bash"}).out.find(std::string("\n    ") + command + ")\n") != std::string::npos);
      CHECK(run_cli({"completion", "fish"}).out.find(std::string("-a ") + command) != std::string::npos);
    }

    const CliRun unknown = run_cli({"help", "recomend"});
    CHECK(unknown.code == 2);
    CHECK(unknown.err.find("command: recomend not in {recommend,") != std::string::npos);
  }

  TEST_CASE("--help shows typed placeholders rather than TEXT for integers, booleans and files") {
    const std::string help = run_cli({"recommend", "--help"}).out;
    CHECK(help.find("--world-size INT") != std::string::npos);
    CHECK(help.find("--fsdp2-available BOOL") != std::string::npos);
    CHECK(help.find("--rules FILE") != std::string::npos);
    CHECK(help.find("--batch FILE") != std::string::npos);
    CHECK(help.find("--format {json,yaml,text}") != std::string::npos);
    CHECK(run_cli({"microbatches", "--help"}).out.find("--num-stages INT") != std::string::npos);
    CHECK(run_cli({"plan", "--help"}).out.find("--batch-size INT") != std::string::npos);
    CHECK(run_cli({"test", "--help"}).out.find("--format {text,json,junit}") != std::string::npos);
  }

  TEST_CASE("check - and --rules - read the rule file from standard input") {
    const std::string text = read_text(kRules);
    const CliRun check = run_cli({"check", "--strict", "-"}, text);
    CHECK(check.code == 0);
    CHECK(check.err.empty());

    const CliRun from_stdin =
        run_cli({"recommend", "--rules", "-", "--model", "cifar10dvs_vgg", "--world-size", "8",
                 "--prefer", "speed", "--batch-size", "64"},
                text);
    CHECK(from_stdin.code == 0);
    CHECK(from_stdin.out == run_cli(kSpeed8).out);

    const CliRun broken =
        run_cli({"check", "-"},
                "snnplan: 1\ninputs: {}\nrecord: {}\nstart: main\ntables: {main: [{nme: x}]}\n");
    CHECK(broken.code == 3);
    CHECK(broken.out.find("<stdin>:5:") != std::string::npos);

    const CliRun tests = run_cli({"test", "-", kRuleTests}, text);
    CHECK(tests.code == 0);
    CHECK(tests.out.find("0 failed") != std::string::npos);
  }

  TEST_CASE("standard input is refused when two arguments would both read it") {
    const CliRun batch = run_cli({"recommend", "--rules", "-", "--batch", "-"}, "{}\n");
    CHECK(batch.code == 2);
    CHECK(batch.err ==
          "error: --rules - and --batch - cannot both read standard input ('-'); give one of them "
          "a file\n");
    CHECK(run_cli({"plan", "--rules", "-", "--batch", "-"}, "{}\n").code == 2);
    CHECK(run_cli({"check", "-", "-"}, "").code == 2);
    const CliRun watch = run_cli({"recommend", "--rules", "-", "--batch", "x.jsonl", "--watch"});
    CHECK(watch.code == 2);
    CHECK(watch.err ==
          "error: --watch needs a rule file it can re-read, not standard input (--rules -)\n");
  }

  TEST_CASE("test --format json gives every case with its differences and the coverage") {
    const TempFile tests("failing.test.yaml", kFailingTests);
    const CliRun run = run_cli({"test", kRules, tests.path(), "--format", "json"});
    CHECK(run.code == 1);
    const nlohmann::json report = nlohmann::json::parse(run.out);
    CHECK(report["passed"] == 1);
    CHECK(report["failed"] == 1);
    REQUIRE(report["tests"].size() == 2);
    CHECK(report["tests"][0]["passed"] == true);
    CHECK(report["tests"][0]["differences"].empty());
    CHECK(report["tests"][1]["name"] == "wrong <mode> & more");
    CHECK(report["tests"][1]["line"] == 5);
    CHECK(report["tests"][1]["differences"] ==
          nlohmann::json::parse(R"([{"what": "mode", "expected": "dp", "got": "none"}])"));
    CHECK(report["coverage"]["rules"].size() > 10);
    CHECK(report["coverage"]["percent"].get<double>() < 100.0);
    for (const char* kind : {"rule", "condition", "boundary"}) {
      CHECK(report["coverage"][kind]["total"].get<int>() > 0);
      CHECK(report["coverage"][kind]["covered"].get<int>() < report["coverage"][kind]["total"].get<int>());
    }
    // Every goal no test covers is listed, with an input that covers it where one exists.
    const nlohmann::json& missing = report["coverage"]["missing"];
    REQUIRE(!missing.empty());
    const auto boundary = std::find_if(missing.begin(), missing.end(), [](const nlohmann::json& m) {
      return m["what"] == "world_size >= 2 at world_size = 2";
    });
    REQUIRE(boundary != missing.end());
    CHECK((*boundary)["owner"] == "capacity/pipeline-interleaved");
    CHECK((*boundary)["input"]["world_size"] == 2);
    CHECK((*boundary)["input"]["prefer"] == "capacity");
  }

  TEST_CASE("test --format junit writes one testcase per test and a failure with its difference") {
    const TempFile tests("failing.test.yaml", kFailingTests);
    const CliRun run = run_cli({"test", kRules, tests.path(), "--format", "junit"});
    CHECK(run.code == 1);
    CHECK(run.out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 0) == 0);
    CHECK(run.out.find("tests=\"2\" failures=\"1\"") != std::string::npos);
    CHECK(run.out.find("<testcase name=\"passes\"") != std::string::npos);
    CHECK(run.out.find("<testcase name=\"wrong &lt;mode&gt; &amp; more\"") != std::string::npos);
    CHECK(run.out.find(
              "<failure message=\"mode:&#10;    expected: dp&#10;    got:      none\" "
              "type=\"rule-test\">FAIL wrong &lt;mode&gt; &amp; more (") != std::string::npos);
    std::size_t testcases = 0;
    for (std::size_t at = run.out.find("<testcase "); at != std::string::npos;
         at = run.out.find("<testcase ", at + 1))
      ++testcases;
    CHECK(testcases == 2);
  }

  TEST_CASE("every enum of the rule-file and rule-test schemas describes each of its values") {
    for (const char* kind : {"rules", "tests"}) {
      std::size_t enums = 0;
      std::vector<std::string> undescribed;
      std::function<void(const nlohmann::json&)> visit = [&](const nlohmann::json& node) {
        if (node.is_object() && node.contains("enum")) {
          ++enums;
          const nlohmann::json& values = node["enum"];
          const nlohmann::json descriptions = node.value("enumDescriptions", nlohmann::json::array());
          for (std::size_t k = 0; k < values.size(); ++k)
            if (k >= descriptions.size() || !descriptions[k].is_string() ||
                descriptions[k].get<std::string>().empty())
              undescribed.push_back(values[k].dump());
        }
        if (node.is_structured())
          for (const auto& child : node) visit(child);
      };
      visit(nlohmann::json::parse(run_cli({"schema", kind}).out));
      CHECK(undescribed.empty());
      if (std::string(kind) == "rules") CHECK(enums == 3);  // the format version, the input and record field types
    }
    const nlohmann::json rules = nlohmann::json::parse(run_cli({"schema", "rules"}).out);
    const nlohmann::json& type = rules["$defs"]["record_field"]["properties"]["type"];
    const auto at = std::find(type["enum"].begin(), type["enum"].end(), "rationale");
    REQUIRE(at != type["enum"].end());
    CHECK(type["enumDescriptions"][static_cast<std::size_t>(at - type["enum"].begin())] ==
          "the record field that collects the rationale lines of `because`");
  }

  TEST_CASE("schema prints the draft 2020-12 schemas; the record schema names the rules' fields") {
    for (const char* kind : {"rules", "tests", "record", "decision-log"}) {
      const CliRun run = run_cli({"schema", kind});
      CHECK(run.code == 0);
      const nlohmann::json schema = nlohmann::json::parse(run.out);
      CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
    }
    const nlohmann::json rules = nlohmann::json::parse(run_cli({"schema", "rules"}).out);
    const nlohmann::json& rule = rules["$defs"]["rule"];
    CHECK(rule["required"] == nlohmann::json::array({"name"}));
    CHECK(rule["additionalProperties"] == false);
    CHECK(rules["$defs"]["matchers"]["properties"].contains("ge"));
    CHECK(rules["$defs"]["input"]["properties"]["type"]["enum"].size() == 18);

    const nlohmann::json record = nlohmann::json::parse(run_cli({"schema", "record"}).out);
    const nlohmann::json& fields = record["$defs"]["record"]["properties"];
    CHECK(fields.size() == 16);
    CHECK(fields["world_size"]["type"] == nlohmann::json::array({"integer"}));
    CHECK(fields["mesh_shape"]["type"] == nlohmann::json::array({"null", "array"}));
    CHECK(fields["rationale"]["items"]["type"] == nlohmann::json::array({"string"}));
    CHECK(run_cli({"schema", "yaml"}).code == 2);
  }

  TEST_CASE("completion writes a script for each shell and refuses others") {
    CHECK(run_cli({"completion", "bash"}).out.find("complete -o filenames -F _snnplan snnplan") !=
          std::string::npos);
    CHECK(run_cli({"completion", "zsh"}).out.rfind("#compdef snnplan\n", 0) == 0);
    CHECK(run_cli({"completion", "fish"})
              .out.find("complete -c snnplan -n '__fish_seen_subcommand_from test' -l format -x -a "
                        "'text json junit'") != std::string::npos);
    CHECK(run_cli({"completion", "tcsh"}).code == 2);
  }
}

TEST_SUITE("public api") {
  TEST_CASE("to_json gives the bytes recommend --format json and recommend --batch print") {
    const snnplan::Inputs inputs = {
        {"model", "cifar10dvs_vgg"}, {"world_size", 8}, {"prefer", "speed"}, {"batch_size", 64}};
    const snnplan::EvaluationResult result = snnplan::RuleSet::builtin().evaluate(inputs);
    REQUIRE(result.ok());
    CHECK(snnplan::to_json(result.record()) == run_cli(kSpeed8).out);
    const CliRun batch = run_cli(
        {"recommend", "--batch", "-"},
        R"({"model": "cifar10dvs_vgg", "world_size": 8, "prefer": "speed", "batch_size": 64})");
    CHECK(snnplan::to_json(result.record(), snnplan::JsonLayout::line) + "\n" == batch.out);
  }

  TEST_CASE("a Value is made from every integer type and a string_view without ambiguity") {
    CHECK(snnplan::Value(std::size_t{8}).as_int() == 8);
    CHECK(snnplan::Value(8u).as_int() == 8);
    CHECK(snnplan::Value(8l).as_int() == 8);
    CHECK(snnplan::Value(8ll).as_int() == 8);
    CHECK(snnplan::Value(8ull).as_int() == 8);
    CHECK(snnplan::Value(static_cast<short>(-8)).as_int() == -8);
    CHECK(snnplan::Value(static_cast<unsigned char>(200)).as_int() == 200);
    CHECK(snnplan::Value(std::int8_t{-1}).as_int() == -1);
    CHECK(snnplan::Value(std::numeric_limits<long long>::min()).as_int() ==
          std::numeric_limits<std::int64_t>::min());
    CHECK(snnplan::Value(std::uint64_t{INT64_MAX}).as_int() == INT64_MAX);
    CHECK_THROWS_WITH_AS(
        snnplan::Value(std::uint64_t{INT64_MAX} + 1),
        "snnplan::Value: 9223372036854775808 does not fit in a 64-bit signed integer",
        std::out_of_range);
    CHECK_THROWS_AS(snnplan::Value(std::numeric_limits<std::size_t>::max()), std::out_of_range);
    constexpr std::string_view kName = "spikformer";
    CHECK(snnplan::Value(kName).as_string() == "spikformer");
    CHECK(snnplan::Value(true).is_bool());
    CHECK(snnplan::Value(1.5).is_float());
    CHECK(snnplan::Value("text").is_string());
    CHECK(snnplan::Value(std::string("text")).is_string());
    // Inputs built from what a launcher has at hand: a size_t world size, a string_view name.
    const snnplan::Inputs inputs = {{"model", kName},
                                    {"world_size", std::size_t{8}},
                                    {"prefer", "memory"},
                                    {"batch_size", 64u}};
    CHECK(snnplan::RuleSet::builtin().evaluate(inputs).ok());
  }
}
