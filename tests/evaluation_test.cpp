// RuleSet::evaluate(inputs, evaluation): fields as views into a reused Evaluation. The golden
// suite compares it with the owning Record on every reference case; these cases cover what
// the default rules do not reach: storage growth, reuse after errors, moves, 64-bit overflow.
#include <doctest/doctest.h>

#include <string>

#include "snnplan/evaluation.hpp"
#include "snnplan/rule_set.hpp"

namespace {

using snnplan::Evaluation;
using snnplan::Inputs;
using snnplan::RuleSet;
using snnplan::ValueView;

// Echoes a string input into the rationale `copies` times, so the rendered text can be made
// larger than the Evaluation's initial buffer (8 KiB).
const RuleSet& echo_rules() {
  static const RuleSet rules = RuleSet::from_string(R"(snnplan: 1
inputs:
  text: {type: string}
  n: {type: int, default: 2}
record:
  square: {type: int, default: 0}
  items: {type: "list[int]?", default: null}
  rationale: {type: rationale}
start: t
tables:
  t:
    - name: echo
      set: {square: = n * n, items: "= [n, n + 1]"}
      because: ["{text} {text} {text}", "n={n}"]
)",
                                                    "echo.yaml");
  return rules;
}

std::string rationale_line(const Evaluation& e, std::size_t k) {
  return std::string(e.find("rationale")->as_list()[k].as_string());
}

}  // namespace

TEST_SUITE("evaluation views") {
  TEST_CASE("an evaluation larger than the initial buffer returns whole views and the next one reuses the storage") {
    Evaluation evaluation;
    const std::string big(20000, 'x');
    REQUIRE(echo_rules().evaluate(Inputs{{"text", big}}, evaluation));
    CHECK(rationale_line(evaluation, 0) == big + " " + big + " " + big);
    CHECK(rationale_line(evaluation, 1) == "n=2");
    REQUIRE(echo_rules().evaluate(Inputs{{"text", "small"}, {"n", 7}}, evaluation));
    CHECK(rationale_line(evaluation, 0) == "small small small");
    CHECK(evaluation.find("square")->as_int() == 49);
    const auto items = evaluation.find("items")->as_list();
    REQUIRE(items.size() == 2);
    CHECK(items[0].as_int() == 7);
    CHECK(items[1].as_int() == 8);
    REQUIRE(echo_rules().evaluate(Inputs{{"text", big + "y"}}, evaluation));
    CHECK(rationale_line(evaluation, 0).size() == 3 * (big.size() + 1) + 2);
  }

  TEST_CASE("a record field beyond 64 bits is the same error through views as through a record") {
    Evaluation evaluation;
    const Inputs inputs{{"text", "t"}, {"n", std::int64_t{1} << 40}};
    CHECK_FALSE(echo_rules().evaluate(inputs, evaluation));
    const auto record = echo_rules().evaluate(inputs);
    REQUIRE_FALSE(record.ok());
    CHECK(evaluation.error().message == record.error().message);
    CHECK(evaluation.error().message == "record field 'square' = 1208925819614629174706176 does not fit in a 64-bit integer");
  }

  TEST_CASE("an evaluation after an error holds only the new fields") {
    Evaluation evaluation;
    CHECK_FALSE(echo_rules().evaluate(Inputs{{"n", 3}}, evaluation));
    CHECK(evaluation.error().kind == snnplan::EvaluationErrorKind::bad_input);
    CHECK(evaluation.find("square") == nullptr);
    REQUIRE(echo_rules().evaluate(Inputs{{"text", "a"}, {"n", 3}}, evaluation));
    CHECK(evaluation.find("square")->as_int() == 9);
    CHECK(evaluation.names().size() == 3);
  }

  TEST_CASE("a moved-from Evaluation evaluates again and the moved-to one keeps its views") {
    Evaluation first;
    REQUIRE(echo_rules().evaluate(Inputs{{"text", "kept"}}, first));
    Evaluation second = std::move(first);
    CHECK(rationale_line(second, 0) == "kept kept kept");
    REQUIRE(echo_rules().evaluate(Inputs{{"text", "again"}}, first));  // NOLINT(bugprone-use-after-move)
    CHECK(rationale_line(first, 0) == "again again again");
    CHECK(rationale_line(second, 0) == "kept kept kept");
  }

  TEST_CASE("lower-casing finds an uppercase letter at every position of the preference") {
    Evaluation evaluation;
    for (const std::string word : {"memory", "capacity", "speed"}) {
      for (std::size_t k = 0; k < word.size(); ++k) {
        std::string prefer = word;
        prefer[k] = static_cast<char>(prefer[k] - 'a' + 'A');
        CAPTURE(prefer);
        const Inputs inputs{{"model", "spikformer"}, {"world_size", 8}, {"prefer", prefer}, {"batch_size", 64}};
        REQUIRE(RuleSet::builtin().evaluate(inputs, evaluation));
        CHECK(evaluation.find("prefer")->as_string() == word);
      }
    }
    // Non-ASCII bytes go to the full lower-casing: 'SPEEDÉ' is not a preference.
    CHECK_FALSE(RuleSet::builtin().evaluate(
        Inputs{{"model", "m"}, {"world_size", 8}, {"prefer", "SPEED\xC3\x89"}, {"batch_size", 64}}, evaluation));
    CHECK(evaluation.error().message ==
          "Unsupported prefer='speed\xC3\xA9'. Expected one of ('speed', 'memory', 'capacity').");
  }

  TEST_CASE("a view converts to the equal owning value") {
    Evaluation evaluation;
    REQUIRE(echo_rules().evaluate(Inputs{{"text", "v"}, {"n", -4}}, evaluation));
    for (const ValueView& v : evaluation.values()) CHECK(v == v.to_value());
    CHECK(evaluation.find("items")->to_value() == snnplan::Value(snnplan::Value::List{-4, -3}));
    CHECK_FALSE(*evaluation.find("square") == snnplan::Value(15));
  }
}
