// `snnplan diff`: the changed regions of two rule files. Every case is checked both ways the
// issue asks: soundness (each group's witness, evaluated again through the public API, gives
// the two answers the group reports) and completeness (a brute-force walk over a dense grid
// of inputs finds no input whose answer changes outside the groups: its region is among the
// regions of the group of its rule paths).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analyse/partition.hpp"
#include "analyse/rule_diff.hpp"
#include "api/rule_set_access.hpp"
#include "cli_runner.hpp"
#include "snnplan/snnplan.hpp"

namespace {

namespace fs = std::filesystem;
using snnplan::RuleSet;
using snnplan::RuleSetAccess;
using snnplan::analyse::Answer;
using snnplan::analyse::ChangeGroup;
using snnplan::analyse::RuleDiff;
using snnplan::detail::RValue;

const fs::path kRules = fs::path(SNNPLAN_RULES_DIR);
using snnplan::testing::read_text;

const std::string& default_text() {
  static const std::string text = read_text((kRules / "snn_distributed.yaml").string());
  return text;
}

// The default table with `from` replaced by `to` (which must occur exactly once).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = default_text();
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "not in the default table: " << from);
  REQUIRE_MESSAGE(text.find(from, at + 1) == std::string::npos, "more than once: " << from);
  return text.replace(at, from.size(), to);
}

RuleSet load(const std::string& text, const std::string& name) {
  try {
    return RuleSet::from_string(text, name);
  } catch (const snnplan::LoadError& e) {
    std::string all;
    for (const auto& d : e.diagnostics()) all += snnplan::format(d) + "\n";
    FAIL("does not load: " << all);
    throw;
  }
}

Answer public_answer(const RuleSet& rules, const snnplan::Inputs& inputs) {
  const snnplan::Explanation e = rules.explain(inputs);
  Answer a;
  a.rules = snnplan::fired_rule_path(e.steps);
  if (e.result.ok())
    a.record = e.result.record();
  else
    a.error = e.result.error().message;
  return a;
}

// The dense grid of the brute-force check: every combination of these values (an input's
// values; for an input missing here, its first value in the partition's model is used).
struct Grid {
  std::vector<std::pair<std::string, std::vector<snnplan::Value>>> axes;
  std::vector<std::string> omittable;  // also tried left out
};

// Sanitizer builds run 10-50 times slower: there the brute-force grid is coarser (fewer
// points checked, never a different verdict), so the suite stays within CI's time.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kCoarseGrid = true;
#else
constexpr bool kCoarseGrid = false;
#endif

// Sanitizer builds also diff only every third edit or pair of files: each diff takes seconds
// there, and a third of them runs every part of the diff's code instrumented.
constexpr std::size_t kCaseStride = kCoarseGrid ? 3 : 1;

Grid default_grid() {
  std::vector<snnplan::Value> ws, batch;
  for (int k = 0; k <= (kCoarseGrid ? 8 : 12); ++k) ws.emplace_back(k);
  for (int k : {16, 33}) ws.emplace_back(k);
  for (int k = 0; k <= (kCoarseGrid ? 18 : 30); ++k) batch.emplace_back(k);
  for (int k : {48, 64, 101}) batch.emplace_back(k);
  const std::vector<snnplan::Value> bools = {false, true};
  std::vector<snnplan::Value> models = {"cifar10dvs_vgg", "spikformer"};
  if (!kCoarseGrid) models.insert(models.end(), {"spikformer_b", "resnet"});
  return Grid{{{"model", models},
               {"world_size", ws},
               {"prefer", {"speed", "memory", "capacity"}},
               {"batch_size", batch},
               {"backend", {"inductor", "eager"}},
               {"zero_redundancy_optimizer_available", bools},
               {"pipelining_available", bools},
               {"fsdp2_available", bools},
               {"tensor_parallel_available", bools}},
              {}};
}

// Soundness and completeness of `d` (the diff of `before` -> `after`) over `grid`.
void check_sound_and_complete(const RuleSet& before, const RuleSet& after, const RuleDiff& d,
                              const Grid& grid) {
  // Sound: every witness gives, again, the answers reported, and they differ.
  for (const ChangeGroup& c : d.changes) {
    CAPTURE(c.region);
    const Answer was = public_answer(before, c.witness);
    const Answer now = public_answer(after, c.witness);
    CHECK(snnplan::analyse::answers_differ(was, now));
    CHECK(was.rules == c.old_rules);
    CHECK(now.rules == c.new_rules);
    CHECK_FALSE(c.fields.empty());
    CHECK_FALSE(c.cells.empty());
  }
  // Complete: a changed input of the grid lies in a region of the group of its rule paths.
  const snnplan::detail::CompiledRules* files[] = {&RuleSetAccess::compiled(before),
                                                   &RuleSetAccess::compiled(after)};
  const snnplan::analyse::Partition partition(files, {});
  const auto& model = partition.model();
  std::map<std::pair<std::vector<std::string>, std::vector<std::string>>,
           std::set<snnplan::analyse::Cell>>
      reported;
  for (const ChangeGroup& c : d.changes)
    reported[{c.old_rules, c.new_rules}].insert(c.cells.begin(), c.cells.end());
  snnplan::detail::ValueStore store;
  std::vector<RValue> values(model.inputs.size());
  std::unique_ptr<bool[]> omitted(new bool[model.inputs.size()]());
  snnplan::Inputs inputs;
  std::size_t changed = 0, missed = 0, points = 0;
  std::function<void(std::size_t)> walk = [&](std::size_t axis) {
    if (axis == grid.axes.size()) {
      // Sanitizer builds check every 7th point of the coarse grid: they are there to run the
      // diff's code instrumented, which the full grid of the normal build has checked.
      if (kCoarseGrid && ++points % 7 != 0) return;
      inputs =
          snnplan::analyse::inputs_at(partition, {values, {omitted.get(), model.inputs.size()}});
      const snnplan::EvaluationResult a = before.evaluate(inputs), b = after.evaluate(inputs);
      const bool same = a.ok() == b.ok() && (a.ok() ? a.record().values() == b.record().values() &&
                                                          a.record().names() == b.record().names()
                                                    : a.error().message == b.error().message);
      if (same) return;
      const Answer was = public_answer(before, inputs), now = public_answer(after, inputs);
      if (!snnplan::analyse::answers_differ(was, now)) return;
      ++changed;
      const auto cell = partition.cell_of({values, {omitted.get(), model.inputs.size()}});
      const auto it = reported.find({was.rules, now.rules});
      if (it == reported.end() || !it->second.count(cell)) {
        ++missed;
        if (missed <= 3) {
          std::string shown;
          for (const auto& [name, value] : inputs)
            shown += name + "=" + snnplan::to_display_string(value) + " ";
          MESSAGE("a changed input outside the reported groups: " << shown);
        }
      }
      return;
    }
    const auto& [name, axis_values] = grid.axes[axis];
    const auto slot = static_cast<std::size_t>(model.rules.input_slots.at(name));
    for (const snnplan::Value& v : axis_values) {
      values[slot] = snnplan::detail::from_public(v, store);
      omitted[slot] = false;
      walk(axis + 1);
    }
    if (std::find(grid.omittable.begin(), grid.omittable.end(), name) != grid.omittable.end()) {
      omitted[slot] = true;
      walk(axis + 1);
      omitted[slot] = false;
    }
  };
  walk(0);
  CHECK(missed == 0);
  // A diff that reports changes has inputs of the grid that show them (every point of the
  // grid: a sparse walk may step over a change confined to one point).
  if (!d.changes.empty() && !kCoarseGrid) CHECK(changed > 0);
}

RuleDiff diff_of(const RuleSet& before, const RuleSet& after,
                 const std::vector<snnplan::analyse::FixedInput>& fixed = {}) {
  return snnplan::analyse::diff_rules(RuleSetAccess::compiled(before),
                                      RuleSetAccess::compiled(after), fixed);
}

bool has_field(const ChangeGroup& c, const std::string& field) {
  return std::any_of(c.fields.begin(), c.fields.end(),
                     [&](const snnplan::analyse::FieldChange& f) { return f.field == field; });
}

struct Edit {
  const char* what;
  std::string from, to;
  // Checks of the groups found, beyond soundness and completeness.
  std::function<void(const RuleDiff&)> expect;
  std::vector<std::string> omittable = {};
};

std::vector<Edit> hand_made_edits() {
  return {
      {"a threshold moved: the interleaved pipeline needs 4 ranks",
       "when: {pipelining_available: true, world_size: {ge: 2}, batch_size: {ge: = world_size * "
       "2}}",
       "when: {pipelining_available: true, world_size: {ge: 4}, batch_size: {ge: = world_size * "
       "2}}",
       [](const RuleDiff& d) {
         // One group of field changes; where pipeline_microbatches() refuses one of the two
         // stage counts and not the other, groups of error vs. answer (the same rule paths).
         REQUIRE_FALSE(d.changes.empty());
         bool schedule = false;
         for (const ChangeGroup& c : d.changes) {
           CHECK(c.old_rules == std::vector<std::string>{"recommend/by-preference-capacity",
                                                         "capacity/pipeline-interleaved"});
           CHECK(c.new_rules == std::vector<std::string>{"recommend/by-preference-capacity",
                                                         "capacity/pipeline-1f1b"});
           CHECK(c.region.find(
                     "prefer == 'capacity' && pipelining_available == true && world_size >= 2 && "
                     "world_size < 4") != std::string::npos);
           schedule = schedule || has_field(c, "pp_schedule");
           const auto ws = std::find_if(c.witness.begin(), c.witness.end(),
                                        [](const auto& p) { return p.first == "world_size"; });
           REQUIRE(ws != c.witness.end());
           CHECK(ws->second.as_int() >= 2);
           CHECK(ws->second.as_int() <= 3);
         }
         CHECK(schedule);
         CHECK(d.changes[0].region ==
               "prefer == 'capacity' && pipelining_available == true && world_size >= 2 && "
               "world_size < 4 && "
               "batch_size >= world_size * 2");
       }},
      {"a rule added before the catch-all of speed",
       "    - name: data-parallel\n      set: {mode: dp, optimizer_sharding: = zero_sharding, "
       "dp_mesh_dim: 0}",
       "    - name: spikformer-tp\n      when: {model_family: spikformer, world_size: {ge: 8}}\n"
       "      set: {mode: tp}\n      because: Spikformer scales with TP.\n"
       "    - name: data-parallel\n      set: {mode: dp, optimizer_sharding: = zero_sharding, "
       "dp_mesh_dim: 0}",
       [](const RuleDiff& d) {
         REQUIRE(d.changes.size() == 1);
         const ChangeGroup& c = d.changes[0];
         CHECK(c.new_rules.back() == "speed/spikformer-tp");
         CHECK(c.old_rules.back() == "speed/data-parallel");
         CHECK(c.region.find("prefer == 'speed'") != std::string::npos);
         CHECK(c.region.find("starts_with(model, 'spikformer')") != std::string::npos);
         CHECK(c.region.find("world_size >= 8") != std::string::npos);
       }},
      {"a rule added after the catch-all changes nothing",
       "      because: Fall back to DP + memopt level 1 because TP/FSDP2 are unavailable.\n",
       "      because: Fall back to DP + memopt level 1 because TP/FSDP2 are unavailable.\n"
       "    - name: never\n      set: {mode: none}\n      because: never fires.\n",
       [](const RuleDiff& d) { CHECK(d.changes.empty()); }},
      {"a condition dropped: FSDP2+TP for every model on speed",
       "        model_family: cifar10dvs_vgg\n        fsdp2_available: true",
       "        fsdp2_available: true",
       [](const RuleDiff& d) {
         REQUIRE_FALSE(d.changes.empty());
         for (const ChangeGroup& c : d.changes) {
           CHECK(c.new_rules.back() == "speed/fsdp2-tp-for-cifar10dvs-vgg");
           CHECK(c.region.find("model == 'cifar10dvs_vgg'") == std::string::npos);
         }
       }},
      {"a rationale changed",
       "because: Fall back to FSDP2 with memopt level 1 when TP is unavailable.",
       "because: FSDP2 with memopt level 1 (no TP here).",
       [](const RuleDiff& d) {
         // memory/fsdp2 reached from memory and through capacity's two fallbacks.
         REQUIRE(d.changes.size() == 3);
         for (const ChangeGroup& c : d.changes) {
           CHECK(c.old_rules == c.new_rules);
           CHECK(c.old_rules.back() == "memory/fsdp2");
           REQUIRE(c.fields.size() == 1);
           CHECK(c.fields[0].field == "rationale");
           CHECK_FALSE(c.fields[0].old_value.has_value());  // varies: the header names the inputs
           CHECK(c.region.find("fsdp2_available == true && tensor_parallel_available == false") !=
                 std::string::npos);
         }
       }},
      {"a fallback retargeted: a batch too small for the pipeline goes to speed",
       "      fallback: &to-memory\n        table: memory\n        with: {prefer: memory, "
       "pipelining_available: false}",
       "      fallback:\n        table: speed\n        with: {prefer: speed, pipelining_available: "
       "false}\n"
       "        keep: [prefer, model, world_size]\n    - name: pipeline-unused\n      when: "
       "{world_size: -5}\n"
       "      fallback: &to-memory\n        table: memory\n        with: {prefer: memory, "
       "pipelining_available: false}",
       [](const RuleDiff& d) {
         REQUIRE_FALSE(d.changes.empty());
         for (const ChangeGroup& c : d.changes) {
           CHECK(c.old_rules[1] == "capacity/pipeline-batch-too-small");
           CHECK(c.new_rules.back().rfind("speed/", 0) == 0);
         }
       }},
      {"an input default changed: backend eager",
       "backend: {type: string, default: inductor}",
       "backend: {type: string, default: eager}",
       [](const RuleDiff& d) {
         REQUIRE_FALSE(d.changes.empty());
         for (const ChangeGroup& c : d.changes) {
           CHECK(c.region.find("backend omitted") != std::string::npos);
           CHECK(std::none_of(c.witness.begin(), c.witness.end(),
                              [](const auto& p) { return p.first == "backend"; }));
           CHECK(has_field(c, "rationale"));
         }
       },
       {"backend"}},
      {"a field value changed: the memory TP mesh doubles",
       "set: {mode: tp, memopt_level: 1, mesh_shape: \"= [world_size]\"}",
       "set: {mode: tp, memopt_level: 1, mesh_shape: \"= [world_size * 2]\"}",
       [](const RuleDiff& d) {
         REQUIRE_FALSE(d.changes.empty());
         for (const ChangeGroup& c : d.changes) {
           CHECK(c.new_rules.back() == "memory/tensor-parallel");
           // The doubled mesh, or an error where world_size * 2 leaves 64 bits.
           CHECK((has_field(c, "mesh_shape") || has_field(c, "error")));
         }
       }},
      {"an error introduced: single-rank capacity is refused",
       "    - name: single-rank\n      when: {world_size: {le: 1}}",
       "    - name: single-rank-capacity\n      when: {world_size: {le: 1}, prefer: capacity}\n"
       "      error: \"capacity needs more than one rank\"\n"
       "    - name: single-rank\n      when: {world_size: {le: 1}}",
       [](const RuleDiff& d) {
         REQUIRE(d.changes.size() == 1);
         const ChangeGroup& c = d.changes[0];
         CHECK_FALSE(c.new_answer.record.has_value());
         REQUIRE(c.new_answer.error.has_value());
         CHECK(*c.new_answer.error == "capacity needs more than one rank");
         CHECK(has_field(c, "error"));
         CHECK(c.region.find("prefer == 'capacity'") != std::string::npos);
         CHECK((c.region.find("world_size <= 1") != std::string::npos ||
                c.region.find("world_size < 2") != std::string::npos));
       }},
      {"a threshold relation changed: 1f1b needs twice the ranks",
       "when: {pipelining_available: true, batch_size: {ge: = world_size}}",
       "when: {pipelining_available: true, batch_size: {ge: = world_size * 2}}",
       [](const RuleDiff& d) {
         REQUIRE_FALSE(d.changes.empty());
         for (const ChangeGroup& c : d.changes) {
           CHECK(c.old_rules.back() == "capacity/pipeline-1f1b");
           CHECK(c.region.find("batch_size") != std::string::npos);
         }
       }},
      {"a string constant changed: the TP model family is renamed", "model_family: cifar10dvs_vgg",
       "model_family: cifar10dvs_vgg11",
       [](const RuleDiff& d) {
         REQUIRE_FALSE(d.changes.empty());
         bool old_name = false, new_name = false;
         for (const ChangeGroup& c : d.changes) {
           old_name = old_name || c.region.find("model == 'cifar10dvs_vgg'") != std::string::npos;
           new_name = new_name || c.region.find("model == 'cifar10dvs_vgg11'") != std::string::npos;
         }
         CHECK(old_name);
         CHECK(new_name);
       }},
      {"an unchanged copy changes nothing", "snnplan: 1", "snnplan: 1  # a copy",
       [](const RuleDiff& d) { CHECK(d.changes.empty()); }},
  };
}

TEST_CASE("diff reports exactly the changed regions of hand-made edits of the default table") {
  const RuleSet before = load(default_text(), "old.yaml");
  const std::vector<Edit> edits = hand_made_edits();
  for (std::size_t k = 0; k < edits.size(); k += kCaseStride) {
    const Edit& edit = edits[k];
    CAPTURE(edit.what);
    const RuleSet after = load(edited(edit.from, edit.to), "new.yaml");
    const RuleDiff d = diff_of(before, after);
    edit.expect(d);
    Grid grid = default_grid();
    grid.omittable = edit.omittable;
    check_sound_and_complete(before, after, d, grid);
    // The other way round, the same regions change.
    const RuleDiff back = diff_of(after, before);
    CHECK(back.changes.size() == d.changes.size());
    check_sound_and_complete(after, before, back, grid);
  }
}

TEST_CASE("diff of every pair of the policy-history rule files is sound and complete") {
  std::vector<fs::path> files = {kRules / "snn_distributed.yaml"};
  // The recommendation policies: not the plan at HEAD (plan_HEAD.yaml, other inputs) or rule
  // tests (*.test.yaml).
  for (const auto& entry : fs::directory_iterator(kRules / "history")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".yaml" && !name.starts_with("plan_") &&
        !name.ends_with(".test.yaml"))
      files.push_back(entry.path());
  }
  std::sort(files.begin() + 1, files.end());
  REQUIRE(files.size() >= 5);
  std::size_t pair = 0;
  for (std::size_t a = 0; a < files.size(); ++a)
    for (std::size_t b = a + 1; b < files.size(); ++b) {
      if (pair++ % kCaseStride != 0) continue;
      CAPTURE(files[a].filename().string());
      CAPTURE(files[b].filename().string());
      const RuleSet before = RuleSet::from_file(files[a].string());
      const RuleSet after = RuleSet::from_file(files[b].string());
      const RuleDiff d = diff_of(before, after);
      CHECK_FALSE(d.changes.empty());  // every version answers some input differently
      check_sound_and_complete(before, after, d, default_grid());
    }
}

TEST_CASE("diff of the pipeline-layout version against the current table names pp_layout") {
  const RuleSet before = RuleSet::from_file((kRules / "history" / "7e44624b.yaml").string());
  const RuleSet after = RuleSet::from_file((kRules / "snn_distributed.yaml").string());
  const RuleDiff d = diff_of(before, after);
  bool layout = false;
  for (const ChangeGroup& c : d.changes)
    for (const auto& f : c.fields)
      if (f.field == "pp_layout") {
        layout = true;
        CHECK_FALSE(f.old_value.has_value());  // varies with the number of stages
        REQUIRE(f.new_value.has_value());
        CHECK(f.new_value->is_null());
      }
  CHECK(layout);
}

TEST_CASE("diff with a fixed input compares only that slice") {
  const RuleSet before = load(default_text(), "old.yaml");
  const RuleSet after = load(
      edited("world_size: {ge: 2}, batch_size", "world_size: {ge: 4}, batch_size"), "new.yaml");
  CHECK(diff_of(before, after, {{"prefer", snnplan::Value("memory")}}).changes.empty());
  const RuleDiff capacity = diff_of(before, after, {{"prefer", snnplan::Value("Capacity")}});
  REQUIRE_FALSE(capacity.changes.empty());
  for (const ChangeGroup& c : capacity.changes)
    for (const auto& [name, value] : c.witness)
      if (name == "prefer") CHECK(value.as_string() == "capacity");  // lowered, as recommend does
  CHECK_THROWS_AS(diff_of(before, after, {{"gpus", snnplan::Value(4)}}), std::invalid_argument);
  CHECK_THROWS_AS(diff_of(before, after, {{"prefer", snnplan::Value("fast")}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(diff_of(before, after, {{"world_size", snnplan::Value("many")}}),
                  std::invalid_argument);
}

using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

TEST_CASE(
    "snnplan diff exits 0 without changes, 1 with changes, 2 for a bad command line, 3 for a bad "
    "file") {
  const TempFile old_file("old.yaml", default_text());
  const TempFile new_file(
      "new.yaml", edited("world_size: {ge: 2}, batch_size", "world_size: {ge: 4}, batch_size"));
  const auto same = run_cli({"diff", old_file.path(), old_file.path()});
  CHECK(same.code == 0);
  CHECK(same.out.rfind("no changes: both rule files give every input the same answer\n", 0) == 0);

  const auto text = run_cli({"diff", old_file.path(), new_file.path()});
  CHECK(text.code == 1);
  CHECK(text.out.rfind("change 1 of ", 0) == 0);
  CHECK(text.out.find(
            "  old rules: recommend/by-preference-capacity, capacity/pipeline-interleaved\n") !=
        std::string::npos);
  CHECK(text.out.find("  new rules: recommend/by-preference-capacity, capacity/pipeline-1f1b\n") !=
        std::string::npos);
  CHECK(text.out.find("    pp_schedule: \"interleaved\" -> \"1f1b\"\n") != std::string::npos);
  CHECK(text.out.find("not decided: ") != std::string::npos);  // pipeline_microbatches is opaque

  const auto json = run_cli({"diff", old_file.path(), new_file.path(), "--format", "json"});
  CHECK(json.code == 1);
  const auto doc = nlohmann::json::parse(json.out);
  REQUIRE_FALSE(doc["changes"].empty());
  const auto& change = doc["changes"][0];
  CHECK(change["old"]["rules"].back() == "capacity/pipeline-interleaved");
  CHECK(change["old"]["error"].is_null());
  CHECK(change["new"]["record"]["pp_schedule"] == "1f1b");
  CHECK(change["witness"]["prefer"] == "capacity");
  CHECK(change["region"].get<std::string>().find("prefer == 'capacity'") != std::string::npos);
  CHECK(doc["undecided"].is_array());

  const auto sliced =
      run_cli({"diff", old_file.path(), new_file.path(), "--input", "prefer=speed"});
  CHECK(sliced.code == 0);

  const auto unknown = run_cli({"diff", old_file.path(), new_file.path(), "--input", "gpus=4"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err == "error: --input gpus: not an input of the rule files\n");
  const auto bad_value =
      run_cli({"diff", old_file.path(), new_file.path(), "--input", "world_size=lots"});
  CHECK(bad_value.code == 2);
  const auto bad_format = run_cli({"diff", old_file.path(), new_file.path(), "--format", "yaml"});
  CHECK(bad_format.code == 2);
  const auto one_file = run_cli({"diff", old_file.path()});
  CHECK(one_file.code == 2);

  const TempFile broken("broken.yaml", "snnplan: 1\ninputs: [\n");
  const auto load_failure = run_cli({"diff", old_file.path(), broken.path()});
  CHECK(load_failure.code == 3);
  CHECK(load_failure.out.empty());

  const TempFile other_inputs(
      "other.yaml", edited("  batch_size: {type: int}\n",
                           "  batch_size: {type: int}\n  nodes: {type: int, default: 1}\n"));
  const auto mismatch = run_cli({"diff", old_file.path(), other_inputs.path()});
  CHECK(mismatch.code == 3);
  CHECK(mismatch.err.find("the two rule files declare different inputs: only " +
                          other_inputs.path() + " has 'nodes'") != std::string::npos);
}

// Three inputs with 70 thresholds each: 71^3 combinations, more than the search walks. One
// condition reads a derived value, so the rules are not boxes (analyse/boxes.hpp, which
// would decide them) and the grid is what compares them.
std::string table_beyond_the_search() {
  std::string y =
      "snnplan: 1\ninputs:\n  a: {type: int}\n  b: {type: int}\n  c: {type: int}\n"
      "let:\n  a1: \"a + 1\"\n"
      "record:\n  mode: {type: string, default: none}\nstart: t\ntables:\n  t:\n";
  for (int k = 0; k < 70; ++k)
    y += fmt::format("    - {{name: r{0}, when: {{a1: {{ge: {3}}}, b: {{ge: {1}}}, c: {{ge: {2}}}}}, "
                     "set: {{mode: m{0}}}}}\n",
                     k, 70 - k, (k * 37) % 70, k + 1);
  return y + "    - {name: rest, set: {mode: none}}\n";
}

TEST_CASE("a diff that stops before it reaches every input does not claim that nothing changes") {
  const TempFile rules("beyond.yaml", table_beyond_the_search());
  const auto text = run_cli({"diff", rules.path(), rules.path()});
  CHECK(text.code == 1);  // no change found is no promise: a gate on the exit code must not pass
  CHECK(text.out.rfind("no changes found, but the comparison stopped before it reached every "
                       "input (below): changes are not ruled out\n",
                       0) == 0);
  CHECK(text.out.find("not decided: its conditions depend on more than 200000 combinations of "
                      "input values\n") != std::string::npos);
  const auto json = run_cli({"diff", rules.path(), rules.path(), "--format", "json"});
  CHECK(json.code == 1);
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["changes"].empty());
  CHECK(doc["complete"] == false);

  const TempFile small("small.yaml", default_text());
  const auto complete = run_cli({"diff", small.path(), small.path(), "--format", "json"});
  CHECK(complete.code == 0);
  CHECK(nlohmann::json::parse(complete.out)["complete"] == true);
}

}  // namespace
