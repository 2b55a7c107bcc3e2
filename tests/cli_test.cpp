// The command line, run in-process: output, messages and the exit-code contract 0/1/2/3.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

namespace fs = std::filesystem;

using snnplan::testing::CliRun;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

// Sets an environment variable for the scope of a test and restores the old state.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

const std::string kDoubler = R"(snnplan: 1
inputs:
  x: {type: int}
let:
  y: "x * 2"
record:
  out: {type: int, default: 0}
  why: {type: rationale}
start: main
tables:
  main:
    - name: only
      set: {out: = y}
      because: "x={x}"
)";

const std::string kBroken = R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, default: 0}
start: main
tables:
  main:
    - name: only
      set: {out: = x + y}
)";

const std::vector<std::string> kSpeed8 = {"recommend", "--model", "cifar10dvs_vgg", "--world-size", "8",
                                          "--prefer", "speed", "--batch-size", "64"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("a run for the process leaves its command line to exit, reachable, and only the first") {
    // main's runs (CommandLineLifetime::process) keep CLI11's tree for the process's exit; the
    // global pointer is what makes it reachable, not leaked, to LeakSanitizer (the ASan stage
    // runs the CLI with leak checking). A later such run takes its own tree apart as usual.
    std::vector<const char*> argv{"snnplan", "microbatches", "--batch-size", "8", "--num-stages", "2"};
    std::istringstream in;
    std::ostringstream out;
    std::ostringstream err;
    const auto process = snnplan::cli::CommandLineLifetime::process;
    snnplan::cli::CommandLine* const before = snnplan::cli::command_line_left_to_exit;
    CHECK(snnplan::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err, process) == 0);
    CHECK(out.str() == "8\n");
    snnplan::cli::CommandLine* const kept = snnplan::cli::command_line_left_to_exit;
    REQUIRE(kept != nullptr);
    if (before != nullptr) CHECK(kept == before);
    CHECK(kept->app.get_subcommand("microbatches")->parsed());
    CHECK(snnplan::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err, process) == 0);
    CHECK(snnplan::cli::command_line_left_to_exit == kept);
    // The default lifetime keeps nothing.
    CHECK(run_cli({"microbatches", "--batch-size", "8", "--num-stages", "2"}).code == 0);
    CHECK(snnplan::cli::command_line_left_to_exit == kept);
  }

  TEST_CASE("recommend prints the record as JSON and exits 0") {
    const CliRun run = run_cli(kSpeed8);
    CHECK(run.code == 0);
    CHECK(run.err.empty());
    const auto json = nlohmann::ordered_json::parse(run.out);
    CHECK(json.at("mode") == "fsdp2_tp");
    CHECK(json.at("mesh_shape") == nlohmann::json::array({4, 2}));
    CHECK(json.at("tp_mesh_dim") == 1);
    CHECK(json.at("dp_mesh_dim") == 0);
    CHECK(json.begin().key() == "prefer");
    CHECK(json.size() == 16);
    CHECK(run.out.back() == '\n');
  }

  TEST_CASE("recommend renders yaml and text on request") {
    const CliRun yaml = run_cli(with(kSpeed8, {"--format", "yaml"}));
    CHECK(yaml.code == 0);
    CHECK(yaml.out.find("mode: fsdp2_tp\n") != std::string::npos);
    CHECK(yaml.out.find("mesh_shape: [4, 2]\n") != std::string::npos);

    const CliRun text = run_cli(with(kSpeed8, {"--format", "text"}));
    CHECK(text.code == 0);
    CHECK(text.out.find("mode                          fsdp2_tp\n") != std::string::npos);
    CHECK(text.out.find("rationale:\n  - prefer='speed' with model='cifar10dvs_vgg', world_size=8, backend='inductor'.\n") !=
          std::string::npos);

    const CliRun bad = run_cli(with(kSpeed8, {"--format", "xml"}));
    CHECK(bad.code == 2);
  }

  TEST_CASE("an unsupported prefer is a rule error with exit code 1 and the reference message") {
    const CliRun run = run_cli({"recommend", "--model", "x", "--world-size", "8", "--prefer", "bogus", "--batch-size", "64"});
    CHECK(run.code == 1);
    CHECK(run.out.empty());
    CHECK(run.err == "error: Unsupported prefer='bogus'. Expected one of ('speed', 'memory', 'capacity').\n");
  }

  TEST_CASE("a non-integer flag value is a usage error with exit code 2") {
    const CliRun run = run_cli({"recommend", "--model", "x", "--world-size", "abc", "--prefer", "speed", "--batch-size", "64"});
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err == "error: --world-size: expected an integer, got 'abc'\n");

    const CliRun partly = run_cli({"recommend", "--model", "x", "--world-size", "8x", "--prefer", "speed", "--batch-size", "64"});
    CHECK(partly.code == 2);
    CHECK(partly.err == "error: --world-size: expected an integer, got '8x'\n");
  }

  TEST_CASE("an integer flag beyond 64 bits is a usage error that says so") {
    const CliRun run = run_cli(
        {"recommend", "--model", "x", "--world-size", "99999999999999999999", "--prefer", "speed", "--batch-size", "64"});
    CHECK(run.code == 2);
    CHECK(run.err == "error: --world-size: 99999999999999999999 does not fit in a 64-bit integer\n");
  }

  TEST_CASE("the extreme 64-bit values are accepted as flag values") {
    const CliRun run = run_cli({"recommend", "--model", "x", "--world-size", "-9223372036854775808", "--prefer", "speed",
                                "--batch-size", "9223372036854775807"});
    CHECK(run.code == 0);
    const auto json = nlohmann::json::parse(run.out);
    CHECK(json.at("world_size").get<std::int64_t>() == std::numeric_limits<std::int64_t>::min());
    CHECK(json.at("mode") == "none");
  }

  TEST_CASE("a boolean flag accepts only true or false") {
    const CliRun run = run_cli(with(kSpeed8, {"--fsdp2-available", "yes"}));
    CHECK(run.code == 2);
    CHECK(run.err == "error: --fsdp2-available: expected true or false, got 'yes'\n");

    const CliRun upper = run_cli(with(kSpeed8, {"--fsdp2-available", "FALSE"}));
    CHECK(upper.code == 0);
    CHECK(nlohmann::json::parse(upper.out).at("mode") == "dp");
  }

  TEST_CASE("an unknown flag is a usage error with exit code 2") {
    const CliRun run = run_cli(with(kSpeed8, {"--bogus"}));
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err == "error: The following argument was not expected: --bogus\nRun with --help for usage.\n");
  }

  TEST_CASE("a missing required input is a bad-input error with exit code 2") {
    const CliRun run = run_cli({"recommend", "--model", "x", "--prefer", "speed", "--batch-size", "64"});
    CHECK(run.code == 2);
    CHECK(run.err == "error: missing required input 'world_size'\n");
  }

  TEST_CASE("no subcommand is a usage error") {
    const CliRun run = run_cli({});
    CHECK(run.code == 2);
    CHECK(run.err == "error: A subcommand is required\nRun with --help for usage.\n");
  }

  TEST_CASE("--help on the program and on each subcommand prints usage and exits 0") {
    const CliRun top = run_cli({"--help"});
    CHECK(top.code == 0);
    CHECK(top.out.find("Subcommands:") != std::string::npos);
    CHECK(top.out.find("recommend") != std::string::npos);

    const CliRun rec = run_cli({"recommend", "--help"});
    CHECK(rec.code == 0);
    CHECK(rec.out.find("Usage: snnplan recommend [OPTIONS]") != std::string::npos);
    CHECK(rec.out.find("--world-size") != std::string::npos);

    const CliRun micro = run_cli({"microbatches", "--help"});
    CHECK(micro.code == 0);
    CHECK(micro.out.find("Usage: snnplan microbatches [OPTIONS]") != std::string::npos);
    CHECK(micro.out.find("--num-stages") != std::string::npos);

    const CliRun check = run_cli({"check", "--help"});
    CHECK(check.code == 0);
    CHECK(check.out.find("Usage: snnplan check [OPTIONS] files...") != std::string::npos);
    CHECK(check.out.find("--strict") != std::string::npos);
  }



  TEST_CASE("microbatches prints the count as text or JSON") {
    const CliRun text = run_cli({"microbatches", "--batch-size", "64", "--num-stages", "4"});
    CHECK(text.code == 0);
    CHECK(text.out == "16\n");
    CHECK(text.err.empty());

    const CliRun json = run_cli({"microbatches", "--batch-size", "64", "--num-stages", "4", "--format", "json"});
    CHECK(json.code == 0);
    CHECK(json.out == "{\"pp_microbatches\":16}\n");
  }

  TEST_CASE("microbatches reports the reference error with exit code 1 and bad numbers with exit code 2") {
    const CliRun small = run_cli({"microbatches", "--batch-size", "3", "--num-stages", "4"});
    CHECK(small.code == 1);
    CHECK(small.err ==
          "error: batch_size (3) must be >= num_stages (4) for pipeline parallelism with the current microbatch "
          "splitting implementation.\n");

    const CliRun bad = run_cli({"microbatches", "--batch-size", "lots", "--num-stages", "4"});
    CHECK(bad.code == 2);
    CHECK(bad.err == "error: --batch-size: expected an integer, got 'lots'\n");

    const CliRun missing = run_cli({"microbatches", "--batch-size", "64"});
    CHECK(missing.code == 2);
  }

  TEST_CASE("check on the default rules exits 0 with one summary line") {
    const CliRun run = run_cli({"check", std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml"});
    CHECK(run.code == 0);
    CHECK(run.out == std::string(SNNPLAN_RULES_DIR) +
                         "/snn_distributed.yaml: ok \u2014 15 rules in 4 tables, 0 warnings\n");
    CHECK(run.err.empty());

    const CliRun strict = run_cli({"check", "--strict", std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml"});
    CHECK(strict.code == 0);
  }

  TEST_CASE("check on a broken file prints each error with its source line and exits 3") {
    const TempFile broken("check_broken.yaml", kBroken);
    const CliRun run = run_cli({"check", broken.path()});
    CHECK(run.code == 3);
    CHECK(run.out == broken.path() +
                         ":10:24: error: unknown fact 'y' (did you mean 'x'?) [unknown-name]\n"
                         "        set: {out: = x + y}\n"
                         "                         ^\n" +
                         broken.path() + ": failed \u2014 1 error, 0 warnings\n");

    const CliRun json = run_cli({"check", "--format", "json", broken.path()});
    CHECK(json.code == 3);
    const auto diagnostics = nlohmann::json::parse(json.out);
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0] == nlohmann::json{{"file", broken.path()}, {"line", 10}, {"column", 24}, {"severity", "error"},
                                           {"code", "unknown-name"}, {"message", "unknown fact 'y' (did you mean 'x'?)"}});
  }

  TEST_CASE("check --strict fails on warnings that plain check accepts") {
    const TempFile warned("check_warned.yaml", kDoubler + "    - name: never\n      set: {out: 1}\n");
    const CliRun plain = run_cli({"check", warned.path()});
    CHECK(plain.code == 0);
    CHECK(plain.out.find(":15:13: warning: rule 'never' follows a catch-all rule in table 'main'") != std::string::npos);
    const CliRun strict = run_cli({"check", "--strict", warned.path()});
    CHECK(strict.code == 3);
  }

  TEST_CASE("--rules selects a rule file and --input passes typed inputs") {
    const TempFile rules("doubler.yaml", kDoubler);
    const CliRun run = run_cli({"recommend", "--rules", rules.path(), "--input", "x=21"});
    CHECK(run.code == 0);
    CHECK(nlohmann::json::parse(run.out) == nlohmann::json{{"out", 42}, {"why", {"x=21"}}});

    const CliRun bad = run_cli({"recommend", "--rules", rules.path(), "--input", "x=abc"});
    CHECK(bad.code == 2);
    CHECK(bad.err == "error: --input x: expected an integer, got 'abc'\n");

    const CliRun malformed = run_cli({"recommend", "--rules", rules.path(), "--input", "x"});
    CHECK(malformed.code == 2);
    CHECK(malformed.err == "error: --input: expected NAME=VALUE, got 'x'\n");
  }

  TEST_CASE("--rules pointing at a broken file exits 3 with file:line:column diagnostics") {
    const TempFile broken("broken.yaml", kBroken);
    const CliRun run = run_cli({"recommend", "--rules", broken.path(), "--input", "x=1"});
    CHECK(run.code == 3);
    CHECK(run.out.empty());
    CHECK(run.err == broken.path() + ":10:24: error: unknown fact 'y' (did you mean 'x'?)\n");
  }

  TEST_CASE("--rules pointing at a missing file exits 3") {
    const CliRun run = run_cli({"recommend", "--rules", "/nonexistent/snnplan/rules.yaml", "--input", "x=1"});
    CHECK(run.code == 3);
    CHECK(run.err ==
          "/nonexistent/snnplan/rules.yaml: error: cannot read rule file "
          "'/nonexistent/snnplan/rules.yaml': No such "
          "file or directory\n");
  }

  TEST_CASE("the SNNPLAN_RULES environment variable selects the rule file and --rules overrides it") {
    const TempFile doubler("env_doubler.yaml", kDoubler);
    const TempFile broken("env_broken.yaml", kBroken);
    {
      const ScopedEnv env("SNNPLAN_RULES", doubler.path());
      const CliRun run = run_cli({"recommend", "--input", "x=5"});
      CHECK(run.code == 0);
      CHECK(nlohmann::json::parse(run.out).at("out") == 10);
    }
    {
      const ScopedEnv env("SNNPLAN_RULES", broken.path());
      const CliRun run = run_cli({"recommend", "--input", "x=5"});
      CHECK(run.code == 3);
      CHECK(run.err == broken.path() + ":10:24: error: unknown fact 'y' (did you mean 'x'?)\n");

      const CliRun overridden = run_cli({"recommend", "--rules", doubler.path(), "--input", "x=5"});
      CHECK(overridden.code == 0);
    }
    {
      const ScopedEnv env("SNNPLAN_RULES", "");
      const CliRun run = run_cli(kSpeed8);
      CHECK(run.code == 0);
      CHECK(nlohmann::json::parse(run.out).at("mode") == "fsdp2_tp");
    }
  }

  TEST_CASE("batch mode writes one line per input line and marks bad lines without stopping") {
    const std::string input =
        "{\"model\": \"resnet\", \"world_size\": 1, \"prefer\": \"speed\", \"batch_size\": 8}\n"
        "{\"model\": \"resnet\", \"world_size\": \n"
        "{\"model\": \"resnet\", \"world_size\": 4, \"prefer\": \"memory\", \"batch_size\": 8}\n";
    const CliRun run = run_cli({"recommend", "--batch", "-"}, input);
    CHECK(run.code == 2);
    const auto lines = lines_of(run.out);
    REQUIRE(lines.size() == 3);
    CHECK(nlohmann::json::parse(lines[0]).at("mode") == "none");
    const auto bad = nlohmann::json::parse(lines[1]);
    CHECK(bad.at("line") == 2);
    CHECK(bad.at("error") ==
          "not valid JSON: parse error at line 1, column 35: syntax error while parsing value - unexpected end of "
          "input; expected '[', '{', or a literal");
    CHECK(nlohmann::json::parse(lines[2]).at("mode") == "fsdp2_tp");
    CHECK(run.err ==
          "<stdin>:2: error: not valid JSON: parse error at line 1, column 35: syntax error while parsing value - "
          "unexpected end of input; expected '[', '{', or a literal\n");
  }

  TEST_CASE(
      "batch mode with --trace adds the fired rule path and the trace to every line, error lines "
      "too") {
    const std::string input =
        "{\"model\": \"resnet\", \"world_size\": 8, \"prefer\": \"capacity\", \"batch_size\": 4}\n"
        "{\"model\": \"resnet\", \"world_size\": 4, \"prefer\": \"fast\", \"batch_size\": 8}\n"
        "{\"model\": \"resnet\", \"world_size\": \n";
    const CliRun plain = run_cli({"recommend", "--batch", "-"}, input);
    const CliRun traced = run_cli({"recommend", "--batch", "-", "--trace"}, input);
    CHECK(traced.code == plain.code);
    CHECK(traced.err == plain.err);
    const auto plain_lines = lines_of(plain.out);
    const auto lines = lines_of(traced.out);
    REQUIRE(lines.size() == 3);
    REQUIRE(plain_lines.size() == 3);
    // An answer: the record unchanged, then the path through the fallback, then the trace.
    auto answer = nlohmann::ordered_json::parse(lines[0]);
    CHECK(answer.at("rules") ==
          nlohmann::json::array({"recommend/by-preference-capacity",
                                 "capacity/pipeline-batch-too-small", "memory/fsdp2-tp"}));
    const auto& steps = answer.at("trace");
    CHECK(std::any_of(steps.begin(), steps.end(), [](const auto& step) {
      return step.at("step") == "rule_fired" && step.at("rule") == "fsdp2-tp";
    }));
    answer.erase("rules");
    answer.erase("trace");
    CHECK(answer.dump() == nlohmann::ordered_json::parse(plain_lines[0]).dump());
    // A refusal by the rules keeps its error and gains the (empty) path and the trace.
    const auto refused = nlohmann::json::parse(lines[1]);
    CHECK(refused.at("error") == nlohmann::json::parse(plain_lines[1]).at("error"));
    CHECK(refused.at("rules") == nlohmann::json::array());
    CHECK(refused.at("trace").back().at("step") == "error");
    // A line that is not JSON: no rule fired.
    const auto bad = nlohmann::json::parse(lines[2]);
    CHECK(bad.at("line") == 3);
    CHECK(bad.at("rules") == nlohmann::json::array());
    // Without --trace nothing is added.
    CHECK(plain.out.find("\"rules\"") == std::string::npos);
  }

  TEST_CASE("batch lines with unusable values give error lines naming the problem") {
    const std::string input =
        "{\"model\": \"m\", \"world_size\": 99999999999999999999, \"prefer\": \"speed\", \"batch_size\": 8}\n"
        "{\"model\": \"m\", \"world_size\": 18446744073709551615, \"prefer\": \"speed\", \"batch_size\": 8}\n"
        "[1, 2]\n"
        "{\"model\": \"m\", \"world_size\": \"four\", \"prefer\": \"speed\", \"batch_size\": 8}\n"
        "{\"model\": \"m\", \"prefer\": \"speed\", \"batch_size\": 8}\n"
        "{\"model\": [\"m\"], \"world_size\": 1, \"prefer\": \"speed\", \"batch_size\": 8}\n"
        "{\"model\": \"m\", \"world_size\": 2.5, \"prefer\": \"speed\", \"batch_size\": 8}\n"
        "\n"
        "{\"model\": \"m\", \"world_size\": 1, \"prefer\": \"speed\", \"batch_size\": 8, \"colour\": 1}\n"
        "{\"model\": \"m\", \"world_size\": 1, \"prefer\": \"speed\", \"batch_size\": 8}\n";
    const CliRun run = run_cli({"recommend", "--batch", "-"}, input);
    CHECK(run.code == 2);
    const auto lines = lines_of(run.out);
    REQUIRE(lines.size() == 10);
    const std::vector<std::string> expected_errors = {
        "input 'world_size': 99999999999999999999 does not fit in a 64-bit integer",
        "input 'world_size': 18446744073709551615 does not fit in a 64-bit integer",
        "a batch line must be a JSON object, got an array",
        "input 'world_size' must be int, got string",
        "missing required input 'world_size'",
        "input 'model' must be string, got list",
        "input 'world_size' must be an integer that fits in 64 bits, got 2.5",
        "empty line (expected a JSON object)",
        "unknown input 'colour'",
    };
    for (std::size_t k = 0; k < expected_errors.size(); ++k) {
      CAPTURE(k);
      CHECK(nlohmann::json::parse(lines[k]) == nlohmann::json{{"error", expected_errors[k]}, {"line", k + 1}});
    }
    CHECK(nlohmann::json::parse(lines[9]).at("mode") == "none");
    CHECK(lines_of(run.err).size() == 9);
    CHECK(lines_of(run.err)[1] == "<stdin>:2: error: input 'world_size': 18446744073709551615 does not fit in a 64-bit integer");
  }

  TEST_CASE("a rule error in batch mode is an error line without a line number and exit code 1") {
    const std::string input =
        "{\"model\": \"m\", \"world_size\": 4, \"prefer\": \"bogus\", \"batch_size\": 8}\n"
        "{\"model\": \"m\", \"world_size\": 4, \"prefer\": \"speed\", \"batch_size\": 8}\n";
    const CliRun run = run_cli({"recommend", "--batch", "-"}, input);
    CHECK(run.code == 1);
    CHECK(run.err.empty());
    const auto lines = lines_of(run.out);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "{\"error\":\"Unsupported prefer='bogus'. Expected one of ('speed', 'memory', 'capacity').\"}");
    CHECK(nlohmann::json::parse(lines[1]).at("mode") == "dp");
  }

  TEST_CASE("batch mode reads a file and names it in stderr messages") {
    const TempFile batch("batch.jsonl", "{\"model\": \"m\"}\n");
    const CliRun run = run_cli({"recommend", "--batch", batch.path()});
    CHECK(run.code == 2);
    CHECK(run.out == "{\"error\":\"missing required input 'world_size'\",\"line\":1}\n");
    CHECK(run.err == batch.path() + ":1: error: missing required input 'world_size'\n");

    const CliRun missing = run_cli({"recommend", "--batch", "/nonexistent/snnplan/batch.jsonl"});
    CHECK(missing.code == 2);
    CHECK(missing.err ==
          "error: cannot open batch file '/nonexistent/snnplan/batch.jsonl': No such file or "
          "directory\n");
  }

  TEST_CASE("batch mode refuses input flags") {
    const CliRun run = run_cli({"recommend", "--batch", "-", "--model", "x"}, "{}\n");
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err == "error: --model cannot be combined with --batch (batch inputs come from the JSON lines)\n");
  }
}

TEST_SUITE("cli: batch limits") {
  TEST_CASE("a batch line longer than 1 MiB is refused by its number and the lines around it are answered") {
    const std::string good = R"({"model": "vgg", "world_size": 8, "prefer": "speed", "batch_size": 64})";
    const std::string huge = "{\"model\": \"" + std::string(2 << 20, 'x') + "\"}";
    const auto run = snnplan::testing::run_cli({"recommend", "--batch", "-"}, good + "\n" + huge + "\n" + good + "\n");
    CHECK(run.code == 2);
    CHECK(run.err ==
          "<stdin>:2: error: line is longer than the limit of 1048576 bytes; it was skipped without being read whole\n");
    const auto first = run.out.find('\n');
    const auto second = run.out.find('\n', first + 1);
    REQUIRE(second != std::string::npos);
    CHECK(run.out.substr(first + 1, second - first) ==
          "{\"error\":\"line is longer than the limit of 1048576 bytes; it was skipped without being read whole\",\"line\":2}\n");
    CHECK(run.out.substr(0, first) == run.out.substr(second + 1, run.out.size() - second - 2));
  }
}
