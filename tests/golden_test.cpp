// The built-in rules against the reference's golden outputs, in-process and through the batch runner.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "frontends/cli/batch.hpp"
#include "request/json_inputs.hpp"
#include "render/render.hpp"
#include "snnplan/snnplan.hpp"

namespace {

struct GoldenCase {
  std::size_t line_number = 0;
  nlohmann::json input;
  nlohmann::ordered_json expected;  // ordered: the reference's field order is part of the contract
};

// The cases of tests/data/<file> (by default the seed reference's).
std::vector<GoldenCase> golden_cases(const std::string& file = "golden/recommend.jsonl") {
  std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/" + file);
  REQUIRE_MESSAGE(in.good(), "cannot read tests/data/" << file);
  std::vector<GoldenCase> cases;
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    const auto row = nlohmann::ordered_json::parse(line);
    cases.push_back({line_number, nlohmann::json::parse(row.at("input").dump()), row.at("expected")});
  }
  return cases;
}

nlohmann::json unordered(const nlohmann::ordered_json& value) { return nlohmann::json::parse(value.dump()); }

std::vector<std::string> keys_of(const nlohmann::ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

struct Counts {
  std::size_t records = 0;
  std::size_t errors = 0;
};

// Evaluates every case with `rules` and checks the record (fields and their order) or the
// rule error against the expectation.
Counts check_cases(const snnplan::RuleSet& rules, const std::vector<GoldenCase>& cases) {
  Counts counts;
  for (const GoldenCase& c : cases) {
    CAPTURE(c.line_number);
    const auto inputs = snnplan::request::inputs_from_json(c.input, rules);
    REQUIRE_MESSAGE(
        std::holds_alternative<snnplan::Inputs>(inputs),
        (std::holds_alternative<std::string>(inputs) ? std::get<std::string>(inputs) : ""));
    const auto result = rules.evaluate(std::get<snnplan::Inputs>(inputs));
    if (c.expected.contains("error")) {
      REQUIRE_MESSAGE(!result.ok(), "expected the error " << c.expected.at("error").dump());
      CHECK(result.error().kind == snnplan::EvaluationErrorKind::rule_error);
      CHECK(result.error().message == c.expected.at("error").get<std::string>());
      ++counts.errors;
    } else {
      REQUIRE_MESSAGE(result.ok(), result.error().message);
      const nlohmann::ordered_json got = snnplan::render::to_json(result.record());
      CHECK(unordered(got) == unordered(c.expected));
      CHECK(keys_of(got) == keys_of(c.expected));
      ++counts.records;
    }
  }
  return counts;
}

// rules/history/VERSION.yaml against tests/data/history/VERSION.jsonl, upstream's answers at
// that version (tools/gen_history_golden.py).
Counts check_history(const std::string& version) {
  const auto rules =
      snnplan::RuleSet::from_file(std::string(SNNPLAN_RULES_DIR) + "/history/" + version + ".yaml");
  return check_cases(rules, golden_cases("history/" + version + ".jsonl"));
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("every golden recommendation matches the reference through RuleSet::builtin") {
    const Counts counts = check_cases(snnplan::RuleSet::builtin(), golden_cases());
    CHECK(counts.records == 3500);
    CHECK(counts.errors == 1145);
  }

  TEST_CASE("the history rule file of upstream 3d27124c gives that version's answers") {
    const Counts counts = check_history("3d27124c");
    CHECK(counts.records == 468);
    CHECK(counts.errors == 12);
  }

  TEST_CASE("the history rule file of upstream 5104da6f gives that version's answers") {
    const Counts counts = check_history("5104da6f");
    CHECK(counts.records == 468);
    CHECK(counts.errors == 12);
  }

  TEST_CASE("the history rule file of upstream 482d7b8c gives that version's answers") {
    const Counts counts = check_history("482d7b8c");
    CHECK(counts.records == 468);
    CHECK(counts.errors == 15);
  }

  TEST_CASE("the history rule file of upstream 7e44624b gives that version's answers") {
    const Counts counts = check_history("7e44624b");
    CHECK(counts.records == 466);
    CHECK(counts.errors == 15);
  }

  TEST_CASE("every golden case gives the same fields or error through one reused Evaluation as through the record") {
    const auto cases = golden_cases();
    const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
    snnplan::Evaluation evaluation;
    std::size_t same = 0;
    for (const GoldenCase& c : cases) {
      CAPTURE(c.line_number);
      const auto inputs = std::get<snnplan::Inputs>(snnplan::request::inputs_from_json(c.input, rules));
      const auto result = rules.evaluate(inputs);
      REQUIRE(rules.evaluate(inputs, evaluation) == result.ok());
      if (!result.ok()) {
        CHECK(evaluation.error().kind == result.error().kind);
        CHECK(evaluation.error().message == result.error().message);
        CHECK(evaluation.values().empty());
        CHECK(evaluation.names().empty());
      } else {
        const auto& record = result.record();
        REQUIRE(evaluation.values().size() == record.values().size());
        REQUIRE(evaluation.names().size() == record.names().size());
        for (std::size_t k = 0; k < record.values().size(); ++k) {
          CHECK(evaluation.names()[k] == record.names()[k]);
          CHECK(evaluation.values()[k] == record.values()[k]);
        }
        CHECK(evaluation.to_record().values() == record.values());
        REQUIRE(evaluation.find("mode") != nullptr);
        CHECK(*evaluation.find("mode") == *record.find("mode"));
      }
      ++same;
    }
    CHECK(same == 4645);
  }

  TEST_CASE("explain gives the untraced evaluation's record or error on every golden case and on random inputs") {
    // explain() is the same evaluator with a trace (and no rule index); the fast path must
    // agree with it everywhere, not only where the golden data looks.
    const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
    std::vector<snnplan::Inputs> all;
    for (const GoldenCase& c : golden_cases())
      all.push_back(std::get<snnplan::Inputs>(snnplan::request::inputs_from_json(c.input, rules)));
    std::mt19937_64 random(20261202);
    const char* models[] = {"spikformer", "spikformer_v2", "cifar10dvs_vgg", "sew_resnet", "Spikformer", ""};
    const char* preferences[] = {"speed", "memory", "capacity", "Memory", "CAPACITY", "bogus"};
    const std::int64_t sizes[] = {-1, 0, 1, 2, 3, 4, 6, 7, 8, 16, 1000003, std::int64_t{1} << 40};
    auto pick = [&random](const auto& options) {
      return options[random() % (sizeof options / sizeof options[0])];
    };
    for (int k = 0; k < 20000; ++k) {
      snnplan::Inputs inputs{{"model", pick(models)},
                             {"world_size", pick(sizes)},
                             {"prefer", pick(preferences)},
                             {"batch_size", random() % 3 == 0 ? pick(sizes) : static_cast<std::int64_t>(random() % 4096)}};
      for (const char* flag : {"zero_redundancy_optimizer_available", "pipelining_available", "fsdp2_available",
                               "tensor_parallel_available"})
        if (random() % 2 == 0) inputs.emplace_back(flag, random() % 2 == 0);
      all.push_back(std::move(inputs));
    }
    snnplan::Evaluation evaluation;
    std::size_t records = 0, errors = 0;
    for (std::size_t k = 0; k < all.size(); ++k) {
      CAPTURE(k);
      const snnplan::Explanation explained = rules.explain(all[k]);
      const snnplan::EvaluationResult result = rules.evaluate(all[k]);
      REQUIRE(rules.evaluate(all[k], evaluation) == explained.result.ok());
      REQUIRE(result.ok() == explained.result.ok());
      CHECK_FALSE(explained.steps.empty());
      if (!result.ok()) {
        CHECK(result.error().message == explained.result.error().message);
        CHECK(evaluation.error().message == explained.result.error().message);
        ++errors;
        continue;
      }
      CHECK(result.record().values() == explained.result.record().values());
      CHECK(evaluation.to_record().values() == explained.result.record().values());
      ++records;
    }
    CHECK(records + errors == all.size());
    CHECK(records > 10000);  // both outcomes are exercised, records most
    CHECK(errors > 1000);
  }

  TEST_CASE("every golden recommendation matches the reference through the batch runner") {
    const auto cases = golden_cases();
    std::string input_text;
    for (const GoldenCase& c : cases) input_text += c.input.dump() + "\n";
    std::istringstream in(input_text);
    std::ostringstream out;
    std::ostringstream err;
    const auto code = snnplan::cli::run_batch(in, out, err, snnplan::RuleSet::builtin(), "golden.jsonl");
    // Golden errors are all the reference's ValueErrors: rule errors, exit code 1, nothing on stderr.
    CHECK(code == snnplan::cli::ExitCode::rule_error);
    CHECK(err.str().empty());

    std::istringstream lines(out.str());
    std::string line;
    std::size_t checked = 0;
    while (std::getline(lines, line)) {
      REQUIRE(checked < cases.size());
      const GoldenCase& c = cases[checked];
      CAPTURE(c.line_number);
      const auto got = nlohmann::ordered_json::parse(line);
      CHECK(unordered(got) == unordered(c.expected));
      CHECK(keys_of(got) == keys_of(c.expected));
      ++checked;
    }
    CHECK(checked == 4645);
  }

  TEST_CASE("the typed recommend API agrees with the golden records") {
    const auto cases = golden_cases();
    std::size_t checked = 0;
    for (const GoldenCase& c : cases) {
      // Only cases that give every argument of the reference function explicitly.
      if (!c.input.contains("backend") || !c.input.contains("fsdp2_available") ||
          !c.input.contains("tensor_parallel_available") || !c.input.contains("pipelining_available") ||
          !c.input.contains("zero_redundancy_optimizer_available"))
        continue;
      CAPTURE(c.line_number);
      snnplan::RecommendOptions options;
      options.backend = c.input.at("backend").get<std::string>();
      options.zero_redundancy_optimizer_available = c.input.at("zero_redundancy_optimizer_available").get<bool>();
      options.pipelining_available = c.input.at("pipelining_available").get<bool>();
      options.fsdp2_available = c.input.at("fsdp2_available").get<bool>();
      options.tensor_parallel_available = c.input.at("tensor_parallel_available").get<bool>();
      const auto call = [&] {
        return snnplan::recommend(c.input.at("model").get<std::string>(), c.input.at("world_size").get<std::int64_t>(),
                                  c.input.at("prefer").get<std::string>(), c.input.at("batch_size").get<std::int64_t>(),
                                  options);
      };
      if (c.expected.contains("error")) {
        CHECK_THROWS_WITH_AS(call(), c.expected.at("error").get<std::string>().c_str(), snnplan::RuleError);
      } else {
        const snnplan::Recommendation rec = call();
        CHECK(rec.mode == c.expected.at("mode").get<std::string>());
        CHECK(rec.world_size == c.expected.at("world_size").get<std::int64_t>());
        CHECK(rec.memopt_level == c.expected.at("memopt_level").get<std::int64_t>());
        CHECK(rec.rationale == c.expected.at("rationale").get<std::vector<std::string>>());
      }
      ++checked;
    }
    CHECK(checked == 4445);
  }
}
