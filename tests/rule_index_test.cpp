// Rule indexing of long tables (src/compile/rule_index.cpp): an indexed evaluation must give
// exactly what the plain first-hit walk gives -- the same rule, the same record, the same
// error -- for every input. explain() always walks, so it is the oracle here.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"

namespace {

using snnplan::Inputs;
using snnplan::RuleSet;
using snnplan::Value;

// `rules` rules keyed on (family, prefer) with a size threshold, an unkeyed rule every
// `unkeyed_every` rules (its first condition is on size), and a catch-all.
std::string keyed_table(int rules, int unkeyed_every) {
  std::string y = R"(snnplan: 1
inputs:
  model: {type: string}
  prefer: {type: string}
  size: {type: int}
let:
  family: "starts_with(model, 'big') ? 'big' : model"
record:
  rule: {type: int, default: -1}
  rationale: {type: rationale}
start: pick
tables:
  pick:
)";
  for (int i = 0; i < rules; ++i) {
    const std::string id = std::to_string(i);
    if (unkeyed_every > 0 && i % unkeyed_every == unkeyed_every - 1) {
      y += "    - {name: u" + id + ", when: {size: {ge: " + std::to_string(1000 + i) + "}, family: f" +
           std::to_string(i % 4) + "}, set: {rule: " + id + "}, because: 'unkeyed " + id + " at {size}'}\n";
      continue;
    }
    y += "    - {name: r" + id + ", when: {family: f" + std::to_string(i % 4) + ", prefer: p" + std::to_string(i % 3) +
         ", size: {ge: " + std::to_string(100 - i) + "}}, set: {rule: " + id + "}, because: 'rule " + id + "'}\n";
  }
  y += "    - {name: catch-all, because: none matched}\n";
  return y;
}

Inputs inputs(const std::string& model, const std::string& prefer, std::int64_t size) {
  return {{"model", model}, {"prefer", prefer}, {"size", size}};
}

// The record and rationale of an evaluation, or its error, as one comparable text.
std::string outcome(const snnplan::EvaluationResult& result) {
  if (!result.ok()) return "error: " + result.error().message;
  std::string out;
  for (const Value& v : result.record().values()) out += snnplan::to_display_string(v) + "|";
  return out;
}

TEST_SUITE("rule index") {
  TEST_CASE("a long table with equality conditions first is indexed and a short one is not") {
    const RuleSet long_table = RuleSet::from_string(keyed_table(64, 0));
    const auto& index = snnplan::RuleSetAccess::compiled(long_table).tables[0].index;
    REQUIRE(index.has_value());
    CHECK(index->key_slots.size() == 2);  // family and prefer
    CHECK(index->unkeyed == std::vector<int>{64});  // only the catch-all
    CHECK(index->keyed.size() == 12);              // 4 families x 3 preferences

    const RuleSet short_table = RuleSet::from_string(keyed_table(8, 0));
    CHECK_FALSE(snnplan::RuleSetAccess::compiled(short_table).tables[0].index.has_value());
  }

  TEST_CASE("indexed evaluation fires the same rule as the plain walk for every input") {
    const RuleSet rules = RuleSet::from_string(keyed_table(200, 7));
    REQUIRE(snnplan::RuleSetAccess::compiled(rules).tables[0].index.has_value());
    int compared = 0, fired_keyed = 0;
    for (const char* model : {"f0", "f1", "f2", "f3", "big-one", "other"})
      for (const char* prefer : {"p0", "p1", "p2", "p9"})
        for (std::int64_t size : {-5, 0, 1, 17, 50, 99, 100, 101, 1006, 1200, 5000}) {
          const Inputs in = inputs(model, prefer, size);
          const std::string indexed = outcome(rules.evaluate(in));
          const std::string walked = outcome(rules.explain(in).result);
          CAPTURE(model);
          CAPTURE(prefer);
          CAPTURE(size);
          CHECK(indexed == walked);
          ++compared;
          if (indexed.find("rule ") != std::string::npos) ++fired_keyed;
        }
    CHECK(compared == 264);
    CHECK(fired_keyed > 50);  // the comparison covers keyed rules firing, not only the catch-all
  }

  TEST_CASE("a key fact that cannot be computed leaves the decision and its error to the walk") {
    // `family` divides by n: for n = 0 the rule before the keyed ones fires without needing
    // it, so an indexed evaluation must not report the division by zero.
    std::string y = R"(snnplan: 1
inputs:
  n: {type: int}
  prefer: {type: string}
let:
  family: "10 / n == 1 ? 'ten' : 'other'"
record:
  rule: {type: int, default: -1}
start: pick
tables:
  pick:
    - {name: zero, when: {n: 0}, set: {rule: 1000}}
)";
    for (int i = 0; i < 40; ++i)
      y += "    - {name: r" + std::to_string(i) + ", when: {family: " + (i % 2 ? "ten" : "other") + ", prefer: p" +
           std::to_string(i % 5) + "}, set: {rule: " + std::to_string(i) + "}}\n";
    y += "    - {name: last, set: {rule: -2}}\n";
    const RuleSet rules = RuleSet::from_string(y);
    REQUIRE(snnplan::RuleSetAccess::compiled(rules).tables[0].index.has_value());

    const auto zero = rules.evaluate({{"n", 0}, {"prefer", "p1"}});
    REQUIRE(zero.ok());
    CHECK(zero.record().find("rule")->as_int() == 1000);

    const auto ten = rules.evaluate({{"n", 10}, {"prefer", "p1"}});
    REQUIRE(ten.ok());
    CHECK(ten.record().find("rule")->as_int() == 1);  // family 'ten' (odd i), prefer p1

    const auto other = rules.evaluate({{"n", 3}, {"prefer", "p4"}});
    REQUIRE(other.ok());
    CHECK(other.record().find("rule")->as_int() == 4);
  }

  TEST_CASE("a float fact equal to an integer constant still fires the keyed rule") {
    std::string y = R"(snnplan: 1
inputs:
  x: {type: float}
record:
  rule: {type: int, default: -1}
start: pick
tables:
  pick:
)";
    for (int i = 0; i < 40; ++i)
      y += "    - {name: r" + std::to_string(i) + ", when: {x: " + std::to_string(i) + "}, set: {rule: " +
           std::to_string(i) + "}}\n";
    y += "    - {name: last, set: {rule: -2}}\n";
    const RuleSet rules = RuleSet::from_string(y);
    REQUIRE(snnplan::RuleSetAccess::compiled(rules).tables[0].index.has_value());
    const auto hit = rules.evaluate({{"x", 7.0}});
    REQUIRE(hit.ok());
    CHECK(hit.record().find("rule")->as_int() == 7);
    const auto miss = rules.evaluate({{"x", 7.5}});
    REQUIRE(miss.ok());
    CHECK(miss.record().find("rule")->as_int() == -2);
  }
}

}  // namespace
