// The box analysis (analyse/boxes.hpp) on small DMN-style tables: it finds a planted overlap,
// gap and changed region, and it agrees with the grid (the analysis before it) on generated
// tables where both decide: the same shadowed rules, overlaps and gaps for `check`, the same
// groups of changes for `diff`, each witness giving the answers it is reported with.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyse/boxes.hpp"
#include "analyse/partition.hpp"
#include "analyse/rule_diff.hpp"
#include "analyse/table_analysis.hpp"
#include "api/rule_set_access.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::RuleSet;
using snnplan::RuleSetAccess;
using snnplan::analyse::RuleDiff;

RuleSet load(const std::string& text) {
  try {
    return RuleSet::from_string(text, "boxes.yaml");
  } catch (const snnplan::LoadError& e) {
    std::string all;
    for (const auto& d : e.diagnostics()) all += snnplan::format(d) + "\n";
    FAIL("does not load: " << all);
    throw;
  }
}

std::vector<snnplan::Diagnostic> check(const RuleSet& rules, bool boxes) {
  return snnplan::analyse::analyse_tables(RuleSetAccess::compiled(rules),
                                          {.overlaps = true, .boxes = boxes})
      .diagnostics;
}

RuleDiff diff(const RuleSet& before, const RuleSet& after, bool boxes) {
  return snnplan::analyse::diff_rules(
      RuleSetAccess::compiled(before), RuleSetAccess::compiled(after), {},
      boxes ? snnplan::analyse::BoxMethod::regions : snnplan::analyse::BoxMethod::none);
}

const std::string kHead =
    "snnplan: 1\n"
    "inputs:\n"
    "  a: {type: int}\n"
    "  b: {type: int}\n"
    "  kind: {type: string, one_of: [x, y, z]}\n"
    "record:\n"
    "  mode: {type: string, default: none}\n"
    "start: decide\n"
    "tables:\n"
    "  decide:\n";

// r1 overlaps r0 on a, b in [5, 10); no catch-all, so inputs below 0 match nothing.
std::string planted(const std::string& r1_mode) {
  return kHead +
         "    - {name: r0, when: {a: {ge: 0, lt: 10}, b: {ge: 0, lt: 10}}, set: {mode: m0}}\n"
         "    - {name: r1, when: {a: {ge: 5, lt: 15}, b: {ge: 5, lt: 15}}, set: {mode: " +
         r1_mode +
         "}}\n"
         "    - {name: r2, when: {kind: x, a: {ge: 20}}, set: {mode: m2}}\n";
}

// The message of the one diagnostic of `code` at rule or table `where` ("" if none).
std::string message(const std::vector<snnplan::Diagnostic>& found, const std::string& code,
                    const std::string& where) {
  std::string out;
  for (const snnplan::Diagnostic& d : found)
    if (d.code == code && d.message.find("'" + where + "'") != std::string::npos) {
      CHECK(out.empty());
      out = d.message;
    }
  return out;
}

TEST_CASE("the box analysis finds a planted overlap and a planted gap, exactly") {
  const RuleSet rules = load(planted("m1"));
  const auto found = check(rules, true);
  CHECK(message(found, "overlapping-rule", "r1") ==
        "rule 'r1' partly overlaps earlier rule 'r0': for a=5, b=5, kind='x' it matches, but "
        "'r0' fires first");
  CHECK(message(found, "table-gap", "decide") ==
        "table 'decide' has a gap: no rule matches a=-1, b=0, kind='x'");
  CHECK(message(found, "shadowed-rule", "r1").empty());
  CHECK(std::none_of(found.begin(), found.end(),
                     [](const auto& d) { return d.code == "analysis-incomplete"; }));
  // The gap's witness matches no rule.
  CHECK_FALSE(rules.evaluate({{"a", -1}, {"b", 0}, {"kind", "x"}}).ok());
}

TEST_CASE("the box analysis finds a planted changed region and only it") {
  const RuleSet before = load(planted("m1")), after = load(planted("m9"));
  const RuleDiff d = diff(before, after, true);
  CHECK(d.complete);
  CHECK(d.undecided.empty());
  REQUIRE(d.changes.size() == 1);
  const auto& change = d.changes[0];
  CHECK(change.old_rules == std::vector<std::string>{"decide/r1"});
  CHECK(change.new_rules == std::vector<std::string>{"decide/r1"});
  REQUIRE(change.fields.size() == 1);
  CHECK(change.fields[0].field == "mode");
  // Where r1 fires: its box less r0's.
  CHECK(change.region == "a >= 5 && a <= 9 && b >= 10 && b <= 14 || a >= 10 && a <= 14 && b >= 5 && b <= 14");
  const snnplan::EvaluationResult was = before.evaluate(change.witness);
  const snnplan::EvaluationResult now = after.evaluate(change.witness);
  REQUIRE(was.ok());
  REQUIRE(now.ok());
  CHECK(*was.record().find("mode") == snnplan::Value("m1"));
  CHECK(*now.record().find("mode") == snnplan::Value("m9"));
}

// A DMN-style table: int columns a and b of [0, 12) with interval cells (20 % "any"), a
// column kind with one_of (sometimes), five outputs, no catch-all.
std::string generated(std::mt19937& rng, int rules, std::vector<std::string>& rows) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  if (rows.empty())
    for (int k = 0; k < rules; ++k) {
      std::vector<std::string> cells;
      for (const char* column : {"a", "b"}) {
        if (uniform(0, 4) == 0) continue;
        int lo = uniform(0, 11), hi = uniform(0, 12);
        if (lo >= hi) std::swap(lo, hi), ++hi;
        cells.push_back(fmt::format("{}: {{ge: {}, lt: {}}}", column, lo, hi));
      }
      if (uniform(0, 2) == 0) cells.push_back(uniform(0, 1) ? "kind: y" : "kind: [x, z]");
      if (cells.empty()) cells.push_back("a: {ge: 3}");
      std::string when;
      for (const std::string& c : cells) when += (when.empty() ? "" : ", ") + c;
      rows.push_back(fmt::format("    - {{name: r{}, when: {{{}}}, set: {{mode: m{}}}}}\n", k, when,
                                 uniform(0, 4)));
    }
  std::string text = kHead;
  for (const std::string& row : rows) text += row;
  return text;
}

// `rows` with one row's output or one bound changed.
std::vector<std::string> perturbed(std::mt19937& rng, std::vector<std::string> rows) {
  std::string& row = rows[std::uniform_int_distribution<std::size_t>(0, rows.size() - 1)(rng)];
  const std::size_t at = row.find("lt: ");
  if (at != std::string::npos && rng() % 2) {
    row.insert(at + 4, "1");  // lt: 7 -> lt: 17
  } else {
    const std::size_t mode = row.rfind("m");
    row[mode + 1] = row[mode + 1] == '4' ? '0' : static_cast<char>(row[mode + 1] + 1);
  }
  return rows;
}

// What `check` found, without the witnesses (the nicest input may differ between equally
// nice inputs): code, position and, for shadowed rules, the message.
std::multiset<std::string> findings(const std::vector<snnplan::Diagnostic>& found) {
  std::multiset<std::string> out;
  for (const snnplan::Diagnostic& d : found) {
    std::string what = d.code + " " + snnplan::to_string(d.location);
    if (d.code == "shadowed-rule") what += " " + d.message;
    if (d.code == "overlapping-rule") what += " " + d.message.substr(0, d.message.find(": for "));
    out.insert(what);
  }
  return out;
}

TEST_CASE("the box analysis agrees with the grid on small generated tables") {
  std::mt19937 rng(34);
  for (int table = 0; table < 12; ++table) {
    CAPTURE(table);
    std::vector<std::string> rows;
    const std::string text = generated(rng, 4 + table % 4, rows);
    CAPTURE(text);
    const RuleSet before = load(text);
    const auto by_grid = check(before, false);
    REQUIRE(std::none_of(by_grid.begin(), by_grid.end(),
                         [](const auto& d) { return d.code == "analysis-incomplete"; }));
    CHECK(findings(check(before, true)) == findings(by_grid));

    std::vector<std::string> changed_rows = perturbed(rng, rows);
    const RuleSet after = load(generated(rng, 0, changed_rows));
    const RuleDiff grid = diff(before, after, false), boxes = diff(before, after, true);
    REQUIRE(grid.complete);
    CHECK(boxes.complete);
    using Key = std::tuple<std::vector<std::string>, std::vector<std::string>>;
    std::set<Key> grid_groups, box_groups;
    for (const auto& c : grid.changes) grid_groups.emplace(c.old_rules, c.new_rules);
    for (const auto& c : boxes.changes) {
      box_groups.emplace(c.old_rules, c.new_rules);
      const auto was = snnplan::analyse::answer(RuleSetAccess::compiled(before), c.witness);
      const auto now = snnplan::analyse::answer(RuleSetAccess::compiled(after), c.witness);
      CHECK(snnplan::analyse::answers_differ(was, now));
      CHECK(was.rules == c.old_rules);
      CHECK(now.rules == c.new_rules);
    }
    CHECK(box_groups == grid_groups);
  }
}

// A decision table as bench/dmn_scale.py makes them (Calvanese et al.'s benchmark): int
// columns x1.. of [0, 100), interval cells (10 % "any"), five outputs, no catch-all; and the
// same rows with every tenth one perturbed (a bound moved or the output changed).
std::pair<std::string, std::string> decision_tables(std::mt19937& rng, int columns, int rules) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::string head = "snnplan: 1\ninputs:\n";
  for (int c = 1; c <= columns; ++c) head += fmt::format("  x{}: {{type: int}}\n", c);
  head += "record:\n  mode: {type: string, default: none}\nstart: decide\ntables:\n  decide:\n";
  std::string before = head, after = head;
  for (int k = 0; k < rules; ++k) {
    std::vector<std::pair<int, int>> cells;  // [lo, hi); lo < 0: any
    for (int c = 0; c < columns; ++c) {
      int lo = uniform(0, 100), hi = uniform(0, 100);
      if (lo == hi) ++hi;
      cells.emplace_back(std::min(lo, hi), std::max(lo, hi));
      if (uniform(0, 9) == 0 && c > 0) cells.back().first = -1;
    }
    int mode = uniform(0, 4);
    auto row = [&] {
      std::string when;
      for (int c = 0; c < columns; ++c)
        if (cells[static_cast<std::size_t>(c)].first >= 0)
          when += fmt::format("{}x{}: {{ge: {}, lt: {}}}", when.empty() ? "" : ", ", c + 1,
                              cells[static_cast<std::size_t>(c)].first,
                              cells[static_cast<std::size_t>(c)].second);
      return fmt::format("    - {{name: r{}, when: {{{}}}, set: {{mode: m{}}}}}\n", k, when, mode);
    };
    before += row();
    if (k % 10 == 3) {
      if (uniform(0, 2) == 0) {
        mode = (mode + 1) % 5;
      } else {
        auto& [lo, hi] = cells[0];
        hi = std::clamp(hi + (uniform(0, 1) ? 1 : -1) * uniform(1, 10), lo + 1, 100);
      }
    }
    after += row();
  }
  return {before, after};
}

using Paths = std::pair<std::vector<std::string>, std::vector<std::string>>;

// The inputs of `box` with every int input within [-1, 101] (every bound of these tables lies
// inside that range, so the sizes of two regions are equal if and only if the regions are).
double clipped_size(const snnplan::analyse::Box& box) {
  double points = 1;
  for (const snnplan::analyse::Span& s : box)
    points *= static_cast<double>(
        std::max<std::int64_t>(std::min<std::int64_t>(s.hi, 101) - std::max<std::int64_t>(s.lo, -1) + 1, 0));
  return points;
}

// The size of each group's region as the cells give it (disjoint boxes, BoxSpace::key's
// "lo..hi/mask" per input).
std::map<Paths, double> cell_sizes(const RuleDiff& d) {
  std::map<Paths, double> out;
  for (const auto& c : d.changes)
    for (const auto& cell : c.cells) {
      snnplan::analyse::Box box;
      for (const std::string& span : cell) {
        const std::size_t dots = span.find("..");
        box.push_back({std::stoll(span.substr(0, dots)), std::stoll(span.substr(dots + 2)), 0});
      }
      out[{c.old_rules, c.new_rules}] += clipped_size(box);
    }
  return out;
}

// The size of a region as for_each_region gives it: its pieces, or its box less the others,
// taken apart here.
double region_size(const snnplan::analyse::BoxRegion& region) {
  using snnplan::analyse::BoxSpace;
  std::vector<snnplan::analyse::Box> pieces = region.pieces;
  if (!region.less.empty()) {
    pieces.assign(1, region.within);
    for (const auto& cut : region.less) {
      std::vector<snnplan::analyse::Box> next;
      for (const auto& piece : pieces)
        if (BoxSpace::disjoint(cut, piece))
          next.push_back(piece);
        else if (!BoxSpace::covers(cut, piece))
          BoxSpace::subtract(piece, cut, next);
      pieces = std::move(next);
    }
  }
  double out = 0;
  for (const auto& piece : pieces) out += clipped_size(piece);
  return out;
}

TEST_CASE("the changed regions of a 7-column decision table come from its boxes, as the cells give them") {
  std::mt19937 rng(7);
  const auto [before_text, after_text] = decision_tables(rng, 7, 60);
  const RuleSet before = load(before_text), after = load(after_text);
  const snnplan::detail::CompiledRules* files[] = {&RuleSetAccess::compiled(before),
                                                   &RuleSetAccess::compiled(after)};
  // The regions are computed from the boxes, not found by refining cells; some are large
  // enough to be described as a box less others.
  const snnplan::analyse::Partition partition(files, {});
  const auto boxes = snnplan::analyse::BoxDiff::make(partition.model(), files);
  REQUIRE(boxes);
  std::map<Paths, double> region_sizes;
  std::size_t less = 0;
  CHECK(boxes->for_each_region([&](snnplan::analyse::BoxRegion&& region, std::size_t was,
                                   std::size_t now) {
    region_sizes[{boxes->path_names(0, was), boxes->path_names(1, now)}] += region_size(region);
    less += !region.less.empty();
  }) == true);
  CHECK(less > 0);

  const RuleDiff by_regions = diff(before, after, true);
  const RuleDiff by_cells = snnplan::analyse::diff_rules(*files[0], *files[1], {},
                                                         snnplan::analyse::BoxMethod::cells);
  REQUIRE(by_cells.complete);
  CHECK(by_regions.complete);
  CHECK(by_regions.undecided.empty());
  // The same groups, each over as many inputs.
  const std::map<Paths, double> cells = cell_sizes(by_cells);
  CHECK(region_sizes == cells);
  std::set<Paths> groups;
  for (const auto& c : by_regions.changes) {
    groups.emplace(c.old_rules, c.new_rules);
    const auto was = snnplan::analyse::answer(*files[0], c.witness);
    const auto now = snnplan::analyse::answer(*files[1], c.witness);
    CHECK(snnplan::analyse::answers_differ(was, now));
    CHECK(was.rules == c.old_rules);
    CHECK(now.rules == c.new_rules);
  }
  CHECK(groups.size() == by_regions.changes.size());
  std::set<Paths> cell_groups;
  for (const auto& [paths, size] : cells) cell_groups.insert(paths);
  CHECK(groups == cell_groups);
}

}  // namespace

TEST_CASE("a rule's effect that only prints like another's is a change the box diff reports") {
  // Two fields set to x and y, against one field set to a text that printed as both (the
  // effects' keys were printed values): what the rules do differs, however it prints.
  auto file = [](const std::string& set) {
    return load("snnplan: 1\n"
                "inputs:\n"
                "  a: {type: int}\n"
                "record:\n"
                "  p: {type: string, default: ''}\n"
                "  q: {type: string, default: ''}\n"
                "start: decide\n"
                "tables:\n"
                "  decide:\n"
                "    - {name: low, when: {a: {lt: 10}}, set: " + set + "}\n");
  };
  const RuleSet two_fields = file("{p: x, q: y}");
  const RuleSet one_text = file("{p: \"x',q='y\"}");
  for (const auto method : {snnplan::analyse::BoxMethod::regions, snnplan::analyse::BoxMethod::cells}) {
    const RuleDiff d = snnplan::analyse::diff_rules(RuleSetAccess::compiled(two_fields),
                                                    RuleSetAccess::compiled(one_text), {}, method);
    CHECK(d.complete);
    CHECK(d.changes.size() == 1);
  }
}
