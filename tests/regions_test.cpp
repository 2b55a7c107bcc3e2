// The regions of the decision, as every command that walks them sees them: `test --generate`
// (analyse::decision_regions, over the space Gather::conditions_and_values builds), `diff`
// (the partition of two files, Gather::decision_conditions) and `map` (the partition of one
// file, which takes a grid cell's rule path from its cell of the partition). All of them build
// their space with analyse/input_space.hpp and take an input's region from its region_of(), as
// one type, analyse::Region; these cases fail when two of them come to disagree.
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

// The regions `test --generate` writes a test for; each witness lies in its region.
std::set<analyse::Region> generated_regions(const CompiledRules& rules) {
  std::vector<analyse::RegionWitness> regions;
  std::string why;
  REQUIRE_MESSAGE(analyse::decision_regions(rules, regions, why), why);
  std::set<analyse::Region> out;
  for (const analyse::RegionWitness& r : regions) {
    CHECK(analyse::answer(rules, r.witness).region() == r.region);
    CHECK(out.insert(r.region).second);  // each region once
  }
  return out;
}

// The regions the partition's points reach in the first file, and per cell of the partition
// the rule paths found in it (map assumes one where the cells are exact). A cell may hold two
// regions of one path: a value beyond the cells (pipeline_microbatches()) fails at some of its
// inputs and not at others.
struct PartitionWalk {
  std::set<analyse::Region> regions;
  std::map<analyse::Cell, std::set<std::vector<std::string>>> paths_of_cell;
  bool exact = false;  // no construct beyond the cells: map then takes a grid cell's path from them
};

PartitionWalk walk_partition(std::span<const CompiledRules* const> files) {
  const analyse::Partition partition(files, {});
  PartitionWalk out;
  out.exact = partition.undecided().empty();
  std::string why;
  const analyse::Walk walk = partition.for_each_point(
      [&](const analyse::Partition::Point& point) {
        const analyse::Region region =
            analyse::answer(*files[0], analyse::inputs_at(partition, point)).region();
        out.regions.insert(region);
        out.paths_of_cell[partition.cell_of(point)].insert(region.path);
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
  const std::set<analyse::Region> generated = generated_regions(compiled);

  const CompiledRules* one[] = {&compiled};
  const PartitionWalk mapped = walk_partition(one);
  const CompiledRules* two[] = {&compiled, &compiled};
  const PartitionWalk diffed = walk_partition(two);

  CHECK(generated.size() > 3);
  CHECK(mapped.regions == generated);
  CHECK(diffed.regions == generated);
  // Where the cells are exact, map takes the rule path of a grid cell from its cell of the
  // partition: one path per cell. Where they are not (a call of another rule set), it traces
  // every grid cell instead.
  REQUIRE(mapped.exact == exact);
  if (exact)
    for (const auto& [cell, paths] : mapped.paths_of_cell) CHECK(paths.size() == 1);
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
