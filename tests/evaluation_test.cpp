// RuleSet::evaluate(inputs, evaluation): fields as views into a reused Evaluation. The golden
// suite compares it with the owning Record on every reference case; these cases cover what
// the default rules do not reach: storage growth, reuse after errors, moves, 64-bit overflow.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/runtime_value.hpp"
#include "snnplan/decision.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/explain.hpp"
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
    const Inputs large{{"text", big}};
    REQUIRE(echo_rules().evaluate(large, evaluation));
    CHECK(rationale_line(evaluation, 0) == big + " " + big + " " + big);
    CHECK(rationale_line(evaluation, 1) == "n=2");
    const Inputs small{{"text", "small"}, {"n", 7}};
    REQUIRE(echo_rules().evaluate(small, evaluation));
    CHECK(rationale_line(evaluation, 0) == "small small small");
    CHECK(evaluation.find("square")->as_int() == 49);
    const auto items = evaluation.find("items")->as_list();
    REQUIRE(items.size() == 2);
    CHECK(items[0].as_int() == 7);
    CHECK(items[1].as_int() == 8);
    const Inputs larger{{"text", big + "y"}};
    REQUIRE(echo_rules().evaluate(larger, evaluation));
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
    const Inputs missing_text{{"n", 3}};
    CHECK_FALSE(echo_rules().evaluate(missing_text, evaluation));
    CHECK(evaluation.error().kind == snnplan::EvaluationErrorKind::bad_input);
    CHECK(evaluation.find("square") == nullptr);
    CHECK_THROWS_AS((void)evaluation.to_record(), std::logic_error);
    const Inputs good{{"text", "a"}, {"n", 3}};
    REQUIRE(echo_rules().evaluate(good, evaluation));
    CHECK(evaluation.find("square")->as_int() == 9);
    CHECK(evaluation.names().size() == 3);
  }

  TEST_CASE("a field that fails after others succeeded leaves no fields behind") {
    static const RuleSet rules = RuleSet::from_string(R"(snnplan: 1
inputs:
  n: {type: int}
record:
  a: {type: int, default: 1}
  b: {type: int, default: 0}
start: t
tables:
  t:
    - name: cube
      set: {b: = n * n * n}
)",
                                                      "cube.yaml");
    Evaluation evaluation;
    const Inputs fits{{"n", 1000}};
    REQUIRE(rules.evaluate(fits, evaluation));
    CHECK(evaluation.find("b")->as_int() == 1000000000);
    const Inputs too_big{{"n", std::int64_t{1} << 40}};
    CHECK_FALSE(rules.evaluate(too_big, evaluation));
    CHECK(evaluation.values().empty());
    CHECK(evaluation.names().empty());
    CHECK(evaluation.error().message ==
          "record field 'b' = 1329227995784915872903807060280344576 does not fit in a 64-bit integer");
  }

  // The views start from the defaults' views and convert only the fields an evaluation wrote
  // (a mask of 64 bits; fields past it always converted): every field must still be the
  // Record's, whichever way it got its value.
  TEST_CASE("a record of 70 fields reads the same through views as through a Record, whichever fields a rule wrote") {
    std::string text = "snnplan: 1\ninputs:\n  n: {type: int}\nrecord:\n";
    for (int k = 0; k < 70; ++k) {
      if (k % 3 == 0)
        text += "  f" + std::to_string(k) + ": {type: int, default: " + std::to_string(k) + "}\n";
      else if (k % 3 == 1)
        text += "  f" + std::to_string(k) + ": {type: string, default: s" + std::to_string(k) + "}\n";
      else
        text += "  f" + std::to_string(k) + ": {type: \"list[int]?\", default: [" + std::to_string(k) + ", 1]}\n";
    }
    text += "  rationale: {type: rationale}\nstart: t\ntables:\n  t:\n"
            "    - name: low\n      when: {n: {lt: 10}}\n"
            "      set: {f3: = n, f4: changed, f65: \"= [n, n]\", f69: = n * 2}\n      because: low {n}\n"
            "      fallback: {table: u, with: {n: 100}, keep: [f3]}\n"
            "    - name: high\n      set: {f0: = n, f63: = n + 1, f64: high}\n"
            "  u:\n    - name: other\n      set: {f1: from-u, f3: = n, f66: = n}\n";
    const RuleSet rules = RuleSet::from_string(text, "wide.yaml");
    Evaluation evaluation;
    for (const std::int64_t n : {std::int64_t{5}, std::int64_t{50}, std::int64_t{7}}) {
      CAPTURE(n);
      const Inputs inputs{{"n", n}};
      REQUIRE(rules.evaluate(inputs, evaluation));
      const auto record = rules.evaluate(inputs);
      REQUIRE(record.ok());
      REQUIRE(evaluation.values().size() == record.record().values().size());
      for (std::size_t k = 0; k < record.record().values().size(); ++k) {
        CAPTURE(record.record().names()[k]);
        CHECK(evaluation.values()[k] == record.record().values()[k]);
      }
    }
    CHECK(evaluation.find("f3")->as_int() == 7);  // kept by the fallback
    CHECK(evaluation.find("f1")->as_string() == "from-u");
    CHECK(evaluation.find("f66")->as_int() == 100);
    CHECK(evaluation.find("f69")->as_int() == 69);  // the fallback adopts u's record: the default
    CHECK(evaluation.find("f0")->as_int() == 0);  // written only for n = 50, default again
    CHECK(evaluation.find("f2")->as_list()[0].as_int() == 2);
  }

  TEST_CASE("one Evaluation used for rule sets of different sizes holds each one's fields") {
    Evaluation evaluation;
    const Inputs echo{{"text", "a"}, {"n", 4}};
    REQUIRE(echo_rules().evaluate(echo, evaluation));
    REQUIRE(evaluation.values().size() == 3);
    const RuleSet& builtin = RuleSet::builtin();
    const Inputs memory{{"model", "spikformer_8_384"}, {"world_size", 8}, {"prefer", "memory"}, {"batch_size", 64}};
    REQUIRE(builtin.evaluate(memory, evaluation));
    CHECK(evaluation.values().size() == builtin.evaluate(memory).record().values().size());
    CHECK(evaluation.find("mode")->as_string() == "fsdp2_tp");
    CHECK(evaluation.find("pp_memopt_stage_budget_ratio")->as_float() == 0.5);
    const Inputs bogus{{"model", "m"}, {"world_size", 8}, {"prefer", "bogus"}, {"batch_size", 64}};
    CHECK_FALSE(builtin.evaluate(bogus, evaluation));
    CHECK(evaluation.values().empty());
    REQUIRE(echo_rules().evaluate(echo, evaluation));
    CHECK(evaluation.find("square")->as_int() == 16);
    CHECK(evaluation.values().size() == 3);
  }

  TEST_CASE("the fields stay readable after the rule set they came from is gone") {
    Evaluation evaluation;
    const Inputs inputs{{"text", "kept"}};
    {
      const RuleSet scoped = RuleSet::from_string(R"(snnplan: 1
inputs:
  text: {type: string}
record:
  fixed: {type: string, default: a constant of the rule file}
  rationale: {type: rationale}
start: t
tables:
  t:
    - name: r
      because: a line of the rule file
)",
                                                  "scoped.yaml");
      REQUIRE(scoped.evaluate(inputs, evaluation));
    }
    CHECK(evaluation.find("fixed")->as_string() == "a constant of the rule file");
    CHECK(rationale_line(evaluation, 0) == "a line of the rule file");
    CHECK(evaluation.names().size() == 2);
  }

  TEST_CASE("a moved-from Evaluation is not ok, evaluates again, and the moved-to one keeps its views") {
    Evaluation first;
    const Inputs kept{{"text", "kept"}};
    REQUIRE(echo_rules().evaluate(kept, first));
    Evaluation second = std::move(first);
    CHECK(rationale_line(second, 0) == "kept kept kept");
    CHECK_FALSE(first.ok());  // NOLINT(bugprone-use-after-move)
    CHECK(first.find("square") == nullptr);
    const Inputs again{{"text", "again"}};
    REQUIRE(echo_rules().evaluate(again, first));
    CHECK(rationale_line(first, 0) == "again again again");
    CHECK(rationale_line(second, 0) == "kept kept kept");
    Evaluation third;
    third = std::move(second);
    CHECK_FALSE(second.ok());  // NOLINT(bugprone-use-after-move)
    CHECK(rationale_line(third, 0) == "kept kept kept");
  }

  TEST_CASE("lower-casing changes exactly the ASCII capitals at every position and length") {
    static const RuleSet rules = RuleSet::from_string(R"(snnplan: 1
inputs:
  word: {type: string, lower: true}
record:
  lowered: {type: string, default: ""}
start: t
tables:
  t:
    - name: echo
      set: {lowered: = word}
)",
                                                      "lower.yaml");
    Evaluation evaluation;
    // Every length up to two 8-byte words and a tail byte: the short lengths are tested in
    // one word loaded in overlapping pieces, the longer ones word by word.
    const std::string base = "abcdefghijklmnopq";
    for (std::size_t length = 1; length <= base.size(); ++length) {
      for (std::size_t k = 0; k < length; ++k) {
        for (const char c : {'A', 'Z', '@', '['}) {  // the capitals' ends and their neighbours
          std::string word = base.substr(0, length);
          word[k] = c;
          CAPTURE(word);
          const Inputs inputs{{"word", word}};
          REQUIRE(rules.evaluate(inputs, evaluation));
          std::string expected = word;
          if (c == 'A' || c == 'Z') expected[k] = static_cast<char>(c - 'A' + 'a');
          CHECK(evaluation.find("lowered")->as_string() == expected);
        }
      }
    }
    // Non-ASCII after a whole word of ASCII goes to the full lower-casing.
    const Inputs accented{{"word", "ABCDEFGH\xC3\x89X"}};
    REQUIRE(rules.evaluate(accented, evaluation));
    CHECK(evaluation.find("lowered")->as_string() == "abcdefgh\xC3\xA9x");
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
    const Inputs accented{{"model", "m"}, {"world_size", 8}, {"prefer", "SPEED\xC3\x89"}, {"batch_size", 64}};
    CHECK_FALSE(RuleSet::builtin().evaluate(accented, evaluation));
    CHECK(evaluation.error().message ==
          "Unsupported prefer='speed\xC3\xA9'. Expected one of ('speed', 'memory', 'capacity').");
  }

  TEST_CASE("a view converts to the equal owning value") {
    Evaluation evaluation;
    const Inputs inputs{{"text", "v"}, {"n", -4}};
    REQUIRE(echo_rules().evaluate(inputs, evaluation));
    for (const ValueView& v : evaluation.values()) CHECK(v == v.to_value());
    CHECK(evaluation.find("items")->to_value() == snnplan::Value(snnplan::Value::List{-4, -3}));
    CHECK_FALSE(*evaluation.find("square") == snnplan::Value(15));
  }
}

// A reused store (each thread's Evaluation in recommend()) stops allocating for ordinary
// evaluations but gives back what one huge evaluation took.
TEST_CASE("a value store keeps its first chunks across resets and frees the memory of a huge evaluation") {
  snnplan::detail::ValueStore store;
  CHECK(store.keep("spikformer") == "spikformer");
  CHECK(store.chunk_bytes() == 4096);
  store.reset();
  CHECK(store.chunk_bytes() == 4096);

  const std::string huge(std::size_t{4} << 20, 'x');
  CHECK(store.keep(huge).size() == huge.size());
  CHECK(store.chunk_bytes() > huge.size());
  store.reset();
  CHECK(store.chunk_bytes() == 4096);

  // 400 KB in doubling chunks (4 + 8 + ... + 256 KiB) is within what a reset keeps; one more
  // chunk (512 KiB) is not.
  for (int k = 0; k < 2000; ++k) (void)store.keep(std::string(200, 'y'));
  CHECK(store.chunk_bytes() == 508 * 1024);
  store.reset();
  CHECK(store.chunk_bytes() == 508 * 1024);
  for (int k = 0; k < 4000; ++k) (void)store.keep(std::string(200, 'y'));
  CHECK(store.chunk_bytes() == 1020 * 1024);
  store.reset();
  CHECK(store.chunk_bytes() == 508 * 1024);
  CHECK(store.keep("after") == "after");
}

TEST_CASE("the rule path names every fired rule as table/rule, through next and fallback, in firing order") {
  const RuleSet& rules = RuleSet::builtin();
  const snnplan::Explanation memory =
      rules.explain({{"model", "vgg"}, {"world_size", 8}, {"prefer", "memory"}, {"batch_size", 64}});
  CHECK(snnplan::fired_rule_path(memory.steps) ==
        std::vector<std::string>{"recommend/by-preference-memory", "memory/fsdp2-tp"});
  // Capacity with a batch smaller than the stages falls back to the memory table.
  const snnplan::Explanation fallback = rules.explain(
      {{"model", "spikformer"}, {"world_size", 8}, {"prefer", "capacity"}, {"batch_size", 1}});
  const std::vector<std::string> path = snnplan::fired_rule_path(fallback.steps);
  REQUIRE(path.size() == 3);
  CHECK(path[0] == "recommend/by-preference-capacity");
  CHECK(path[1] == "capacity/pipeline-batch-too-small");
  CHECK(path[2].rfind("memory/", 0) == 0);
  CHECK(snnplan::fired_rule_path({}).empty());
}

TEST_SUITE("inputs by position") {
  // The names in an order other than the rule file's, so a slot is not its position.
  const std::vector<std::string_view> kNames{"prefer", "world_size", "model", "batch_size",
                                             "pipelining_available"};

  // By position and by name, the same answer: the fields, or the error's kind and message.
  void check_same_as_by_name(const std::vector<snnplan::Value>& values) {
    const RuleSet& rules = RuleSet::builtin();
    Inputs inputs;
    for (std::size_t k = 0; k < kNames.size(); ++k)
      inputs.emplace_back(std::string(kNames[k]), values[k]);
    const auto layout = rules.input_layout(kNames);
    REQUIRE(layout.ok());
    Evaluation by_name, by_position;
    const bool named_ok = rules.evaluate(inputs, by_name);
    REQUIRE(rules.evaluate(layout, values, by_position) == named_ok);
    if (named_ok) {
      CHECK(by_position.to_record().values() == by_name.to_record().values());
      CHECK(by_position.to_record().names() == by_name.to_record().names());
    } else {
      CHECK(by_position.error().kind == by_name.error().kind);
      CHECK(by_position.error().message == by_name.error().message);
      CHECK(by_position.values().empty());
    }
  }

  TEST_CASE("inputs by position give what the same inputs by name give, answers and errors alike") {
    using V = snnplan::Value;
    const std::vector<std::vector<V>> cases{
        {V("memory"), V(8), V("spikformer"), V(64), V(true)},
        {V("Capacity"), V(8), V("spikformer"), V(64), V(false)},  // lowered; a fallback
        {V("speed"), V(1), V("sew_resnet"), V(32), V()},           // null: the default
        {V("bogus"), V(8), V("spikformer"), V(64), V(true)},       // the one_of's error
        {V("memory"), V("8"), V("spikformer"), V(64), V(true)},    // wrong type
        {V("memory"), V(8), V(), V(64), V(true)},                  // missing required input
        {V("memory"), V(8), V(std::string(70000, 'x')), V(64), V(true)},  // too long
    };
    for (const auto& values : cases) check_same_as_by_name(values);
  }

  TEST_CASE("a layout naming an unknown input is not ok and says what evaluation by name says") {
    const RuleSet& rules = RuleSet::builtin();
    const auto layout = rules.input_layout({"model", "world_sise"});
    REQUIRE_FALSE(layout.ok());
    CHECK(layout.error().kind == snnplan::EvaluationErrorKind::bad_input);
    CHECK(layout.error().message == "unknown input 'world_sise' (did you mean 'world_size'?)");
    Evaluation by_name;
    const Inputs inputs{{"model", "x"}, {"world_sise", 2}};
    CHECK_FALSE(rules.evaluate(inputs, by_name));
    CHECK(by_name.error().message == layout.error().message);
    Evaluation evaluation;
    const std::vector<snnplan::Value> values{"spikformer", 8};
    CHECK_FALSE(rules.evaluate(layout, values, evaluation));
    CHECK(evaluation.error().message == layout.error().message);

    const auto twice = rules.input_layout({"model", "model"});
    REQUIRE_FALSE(twice.ok());
    CHECK(twice.error().message == "input 'model' is named twice in the input layout");
  }

  TEST_CASE("a layout is refused by another rule set and with the wrong number of values") {
    const RuleSet& rules = RuleSet::builtin();
    const auto layout = echo_rules().input_layout({"text", "n"});
    REQUIRE(layout.ok());
    const std::vector<snnplan::Value> values{"hello", 3};
    Evaluation evaluation;
    CHECK_FALSE(rules.evaluate(layout, values, evaluation));
    CHECK(evaluation.error().kind == snnplan::EvaluationErrorKind::bad_input);
    CHECK(evaluation.error().message.starts_with("the input layout was made for another rule set"));
    CHECK(evaluation.values().empty());

    // The same layout works where it was made, and for a copy of that rule set.
    const RuleSet copy = echo_rules();
    REQUIRE(copy.evaluate(layout, values, evaluation));
    CHECK(evaluation.find("square")->as_int() == 9);

    const std::vector<snnplan::Value> one{"hello"};
    CHECK_FALSE(echo_rules().evaluate(layout, one, evaluation));
    CHECK(evaluation.error().message == "1 input values given for an input layout of 2 names");
  }

  TEST_CASE("an observed rule set records an evaluation by position as the inputs by name") {
    struct Keep final : snnplan::DecisionSink {
      std::vector<snnplan::Decision> decisions;
      void record(const snnplan::Decision& decision) noexcept override {
        decisions.push_back(decision);
      }
    };
    const auto sink = std::make_shared<Keep>();
    const RuleSet observed = echo_rules().with_decision_sink(sink);
    const auto layout = echo_rules().input_layout({"n", "text"});  // shared by the copy
    const std::vector<snnplan::Value> values{4, "hi"};
    Evaluation evaluation;
    REQUIRE(observed.evaluate(layout, values, evaluation));
    CHECK(evaluation.find("square")->as_int() == 16);
    REQUIRE(sink->decisions.size() == 1);
    CHECK(sink->decisions[0].inputs == Inputs{{"n", 4}, {"text", "hi"}});
  }
}
