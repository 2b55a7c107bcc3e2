// `snnplan map`: the decision map over two inputs, as JSON, SVG and HTML, and `map --diff`.
// The cells' answers and rule paths must be what `recommend` and `explain` give for the same
// inputs (the map reads paths from the regions of the analysis, so this checks that too).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::testing::read_text;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;
using json = nlohmann::json;

const std::string kRulesDir = SNNPLAN_RULES_DIR;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE(
    "map --format json gives every cell the answer and the rule path recommend and explain give") {
  const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
  for (const std::string prefer : {"speed", "memory", "capacity"}) {
    CAPTURE(prefer);
    const auto run =
        run_cli({"map", "--x", "world_size=0..20", "--y", "batch_size=0..40:2", "--input",
                 "model=cifar10dvs_vgg", "--input", "prefer=" + prefer, "--format", "json"});
    REQUIRE(run.code == 0);
    const json map = json::parse(run.out);
    CHECK(map["x"]["name"] == "world_size");
    CHECK(map["y"]["name"] == "batch_size");
    REQUIRE(map["x"]["values"].size() == 21);
    REQUIRE(map["y"]["values"].size() == 21);
    CHECK(map["y"]["values"][1] == 2);
    REQUIRE(map["cells"].size() == 21);
    for (std::size_t y = 0; y < 21; ++y) {
      REQUIRE(map["cells"][y].size() == 21);
      for (std::size_t x = 0; x < 21; ++x) {
        const snnplan::Inputs inputs = {{"model", "cifar10dvs_vgg"},
                                        {"prefer", prefer},
                                        {"world_size", map["x"]["values"][x].get<std::int64_t>()},
                                        {"batch_size", map["y"]["values"][y].get<std::int64_t>()}};
        const snnplan::Explanation e = rules.explain(inputs);
        const json& cell = map["cells"][y][x];
        if (e.result.ok()) {
          CHECK(cell["rules"] == json(snnplan::fired_rule_path(e.steps)));
          CHECK(cell["record"] == json::parse(snnplan::to_json(e.result.record())));
        } else {
          CHECK(cell == json{{"error", e.result.error().message}});
        }
      }
    }
  }
  // A fallback's path, at a known cell: capacity with a batch too small for the pipeline.
  const auto run = run_cli({"map", "--x", "world_size=8", "--y", "batch_size=4", "--input",
                            "model=resnet", "--input", "prefer=capacity", "--format", "json"});
  REQUIRE(run.code == 0);
  CHECK(json::parse(run.out)["cells"][0][0]["rules"] ==
        json::array({"recommend/by-preference-capacity", "capacity/pipeline-batch-too-small",
                     "memory/fsdp2-tp"}));
}

TEST_CASE(
    "map renders the default table for each preference as SVG with a legend, axis labels and "
    "outlines") {
  for (const std::string prefer : {"speed", "memory", "capacity"}) {
    CAPTURE(prefer);
    const auto run = run_cli({"map", "--x", "world_size=1..64", "--y", "batch_size=1..64",
                              "--input", "model=resnet", "--input", "prefer=" + prefer});
    REQUIRE(run.code == 0);
    CHECK(run.out.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(run.out.find("<g id=\"legend\">") != std::string::npos);
    CHECK(run.out.find(">world_size</text>") != std::string::npos);
    CHECK(run.out.find(">batch_size</text>") != std::string::npos);
    // Equal runs of a row are one rectangle: far fewer than 64 x 64.
    CHECK(count(run.out, "<rect ") < 64 * 64 / 4);
  }
  const auto capacity = run_cli({"map", "--x", "world_size=1..64", "--y", "batch_size=1..64",
                                 "--input", "model=resnet", "--input", "prefer=capacity"});
  // pp and the memory fallback's fsdp2_tp and tp are in the legend; regions are outlined.
  CHECK(capacity.out.find(">pp</text>") != std::string::npos);
  CHECK(capacity.out.find(">fsdp2_tp</text>") != std::string::npos);
  CHECK(capacity.out.find("<path id=\"outlines\"") != std::string::npos);
  // Colouring by rule names the rule paths.
  const auto by_rule =
      run_cli({"map", "--x", "world_size=1..16", "--y", "batch_size=1..16", "--input",
               "model=resnet", "--input", "prefer=capacity", "--color-by", "rule"});
  CHECK(by_rule.out.find("recommend/by-preference-capacity &gt; capacity/pipeline-interleaved") !=
        std::string::npos);
}

TEST_CASE("a planning map is coloured by its first field unless told, or by several fields together") {
  // The planning record has no `mode`: by default its tensor-parallel size colours the cells.
  const std::vector<std::string> base = {
      "map", "--rules", kRulesDir + "/snn_llm_planning.yaml", "--x", "world_size=1,2,4,8", "--y",
      "num_query_groups=1,8", "--input", "device_memory_bytes=85899345920", "--input", "sequence_length=4096",
      "--input", "micro_batch_size=1", "--input", "global_batch_size=64", "--input", "time_steps=4", "--input",
      "vocab_size=32000", "--input", "max_sequence_length=4096", "--input", "num_layers=32", "--input",
      "hidden_size=4096", "--input", "num_attention_heads=32", "--input", "ffn_hidden_size=11008", "--input",
      "bf16=true", "--input", "params_dtype=bfloat16"};
  const auto plain = run_cli(base);
  REQUIRE(plain.code == 0);
  CHECK(plain.out.find("coloured by tensor_model_parallel_size,") != std::string::npos);
  CHECK(plain.out.find(">null<") == std::string::npos);
  std::vector<std::string> combined = base;
  combined.insert(combined.end(), {"--color-by", "tensor_model_parallel_size,pipeline_model_parallel_size,tier"});
  const auto layouts = run_cli(combined);
  REQUIRE(layouts.code == 0);
  CHECK(layouts.out.find(">tensor_model_parallel_size=4, pipeline_model_parallel_size=1, tier=without-recompute<") !=
        std::string::npos);
  CHECK(layouts.out.find(">tensor_model_parallel_size=2, pipeline_model_parallel_size=1, tier=selective-recompute<") !=
        std::string::npos);
  combined.back() = "tensor_model_parallel_size,layout";
  const auto refused = run_cli(combined);
  CHECK(refused.code == 2);
  CHECK(refused.err.find("--color-by tensor_model_parallel_size,layout: not a record field") != std::string::npos);
}

TEST_CASE("a 512 x 512 map stays small: equal runs merged") {
  const auto run = run_cli({"map", "--x", "world_size=1..512", "--y", "batch_size=1..512",
                            "--input", "model=resnet", "--input", "prefer=capacity"});
  REQUIRE(run.code == 0);
  CHECK(count(run.out, "<rect ") < 20000);  // of 262,144 cells
  CHECK(run.out.size() < 4 * 1024 * 1024);
}

TEST_CASE("map --format html is one self-contained page with the SVG and each cell's details") {
  const auto run = run_cli({"map", "--x", "prefer=speed,memory,capacity", "--y", "fsdp2_available",
                            "--input", "model=resnet", "--input", "world_size=8", "--input",
                            "batch_size=64", "--format", "html"});
  REQUIRE(run.code == 0);
  CHECK(run.out.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(run.out.find("<svg ") != std::string::npos);
  CHECK(run.out.find("const MAP = ") != std::string::npos);
  CHECK(run.out.find("\"rules\":[\"recommend/by-preference-memory\",\"memory/fsdp2-tp\"]") !=
        std::string::npos);
  // No network: nothing is fetched (the SVG namespace is a name, not a request).
  CHECK(run.out.find("<script src") == std::string::npos);
  CHECK(run.out.find("<link") == std::string::npos);
  CHECK(count(run.out, "http") == count(run.out, "http://www.w3.org/2000/svg"));
}

TEST_CASE("map --diff draws the cells whose outcome changes between two rule files") {
  std::string text = read_text(kRulesDir + "/snn_distributed.yaml");
  const std::string from = "world_size: {ge: 2}, batch_size";
  text.replace(text.find(from), from.size(), "world_size: {ge: 4}, batch_size");
  const TempFile edited("edited.yaml", text);
  const auto run = run_cli({"map", "--diff", kRulesDir + "/snn_distributed.yaml", edited.path(),
                            "--x", "world_size=1..8", "--y", "batch_size=1..32", "--input",
                            "model=resnet", "--input", "prefer=capacity", "--format", "json"});
  REQUIRE(run.code == 0);
  const json map = json::parse(run.out);
  const snnplan::RuleSet before = snnplan::RuleSet::from_file(kRulesDir + "/snn_distributed.yaml");
  const snnplan::RuleSet after = snnplan::RuleSet::from_file(edited.path());
  std::size_t changed = 0;
  for (std::size_t y = 0; y < 32; ++y)
    for (std::size_t x = 0; x < 8; ++x) {
      const snnplan::Inputs inputs = {{"model", "resnet"},
                                      {"prefer", "capacity"},
                                      {"world_size", static_cast<std::int64_t>(x + 1)},
                                      {"batch_size", static_cast<std::int64_t>(y + 1)}};
      const auto a = before.evaluate(inputs), b = after.evaluate(inputs);
      const bool differs = a.ok() != b.ok() || (a.ok() ? a.record().values() != b.record().values()
                                                       : a.error().message != b.error().message);
      CHECK(map["cells"][y][x]["changed"] == differs);
      changed += differs;
    }
  CHECK(changed > 0);  // world_size 2 and 3 with a batch of at least twice that
  const auto svg =
      run_cli({"map", "--diff", kRulesDir + "/snn_distributed.yaml", edited.path(), "--x",
               "world_size=1..8", "--y", "batch_size=1..32", "--input", "model=resnet", "--input",
               "prefer=capacity", "--color-by", "pp_schedule"});
  CHECK(svg.out.find(">unchanged</text>") != std::string::npos);
  CHECK(svg.out.find(">interleaved -&gt; 1f1b</text>") != std::string::npos);
}

TEST_CASE("an axis named alone takes a bool's two values or the one_of list in the file's order") {
  const auto run = run_cli({"map", "--x", "world_size=1..3", "--y", "prefer", "--input",
                            "model=resnet", "--input", "batch_size=32", "--format", "json"});
  REQUIRE(run.code == 0);
  const json map = json::parse(run.out);
  CHECK(map["y"]["values"] == json::array({"speed", "memory", "capacity"}));
  CHECK(map["x"]["values"] == json::array({1, 2, 3}));
  REQUIRE(map["cells"].size() == 3);
}

TEST_CASE("map refuses bad axes, inputs and grids with one message each and writes no file") {
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Bad> cases = {
      {{"--x", "gpus=1..4", "--y", "batch_size=1..4"}, "error: --x gpus: not an input of "},
      {{"--x", "world_size=1..0", "--y", "batch_size=1..4"},
       "error: --x world_size: the range 1..0 has no values\n"},
      {{"--x", "world_size=1..4:0", "--y", "batch_size=1..4"},
       "error: --x world_size: the step must be at least 1, got 0\n"},
      {{"--x", "prefer=a..b", "--y", "batch_size=1..4"},
       "error: --x prefer: a range A..B needs an int input, this one is string; list its values as "
       "V1,V2,...\n"},
      {{"--x", "world_size=1..2048", "--y", "batch_size=1..1024"},
       "error: the map would have 2097152 cells, more than the limit of 1048576 (1024 x 1024)\n"},
      {{"--x", "world_size=1..9223372036854775807", "--y", "batch_size=1..2"},
       "error: the map would have 9223372036854775808 cells, more than the limit of 1048576 (1024 "
       "x 1024)\n"},
      {{"--x", "world_size=1..4", "--y", "world_size=1..4"},
       "error: --x and --y are both world_size: map two different inputs\n"},
      {{"--x", "world_size", "--y", "batch_size=1..4"},
       "error: --x world_size: give its values, as NAME=A..B[:STEP] or NAME=V1,V2,... (only a bool "
       "input or one with one_of may go without)\n"},
      {{"--x", "world_size=1,two", "--y", "batch_size=1..4"},
       "error: --x world_size: expected an integer, got 'two'\n"},
      {{"--x", "world_size=1..4", "--y", "batch_size=1..4", "--input", "world_size=3"},
       "error: input 'world_size' is given twice (first by --x)\n"},
      {{"--x", "world_size=1..4", "--y", "batch_size=1..4", "--color-by", "colour"},
       "error: --color-by colour: not a record field of "},
      {{"--x", "world_size=1..4", "--y", "prefer=speed"},
       "error: input 'model' has no default: give it with --input model=VALUE (or as an axis)\n"},
      {{"--x", "world_size=1..4", "--y", "batch_size=1..4", "--format", "yaml"}, "error: "},
  };
  for (const Bad& bad : cases) {
    std::vector<std::string> args = {"map"};
    args.insert(args.end(), bad.args.begin(), bad.args.end());
    if (bad.message.find("no default") == std::string::npos &&
        bad.message.find("twice") == std::string::npos) {
      args.insert(args.end(), {"--input", "model=resnet"});
      if (std::find(bad.args.begin(), bad.args.end(), "prefer=a..b") == bad.args.end())
        args.insert(args.end(), {"--input", "prefer=speed"});
    }
    CAPTURE(args);
    const auto run = run_cli(args);
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.rfind(bad.message, 0) == 0);
  }
  // An -o path that cannot be written: the message, exit 4, no file.
  const std::string missing_dir =
      std::filesystem::temp_directory_path().string() + "/snnplan-no-such-dir/map.svg";
  const auto unwritable =
      run_cli({"map", "--x", "world_size=1..4", "--y", "batch_size=1..4", "--input", "model=resnet",
               "--input", "prefer=speed", "-o", missing_dir});
  CHECK(unwritable.code == 4);
  CHECK(unwritable.err.find("cannot write output") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(missing_dir));
}

}  // namespace
