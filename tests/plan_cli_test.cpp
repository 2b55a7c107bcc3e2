// `snnplan plan` with flags and --batch, and a plan request read from flags, a JSON line or the
// C API's line (the plan stage itself is in plan_test.cpp).
#include "plan_test_support.hpp"

using namespace plan_test;

TEST_SUITE("plan") {
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

  TEST_CASE(
      "every upstream golden request gets upstream plan()'s answer, its errors word for word") {
    check_upstream_plans({"upstream_a0209834.jsonl", snnplan::plan_rules(), {}, {}});
  }

  TEST_CASE(
      "rules/history/plan_HEAD.yaml gives upstream HEAD plan()'s answer to every golden request") {
    const auto rules = snnplan::RuleSet::from_file(std::string(SNNPLAN_RULES_DIR) +
                                                   "/history/plan_HEAD.yaml");
    // tensor_parallel_plan is always None in these requests; snnplan has no such field.
    check_upstream_plans({"upstream_HEAD.jsonl", rules, {"tensor_parallel_plan"},
                          {"pp_microbatches", "pp_schedule", "pp_virtual_stages", "pp_layout",
                           "pp_delay_wgrad"}});
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

  TEST_CASE("plan --batch --trace adds the fired rule path and the trace, to refused lines too") {
    const std::string input =
        R"({"objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64})"
        "\n"
        R"({"objective": "speed", "topology": {"dp": 8}, "batch_size": 64, "mode": "pp"})"
        "\n";
    const CliRun plain = run_cli({"plan", "--batch", "-"}, input);
    const CliRun traced = run_cli({"plan", "--batch", "-", "--trace"}, input);
    CHECK(traced.code == plain.code);
    const auto plain_lines = lines_of(plain.out);
    const auto lines = lines_of(traced.out);
    REQUIRE(lines.size() == 2);
    auto planned = nlohmann::ordered_json::parse(lines[0]);
    const auto rules = planned.at("rules");
    REQUIRE_FALSE(rules.empty());
    for (const auto& rule : rules) CHECK(rule.get<std::string>().find('/') != std::string::npos);
    // The same path `explain` of the plan's inputs gives.
    const snnplan::Explanation explained = snnplan::plan_rules().explain(snnplan::plan_inputs(
        "memory", snnplan::Topology::parse("dp=4,tp=2"), 64, snnplan::FeatureSet::of(snnplan::plan_rules(), {})));
    CHECK(rules == nlohmann::json(snnplan::fired_rule_path(explained.steps)));
    planned.erase("rules");
    planned.erase("trace");
    CHECK(planned.dump() == nlohmann::ordered_json::parse(plain_lines[0]).dump());
    const auto refused = json::parse(lines[1]);
    CHECK(refused.at("error") == kPipelineRefusal);
    CHECK(refused.contains("rules"));
    CHECK(refused.at("trace").back().at("step") == "error");
    CHECK(plain.out.find("\"rules\"") == std::string::npos);
    // --trace is for batches only.
    const CliRun single = run_cli(
        {"plan", "--objective", "speed", "--topology", "dp=8", "--batch-size", "64", "--trace"});
    CHECK(single.code == 2);
    CHECK(single.err ==
          "error: plan --trace needs --batch (the rule path is added to each batch line)\n");
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
