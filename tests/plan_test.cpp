// The plan stage (issue 4): Topology, FeatureSet and snnplan::plan() over rules/snn_plan.yaml;
// `snnplan plan` with flags and --batch is in plan_cli_test.cpp.
#include "plan_test_support.hpp"

using namespace plan_test;

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
}
