// A search's tiers decided by columns (evaluate/search_columns.cpp) against the walk of one
// candidate at a time (search.cpp, which explain() always takes): the same record or the same
// error on every committed planning request, and every tier the columns cannot hold exactly --
// an integer beyond 64 bits, a division by zero in a branch the walk does not take, a value
// whose kind varies per candidate -- given back to the walk, which answers as before.
#include <doctest/doctest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "evaluate/search_statistics.hpp"
#include "request/json_inputs.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"

namespace {

using nlohmann::json;
using snnplan::EvaluationResult;
using snnplan::Inputs;
using snnplan::RuleSet;
using snnplan::Value;
using snnplan::evaluate::search_tier_counts;
using snnplan::evaluate::SearchTierCounts;

std::vector<json> requests_in(const std::string& file) {
  std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/planning/" + file);
  REQUIRE(in.good());
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) {
    const json parsed = json::parse(line);
    out.push_back(parsed.contains("request") ? parsed["request"] : parsed);
  }
  return out;
}

// What an evaluation came to, as text: the record's fields or the error.
std::string outcome(const EvaluationResult& result) {
  if (!result.ok()) return "error: " + result.error().message;
  std::string out;
  const snnplan::Record& record = result.record();
  for (std::size_t k = 0; k < record.names().size(); ++k) {
    const Value& value = record.values()[k];
    // Floats to the last bit: the shortest text that reads back as the same double.
    out += fmt::format("{}={}; ", record.names()[k],
                       value.is_float() ? fmt::format("{}", value.as_float()) : snnplan::to_display_string(value));
  }
  return out;
}

SearchTierCounts counts_now() { return search_tier_counts(); }

// A rule file of a search over tp (and pp) with `search_body` under `search:`, then
// `record_and_tables`; its inputs are world_size and `extra_inputs`.
RuleSet search_rules(const std::string& search_body, const std::string& record_and_tables,
                     const std::string& extra_inputs = "") {
  return RuleSet::from_string("snnplan: 2\ninputs:\n  world_size: {type: int}\n" + extra_inputs +
                                  "let:\n  layout:\n    search:\n" + search_body + record_and_tables,
                              "repro.yaml");
}

const char* const kChosenTp = R"yaml(record:
  tp: {type: int, default: 0}
start: plan
tables:
  plan:
    - name: chosen
      set: {tp: = layout.tp}
)yaml";

// A search whose candidate value is `value` (of tp and n), choosing the largest tp with v >= 0.
RuleSet rules_with_value(const std::string& value) {
  return search_rules(R"yaml(      for:
        tp: "divisors(world_size)"
      let:
        v: ")yaml" + value + R"yaml("
      fits: {holds: "v >= 0"}
      minimize: "[-tp]"
)yaml",
                      R"yaml(record:
  tp: {type: int, default: 0}
  v: {type: float, default: 0.0}
start: plan
tables:
  plan:
    - name: chosen
      set: {tp: = layout.tp, v: = float(layout.v)}
)yaml",
                      "  n: {type: int}\n");
}

}  // namespace

TEST_SUITE("search columns") {
  TEST_CASE("every committed planning request gets the walk's record or error, and columns decide its tiers") {
    const RuleSet rules = RuleSet::from_file(std::string(SNNPLAN_RULES_DIR) + "/snn_llm_planning.yaml");
    std::vector<json> requests = requests_in("upstream_plan_training.jsonl");
    for (const json& r : requests_in("corpus.jsonl")) requests.push_back(r);
    REQUIRE(requests.size() > 500);
    const SearchTierCounts before = counts_now();
    std::size_t compared = 0;
    std::size_t planned = 0;
    for (const json& request : requests) {
      auto inputs = snnplan::request::inputs_from_json(request, rules);
      if (!std::holds_alternative<Inputs>(inputs)) continue;  // refused before any search
      const EvaluationResult columns = rules.evaluate(std::get<Inputs>(inputs));
      const EvaluationResult walk = rules.explain(std::get<Inputs>(inputs)).result;
      INFO(request.dump());
      CHECK(outcome(columns) == outcome(walk));
      ++compared;
      planned += columns.ok() ? 1 : 0;
    }
    const SearchTierCounts after = counts_now();
    CHECK(compared > 500);
    CHECK(planned > 200);
    // Every tier of these requests is held exactly by columns: none given back.
    CHECK(after.by_columns - before.by_columns > compared);
    CHECK(after.given_back == before.given_back);
  }

  TEST_CASE("a value beyond 64 bits gives the tier back to the walk, which computes it in 128") {
    const RuleSet rules = rules_with_value("n * n * tp - n * n");  // n * n is 2^80 for n = 2^40
    const Inputs inputs{{"world_size", Value(8)}, {"n", Value(std::int64_t{1} << 40)}};
    const SearchTierCounts before = counts_now();
    const EvaluationResult result = rules.evaluate(inputs);
    REQUIRE(result.ok());
    CHECK(result.record().find("tp")->as_int() == 8);
    CHECK(result.record().find("v")->as_float() == 7.0 * 0x1p80);
    CHECK(counts_now().given_back == before.given_back + 1);
    CHECK(outcome(result) == outcome(rules.explain(inputs).result));
  }

  TEST_CASE("a division by zero in a branch the walk does not take does not fail the search") {
    // For tp = 1 the walk takes the first branch; the columns compute 1 // (tp - 1) for every
    // candidate, meet the zero and give the tier back.
    const RuleSet rules = rules_with_value("tp == 1 ? 0 : n // (tp - 1) - 1");
    const Inputs inputs{{"world_size", Value(4)}, {"n", Value(2)}};
    const SearchTierCounts before = counts_now();
    const EvaluationResult result = rules.evaluate(inputs);
    REQUIRE(result.ok());
    CHECK(result.record().find("tp")->as_int() == 2);  // 2 // 1 - 1 = 1 fits; tp = 4: 2 // 3 - 1 < 0
    CHECK(counts_now().given_back == before.given_back + 1);
  }

  TEST_CASE("a value that is an integer for some candidates and a float for others is the walk's") {
    // min(1, x) picks the integer 1 or the float x per candidate; v // 1 then tells them apart.
    const RuleSet rules = rules_with_value("min(1, n / tp) // 1");
    const Inputs inputs{{"world_size", Value(4)}, {"n", Value(2)}};
    const SearchTierCounts before = counts_now();
    const EvaluationResult result = rules.evaluate(inputs);
    REQUIRE(result.ok());
    CHECK(result.record().find("tp")->as_int() == 4);  // 0.5 // 1 = 0.0 >= 0
    CHECK(counts_now().given_back == before.given_back + 1);
    CHECK(outcome(result) == outcome(rules.explain(inputs).result));
  }

  TEST_CASE("columns hold a mixed min() where it only meets floats, exactly as the walk") {
    const RuleSet rules = rules_with_value("min(1, n / tp) * 3.0 - 1.5");
    const Inputs inputs{{"world_size", Value(8)}, {"n", Value(2)}};
    const SearchTierCounts before = counts_now();
    const EvaluationResult result = rules.evaluate(inputs);
    REQUIRE(result.ok());
    CHECK(result.record().find("tp")->as_int() == 4);  // 2/4*3 - 1.5 = 0; tp = 8: -0.75
    CHECK(result.record().find("v")->as_float() == 0.0);
    CHECK(counts_now().by_columns == before.by_columns + 1);
    CHECK(counts_now().given_back == before.given_back);
  }

  TEST_CASE("an error the walk raises is raised the same when the columns give the tier back") {
    const RuleSet rules = rules_with_value("n // (tp - tp)");
    const Inputs inputs{{"world_size", Value(2)}, {"n", Value(1)}};
    const EvaluationResult result = rules.evaluate(inputs);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message.find("division by zero") != std::string::npos);
    CHECK(outcome(result) == outcome(rules.explain(inputs).result));
  }

  TEST_CASE("a search that finds nothing fails its rule alike, read first by a rule's value or inside an expression") {
    // `= layout.tp` runs the search from the rule (its failure returned as a value); `= 0 +
    // layout.tp` reaches it inside the expression (its failure thrown through it).
    auto with = [](const std::string& value) {
      return search_rules(R"yaml(      for:
        tp: "divisors(world_size)"
      fits: {holds: "tp > world_size"}
      minimize: "tp"
      none_fits:
        let: {tested: "count()"}
        error: "none of {tested} fits"
)yaml",
                          R"yaml(record:
  tp: {type: int, default: 0}
start: plan
tables:
  plan:
    - name: chosen
      set: {tp: )yaml" + value + "}\n");
    };
    const Inputs inputs{{"world_size", Value(6)}};
    for (const RuleSet& rules : {with("= layout.tp"), with("= 0 + layout.tp")}) {
      const EvaluationResult result = rules.evaluate(inputs);
      const snnplan::Explanation explained = rules.explain(inputs);
      REQUIRE_FALSE(result.ok());
      CHECK(result.error().kind == snnplan::EvaluationErrorKind::rule_error);
      CHECK(result.error().message == "none of 4 fits");
      CHECK(outcome(explained.result) == outcome(result));
      REQUIRE_FALSE(explained.steps.empty());
      CHECK(explained.steps.back().kind == snnplan::TraceStep::Kind::error);
      CHECK(explained.steps.back().detail == "none of 4 fits");
    }
    // Inside try(), the search's failure is a rule error the fallback value replaces, as before.
    const EvaluationResult caught = with("\"= try(layout.tp, -1)\"").evaluate(inputs);
    REQUIRE(caught.ok());
    CHECK(caught.record().find("tp")->as_int() == -1);
  }

  TEST_CASE("a tier's constraint is checked on the prefixes of its level, as the walk checks it") {
    // `shallow` (level 0) divides by zero at tp = 1, which `deep` (level 1, shared) removes
    // only once pp is bound: the walk reaches `shallow` at tp = 1 first and fails.
    const RuleSet rules = search_rules(R"yaml(      for:
        tp: "divisors(world_size)"
        pp: "divisors(world_size)"
      require:
        - {name: deep, holds: "tp + 0 * pp >= 2"}
      tiers:
        - name: only
          require:
            - {name: shallow, holds: "6 % (tp - 1) == 0"}
      minimize: "tp"
)yaml",
                                       kChosenTp);
    for (const std::int64_t world : {1, 2}) {
      const Inputs inputs{{"world_size", Value(world)}};
      const EvaluationResult result = rules.evaluate(inputs);
      INFO("world_size " << world);
      REQUIRE_FALSE(result.ok());
      CHECK(result.error().message.find("division by zero") != std::string::npos);
      CHECK(outcome(result) == outcome(rules.explain(inputs).result));
    }
  }

  TEST_CASE("a negated zero of a column of integers and floats is the walk's integer zero") {
    const RuleSet rules = search_rules(R"yaml(      for:
        tp: "divisors(world_size)"
      let:
        v: "float(-min(tp - 1, 0.5))"
      fits: {holds: "v >= 0"}
      minimize: "[-tp]"
)yaml",
                                       R"yaml(record:
  v: {type: float, default: 1.0}
start: plan
tables:
  plan:
    - name: chosen
      set: {v: = layout.v}
)yaml");
    const Inputs inputs{{"world_size", Value(2)}};
    const EvaluationResult result = rules.evaluate(inputs);
    REQUIRE(result.ok());
    CHECK_FALSE(std::signbit(result.record().find("v")->as_float()));  // 0.0, not -0.0
    CHECK(outcome(result) == outcome(rules.explain(inputs).result));
  }

  TEST_CASE("an aggregate of a bool the same for every candidate fails as the walk's comparison does") {
    const RuleSet rules = search_rules(R"yaml(      for:
        tp: "divisors(world_size)"
      let:
        flag: "world_size > 0 ? true : 1"
      fits: {holds: "tp > world_size"}
      minimize: "tp"
      none_fits:
        let: {f: "smallest(flag)"}
        error: "none fits {f}"
)yaml",
                                       kChosenTp);
    const Inputs inputs{{"world_size", Value(4)}};
    const EvaluationResult result = rules.evaluate(inputs);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message.find("cannot compare") != std::string::npos);
    CHECK(outcome(result) == outcome(rules.explain(inputs).result));
  }

  TEST_CASE("a search of more candidates than the columns take is walked, with the same choice") {
    // 8648640 has 448 divisors: 200,704 pairs, beyond the columns' 65,536. The walk keeps the
    // first pair whose product is the largest that fits: 1 * 8648640.
    const RuleSet rules = search_rules(R"yaml(      for:
        tp: "divisors(world_size)"
        pp: "divisors(world_size)"
      fits: {holds: "tp * pp <= world_size"}
      minimize: "[-(tp * pp), tp]"
)yaml",
                                       kChosenTp);
    const SearchTierCounts before = counts_now();
    const EvaluationResult result = rules.evaluate({{"world_size", Value(8648640)}});
    REQUIRE(result.ok());
    CHECK(result.record().find("tp")->as_int() == 1);
    CHECK(counts_now().given_back == before.given_back + 1);
    CHECK(counts_now().by_columns == before.by_columns);
    // Just within the bound (240 divisors: 57,600 pairs), the columns decide it alike.
    const SearchTierCounts within = counts_now();
    const EvaluationResult smaller = rules.evaluate({{"world_size", Value(720720)}});
    REQUIRE(smaller.ok());
    CHECK(smaller.record().find("tp")->as_int() == 1);
    CHECK(counts_now().by_columns == within.by_columns + 1);
    CHECK(counts_now().given_back == within.given_back);
  }

  TEST_CASE("explain names only the enumerations bound when a shallow constraint removes a candidate") {
    const RuleSet rules = search_rules(R"yaml(      for:
        tp: "divisors(world_size)"
        pp: "divisors(world_size // tp)"
      require:
        - {name: tp-even, holds: "tp % 2 == 0", message: "tp={tp} is odd"}
      minimize: "[pp, tp]"
)yaml",
                                       kChosenTp);
    const snnplan::Explanation explained = rules.explain({{"world_size", Value(4)}});
    std::size_t removed = 0;
    for (const snnplan::TraceStep& step : explained.steps) {
      if (step.kind != snnplan::TraceStep::Kind::candidate_removed) continue;
      ++removed;
      CHECK(step.detail == "tp=1: tp=1 is odd");  // no pp: it is not bound yet
    }
    CHECK(removed == 1);
    REQUIRE(explained.result.ok());
    CHECK(explained.result.record().find("tp")->as_int() == 2);
  }
}
