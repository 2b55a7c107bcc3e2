// Decision records (issue 35): the log's lines, masking, shadow mode, a failing write, and
// `snnplan replay` against an edited rule file and against the files the records name.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "snnplan/decision_log.hpp"
#include "snnplan/rule_set.hpp"

using snnplan::testing::read_text;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

namespace {

const snnplan::Inputs kMemory = {{"model", "spikformer"}, {"world_size", 8}, {"prefer", "memory"}, {"batch_size", 64}};
const snnplan::Inputs kSmallMemory = {{"model", "vgg"}, {"world_size", 6}, {"prefer", "memory"}, {"batch_size", 8}};
const snnplan::Inputs kSpeed = {{"model", "vgg"}, {"world_size", 4}, {"prefer", "speed"}, {"batch_size", 8}};

std::vector<nlohmann::json> lines_of(const std::string& path) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(read_text(path));
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

// The default table with the 2-D mesh starting at 8 ranks instead of 4.
std::string edited_rules() {
  std::string text(snnplan::RuleSet::builtin_text());
  const std::string from = "world_size >= 4 && world_size % 2 == 0";
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "world_size >= 8 && world_size % 2 == 0");
  return text;
}

}  // namespace

TEST_SUITE("decisions") {
  TEST_CASE("a decision log appends one JSON line per decision with its revision, fired rules and labels") {
    TempFile log("decisions.jsonl", "");
    const auto sink = std::make_shared<snnplan::DecisionLog>(
        log.path(), snnplan::DecisionLogOptions{.labels = {{"job", "42"}}});
    const snnplan::RuleSet rules = snnplan::RuleSet::builtin().with_decision_sink(sink);
    const snnplan::EvaluationResult result = rules.evaluate(kMemory);
    REQUIRE(result.ok());
    CHECK(rules.evaluate({{"model", "x"}, {"world_size", 8}, {"prefer", "fast"}, {"batch_size", 8}}).ok() == false);
    const auto lines = lines_of(log.path());
    REQUIRE(lines.size() == 2);
    const nlohmann::json& first = lines[0];
    CHECK(first["format"] == snnplan::decision_log_format);
    CHECK(first["decision_id"].get<std::string>().size() == 32);
    CHECK(first["decision_id"] != lines[1]["decision_id"]);
    CHECK(first["rules_sha256"] == std::string(snnplan::RuleSet::builtin_sha256().front().second));
    CHECK(first["rules_file"] == "rules/snn_distributed.yaml");
    CHECK(first["builtin"] == true);
    CHECK(first["labels"] == nlohmann::json{{"job", "42"}});
    CHECK(first["inputs"] == nlohmann::json{{"model", "spikformer"}, {"world_size", 8}, {"prefer", "memory"}, {"batch_size", 64}});
    CHECK(first["answer"]["mode"] == "fsdp2_tp");
    CHECK(first["error"].is_null());
    CHECK(first["rules"] == nlohmann::json{"recommend/by-preference-memory", "memory/fsdp2-tp"});
    CHECK(lines[1]["answer"].is_null());
    CHECK(lines[1]["error"]["kind"] == "rule_error");
    CHECK(lines[1]["error"]["message"] == "Unsupported prefer='fast'. Expected one of ('speed', 'memory', 'capacity').");
  }

  TEST_CASE("the built-in rules' revision is what snnplan --version prints and an edit changes it") {
    CHECK(snnplan::RuleSet::builtin().sha256() == snnplan::RuleSet::builtin_sha256().front().second);
    const snnplan::RuleSet edited = snnplan::RuleSet::from_string(edited_rules(), "edited.yaml");
    CHECK(edited.sha256() != snnplan::RuleSet::builtin().sha256());
    CHECK(edited.sha256().size() == 64);
  }

  TEST_CASE("dropped and masked inputs are not written, and replay refuses such records") {
    TempFile log("masked.jsonl", "");
    const auto sink = std::make_shared<snnplan::DecisionLog>(
        log.path(), snnplan::DecisionLogOptions{.drop_inputs = {"batch_size"}, .mask_inputs = {"model"}});
    (void)snnplan::RuleSet::builtin().with_decision_sink(sink).evaluate(kMemory);
    const auto lines = lines_of(log.path());
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["inputs"] == nlohmann::json{{"model", "<masked>"}, {"world_size", 8}, {"prefer", "memory"}});
    CHECK(lines[0]["masked"] == nlohmann::json{"model", "batch_size"});
    const auto run = run_cli({"replay", log.path()});
    CHECK(run.code == 0);
    CHECK(run.out.find(":1: not replayable: inputs masked or dropped when logged: model, batch_size") != std::string::npos);
    CHECK(run.out.find("0 unchanged, 0 changed, 1 not replayable") != std::string::npos);
  }

  TEST_CASE("shadow mode returns the active answer and logs each disagreement with the candidate's") {
    TempFile log("shadow.jsonl", "");
    const auto sink = std::make_shared<snnplan::DecisionLog>(log.path());
    const snnplan::RuleSet candidate = snnplan::RuleSet::from_string(edited_rules(), "candidate.yaml");
    const snnplan::RuleSet rules = snnplan::RuleSet::builtin().with_shadow(candidate, sink);
    const auto answer = rules.evaluate(kSmallMemory);
    REQUIRE(answer.ok());
    CHECK(answer.record().find("mode")->as_string() == "fsdp2_tp");
    CHECK(rules.evaluate(kSpeed).ok());  // the two agree: nothing logged
    const auto lines = lines_of(log.path());
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["answer"]["mode"] == "fsdp2_tp");
    CHECK(lines[0]["shadow"]["rules_file"] == "candidate.yaml");
    CHECK(lines[0]["shadow"]["answer"]["mode"] == "tp");
    CHECK(lines[0]["shadow"]["rules"] == nlohmann::json{"recommend/by-preference-memory", "memory/tensor-parallel"});
  }

  TEST_CASE("the decision-log schema names every key a record holds, the shadow's too, and requires the rest") {
    TempFile log("schema.jsonl", "");
    const auto sink = std::make_shared<snnplan::DecisionLog>(
        log.path(), snnplan::DecisionLogOptions{.labels = {{"job", "1"}}, .mask_inputs = {"model"}});
    const snnplan::RuleSet candidate = snnplan::RuleSet::from_string(edited_rules(), "candidate.yaml");
    (void)snnplan::RuleSet::builtin().with_decision_sink(sink).with_shadow(candidate, sink).evaluate(kSmallMemory);
    const auto lines = lines_of(log.path());
    REQUIRE(lines.size() == 2);  // the decision, and the disagreement with the candidate's answer
    const nlohmann::json schema = nlohmann::json::parse(run_cli({"schema", "decision-log"}).out);
    CHECK(schema["$id"] == "urn:snnplan:schema:decision-log");
    CHECK(schema["properties"]["format"]["const"] == snnplan::decision_log_format);
    for (const auto& line : lines) {
      for (const auto& [key, value] : line.items()) CHECK_MESSAGE(schema["properties"].contains(key), key);
      for (const auto& key : schema["required"]) CHECK_MESSAGE(line.contains(key.get<std::string>()), key);
    }
    const nlohmann::json& shadow = schema["properties"]["shadow"];
    REQUIRE(lines[1].contains("shadow"));
    for (const auto& [key, value] : lines[1]["shadow"].items()) CHECK_MESSAGE(shadow["properties"].contains(key), key);
    CHECK(shadow["required"].size() == lines[1]["shadow"].size());
  }

  TEST_CASE("a failing log write is reported once and the decision stands") {
    int reports = 0;
    std::string message;
    const auto sink = std::make_shared<snnplan::DecisionLog>(
        "/dev/full", snnplan::DecisionLogOptions{.on_first_failure = [&](const std::string& m) {
          ++reports;
          message = m;
        }});
    const snnplan::RuleSet rules = snnplan::RuleSet::builtin().with_decision_sink(sink);
    for (int k = 0; k < 3; ++k) CHECK(rules.evaluate(kMemory).ok());
    CHECK(reports == 1);
    CHECK(sink->failed_writes() == 3);
    CHECK(message == "snnplan: cannot write decision log /dev/full: No space left on device (the decision stands; "
                     "further failures are counted, not reported)");
  }

  TEST_CASE("replay against an edited rule file groups the changed decisions by rule path") {
    TempFile log("traffic.jsonl", "");
    TempFile edited("edited.yaml", edited_rules());
    {
      const auto sink = std::make_shared<snnplan::DecisionLog>(log.path());
      const snnplan::RuleSet rules = snnplan::RuleSet::builtin().with_decision_sink(sink);
      for (const auto* inputs : {&kMemory, &kSmallMemory, &kSpeed, &kSmallMemory}) (void)rules.evaluate(*inputs);
    }
    std::ofstream(log.path(), std::ios::app) << "not json\n{\"format\": \"other/2\"}\n";
    const auto run = run_cli({"replay", log.path(), "--rules", edited.path()});
    CHECK(run.code == 1);
    CHECK(run.out.find("change 1 of 1: 2 decisions\n"
                       "  old rules: recommend/by-preference-memory, memory/fsdp2-tp\n"
                       "  new rules: recommend/by-preference-memory, memory/tensor-parallel\n") != std::string::npos);
    CHECK(run.out.find("    mode: \"fsdp2_tp\" -> \"tp\"\n") != std::string::npos);
    CHECK(run.out.find(":5: not replayable: not JSON (") != std::string::npos);
    CHECK(run.out.find(":6: not replayable: a record of another log format (other/2)") != std::string::npos);
    CHECK(run.out.find("6 decisions replayed from " + log.path() + " against " + edited.path() +
                       ": 2 unchanged, 2 changed, 2 not replayable\n") != std::string::npos);
    const auto json = run_cli({"replay", log.path(), "--rules", edited.path(), "--format", "json"});
    CHECK(json.code == 1);
    const auto report = nlohmann::json::parse(json.out);
    CHECK(report["changed"] == 2);
    CHECK(report["changes"][0]["count"] == 2);
    CHECK(report["changes"][0]["examples"].size() == 2);
  }

  TEST_CASE("replay against the files the records name says which changed since they were logged") {
    TempFile rules_file("site.yaml", std::string(snnplan::RuleSet::builtin_text()));
    TempFile log("site.jsonl", "");
    {
      const auto sink = std::make_shared<snnplan::DecisionLog>(log.path());
      const snnplan::RuleSet rules = snnplan::RuleSet::from_file(rules_file.path()).with_decision_sink(sink);
      (void)rules.evaluate(kSmallMemory);
      (void)rules.evaluate(kSpeed);
    }
    const auto same = run_cli({"replay", log.path()});
    CHECK(same.code == 0);
    CHECK(same.out.find("2 unchanged, 0 changed, 0 not replayable") != std::string::npos);
    std::ofstream(rules_file.path(), std::ios::binary | std::ios::trunc) << edited_rules();
    const auto changed = run_cli({"replay", log.path()});
    CHECK(changed.code == 1);
    CHECK(changed.out.find(rules_file.path() + " changed since it was logged: sha256 " +
                           snnplan::RuleSet::builtin().sha256() + " in the log, ") != std::string::npos);
    CHECK(changed.out.find("1 unchanged, 1 changed, 0 not replayable") != std::string::npos);
  }
}
