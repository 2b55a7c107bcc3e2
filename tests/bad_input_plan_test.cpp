// Every flag of plan and replay, and the subcommand itself: rows of the bad-input matrix
// (tests/bad_input_matrix.hpp has the harness and the list of its files).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "bad_input_matrix.hpp"

namespace bad_input_matrix {
std::vector<Row> replay_rows() {
  std::vector<Row> rows;
  const std::vector<std::string> base = {"replay", "/dev/null"};
  rows.push_back({"an empty log replays nothing", base, kOk, ""});
  rows.push_back({"a missing log", {"replay", kMissing}, kBadInput,
                  "error: cannot open decision log '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"a directory for the log", {"replay", kDirectory}, kBadInput,
                  "error: cannot open decision log '" + kDirectory + "': it is a directory\n"});
  rows.push_back({"no log", {"replay"}, kBadInput, usage_error("log is required")});
  rows.push_back({"--rules - with the log on standard input too", {"replay", "-", "--rules", "-"}, kBadInput,
                  "error: --rules - and - cannot both read standard input ('-'); give one of them a file\n"});
  add_choice_rows(rows, with(base, {"--format", "json"}), "--format", {"text", "json"});
  add_rules_flag_rows(rows, base);
  add_rules_root_rows(rows, base);
  add_output_rows(rows, base);
  add_unknown_rows(rows, base);
  return rows;
}

std::vector<Row> plan_rows() {
  std::vector<Row> rows;
  const std::vector<std::string>& base = kPlan;
  auto replaced = [&](const std::string& flag, const std::string& value) {
    return with(without(base, flag), {flag, value});
  };

  // --objective: free text that the plan rules judge.
  add_text_rows(rows, base, "--objective", "memory");
  for (const std::string bad :
       {"", "fast", "Speedy"}) {  // the reference's message shows the value lower-cased
    std::string lowered = bad;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    rows.push_back({"--objective '" + bad + "' is the reference's ValueError",
                    replaced("--objective", bad), kRuleError,
                    "error: Unsupported objective='" + lowered +
                        "'. Expected one of ('speed', 'memory', 'capacity').\n"});
  }

  // --topology NAME=SIZE,...
  const std::string expected_form = " (expected NAME=SIZE,NAME=SIZE,..., e.g. dp=4,tp=2)\n";
  const std::vector<std::pair<std::string, std::string>> topologies = {
      {"", "error: dims must not be empty.\n"},
      {"dp", "error: cannot parse topology 'dp': entry 'dp' has no '='" + expected_form},
      {"dp=", "error: cannot parse topology 'dp=': dimension 'dp' has no size" + expected_form},
      {"=4", "error: cannot parse topology '=4': entry '=4' has no dimension name" + expected_form},
      {"dp=4,,tp=2", "error: cannot parse topology 'dp=4,,tp=2': entry 2 is empty" + expected_form},
      {"dp=abc",
       "error: cannot parse topology 'dp=abc': the size of dimension 'dp' is not an integer: "
       "'abc'" +
           expected_form},
      {"dp=4.5",
       "error: cannot parse topology 'dp=4.5': the size of dimension 'dp' is not an integer: "
       "'4.5'" +
           expected_form},
      {"dp=99999999999999999999",
       "error: cannot parse topology 'dp=99999999999999999999': the size of dimension 'dp' does "
       "not "
       "fit in a 64-bit integer: '99999999999999999999'" +
           expected_form},
      {"dp=4,dp=2",
       "error: cannot parse topology 'dp=4,dp=2': dimension 'dp' is given more than once" +
           expected_form},
      {"dp=0", "error: world_size must be positive, but got 0.\n"},
      {"dp=-4", "error: world_size must be positive, but got -4.\n"},
      {"dp=-4,tp=-1", "error: Topology dimension 'dp' must be positive, but got -4.\n"},
      {"dp=4294967296,tp=4294967296",
       "error: Topology dims {'dp': 4294967296, 'tp': 4294967296} give "
       "world_size=18446744073709551616, beyond the 64-bit world sizes snnplan plans for.\n"},
  };
  for (const auto& [topology, message] : topologies)
    rows.push_back({"--topology '" + topology + "'", replaced("--topology", topology), kBadInput, message});
  add_text_rows(rows, base, "--topology", "dp=4,tp=2", "NAME=SIZE,...");

  // --world-size: an integer that must match the topology.
  add_integer_rows(rows, with(base, {"--world-size", "8"}), "--world-size", "8");
  for (const std::string bad : {"0", "-8"})
    rows.push_back({"--world-size " + bad + " is not positive", with(base, {"--world-size", bad}),
                    kBadInput, "error: world_size must be positive, but got " + bad + ".\n"});
  rows.push_back({"--world-size that is not the product of the sizes",
                  with(base, {"--world-size", "16"}), kBadInput,
                  "error: Topology dims {'dp': 4, 'tp': 2} multiply to 8, but world_size=16.\n"});

  add_integer_rows(rows, base, "--batch-size", "64");
  rows.push_back({"a negative --batch-size goes to the rules, which accept it like the reference",
                  replaced("--batch-size", "-64"), kOk, ""});

  add_text_rows(rows, with(base, {"--model-family", "generic"}), "--model-family", "generic");
  add_text_rows(rows, with(base, {"--backend", "inductor"}), "--backend", "inductor");
  add_text_rows(rows, with(base, {"--mode", "dp"}), "--mode", "dp");
  for (const std::string bad : {"", "bogus", "DP "}) {
    std::string lowered = bad;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    rows.push_back({"--mode '" + bad + "' is the plan rules' error", with(base, {"--mode", bad}),
                    kRuleError,
                    "error: Unsupported mode='" + lowered +
                        "'. Expected one of ('none', 'dp', 'tp', 'fsdp2', 'fsdp2_tp', 'pp').\n"});
  }
  rows.push_back({"--mode pp is refused for the pipeline path", with(base, {"--mode", "pp"}),
                  kRuleError,
                  "error: Pipeline parallelism ('pp') is not supported by the unified "
                  "analyze/plan/apply API."});

  for (const std::string bad : {",", "a,,b", "a,", ",a"})
    rows.push_back({"--tp-roots '" + bad + "' has an empty name", with(base, {"--tp-roots", bad}),
                    kBadInput,
                    "error: --tp-roots: empty name in '" + bad + "' (expected NAME,NAME,...)\n"});
  rows.push_back({"--tp-roots '' is an empty list", with(base, {"--tp-roots", ""}), kOk, "", "\"tensor_parallel_roots\": []"});
  add_text_rows(rows, with(base, {"--tp-roots", "a,b"}), "--tp-roots", "a,b", "LIST");

  for (const std::string bad : {"", "1", "0", "y", "maybe", "on"})
    rows.push_back({"--tp-candidates '" + bad + "' is not yes or no",
                    with(base, {"--tp-candidates", bad}), kBadInput,
                    "error: --tp-candidates: expected yes or no, got '" + bad + "'\n"});
  for (const std::string good : {"YES", "true"})
    rows.push_back({"--tp-candidates " + good + " is accepted", with(base, {"--tp-candidates", good}), kOk, ""});
  add_common_rows(rows, with(base, {"--tp-candidates", "yes"}), "--tp-candidates", "yes", "{yes,no}");

  // --feature NAME=true|false (repeatable, each feature once)
  for (const std::string bad : {"", "allow_pipeline", "=true", "="})
    rows.push_back({"--feature '" + bad + "' is not NAME=true|false",
                    with(base, {"--feature", bad}), kBadInput,
                    "error: --feature: expected NAME=true|false, got '" + bad + "'\n"});
  for (const std::string bad : {"", "yes", "1", "off"})
    rows.push_back({"--feature allow_pipeline='" + bad + "' is not true or false", with(base, {"--feature", "allow_pipeline=" + bad}),
                    kBadInput, "error: --feature allow_pipeline: expected true or false, got '" + bad + "'\n"});
  rows.push_back({"--feature with a name the plan rules do not declare is upstream's TypeError",
                  with(base, {"--feature", "allow_pipelines=true"}), kBadInput,
                  "error: DistributedFeatureSet.__init__() got an unexpected keyword argument 'allow_pipelines'\n"});
  rows.push_back({"--feature naming the same feature twice", with(base, {"--feature", "allow_pipeline=true", "--feature", "allow_pipeline=false"}),
                  kBadInput, "error: --feature allow_pipeline: given more than once\n"});
  rows.push_back({"--feature may be repeated for different features",
                  with(base, {"--feature", "allow_pipeline=true", "--feature", "allow_zero_optimizer=false"}), kOk, ""});
  rows.push_back({"--feature without its value", with(base, {"--feature"}), kBadInput, usage_error("--feature: 1 required NAME=BOOL missing")});

  // --note TEXT (repeatable)
  rows.push_back({"--note with invalid UTF-8", with(base, {"--note", "\xff"}), kBadInput,
                  "error: --note: value is not valid UTF-8\n"});
  rows.push_back({"--note may be repeated", with(base, {"--note", "a", "--note", "b"}), kOk, "",
                  "\"notes\": [\n    \"a\",\n    \"b\"\n  ]"});
  rows.push_back({"--note without its value", with(base, {"--note"}), kBadInput,
                  usage_error("--note: 1 required TEXT missing")});

  add_rules_flag_rows(rows, with(base, {"--rules", kPlanRules}));
  add_choice_rows(rows, with(base, {"--format", "json"}), "--format", {"json", "yaml", "text"});

  // --batch
  rows.push_back({"--batch '' names no file",
                  {"plan", "--batch", ""},
                  kBadInput,
                  "error: cannot open batch file '': No such file or directory\n"});
  rows.push_back({"--batch naming a missing file",
                  {"plan", "--batch", kMissing},
                  kBadInput,
                  "error: cannot open batch file '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"--batch naming a directory", {"plan", "--batch", kDirectory}, kBadInput,
                  "error: cannot open batch file '" + kDirectory + "': it is a directory\n"});
  for (const std::string flag : {"--objective", "--topology", "--world-size", "--batch-size", "--model-family", "--backend",
                                  "--mode", "--tp-roots", "--tp-candidates", "--feature", "--note"})
    rows.push_back({"--batch with the input flag " + flag, {"plan", "--batch", "-", flag, "x"}, kBadInput,
                    "error: " + flag + " cannot be combined with --batch (batch inputs come from the JSON lines)\n"});
  add_common_rows(rows, {"plan", "--batch", "-"}, "--batch", "-", "FILE");
  rows.push_back({"plan --trace without --batch",
                  {"plan", "--objective", "memory", "--topology", "dp=4", "--batch-size", "64", "--trace"},
                  kBadInput, "error: plan --trace needs --batch (the rule path is added to each batch line)\n"});
  rows.push_back({"plan --batch with --trace adds the rule path", {"plan", "--batch", "-", "--trace"}, kOk, "",
                  "\"rules\":[\"recommend/by-preference-memory\",\"memory/fsdp2-tp\"",
                  "{\"objective\": \"memory\", \"topology\": {\"dp\": 4, \"tp\": 2}, \"batch_size\": 64}\n"});
  rows.push_back({"plan --jobs without --batch",
                  {"plan", "--objective", "memory", "--topology", "dp=4", "--batch-size", "64", "--jobs", "2"},
                  kBadInput, "error: --jobs needs --batch (it answers batch lines on several threads)\n"});
  rows.push_back({"plan --jobs 0", {"plan", "--batch", "-", "--jobs", "0"}, kBadInput,
                  usage_error("--jobs: expected an integer from 1 to 256, got '0'")});
  rows.push_back({"plan --trace given a value", {"plan", "--batch", "-", "--trace", "yes"}, kBadInput,
                  usage_error("The following argument was not expected: yes")});
  for (const std::string format : {"yaml", "text"})
    rows.push_back({"plan --batch with --format " + format,
                    {"plan", "--batch", "-", "--format", format},
                    kBadInput,
                    "error: --format " + format +
                        " cannot be combined with --batch (batch output is JSON Lines)\n"});

  for (const std::string required : {"--objective", "--topology", "--batch-size"})
    rows.push_back({"without " + required, without(base, required), kBadInput,
                    "error: " + required + " is required (or give --batch FILE with one JSON object per line)\n"});
  for (const auto& [flag, placeholder] : std::vector<std::pair<std::string, std::string>>{
           {"--objective", "TEXT"}, {"--topology", "NAME=SIZE,..."}, {"--batch-size", "INT"}}) {
    const auto at = std::find(base.begin(), base.end(), flag);
    add_common_rows(rows, base, flag, *(at + 1), placeholder);
  }
  add_unknown_rows(rows, base);
  add_output_rows(rows, base);
  add_rules_root_rows(rows, base);
  return rows;
}

// plan-training: a flag per input of the planning rules, typed as the rules declare it.
std::vector<Row> plan_training_rows() {
  const std::vector<std::pair<std::string, std::string>> required = {
      {"--world-size", "2"},          {"--device-memory-bytes", "8589934592"},
      {"--sequence-length", "128"},   {"--micro-batch-size", "1"},
      {"--global-batch-size", "4"},   {"--time-steps", "4"},
      {"--vocab-size", "1024"},       {"--max-sequence-length", "512"},
      {"--num-layers", "4"},          {"--hidden-size", "128"},
      {"--num-attention-heads", "4"}, {"--ffn-hidden-size", "512"}};
  std::vector<std::string> base = {"plan-training"};
  for (const auto& [flag, value] : required) base = with(base, {flag, value});
  std::vector<Row> rows;
  auto replaced = [&](const std::string& flag, const std::string& value) {
    return with(without(base, flag), {flag, value});
  };

  for (const auto& [flag, value] : required) {
    add_integer_rows(rows, base, flag, value);
    const std::string input = flag.substr(2);
    std::string name = input;
    std::replace(name.begin(), name.end(), '-', '_');
    rows.push_back({"without " + flag, without(base, flag), kBadInput,
                    "error: missing required input '" + name + "'\n"});
  }
  for (const std::string flag : {"--num-query-groups", "--kv-channels"}) {
    add_integer_rows(rows, with(base, {flag, "2"}), flag, "2");
    rows.push_back({flag + " null is the input's default", replaced(flag, "null"), kOk, ""});
  }
  for (const std::string flag : {"--use-snn-memopt", "--share-embeddings-and-output-weights",
                                  "--gated-linear-unit", "--fp16", "--bf16"})
    add_boolean_rows(rows, with(base, {flag, "false"}), flag);

  // --memory-fraction: a float the rules check with upstream's message.
  const std::vector<std::string> with_fraction = with(base, {"--memory-fraction", "0.9"});
  for (const std::string bad : {"", "x", "nan", "inf", "0.9x"})
    rows.push_back({"--memory-fraction '" + bad + "' is not a number",
                    with(base, {"--memory-fraction", bad}), kBadInput,
                    "error: --memory-fraction: expected a number, got '" + bad + "'\n"});
  rows.push_back({"--memory-fraction 1e400 is beyond a double", with(base, {"--memory-fraction", "1e400"}),
                  kBadInput, "error: --memory-fraction: 1e400 is beyond the range of a 64-bit float\n"});
  for (const std::string bad : {"1.5", "0", "-0.1"})
    rows.push_back({"--memory-fraction " + bad + " is upstream's ValueError", with(base, {"--memory-fraction", bad}),
                    kRuleError, "error: memory_fraction must be in (0, 1].\n"});
  add_common_rows(rows, with_fraction, "--memory-fraction", "0.9", "FLOAT");

  // Text inputs: UTF-8, judged by the rules.
  add_text_rows(rows, with(base, {"--objective", "memory"}), "--objective", "memory");
  for (const std::string bad : {"", "speed", "Memory"})
    rows.push_back({"--objective '" + bad + "' is upstream's ValueError", with(base, {"--objective", bad}),
                    kRuleError, "error: objective must be 'throughput' or 'memory'.\n"});
  add_text_rows(rows, with(base, {"--position-embedding-type", "rope"}), "--position-embedding-type", "rope");
  add_text_rows(rows, with(base, {"--normalization", "RMSNorm"}), "--normalization", "RMSNorm");
  add_text_rows(rows, with(base, {"--fp8", "hybrid"}), "--fp8", "hybrid");
  for (const std::string flag : {"--params-dtype", "--pipeline-dtype"}) {
    add_text_rows(rows, with(base, {flag, "bfloat16"}), flag, "bfloat16");
    std::string name = flag.substr(2);
    std::replace(name.begin(), name.end(), '-', '_');
    for (const std::string bad : {"torch.float32", "float64", "fp16", ""})
      rows.push_back({flag + " '" + bad + "' is no dtype the memory model knows", with(base, {flag, bad}),
                      kRuleError,
                      "error: " + name + " '" + bad +
                          "' is not one of the dtypes the memory model knows: float32, bfloat16, float16.\n"});
  }
  rows.push_back({"--pipeline-dtype null is allowed", with(base, {"--pipeline-dtype", "null"}), kOk, ""});
  rows.push_back({"a negative --world-size is upstream's ValueError", replaced("--world-size", "-1"), kRuleError,
                  "error: world_size and device_memory_bytes must be positive.\n"});

  // --explain: one request's search, as text or JSON.
  rows.push_back({"--explain shows the search", with(base, {"--explain"}), kOk, "", "search"});
  rows.push_back({"--explain --format yaml is a usage error, not an abort", with(base, {"--explain", "--format", "yaml"}),
                  kBadInput, "error: --explain writes the search as {text,json}; --format yaml writes a plan only\n"});
  rows.push_back({"--explain given a value", with(base, {"--explain=x"}), kBadInput,
                  usage_error("Could not convert: --explain = x")});

  add_rules_flag_rows(rows, with(base, {"--rules", std::string(SNNPLAN_RULES_DIR) + "/snn_llm_planning.yaml"}));
  add_choice_rows(rows, with(base, {"--format", "json"}), "--format", {"json", "yaml", "text"});

  // --batch, --jobs, --trace
  rows.push_back({"--batch naming a missing file", {"plan-training", "--batch", kMissing}, kBadInput,
                  "error: cannot open batch file '" + kMissing + "': No such file or directory\n"});
  rows.push_back({"--batch with an input flag", {"plan-training", "--batch", "-", "--world-size", "2"}, kBadInput,
                  "error: --world-size cannot be combined with --batch (batch inputs come from the JSON lines)\n"});
  rows.push_back({"--batch with --explain", {"plan-training", "--batch", "-", "--explain"}, kBadInput,
                  "error: --explain shows one request's search; give the request as flags, not --batch\n"});
  rows.push_back({"--batch with --format yaml", {"plan-training", "--batch", "-", "--format", "yaml"}, kBadInput,
                  "error: --format yaml cannot be combined with --batch (batch output is JSON Lines)\n"});
  add_common_rows(rows, {"plan-training", "--batch", "-"}, "--batch", "-", "FILE");
  rows.push_back({"--jobs without --batch", with(base, {"--jobs", "2"}), kBadInput,
                  "error: --jobs needs --batch (it answers batch lines on several threads)\n"});
  rows.push_back({"--jobs 0", {"plan-training", "--batch", "-", "--jobs", "0"}, kBadInput,
                  usage_error("--jobs: expected an integer from 1 to 256, got '0'")});
  rows.push_back({"--trace without --batch", with(base, {"--trace"}), kBadInput,
                  "error: plan-training --trace needs --batch (the rule path is added to each batch line)\n"});
  rows.push_back({"--batch --trace adds the rule path", {"plan-training", "--batch", "-", "--trace"}, kOk, "",
                  "\"rules\":[",
                  R"({"world_size": 2, "device_memory_bytes": 8589934592, "sequence_length": 128, "micro_batch_size": 1, "global_batch_size": 4, "time_steps": 4, "vocab_size": 1024, "max_sequence_length": 512, "num_layers": 4, "hidden_size": 128, "num_attention_heads": 4, "ffn_hidden_size": 512})"
                  "\n"});

  add_unknown_rows(rows, base);
  add_output_rows(rows, base);
  add_rules_root_rows(rows, base);
  return rows;
}

std::vector<Row> top_level_rows() {
  return {
      {"no subcommand", {}, kBadInput, usage_error("A subcommand is required")},
      {"only an unknown flag names it", {"--bogus"}, kBadInput,
       usage_error("unknown option '--bogus' (before a subcommand snnplan takes only --help and --version; a "
                   "subcommand's options follow it, as in snnplan recommend --model ...)")},
      {"an unknown flag with a value near one of snnplan's own gets a suggestion", {"--versoin=1"}, kBadInput,
       usage_error("unknown option '--versoin' (before a subcommand snnplan takes only --help and --version; a "
                   "subcommand's options follow it, as in snnplan recommend --model ...); did you mean '--version'?")},
      {"a misspelt subcommand gets a suggestion", {"recomend"}, kBadInput,
       usage_error("unknown subcommand 'recomend' (the subcommands are recommend, explain, microbatches, check, test, "
                   "graph, plan, plan-training, schema, diff, map, replay, lsp, serve, completion, help); did you mean 'recommend'?")},
      {"an unknown subcommand", {"deploy", "--model", "x"}, kBadInput,
       usage_error("unknown subcommand 'deploy' (the subcommands are recommend, explain, microbatches, check, test, "
                   "graph, plan, plan-training, schema, diff, map, replay, lsp, serve, completion, help); did you mean 'replay'?")},
      {"an empty subcommand", {""}, kBadInput, "error: unknown subcommand ''"},
  };
}

TEST_SUITE("bad-input matrix") {
  TEST_CASE(
      "plan answers every bad flag value with exit code 2 and leaves objective and mode to the "
      "plan rules") {
    check_rows(plan_rows());
  }

  TEST_CASE("plan-training answers every bad flag value with its exit code and upstream's messages, and never aborts") {
    check_rows(plan_training_rows());
  }

  TEST_CASE("replay answers a missing, unreadable or doubly read log and every bad flag with its exit code") {
    check_rows(replay_rows());
  }

  TEST_CASE("an unknown or missing subcommand is a usage error with exit code 2") {
    check_rows(top_level_rows());
  }
}

}  // namespace bad_input_matrix
