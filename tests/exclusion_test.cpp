// Swaps of adjacent rules proved equivalent by exclusion (src/analyse/exclusion.hpp): the
// proof holds only where one rule tests inputs for equality and the other is false, computed
// without a failure, under the values the first pins.
#include <doctest/doctest.h>

#include <string>

#include "analyse/exclusion.hpp"
#include "api/rule_set_access.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::RuleSet;
using snnplan::RuleSetAccess;

// A table `main` of two rules `first` and `second` with the given conditions (YAML flow
// mappings), over inputs mode (string, may be null) and world_size, and the lets given.
bool swap_proved(const std::string& first, const std::string& second,
                 const std::string& lets = "") {
  const std::string text =
      "snnplan: 1\n"
      "inputs:\n"
      "  mode: {type: \"string?\", default: null}\n"
      "  world_size: {type: int}\n" +
      (lets.empty() ? "" : "let:\n" + lets) +
      "record:\n"
      "  mode: {type: string, default: dp}\n"
      "start: main\n"
      "tables:\n"
      "  main:\n"
      "    - name: first\n"
      "      when: " + first + "\n"
      "      set: {mode: a}\n"
      "    - name: second\n"
      "      when: " + second + "\n"
      "      set: {mode: b}\n"
      "    - name: rest\n"
      "      set: {mode: c}\n";
  const RuleSet rules = RuleSet::from_string(text, "exclusion.yaml");
  const auto& compiled = RuleSetAccess::compiled(rules);
  const auto& table = compiled.tables.at(0);
  return snnplan::analyse::swap_is_equivalent(compiled, table.rules.at(0), table.rules.at(1));
}

}  // namespace

TEST_SUITE("exclusion") {
  TEST_CASE("two rules that pin one input to different constants swap equivalently") {
    CHECK(swap_proved("{mode: pp}", "{mode: {not_one_of: [null, dp, pp]}}"));
    CHECK(swap_proved("{mode: {not_one_of: [null, dp, pp]}}", "{mode: pp}"));
    CHECK(swap_proved("{mode: pp}", "{mode: dp, world_size: {ge: 8}}"));
  }

  TEST_CASE("a let is folded under the pinned input, the branch it does not take unread") {
    const std::string chosen = "  chosen: \"mode == null ? 'fsdp2_tp' : mode\"\n";
    CHECK(swap_proved("{mode: pp}", "{chosen: fsdp2_tp}", chosen));
    CHECK(swap_proved("{chosen: fsdp2_tp}", "{mode: pp}", chosen));
  }

  TEST_CASE("rules that can both hold are not proved") {
    CHECK_FALSE(swap_proved("{mode: pp}", "{mode: {one_of: [pp, dp]}}"));
    CHECK_FALSE(swap_proved("{mode: pp}", "{chosen: pp}", "  chosen: \"mode == null ? 'x' : mode\"\n"));
    // Only ordering conditions: nothing is pinned, nothing is folded.
    CHECK_FALSE(swap_proved("{world_size: {ge: 8}}", "{world_size: {lt: 8}}"));
  }

  TEST_CASE("a condition whose value could fail to compute is not folded") {
    // Under mode = pp the let divides by zero: trying `second` first would fail where
    // `first` fires, so the swap is not equivalent and must not be proved.
    CHECK_FALSE(swap_proved("{mode: pp}", "{ratio: 1}", "  ratio: \"mode == 'pp' ? world_size / 0 : 0\"\n"));
    // An input compared by order is not folded: the proof stops at the first condition it
    // cannot compute, even where a later one is false.
    CHECK_FALSE(swap_proved("{mode: dp}", "{world_size: {ge: 8}, mode: pp}"));
  }
}
