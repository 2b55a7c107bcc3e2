// The plan stage (issue 4): Topology, FeatureSet, snnplan::plan() over rules/snn_plan.yaml,
// and `snnplan plan` with flags and --batch.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "cli_runner.hpp"
#include "render/render.hpp"
#include "request/plan_request.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::FeatureSet;
using snnplan::InputError;
using snnplan::Plan;
using snnplan::PlanOptions;
using snnplan::RuleError;
using snnplan::Topology;
using snnplan::Value;
using json = nlohmann::ordered_json;

using snnplan::testing::CliRun;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

// The message InputError carries for `make()`, or "" when nothing is thrown.
template <typename F>
std::string input_error(F make) {
  try {
    make();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

template <typename F>
std::string rule_error(F make) {
  try {
    make();
  } catch (const RuleError& e) {
    return e.what();
  }
  return "";
}

// The message of whatever plan() throws: a refusal of the rules or of the inputs.
template <typename F>
std::string refusal(F make) {
  try {
    make();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::string topology_error(const std::string& text) {
  return input_error([&] { (void)Topology::parse(text); });
}

std::string mapping_error(const snnplan::TopologyMapping& dims, const Value& world_size = Value()) {
  return input_error([&] { (void)Topology::from_mapping(dims, world_size); });
}

struct GoldenPlan {
  std::size_t line_number = 0;
  json input;
  json expected;
};

std::vector<GoldenPlan> golden_plans() {
  std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/plan/plan.jsonl");
  REQUIRE(in.good());
  std::vector<GoldenPlan> cases;
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    const json row = json::parse(line);
    cases.push_back({line_number, row.at("input"), row.at("expected")});
  }
  return cases;
}

std::vector<std::string> keys_of(const json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

const std::vector<std::string> kPlanFields = {"mode",
                                              "objective",
                                              "topology",
                                              "model_family",
                                              "backend",
                                              "batch_size",
                                              "optimizer_strategy",
                                              "memopt_level",
                                              "rationale",
                                              "notes",
                                              "tensor_parallel_roots",
                                              "mesh_shape",
                                              "tp_mesh_dim",
                                              "dp_mesh_dim",
                                              "pp_microbatches",
                                              "pp_schedule",
                                              "pp_virtual_stages",
                                              "pp_layout",
                                              "pp_delay_wgrad",
                                              "experimental_features"};

const std::vector<std::string> kMemory8 = {"plan",       "--objective",    "memory",
                                           "--topology", "dp=4,tp=2",      "--batch-size",
                                           "64",         "--model-family", "cifar10dvs_vgg"};

PlanOptions with_mode(std::string mode) {
  PlanOptions options;
  options.mode = std::move(mode);
  return options;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

const char* const kPipelineRefusal =
    "Pipeline parallelism ('pp') is not supported by the unified analyze/plan/apply API. Please "
    "use the dedicated "
    "pipeline configuration path directly.";
const char* const kZeroNote =
    "Zero optimizer was disabled by DistributedFeatureSet; planner fell back to "
    "optimizer_strategy='none'.";

}  // namespace

TEST_SUITE("plan") {
  // ---- Topology ------------------------------------------------------------------------------

  TEST_CASE("a topology string keeps its order and its world size is the product of the sizes") {
    const Topology t = Topology::parse("tp=2,dp=4");
    CHECK(t.world_size() == 8);
    REQUIRE(t.dims().size() == 2);
    CHECK(t.dims()[0] == Topology::Dimension{"tp", 2});
    CHECK(t.dims()[1] == Topology::Dimension{"dp", 4});
    CHECK(t.to_string() == "tp=2,dp=4");
    CHECK(Topology::parse(t.to_string()) == t);
    CHECK(t.size_of("dp") == 4);
    CHECK_FALSE(t.size_of("pp").has_value());
  }

  TEST_CASE(
      "the mesh lists dp, tp, pp and vpp first, then the other dimensions in the order given") {
    const Topology t = Topology::parse(" ep = 2 , vpp=3, x=1, pp=5, tp=7, dp=11 ");
    CHECK(t.ordered_dim_names() == std::vector<std::string>{"dp", "tp", "pp", "vpp", "ep", "x"});
    CHECK(t.mesh_shape() == std::vector<std::int64_t>{11, 7, 5, 3, 2, 1});
    CHECK(Topology::parse("z=2,a=3").ordered_dim_names() == std::vector<std::string>{"z", "a"});
    CHECK(Topology::parse("pp=2,dp=3").mesh_shape() == std::vector<std::int64_t>{3, 2});
  }

  TEST_CASE("a world size that matches the sizes is accepted and one that does not is refused") {
    CHECK(Topology::parse("dp=4,tp=2", 8).world_size() == 8);
    CHECK(topology_error("dp=4,tp=2") == "");
    CHECK(input_error([] { (void)Topology::parse("dp=4,tp=2", 16); }) ==
          "Topology dims {'dp': 4, 'tp': 2} multiply to 8, but world_size=16.");
  }

  TEST_CASE("the topology checks run in upstream's __post_init__ order with its texts") {
    using D = Topology::Dimension;
    auto make = [](std::vector<D> dims, std::optional<std::int64_t> world = std::nullopt) {
      return input_error([&] { (void)Topology(std::move(dims), world); });
    };
    CHECK(make({{"dp", 4}}, 0) == "world_size must be positive, but got 0.");
    CHECK(make({{"dp", 4}}, -4) == "world_size must be positive, but got -4.");
    // Without a world size it is the product, checked before each dimension's sign.
    CHECK(make({{"dp", 0}}) == "world_size must be positive, but got 0.");
    CHECK(make({{"dp", 2}, {"tp", -1}}) == "world_size must be positive, but got -2.");
    CHECK(make({{"dp", -2}, {"tp", -1}}) ==
          "Topology dimension 'dp' must be positive, but got -2.");
    CHECK(make({}) == "dims must not be empty.");
    CHECK(make({{"dp", 4}, {"", 2}}) == "Topology dimension names must be non-empty.");
    CHECK(make({{"dp", 4}, {"tp", 0}}, 4) ==
          "Topology dimension 'tp' must be positive, but got 0.");
    CHECK(make({{"dp", 4}, {"tp", 2}}, 6) ==
          "Topology dims {'dp': 4, 'tp': 2} multiply to 8, but world_size=6.");
    CHECK(make({{"dp", 4}, {"dp", 2}}) == "topology dimension 'dp' is given more than once");
    CHECK(make({{"dp", std::int64_t{1} << 32}, {"tp", std::int64_t{1} << 30}}) == "");
  }

  TEST_CASE("products beyond 64 bits are exact in messages and a plannable one is a 64-bit error") {
    const Value two_62 = std::int64_t{1} << 62;
    CHECK(mapping_error({{"dp", two_62}, {"tp", 8}}, 4) ==
          "Topology dims {'dp': 4611686018427387904, 'tp': 8} multiply to 36893488147419103232, "
          "but world_size=4.");
    CHECK(mapping_error({{"dp", two_62}, {"tp", two_62}, {"x", two_62}, {"y", 0}}) ==
          "world_size must be positive, but got 0.");
    CHECK(mapping_error({{"dp", two_62}, {"tp", -2}}) ==
          "world_size must be positive, but got -9223372036854775808.");
    CHECK(mapping_error({{"dp", two_62}, {"tp", two_62}}, 2) ==
          "Topology dims {'dp': 4611686018427387904, 'tp': 4611686018427387904} multiply to "
          "21267647932558653966460912964485513216, but world_size=2.");
    CHECK(mapping_error({{"dp", 1e20}}, 1) ==
          "Topology dims {'dp': 100000000000000000000} multiply to 100000000000000000000, but "
          "world_size=1.");
    // A topology beyond 64 bits is held, as upstream holds it (a world size beyond 64 bits
    // arrives as a float from JSON and Python: exact for these values) ...
    const Topology huge = Topology::from_mapping({{"dp", two_62}, {"tp", 2}}, 9223372036854775808.0);
    CHECK_FALSE(huge.fits_64_bits());
    CHECK(Topology::parse("dp=4,tp=2").fits_64_bits());
    // ... its sizes read as the largest int64 of the same parity ...
    CHECK(huge.world_size() == std::numeric_limits<std::int64_t>::max() - 1);
    CHECK(huge.mesh_shape() == std::vector<std::int64_t>{std::int64_t{1} << 62, 2});
    CHECK(Topology::from_mapping({{"dp", 3.0 * 9223372036854775808.0}}).world_size() ==
          std::numeric_limits<std::int64_t>::max() - 1);
    // ... and a plan for it is refused with the exact world size.
    const std::string too_large =
        "Topology dims {'dp': 4611686018427387904, 'tp': 2} give world_size=9223372036854775808, "
        "beyond the 64-bit world sizes snnplan plans for.";
    CHECK(input_error([&] { huge.require_64_bits(); }) == too_large);
    CHECK(input_error([&] { (void)snnplan::plan("memory", huge, 64, PlanOptions{}); }) == too_large);
  }

  TEST_CASE("a topology beyond 64 bits gets upstream's later refusals before the 64-bit error") {
    const Value two_62 = std::int64_t{1} << 62;
    const snnplan::TopologyMapping dp_pp = {{"dp", two_62}, {"pp", 2}};
    PlanOptions options;
    // Upstream checks the objective first, then builds the topology ...
    CHECK(refusal([&] { (void)snnplan::plan("fast", dp_pp, 64, options); }) ==
          "Unsupported objective='fast'. Expected one of ('speed', 'memory', 'capacity').");
    // ... then recommends and checks the mode against the topology and the candidates.
    options.mode = "";
    CHECK(refusal([&] { (void)snnplan::plan("memory", dp_pp, 64, options); }) ==
          "Unsupported mode=''. Expected one of ('none', 'dp', 'tp', 'fsdp2', 'fsdp2_tp', 'pp').");
    options.mode = "fsdp2_tp";
    CHECK(refusal([&] { (void)snnplan::plan("memory", dp_pp, 64, options); }) ==
          "Hybrid 'fsdp2_tp' mode requires both 'dp' and 'tp' dimensions in the topology.");
    options.mode = "tp";
    options.tensor_parallel_candidates = false;
    CHECK(refusal([&] { (void)snnplan::plan("memory", dp_pp, 64, options); }) ==
          "mode='tp' requires at least one tensor-parallel candidate, but analysis found none.");
    // Without a mode, memory recommends fsdp2_tp, which this topology cannot hold (as the
    // stand-in world size, 2^63 - 2, is even as 2^63 is) ...
    options.mode = std::nullopt;
    options.tensor_parallel_candidates = true;
    CHECK(refusal([&] { (void)snnplan::plan("memory", dp_pp, 64, options); }) ==
          "Hybrid 'fsdp2_tp' mode requires both 'dp' and 'tp' dimensions in the topology.");
    // ... and only where upstream would return a plan is the answer the 64-bit error.
    options.mode = "dp";
    CHECK(refusal([&] { (void)snnplan::plan("memory", dp_pp, 64, options); }) ==
          "Topology dims {'dp': 4611686018427387904, 'pp': 2} give world_size=9223372036854775808, "
          "beyond the 64-bit world sizes snnplan plans for.");
  }

  TEST_CASE(
      "from_mapping reads sizes as upstream: whole floats are ints, other types are TypeErrors") {
    CHECK(Topology::from_mapping({{"dp", 4.0}, {"tp", 2}}) == Topology::parse("dp=4,tp=2"));
    CHECK(Topology::from_mapping({{"dp", 4}}, 4.0).world_size() == 4);
    CHECK(mapping_error({{"dp", 4.5}}) ==
          "Topology dimension 'dp' must be an integer, but got float.");
    CHECK(mapping_error({{"dp", true}}) ==
          "Topology dimension 'dp' must be an integer, but got bool.");
    CHECK(mapping_error({{"dp", "4"}}) ==
          "Topology dimension 'dp' must be an integer, but got str.");
    CHECK(mapping_error({{"dp", Value()}}) ==
          "Topology dimension 'dp' must be an integer, but got NoneType.");
    CHECK(mapping_error({{"dp", Value(Value::List{Value(4)})}}) ==
          "Topology dimension 'dp' must be an integer, but got list.");
    CHECK(mapping_error({{"dp", 0.0}}) == "world_size must be positive, but got 0.");
    CHECK(mapping_error({{"dp", 4}}, true) == "world_size must be an integer, but got bool.");
    CHECK(mapping_error({{"dp", 4}}, 4.5) == "world_size must be an integer, but got float.");
    CHECK(mapping_error({{"dp", 4}}, "4") == "world_size must be an integer, but got str.");
    // Every size's type is read before the world size's, and both before the values.
    CHECK(mapping_error({{"dp", 0}, {"tp", 4.5}}, true) ==
          "Topology dimension 'tp' must be an integer, but got float.");
    CHECK(mapping_error({{"dp", 4}}, 0) == "world_size must be positive, but got 0.");
    CHECK(mapping_error({}) == "dims must not be empty.");
    CHECK(mapping_error({}, 0) == "world_size must be positive, but got 0.");
    CHECK(mapping_error({{"dp", 4}, {"", 4.0}}) == "Topology dimension names must be non-empty.");
    CHECK(mapping_error({{"dp", 4}}, 8) ==
          "Topology dims {'dp': 4} multiply to 4, but world_size=8.");
    CHECK(mapping_error({{"it's", 2}}, 4) ==
          "Topology dims {\"it's\": 2} multiply to 2, but world_size=4.");
  }

  TEST_CASE("the topology's TypeErrors and ValueErrors are told apart for the Python module") {
    auto python_class = [](const snnplan::TopologyMapping& dims, const Value& world) {
      try {
        (void)Topology::from_mapping(dims, world);
      } catch (const snnplan::PlanInputError& e) {
        return e.python();
      }
      FAIL("no PlanInputError");
      return snnplan::PlanInputError::Python::value_error;
    };
    CHECK(python_class({{"dp", true}}, Value()) == snnplan::PlanInputError::Python::type_error);
    CHECK(python_class({{"dp", 0}}, Value()) == snnplan::PlanInputError::Python::value_error);
  }

  TEST_CASE(
      "from_fields checks SNNDistributedTopology's own fields: no floats, each dimension in turn") {
    auto fields_error = [](const snnplan::TopologyMapping& dims, const Value& world) {
      return input_error([&] { (void)Topology::from_fields(dims, world); });
    };
    CHECK(Topology::from_fields({{"tp", 2}, {"dp", 4}}, 8).ordered_dim_names() ==
          std::vector<std::string>{"dp", "tp"});
    CHECK(fields_error({{"dp", 4}}, 4.0) == "world_size must be an integer, but got float.");
    CHECK(fields_error({{"dp", 4.0}}, 4) ==
          "Topology dimension 'dp' must be an integer, but got float.");
    CHECK(fields_error({{"dp", 0}, {"tp", 4.0}}, 4) ==
          "Topology dimension 'dp' must be positive, but got 0.");
    CHECK(fields_error({{"dp", 4}, {"", 4.0}}, 4) == "Topology dimension names must be non-empty.");
    CHECK(fields_error({}, 1) == "dims must not be empty.");
  }

  TEST_CASE("a bad topology string gets a parse error that says what is wrong") {
    const std::string tail = " (expected NAME=SIZE,NAME=SIZE,..., e.g. dp=4,tp=2)";
    CHECK(topology_error("dp=") ==
          "cannot parse topology 'dp=': dimension 'dp' has no size" + tail);
    CHECK(topology_error("dp=4,,tp=2") ==
          "cannot parse topology 'dp=4,,tp=2': entry 2 is empty" + tail);
    CHECK(topology_error("dp=4,") == "cannot parse topology 'dp=4,': entry 2 is empty" + tail);
    CHECK(topology_error("dp=x") ==
          "cannot parse topology 'dp=x': the size of dimension 'dp' is not an integer: 'x'" + tail);
    CHECK(topology_error("dp=4.5") ==
          "cannot parse topology 'dp=4.5': the size of dimension 'dp' is not an integer: '4.5'" +
              tail);
    CHECK(topology_error("dp=4,dp=2") ==
          "cannot parse topology 'dp=4,dp=2': dimension 'dp' is given more than once" + tail);
    CHECK(topology_error("dp") == "cannot parse topology 'dp': entry 'dp' has no '='" + tail);
    CHECK(topology_error("=4") ==
          "cannot parse topology '=4': entry '=4' has no dimension name" + tail);
    CHECK(topology_error("dp=99999999999999999999") ==
          "cannot parse topology 'dp=99999999999999999999': the size of dimension 'dp' does not "
          "fit in a 64-bit integer: "
          "'99999999999999999999'" +
              tail);
    CHECK(topology_error("") == "dims must not be empty.");
    CHECK(topology_error("dp=0") == "world_size must be positive, but got 0.");
    CHECK(topology_error("dp=-1,tp=-1") == "Topology dimension 'dp' must be positive, but got -1.");
  }

  // ---- FeatureSet ----------------------------------------------------------------------------

  TEST_CASE("the feature set's flags and defaults are the plan rules' allow_* inputs") {
    FeatureSet features = FeatureSet::declared_by(snnplan::plan_rules());
    CHECK(features.flags() ==
          std::vector<FeatureSet::Flag>{{"allow_experimental_conv_tp", false},
                                        {"allow_experimental_spikformer_tp", false},
                                        {"allow_pipeline", true},
                                        {"allow_zero_optimizer", true}});
    features.set("allow_zero_optimizer", false);
    CHECK(features.get("allow_zero_optimizer") == false);
    CHECK_FALSE(features.get("bogus").has_value());
    CHECK(input_error([&] { features.set("bogus", true); }) ==
          "DistributedFeatureSet.__init__() got an unexpected keyword argument 'bogus'");
    CHECK(
        FeatureSet::of(snnplan::plan_rules(), {{"allow_pipeline", false}}).get("allow_pipeline") ==
        false);
  }

  TEST_CASE(
      "a plan rule file that drops a flag drops it from the feature set, and passing it is a "
      "TypeError") {
    std::string text(*snnplan::RuleSet::builtin_text("snn_plan.yaml"));
    for (const std::string line : {"  allow_pipeline: {type: bool, default: true}\n",
                                   "  allow_pipeline: {type: bool, init: = allow_pipeline}\n"}) {
      const auto at = text.find(line);
      REQUIRE(at != std::string::npos);
      text.erase(at, line.size());
    }
    TempFile dir_file("snn_plan_without_pipeline.yaml", text);
    const snnplan::RuleSet rules = snnplan::RuleSet::from_file(dir_file.path());
    CHECK(FeatureSet::declared_by(rules).flags().size() == 3);
    PlanOptions options;
    const Plan p = snnplan::plan("speed", Topology::parse("dp=2"), 8, options, rules);
    CHECK_FALSE(p.experimental_features.get("allow_pipeline").has_value());
    options.features = {{"allow_pipeline", false}};
    CHECK(input_error(
              [&] { (void)snnplan::plan("speed", Topology::parse("dp=2"), 8, options, rules); }) ==
          "DistributedFeatureSet.__init__() got an unexpected keyword argument 'allow_pipeline'");
  }

  // ---- snnplan::plan() -----------------------------------------------------------------------

  TEST_CASE("the built-in plan rules are embedded and load without warnings") {
    REQUIRE(snnplan::RuleSet::builtin_text("snn_plan.yaml").has_value());
    CHECK(snnplan::plan_rules().file_name() == "rules/snn_plan.yaml");
    for (const snnplan::Diagnostic& d : snnplan::plan_rules().warnings()) {
      CAPTURE(snnplan::format(d));
      CHECK(d.severity ==
            snnplan::Severity::note);  // the table analysis may add notes, never warnings
    }
  }

  TEST_CASE("every golden plan matches through snnplan::plan") {
    const auto cases = golden_plans();
    CHECK(cases.size() == 28);
    std::size_t plans = 0;
    std::size_t errors = 0;
    for (const GoldenPlan& c : cases) {
      CAPTURE(c.line_number);
      auto request = snnplan::request::plan_request_from_json_line(c.input.dump());
      REQUIRE(std::holds_alternative<snnplan::request::PlanRequest>(request));
      const auto& r = std::get<snnplan::request::PlanRequest>(request);
      if (c.expected.contains("error")) {
        CHECK(rule_error([&] {
                (void)snnplan::plan(r.objective, r.topology, r.batch_size, r.options);
              }) == c.expected.at("error").get<std::string>());
        ++errors;
        continue;
      }
      const Plan p = snnplan::plan(r.objective, r.topology, r.batch_size, r.options);
      const json got = snnplan::render::to_json(p);
      CHECK(got.dump() == c.expected.dump());
      ++plans;
    }
    CHECK(plans == 20);
    CHECK(errors == 8);
  }

  TEST_CASE("a plan has the 20 fields of SNNDistributedPlan in the reference order") {
    const Plan p = snnplan::plan("memory", Topology::parse("dp=4,tp=2"), 64);
    const json j = snnplan::render::to_json(p);
    CHECK(keys_of(j) == kPlanFields);
    CHECK(keys_of(j.at("topology")) ==
          std::vector<std::string>{"world_size", "dims", "mesh_shape"});
    CHECK(keys_of(j.at("experimental_features")) ==
          std::vector<std::string>{"allow_experimental_conv_tp", "allow_experimental_spikformer_tp",
                                   "allow_pipeline", "allow_zero_optimizer"});
  }

  TEST_CASE("step 1: the recommendation gets the topology's world size and no pipelining") {
    const Plan p = snnplan::plan("capacity", Topology::parse("dp=2,tp=2"), 64, [] {
      PlanOptions o;
      o.backend = "eager";
      return o;
    }());
    CHECK(p.mode == "fsdp2_tp");
    CHECK(p.backend == "eager");
    CHECK(p.model_family == "generic");
    CHECK(p.rationale ==
          std::vector<std::string>{
              "prefer='capacity' with model='generic', world_size=4, backend='eager'.",
              "Pipeline APIs are unavailable, so capacity preference falls back to the strongest "
              "memory-oriented strategy.",
              "Combine FSDP2 and TP to shard both parameters and activations, and enable memopt "
              "level 1 for the "
              "strongest memory reduction."});
    CHECK_FALSE(p.pp_microbatches.has_value());
    CHECK(p.pp_schedule == "1f1b");
    CHECK(p.pp_virtual_stages == 1);
    CHECK_FALSE(p.pp_layout.has_value());
    CHECK_FALSE(p.pp_delay_wgrad);
  }

  TEST_CASE("step 2: each mode is reachable by recommendation or by override") {
    const Topology t = Topology::parse("dp=4,tp=2");
    CHECK(snnplan::plan("memory", t, 64).mode == "fsdp2_tp");
    CHECK(snnplan::plan("speed", t, 64).mode == "dp");
    CHECK(snnplan::plan("memory", Topology::parse("tp=2"), 64).mode == "tp");
    CHECK(snnplan::plan("speed", Topology::parse("dp=1"), 64).mode == "none");
    for (const char* mode : {"none", "dp", "tp", "fsdp2", "fsdp2_tp"}) {
      CAPTURE(mode);
      CHECK(snnplan::plan("speed", t, 64, with_mode(mode)).mode == mode);
    }
    CHECK(snnplan::plan("speed", t, 64, with_mode("FSDP2_TP")).mode == "fsdp2_tp");
  }

  TEST_CASE(
      "step 2: a pp override is refused for the pipeline path and others list the valid modes") {
    const Topology t = Topology::parse("pp=4");
    CHECK(rule_error([&] { (void)snnplan::plan("capacity", t, 64, with_mode("pp")); }) ==
          kPipelineRefusal);
    CHECK(rule_error([&] { (void)snnplan::plan("capacity", t, 64, with_mode("Pp")); }) ==
          kPipelineRefusal);
    CHECK(rule_error([&] { (void)snnplan::plan("speed", t, 64, with_mode("zero3")); }) ==
          "Unsupported mode='zero3'. Expected one of ('none', 'dp', 'tp', 'fsdp2', 'fsdp2_tp', "
          "'pp').");
    CHECK(rule_error([&] { (void)snnplan::plan("speed", t, 64, with_mode("")); }) ==
          "Unsupported mode=''. Expected one of ('none', 'dp', 'tp', 'fsdp2', 'fsdp2_tp', 'pp').");
  }

  TEST_CASE("fsdp2_tp, recommended or requested, needs both a dp and a tp dimension") {
    const char* const refusal =
        "Hybrid 'fsdp2_tp' mode requires both 'dp' and 'tp' dimensions in the topology.";
    CHECK(rule_error([] { (void)snnplan::plan("memory", Topology::parse("dp=8"), 64); }) ==
          refusal);
    CHECK(rule_error([] {
            (void)snnplan::plan("speed", Topology::parse("tp=4"), 64, with_mode("fsdp2_tp"));
          }) == refusal);
    CHECK(snnplan::plan("speed", Topology::parse("tp=2,dp=2"), 64, with_mode("fsdp2_tp")).mode ==
          "fsdp2_tp");
  }

  TEST_CASE(
      "step 3: tensor parallelism without candidate layers is an error, other modes are not") {
    const Topology t = Topology::parse("dp=4,tp=2");
    PlanOptions none_found;
    none_found.tensor_parallel_candidates = false;
    CHECK(rule_error([&] { (void)snnplan::plan("memory", t, 64, none_found); }) ==
          "mode='fsdp2_tp' requires at least one tensor-parallel candidate, but analysis found "
          "none.");
    PlanOptions tp = none_found;
    tp.mode = "tp";
    CHECK(rule_error([&] { (void)snnplan::plan("speed", t, 64, tp); }) ==
          "mode='tp' requires at least one tensor-parallel candidate, but analysis found none.");
    CHECK(snnplan::plan("speed", t, 64, none_found).mode == "dp");
  }

  TEST_CASE(
      "step 4: dp takes the recommended sharding unless the feature set disallows ZeRO, which adds "
      "a note") {
    const Topology t = Topology::parse("dp=8");
    CHECK(snnplan::plan("speed", t, 64).optimizer_strategy == "zero");
    CHECK(snnplan::plan("speed", t, 64).notes.empty());
    PlanOptions options;
    options.notes = {"analysed 12 layers"};
    options.features = {{"allow_zero_optimizer", false}};
    const Plan p = snnplan::plan("speed", t, 64, options);
    CHECK(p.optimizer_strategy == "none");
    CHECK(p.notes == std::vector<std::string>{"analysed 12 layers", kZeroNote});
    CHECK(p.experimental_features.get("allow_zero_optimizer") == false);
    // No note when the mode is not dp.
    options.mode = "fsdp2";
    CHECK(snnplan::plan("speed", t, 64, options).notes ==
          std::vector<std::string>{"analysed 12 layers"});
    CHECK(snnplan::plan("memory", Topology::parse("dp=4,tp=2"), 64, with_mode("tp"))
              .optimizer_strategy == "none");
  }

  TEST_CASE("step 5: the mesh is always the topology's, as upstream") {
    const Topology odd = Topology::parse("ep=2,tp=2,dp=2");
    for (const char* mode : {"none", "dp", "tp", "fsdp2", "fsdp2_tp"}) {
      CAPTURE(mode);
      CHECK(snnplan::plan("memory", odd, 64, with_mode(mode)).mesh_shape ==
            std::vector<std::int64_t>{2, 2, 2});
    }
    CHECK(snnplan::plan("speed", odd, 64).mesh_shape == std::vector<std::int64_t>{2, 2, 2});
  }

  TEST_CASE("step 6: tp and dp mesh dims are positions in the ordered dimension names") {
    const Plan p = snnplan::plan("speed", Topology::parse("x=1,tp=2,dp=4"), 64);
    CHECK(p.tp_mesh_dim == 1);
    CHECK(p.dp_mesh_dim == 0);
    const Plan no_dp = snnplan::plan("memory", Topology::parse("ep=2,tp=2"), 64, with_mode("tp"));
    CHECK(no_dp.tp_mesh_dim == 0);
    CHECK_FALSE(no_dp.dp_mesh_dim.has_value());
    const Plan no_tp = snnplan::plan("speed", Topology::parse("pp=2,dp=4"), 64);
    CHECK(no_tp.tp_mesh_dim == 0);
    CHECK(no_tp.dp_mesh_dim == 0);
    CHECK(snnplan::plan("speed", Topology::parse("ep=2,pp=2"), 64).tp_mesh_dim == 0);
  }

  TEST_CASE(
      "step 7: memopt, rationale and pipeline fields come from the recommendation; the rest from "
      "the caller") {
    PlanOptions options;
    options.model_family = "cifar10dvs_vgg";
    options.tensor_parallel_roots = std::vector<std::string>{"a", "b"};
    options.features = {{"allow_experimental_spikformer_tp", true}};
    const Plan p = snnplan::plan("Memory", Topology::parse("dp=4,tp=2"), 32, options);
    CHECK(p.objective == "memory");
    CHECK(p.model_family == "cifar10dvs_vgg");
    CHECK(p.batch_size == 32);
    CHECK(p.memopt_level == 1);
    CHECK(p.topology == Topology::parse("dp=4,tp=2"));
    CHECK(p.tensor_parallel_roots == std::vector<std::string>{"a", "b"});
    CHECK(p.experimental_features.get("allow_experimental_spikformer_tp") == true);
    CHECK(p.rationale.size() == 2);
    CHECK(p.rationale[0] ==
          "prefer='memory' with model='cifar10dvs_vgg', world_size=8, backend='inductor'.");
    CHECK_FALSE(
        snnplan::plan("speed", Topology::parse("dp=2"), 8).tensor_parallel_roots.has_value());
  }

  TEST_CASE("an unknown objective reads exactly like the prefer error") {
    CHECK(rule_error([] { (void)snnplan::plan("fast", Topology::parse("dp=4"), 64); }) ==
          "Unsupported objective='fast'. Expected one of ('speed', 'memory', 'capacity').");
  }

  TEST_CASE(
      "the checks run in upstream's order: features, objective, topology mapping, then the rules") {
    const snnplan::TopologyMapping bad_topology = {{"dp", 0}};
    PlanOptions bogus;
    bogus.features = {{"bogus", true}};
    bogus.mode = "nope";
    // A mapping is checked after the objective ...
    CHECK(rule_error([&] { (void)snnplan::plan("fast", bad_topology, 64); }) ==
          "Unsupported objective='fast'. Expected one of ('speed', 'memory', 'capacity').");
    CHECK(input_error([&] { (void)snnplan::plan("speed", bad_topology, 64); }) ==
          "world_size must be positive, but got 0.");
    // ... the feature set (built by the caller) before both ...
    CHECK(input_error([&] { (void)snnplan::plan("fast", bad_topology, 64, bogus); }) ==
          "DistributedFeatureSet.__init__() got an unexpected keyword argument 'bogus'");
    // ... and the mode after them.
    bogus.features.clear();
    CHECK(input_error([&] { (void)snnplan::plan("speed", bad_topology, 64, bogus); }) ==
          "world_size must be positive, but got 0.");
    CHECK(rule_error([&] {
            (void)snnplan::plan("speed", snnplan::TopologyMapping{{"dp", 2}}, 64, bogus);
          }) ==
          "Unsupported mode='nope'. Expected one of ('none', 'dp', 'tp', 'fsdp2', 'fsdp2_tp', "
          "'pp').");
  }

  TEST_CASE("an empty or missing model family plans as generic") {
    PlanOptions empty;
    empty.model_family = "";
    CHECK(snnplan::plan("speed", Topology::parse("dp=2"), 8, empty).model_family == "generic");
    CHECK(snnplan::plan("speed", Topology::parse("dp=2"), 8).model_family == "generic");
  }

  TEST_CASE("plan policy changes with the rule file, without recompiling") {
    std::string text(*snnplan::RuleSet::builtin_text("snn_plan.yaml"));
    const std::string note = "Zero optimizer was disabled by DistributedFeatureSet";
    const auto at = text.find(note);
    REQUIRE(at != std::string::npos);
    text.replace(at, note.size(), "no ZeRO here");
    const snnplan::RuleSet custom = snnplan::RuleSet::from_string(text, "custom_plan.yaml");
    PlanOptions options;
    options.features = {{"allow_zero_optimizer", false}};
    CHECK(
        snnplan::plan("speed", Topology::parse("dp=8"), 64, options, custom).notes ==
        std::vector<std::string>{"no ZeRO here; planner fell back to optimizer_strategy='none'."});
  }

  TEST_CASE("rules that do not take plan inputs or make a plan record give an InputError") {
    CHECK(input_error([] {
            (void)snnplan::plan("speed", Topology::parse("dp=8"), 64, {},
                                snnplan::RuleSet::builtin());
          }).find("unknown input") != std::string::npos);
    const snnplan::RuleSet partial = snnplan::RuleSet::from_string(R"(snnplan: 1
inputs:
  objective: {type: string}
  world_size: {type: int}
  dims: {type: "list[string]"}
  topology_mesh_shape: {type: "list[int]"}
  backend: {type: string}
  batch_size: {type: int}
  model_family: {type: string, default: generic}
  mode: {type: "string?", default: null}
  allow_zero_optimizer: {type: bool, default: true}
  tp_candidates: {type: bool}
  notes: {type: "list[string]"}
record:
  mode: {type: string, init: = objective}
start: main
tables:
  main:
    - name: only
      set: {mode: = backend}
)");
    CHECK(input_error([&] {
            (void)snnplan::plan("speed", Topology::parse("dp=8"), 64, {}, partial);
          }) == "the plan record has no field 'objective'");
  }

  TEST_CASE("plan_inputs passes the ordered dimension names and the mesh shape") {
    const snnplan::Inputs inputs = snnplan::plan_inputs(
        "speed", Topology::parse("tp=2,dp=4"), 64, FeatureSet::declared_by(snnplan::plan_rules()));
    auto find = [&](const char* name) {
      for (const auto& [key, value] : inputs)
        if (key == name) return value;
      FAIL("no input ", name);
      return Value();
    };
    CHECK(find("world_size") == Value(8));
    CHECK(find("dims") == Value(Value::List{Value("dp"), Value("tp")}));
    CHECK(find("topology_mesh_shape") == Value(Value::List{Value(4), Value(2)}));
    CHECK(find("mode").is_null());
    CHECK(find("tp_candidates") == Value(true));
    CHECK(find("model_family").is_null());  // the rules' default: generic
    CHECK(find("allow_pipeline") == Value(true));
  }

  // ---- snnplan plan (flags) -------------------------------------------------------------------

  TEST_CASE("plan prints the plan as JSON with the topology nested and exits 0") {
    const CliRun run = run_cli(with(kMemory8, {"--tp-roots", "features,classifier"}));
    CHECK(run.code == 0);
    CHECK(run.err.empty());
    const json j = json::parse(run.out);
    CHECK(keys_of(j) == kPlanFields);
    CHECK(j.at("mode") == "fsdp2_tp");
    CHECK(j.at("topology").dump() ==
          R"({"world_size":8,"dims":{"dp":4,"tp":2},"mesh_shape":[4,2]})");
    CHECK(j.at("tensor_parallel_roots").dump() == R"(["features","classifier"])");
    CHECK(j.at("dp_mesh_dim") == 0);
    CHECK(j.at("pp_layout").is_null());
    CHECK(
        j.at("experimental_features").dump() ==
        R"({"allow_experimental_conv_tp":false,"allow_experimental_spikformer_tp":false,"allow_pipeline":true,"allow_zero_optimizer":true})");
    CHECK(run.out.back() == '\n');
  }

  TEST_CASE("plan renders yaml and text on request") {
    const CliRun yaml = run_cli(with(kMemory8, {"--format", "yaml"}));
    CHECK(yaml.code == 0);
    CHECK(yaml.out.find("mode: fsdp2_tp\n") != std::string::npos);
    CHECK(
        yaml.out.find(
            "topology:\n  world_size: 8\n  dims:\n    dp: 4\n    tp: 2\n  mesh_shape: [4, 2]\n") !=
        std::string::npos);
    CHECK(yaml.out.find("tensor_parallel_roots: ~\n") != std::string::npos);
    CHECK(yaml.out.find("notes: []\n") != std::string::npos);

    const CliRun text = run_cli(with(kMemory8, {"--format", "text"}));
    CHECK(text.code == 0);
    CHECK(text.out.find("mode                   fsdp2_tp\n") != std::string::npos);
    CHECK(text.out.find("topology               dp=4,tp=2 (world_size 8, mesh_shape [4, 2])\n") !=
          std::string::npos);
    CHECK(text.out.find("rationale:\n  - prefer='memory' with model='cifar10dvs_vgg', "
                        "world_size=8, backend='inductor'.\n") != std::string::npos);

    CHECK(run_cli(with(kMemory8, {"--format", "xml"})).code == 2);
  }

  TEST_CASE("plan flags reach every step: mode, candidates, features, notes, world size") {
    const CliRun dp =
        run_cli({"plan", "--objective", "speed", "--topology", "dp=8", "--batch-size", "64",
                 "--feature", "allow_zero_optimizer=false", "--feature", "allow_pipeline=FALSE",
                 "--note", "first", "--world-size", "8", "--backend", "eager", "--mode", "DP"});
    REQUIRE(dp.code == 0);
    const json j = json::parse(dp.out);
    CHECK(j.at("optimizer_strategy") == "none");
    CHECK(j.at("backend") == "eager");
    CHECK(j.at("notes").dump() == json::array({"first", kZeroNote}).dump());
    CHECK(j.at("experimental_features").at("allow_pipeline") == false);

    const CliRun fsdp2 = run_cli(with(kMemory8, {"--mode", "fsdp2", "--tp-candidates", "no"}));
    CHECK(fsdp2.code == 0);
    CHECK(json::parse(fsdp2.out).at("mode") == "fsdp2");
    const CliRun yes = run_cli(with(kMemory8, {"--tp-candidates", "YES"}));
    CHECK(yes.code == 0);
    CHECK(json::parse(run_cli(with(kMemory8, {"--tp-roots", ""})).out)
              .at("tensor_parallel_roots")
              .dump() == "[]");
  }

  TEST_CASE("plan exits 1 with the rule file's message when the rules refuse") {
    const CliRun pp = run_cli(with(kMemory8, {"--mode", "pp"}));
    CHECK(pp.code == 1);
    CHECK(pp.out.empty());
    CHECK(pp.err == std::string("error: ") + kPipelineRefusal + "\n");

    const CliRun bogus = run_cli(with(kMemory8, {"--mode", "bogus"}));
    CHECK(bogus.code == 1);
    CHECK(bogus.err ==
          "error: Unsupported mode='bogus'. Expected one of ('none', 'dp', 'tp', 'fsdp2', "
          "'fsdp2_tp', 'pp').\n");

    const CliRun no_tp = run_cli(with(kMemory8, {"--tp-candidates", "no"}));
    CHECK(no_tp.code == 1);
    CHECK(no_tp.err ==
          "error: mode='fsdp2_tp' requires at least one tensor-parallel candidate, but analysis "
          "found none.\n");

    const CliRun fast =
        run_cli({"plan", "--objective", "fast", "--topology", "dp=4", "--batch-size", "64"});
    CHECK(fast.code == 1);
    CHECK(
        fast.err ==
        "error: Unsupported objective='fast'. Expected one of ('speed', 'memory', 'capacity').\n");
  }

  TEST_CASE("plan exits 2 for bad flags with a message naming the flag or dimension") {
    auto err_of = [](const std::vector<std::string>& args) {
      const CliRun run = run_cli(args);
      CHECK(run.code == 2);
      CHECK(run.out.empty());
      return run.err;
    };
    CHECK(err_of({"plan", "--topology", "dp=4", "--batch-size", "64"}) ==
          "error: --objective is required (or give --batch FILE with one JSON object per line)\n");
    CHECK(err_of({"plan", "--objective", "speed", "--batch-size", "64"}) ==
          "error: --topology is required (or give --batch FILE with one JSON object per line)\n");
    CHECK(err_of({"plan", "--objective", "speed", "--topology", "dp=4"}) ==
          "error: --batch-size is required (or give --batch FILE with one JSON object per line)\n");
    CHECK(err_of(
              {"plan", "--objective", "speed", "--topology", "dp=4,,tp=2", "--batch-size", "64"}) ==
          "error: cannot parse topology 'dp=4,,tp=2': entry 2 is empty (expected "
          "NAME=SIZE,NAME=SIZE,..., e.g. dp=4,tp=2)\n");
    CHECK(err_of({"plan", "--objective", "speed", "--topology", "dp=0", "--batch-size", "64"}) ==
          "error: world_size must be positive, but got 0.\n");
    CHECK(err_of({"plan", "--objective", "speed", "--topology", "dp=4", "--world-size", "8",
                  "--batch-size", "64"}) ==
          "error: Topology dims {'dp': 4} multiply to 4, but world_size=8.\n");
    CHECK(err_of({"plan", "--objective", "speed", "--topology", "dp=4", "--batch-size", "6x"}) ==
          "error: --batch-size: expected an integer, got '6x'\n");
    CHECK(err_of(with(kMemory8, {"--tp-candidates", "maybe"})) ==
          "error: --tp-candidates: expected yes or no, got 'maybe'\n");
    CHECK(err_of(with(kMemory8, {"--feature", "allow_zero_optimzer=false"})) ==
          "error: DistributedFeatureSet.__init__() got an unexpected keyword argument "
          "'allow_zero_optimzer'\n");
    CHECK(err_of(with(kMemory8, {"--feature", "allow_zero_optimizer"})) ==
          "error: --feature: expected NAME=true|false, got 'allow_zero_optimizer'\n");
    CHECK(err_of(with(kMemory8, {"--feature", "allow_zero_optimizer=off"})) ==
          "error: --feature allow_zero_optimizer: expected true or false, got 'off'\n");
    CHECK(err_of(with(kMemory8, {"--tp-roots", "a,,b"})) ==
          "error: --tp-roots: empty name in 'a,,b' (expected NAME,NAME,...)\n");
  }

  TEST_CASE("plan exits 3 when the plan rule file is unusable, and uses a good one") {
    const TempFile broken("broken_plan.yaml", "snnplan: 1\ninputs: {x: {type: int}}\n");
    const CliRun bad = run_cli(with(kMemory8, {"--rules", broken.path()}));
    CHECK(bad.code == 3);
    CHECK_FALSE(bad.err.empty());
    CHECK(bad.out.empty());

    std::string text(*snnplan::RuleSet::builtin_text("snn_plan.yaml"));
    text.replace(text.find("    - name: data-parallel-sharding"), 0,
                 "    - name: operators-prefer-zero-off\n      when: {chosen_mode: dp}\n      set: "
                 "{optimizer_strategy: none}\n");
    const TempFile custom("custom_plan.yaml", text);
    const CliRun good = run_cli({"plan", "--objective", "speed", "--topology", "dp=8",
                                 "--batch-size", "64", "--rules", custom.path()});
    CHECK(good.code == 0);
    CHECK(json::parse(good.out).at("optimizer_strategy") == "none");
  }

  // Golden cases from upstream's own plan() at the seed's commit (tools/gen_plan_golden.py; see
  // tests/data/plan/README.md): every error class and branch of plan_parity.py's requests.
  TEST_CASE(
      "every upstream golden request gets upstream plan()'s answer, its errors word for word") {
    std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/plan/upstream_a0209834.jsonl");
    REQUIRE(in.good());
    std::size_t cases = 0, errors = 0, beyond_64_bits = 0, mismatches = 0;
    std::string line;
    while (std::getline(in, line)) {
      ++cases;
      const json row = json::parse(line);
      const json& expected = row.at("expected");
      const auto planned =
          snnplan::request::plan_json_line(row.at("input").dump(), snnplan::plan_rules());
      const bool ok = planned.kind == snnplan::request::PlannedLine::Kind::ok;
      const std::string got = ok ? planned.text : json{{"error", planned.text}}.dump();
      if (expected.contains("error")) ++errors;
      // Upstream's integers are unbounded: where its plan holds a world size of 2^63 or more,
      // the accepted answer is a 64-bit error.
      const json& world =
          expected.contains("topology") ? expected.at("topology").at("world_size") : json();
      if (!ok &&
          (world.is_number_float() ||
           (world.is_number_unsigned() && world.get<std::uint64_t>() > INT64_MAX)) &&
          planned.text.find("64-bit") != std::string::npos) {
        ++beyond_64_bits;
        continue;
      }
      if (got == expected.dump()) continue;
      if (++mismatches <= 5) {
        CAPTURE(cases);
        CAPTURE(row.at("input").dump());
        CHECK(got == expected.dump());
      }
    }
    CHECK(mismatches == 0);
    CHECK(cases >= 3000);
    CHECK(errors >= 1000);  // most random requests have a fault somewhere; each class is present
    CHECK(beyond_64_bits < 150);
  }

  // ---- snnplan plan --batch -------------------------------------------------------------------

  TEST_CASE("every golden plan matches through plan --batch") {
    const auto cases = golden_plans();
    std::string input;
    for (const GoldenPlan& c : cases) input += c.input.dump() + "\n";
    const CliRun run = run_cli({"plan", "--batch", "-"}, input);
    CHECK(run.code == 1);  // the golden file holds rule errors but no bad lines
    CHECK(run.err.empty());
    const auto lines = lines_of(run.out);
    REQUIRE(lines.size() == cases.size());
    for (std::size_t k = 0; k < cases.size(); ++k) {
      CAPTURE(cases[k].line_number);
      CHECK(lines[k] == cases[k].expected.dump());
    }
  }

  TEST_CASE("plan --batch marks a bad line with its number, reports it on stderr and goes on") {
    const std::string input =
        R"({"objective": "speed", "topology": {"dp": 4}, "batch_size": 64})"
        "\n"
        R"({"objective": "speed", "topology": {"dp": 4.5}, "batch_size": 64})"
        "\n"
        R"({"objective": "speed", "topology": {"dp": 8}, "batch_size": 64, "mode": "pp"})"
        "\n"
        "{not json\n"
        R"({"objective": "speed", "topology": {"tp": 2, "dp": 4}, "batch_size": 64})"
        "\n";
    const CliRun run = run_cli({"plan", "--batch", "-"}, input);
    CHECK(run.code == 2);
    const auto lines = lines_of(run.out);
    REQUIRE(lines.size() == 5);
    CHECK(json::parse(lines[0]).at("mode") == "dp");
    CHECK(lines[1] ==
          R"({"error":"Topology dimension 'dp' must be an integer, but got float.","line":2})");
    CHECK(lines[2] == json{{"error", kPipelineRefusal}}.dump());
    CHECK(json::parse(lines[3]).at("line") == 4);
    CHECK(json::parse(lines[4]).at("topology").dump() ==
          R"({"world_size":8,"dims":{"tp":2,"dp":4},"mesh_shape":[4,2]})");
    const auto errors = lines_of(run.err);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] ==
          "<stdin>:2: error: Topology dimension 'dp' must be an integer, but got float.");
    CHECK(errors[1].rfind("<stdin>:4: error: not valid JSON: ", 0) == 0);
  }

  TEST_CASE("plan --batch exits 0 when every line plans and reads a file") {
    const TempFile file(
        "plans.jsonl",
        R"({"objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64})"
        "\n");
    const CliRun run = run_cli({"plan", "--batch", file.path()});
    CHECK(run.code == 0);
    CHECK(json::parse(run.out).at("mode") == "fsdp2_tp");
    const CliRun missing = run_cli({"plan", "--batch", file.path() + ".missing"});
    CHECK(missing.code == 2);
    CHECK(missing.err == "error: cannot open batch file '" + file.path() +
                             ".missing': No such file or directory\n");
  }

  TEST_CASE("plan --batch cannot be combined with input flags") {
    const CliRun run = run_cli({"plan", "--batch", "-", "--mode", "dp"}, "");
    CHECK(run.code == 2);
    CHECK(
        run.err ==
        "error: --mode cannot be combined with --batch (batch inputs come from the JSON lines)\n");
    CHECK(run_cli({"plan", "--batch", "-", "--feature", "allow_pipeline=true"}, "").code == 2);
  }

  TEST_CASE(
      "every bad batch line gets a message that names the key, or upstream's for the topology") {
    auto error_of = [](const std::string& line) {
      const auto planned = snnplan::request::plan_json_line(line, snnplan::plan_rules());
      return planned.kind == snnplan::request::PlannedLine::Kind::ok ? std::string("(no error)")
                                                                     : planned.text;
    };
    const std::string base = R"("objective": "speed", "batch_size": 64)";
    CHECK(error_of("") == "empty line (expected a JSON object)");
    CHECK(error_of("[1]") == "a batch line must be a JSON object, got an array");
    CHECK(error_of(R"({"topology": {"dp": 4}, "batch_size": 64})") ==
          "missing required input 'objective'");
    CHECK(error_of(R"({"objective": "speed", "batch_size": 64})") ==
          "missing required input 'topology'");
    CHECK(error_of(R"({"objective": "speed", "topology": {"dp": 4}})") ==
          "missing required input 'batch_size'");
    CHECK(error_of(R"({"objective": null, "topology": {"dp": 4}, "batch_size": 64})") ==
          "missing required input 'objective'");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "wrld_size": 4})") ==
          "unknown input 'wrld_size' (did you mean 'world_size'?)");
    CHECK(
        error_of("{" + base + R"(, "topology": [4]})") ==
        R"(input 'topology' must be an object of dimension sizes such as {"dp": 4, "tp": 2}, got an array)");
    CHECK(error_of("{" + base + R"(, "topology": {}})") == "dims must not be empty.");
    CHECK(error_of("{" + base + R"(, "topology": {"": 4}})") ==
          "Topology dimension names must be non-empty.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": true}})") ==
          "Topology dimension 'dp' must be an integer, but got bool.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": "4"}})") ==
          "Topology dimension 'dp' must be an integer, but got str.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": [4]}})") ==
          "Topology dimension 'dp' must be an integer, but got list.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": -4}})") ==
          "world_size must be positive, but got -4.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 18446744073709551615}})") ==
          "Topology dims {'dp': 18446744073709551616} give world_size=18446744073709551616, beyond "
          "the 64-bit world sizes "
          "snnplan plans for.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4, "dp": 2}})") ==
          "duplicate key 'dp' in a JSON object");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "world_size": 8})") ==
          "Topology dims {'dp': 4} multiply to 4, but world_size=8.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "world_size": 0})") ==
          "world_size must be positive, but got 0.");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "world_size": false})") ==
          "world_size must be an integer, but got bool.");
    CHECK(error_of(R"({"objective": "speed", "topology": {"dp": 4}, "batch_size": 6.5})") ==
          "input 'batch_size' must be an integer that fits in 64 bits, got 6.5");
    CHECK(error_of(R"({"objective": "speed", "topology": {"dp": 4}, "batch_size": "64"})") ==
          "input 'batch_size' must be an integer, got a string");
    CHECK(error_of(R"({"objective": 3, "topology": {"dp": 4}, "batch_size": 64})") ==
          "input 'objective' must be a string, got a number");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "mode": 2})") ==
          "input 'mode' must be a string, got a number");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "features": []})") ==
          "input 'features' must be an object of feature flags, got an array");
    CHECK(error_of("{" + base +
                   R"(, "topology": {"dp": 4}, "features": {"allow_pipeline": "no"}})") ==
          R"(feature 'allow_pipeline' must be true or false, got "no")");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "features": {"allow_zero": false}})") ==
          "DistributedFeatureSet.__init__() got an unexpected keyword argument 'allow_zero'");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "tp_roots": "a,b"})") ==
          "input 'tp_roots' must be an array of strings, got a string");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "notes": ["a", 1]})") ==
          "input 'notes' must be an array of strings, got an array holding a number");
    CHECK(error_of("{" + base + R"(, "topology": {"dp": 4}, "tp_candidates": "yes"})") ==
          "input 'tp_candidates' must be true or false, got a string");
  }

  TEST_CASE(
      "batch defaults: backend inductor, model family generic, features and candidates as "
      "documented") {
    auto r = snnplan::request::plan_request_from_json_line(
        R"({"objective": "speed", "topology": {"dp": 4}, "batch_size": 64, "features": {"allow_pipeline": false}, "mode": null})");
    REQUIRE(std::holds_alternative<snnplan::request::PlanRequest>(r));
    const auto& request = std::get<snnplan::request::PlanRequest>(r);
    CHECK(request.options.backend == "inductor");
    CHECK_FALSE(request.options.model_family.has_value());  // the plan rules' default: generic
    CHECK_FALSE(request.options.mode.has_value());
    CHECK(request.options.tensor_parallel_candidates);
    CHECK_FALSE(request.options.tensor_parallel_roots.has_value());
    CHECK(request.options.notes.empty());
    CHECK(request.options.features == snnplan::FeatureFlags{{"allow_pipeline", false}});
    // Without a world size the topology stays a mapping, checked by plan() after the objective.
    CHECK(std::holds_alternative<snnplan::TopologyMapping>(request.topology));
  }
}

TEST_SUITE("plan: requests") {
  // A front end whose fields are given as text, recording the order they are read in.
  class RecordingFields final : public snnplan::request::PlanFields {
   public:
    std::vector<std::pair<std::string, std::string>> given_fields;
    std::vector<std::string> reads;

    bool given(std::string_view key) override { return find(key) != nullptr; }
    std::string text(std::string_view key) override { return value(key); }
    std::vector<std::string> texts(std::string_view key) override { return {value(key)}; }
    std::int64_t integer(std::string_view key) override { return std::stoll(value(key)); }
    bool flag(std::string_view key) override { return value(key) == "true"; }
    snnplan::TopologyMapping topology() override {
      return Topology::parse_mapping(value("topology"));
    }
    Value world_size() override {
      return find("world_size") ? Value(static_cast<std::int64_t>(std::stoll(value("world_size"))))
                                : Value();
    }
    snnplan::FeatureFlags features() override { return {{value("features"), false}}; }

   private:
    const std::string* find(std::string_view key) const {
      for (const auto& [name, v] : given_fields)
        if (name == key) return &v;
      return nullptr;
    }
    std::string value(std::string_view key) {
      reads.emplace_back(key);
      const std::string* v = find(key);
      if (!v) throw InputError("missing " + std::string(key));
      return *v;
    }
  };

  TEST_CASE(
      "a plan request is read in one order, with one set of defaults, whatever the front end") {
    RecordingFields all;
    all.given_fields = {{"notes", "n"},         {"tp_candidates", "false"},
                        {"tp_roots", "blocks"}, {"features", "allow_pipeline"},
                        {"mode", "dp"},         {"model_family", "vgg"},
                        {"backend", "eager"},   {"batch_size", "64"},
                        {"topology", "dp=4"},   {"world_size", "4"},
                        {"objective", "speed"}};
    const snnplan::request::PlanRequest r = snnplan::request::read_plan_request(all);
    // The order `plan --batch` reads a line's keys in, which Python's plan() and the flags share.
    CHECK(all.reads == std::vector<std::string>{"objective", "topology", "world_size", "batch_size",
                                                "backend", "model_family", "mode", "features",
                                                "tp_roots", "tp_candidates", "notes"});
    CHECK(r.objective == "speed");
    // With a world size the topology is built while the request is read.
    CHECK(std::get<Topology>(r.topology) == Topology::parse("dp=4"));
    CHECK(r.batch_size == 64);
    CHECK(r.options.backend == "eager");
    CHECK(r.options.model_family == "vgg");
    CHECK(r.options.mode == std::optional<std::string>("dp"));
    CHECK(r.options.features == snnplan::FeatureFlags{{"allow_pipeline", false}});
    CHECK(r.options.tensor_parallel_roots == std::optional<std::vector<std::string>>({"blocks"}));
    CHECK_FALSE(r.options.tensor_parallel_candidates);
    CHECK(r.options.notes == std::vector<std::string>{"n"});

    RecordingFields required_only;
    required_only.given_fields = {
        {"objective", "memory"}, {"topology", "dp=2,tp=2"}, {"batch_size", "8"}};
    const snnplan::request::PlanRequest d = snnplan::request::read_plan_request(required_only);
    CHECK(required_only.reads == std::vector<std::string>{"objective", "topology", "batch_size"});
    const PlanOptions defaults;
    CHECK(d.options.backend == defaults.backend);
    CHECK(d.options.model_family == defaults.model_family);
    CHECK_FALSE(d.options.mode.has_value());
    CHECK(d.options.features == defaults.features);
    CHECK_FALSE(d.options.tensor_parallel_roots.has_value());
    CHECK(d.options.tensor_parallel_candidates);
    CHECK(d.options.notes.empty());

    RecordingFields missing;
    missing.given_fields = {{"topology", "dp=4"}};
    CHECK_THROWS_WITH_AS(snnplan::request::read_plan_request(missing), "missing objective",
                         InputError);
  }

  TEST_CASE("the flags, a JSON line and the C API's line make the same request and the same plan") {
    const std::string line =
        R"({"objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64, "model_family": "cifar10dvs_vgg", "features": {"allow_pipeline": false}, "notes": ["a"]})";
    auto parsed = snnplan::request::plan_request_from_json_line(line);
    REQUIRE(std::holds_alternative<snnplan::request::PlanRequest>(parsed));
    const auto& r = std::get<snnplan::request::PlanRequest>(parsed);
    const snnplan::request::PlannedLine planned =
        snnplan::request::plan_json_line(line, snnplan::plan_rules());
    REQUIRE(planned.kind == snnplan::request::PlannedLine::Kind::ok);
    CHECK(planned.text == snnplan::render::json_line(snnplan::render::to_json(
                              snnplan::plan(r.objective, r.topology, r.batch_size, r.options))));
    const CliRun flags = run_cli({"plan", "--objective", "memory", "--topology", "dp=4,tp=2",
                                  "--batch-size", "64", "--model-family", "cifar10dvs_vgg",
                                  "--feature", "allow_pipeline=false", "--note", "a"});
    REQUIRE(flags.code == 0);
    CHECK(json::parse(flags.out).dump() == json::parse(planned.text).dump());
    const CliRun batch = run_cli({"plan", "--batch", "-"}, line + "\n");
    CHECK(batch.out == planned.text + "\n");
    // A refused line: the same message on every path.
    const std::string bad = R"({"objective": "memory", "topology": {"dp": 4}, "batch_size": "64"})";
    const snnplan::request::PlannedLine refused =
        snnplan::request::plan_json_line(bad, snnplan::plan_rules());
    CHECK(refused.kind == snnplan::request::PlannedLine::Kind::bad_input);
    CHECK(refused.text == "input 'batch_size' must be an integer, got a string");
    CHECK(run_cli({"plan", "--batch", "-"}, bad + "\n").out ==
          R"({"error":"input 'batch_size' must be an integer, got a string","line":1})"
          "\n");
  }
}
