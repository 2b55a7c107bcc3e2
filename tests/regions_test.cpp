// The regions of the decision, as every command that walks them sees them: `test --generate`
// (analyse::decision_regions, over the space Gather::conditions_and_values builds), `diff`
// (the partition of two files, Gather::decision_conditions) and `map` (the partition of one
// file, whose region of a cell stands for its rule path). All of them build their space with
// analyse/input_space.hpp; these cases fail when two of them come to disagree.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyse/coverage.hpp"
#include "analyse/partition.hpp"
#include "analyse/rule_diff.hpp"
#include "api/rule_set_access.hpp"
#include "snnplan/snnplan.hpp"

namespace {

namespace fs = std::filesystem;
using snnplan::RuleSet;
using snnplan::RuleSetAccess;
using snnplan::detail::CompiledRules;
namespace analyse = snnplan::analyse;

// A region of the decision as the three commands can all name it: the fired rules, and
// whether the evaluation ends in an error (the error's text quotes the inputs, so it differs
// between two points of one region).
using DecisionRegion = std::pair<std::vector<std::string>, bool>;

std::set<DecisionRegion> generated_regions(const CompiledRules& rules) {
  std::vector<analyse::Region> regions;
  std::string why;
  REQUIRE_MESSAGE(analyse::decision_regions(rules, regions, why), why);
  std::set<DecisionRegion> out;
  for (const analyse::Region& r : regions) out.emplace(r.path, r.error.has_value());
  return out;
}

// The decision regions the partition's points reach, and per region of the partition the
// rule paths found in it (what map assumes is one).
struct PartitionWalk {
  std::set<DecisionRegion> regions;
  std::map<analyse::RegionKey, std::set<std::vector<std::string>>> paths_of_region;
  bool exact = false;  // no construct beyond the regions: map then takes a cell's path from them
};

PartitionWalk walk_partition(std::span<const CompiledRules* const> files) {
  const analyse::Partition partition(files, {});
  PartitionWalk out;
  out.exact = partition.undecided().empty();
  std::string why;
  const analyse::Walk walk = partition.for_each_point(
      [&](const analyse::Partition::Point& point) {
        const analyse::Answer a = analyse::answer(*files[0], analyse::inputs_at(partition, point));
        out.regions.emplace(a.rules, a.error.has_value());
        out.paths_of_region[partition.region_of(point)].insert(a.rules);
        return true;
      },
      why);
  REQUIRE_MESSAGE(walk == analyse::Walk::done, why);
  return out;
}

void same_regions(const fs::path& file, bool exact) {
  CAPTURE(file.string());
  const RuleSet rules = RuleSet::from_file(file.string());
  const CompiledRules& compiled = RuleSetAccess::compiled(rules);
  const std::set<DecisionRegion> generated = generated_regions(compiled);

  const CompiledRules* one[] = {&compiled};
  const PartitionWalk mapped = walk_partition(one);
  const CompiledRules* two[] = {&compiled, &compiled};
  const PartitionWalk diffed = walk_partition(two);

  CHECK(generated.size() > 3);
  CHECK(mapped.regions == generated);
  CHECK(diffed.regions == generated);
  // Where the regions are exact, map takes the rule path of a cell from its region: one path
  // per region of the partition. Where they are not (a call of another rule set), it traces
  // every cell instead.
  REQUIRE(mapped.exact == exact);
  if (exact)
    for (const auto& [region, paths] : mapped.paths_of_region) CHECK(paths.size() == 1);
  // A file against itself changes nothing.
  const analyse::RuleDiff d = analyse::diff_rules(compiled, compiled, {});
  CHECK(d.changes.empty());
  CHECK(d.complete);
}

}  // namespace

TEST_SUITE("regions") {
  TEST_CASE("test --generate, map and diff see the same regions of the default rules") {
    same_regions(fs::path(SNNPLAN_RULES_DIR) / "snn_distributed.yaml", true);
  }

  TEST_CASE("test --generate, map and diff see the same regions of the plan rules") {
    same_regions(fs::path(SNNPLAN_RULES_DIR) / "snn_plan.yaml", false);
  }
}
