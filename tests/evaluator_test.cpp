// Evaluating rule sets: table order, next, fallback, inputs, errors, threads, the typed API.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"
#include "render/render.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::EvaluationErrorKind;
using snnplan::EvaluationResult;
using snnplan::Inputs;
using snnplan::RuleSet;
using snnplan::Value;

// Tiers by size, continues into a second table, and falls back with overridden inputs.
const std::string kTiers = R"(snnplan: 1
inputs:
  size: {type: int}
  name: {type: string, default: anon, lower: true}
  mode:
    type: string
    default: auto
    lower: true
    one_of: [auto, manual, forced]
    error: "mode '{mode}' is not supported for {name}"
  strict: {type: bool, default: false}
let:
  double: "size * 2"
record:
  label: {type: string, init: = name}
  tier: {type: string, default: none}
  size_seen: {type: int, init: = size}
  extra: {type: "int?", default: null}
  lines: {type: rationale}
rationale_header: "size={size} name={name}"
start: main
tables:
  main:
    - name: refuse-strict
      when: {strict: true, size: {lt: 0}}
      error: "negative size {size} in strict mode"
    - name: manual
      when: {mode: manual, size: {ge: 0}}
      set: {tier: manual, extra: 7}
      because: "manual mode"
      fallback:
        table: sizes
        with: {size: = size + 100, name: FALLBACK}
        keep: [label, extra]
    - name: by-size
      when: {size: {ge: 0}}
      next: sizes
  sizes:
    - name: big
      when: {size: {ge: 100}}
      set: {tier: big}
      because: "size {size} is big"
    - name: medium
      when: {size: {ge: 10}}
      set: {tier: medium}
      because: "size {size} is medium"
      next: details
    - name: small
      set: {tier: small}
      because: "size {size} is small"
  details:
    - name: even
      when: {size: {one_of: [10, 12, 14]}}
      set: {extra: = double}
      because: "double is {double}"
    - name: other
      set: {extra: -1}
      because: "no details"
)";

// The same shape, but with a fallback to another table (no cycle through main).
const std::string kFallback = R"(snnplan: 1
inputs:
  n: {type: int}
  who: {type: string, default: caller}
record:
  who: {type: string, init: = who}
  n_seen: {type: int, init: = n}
  result: {type: string, default: none}
  note: {type: string, default: unset}
  log: {type: rationale}
rationale_header: "header n={n} who={who}"
start: main
tables:
  main:
    - name: delegate
      when: {n: {lt: 0}}
      set: {note: from-caller, result: caller-result}
      because: "delegating negative {n}"
      fallback:
        table: positive
        with: {n: = 0 - n, who: callee}
        keep: [note]
    - name: direct
      set: {result: direct}
      because: "direct {n}"
  positive:
    - name: handle
      set: {result: handled, note: from-callee}
      because: "handled {n} for {who}"
)";

const RuleSet& tiers() {
  static const RuleSet rules = RuleSet::from_string(kTiers, "tiers.yaml");
  return rules;
}

const Value& field(const EvaluationResult& result, const char* name) {
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
  const Value* v = result.record().find(name);
  REQUIRE_MESSAGE(v != nullptr, "no field " << name);
  return *v;
}

Value lines(std::vector<std::string> text) {
  Value::List out;
  for (auto& line : text) out.emplace_back(std::move(line));
  return Value(std::move(out));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_SUITE("evaluator") {
  TEST_CASE("the first rule whose conditions all hold fires and later rules are skipped") {
    const auto big = tiers().evaluate({{"size", 150}});
    CHECK(field(big, "tier").as_string() == "big");
    CHECK(field(big, "lines") == lines({"size=150 name=anon", "size 150 is big"}));

    const auto small = tiers().evaluate({{"size", 3}});
    CHECK(field(small, "tier").as_string() == "small");
    CHECK(field(small, "extra").is_null());
    CHECK(field(small, "lines") == lines({"size=3 name=anon", "size 3 is small"}));
  }

  TEST_CASE("record fields keep declaration order and init values come from the inputs") {
    const auto result = tiers().evaluate({{"size", 3}, {"name", "Bob"}});
    REQUIRE(result.ok());
    CHECK(result.record().names() == std::vector<std::string>{"label", "tier", "size_seen", "extra", "lines"});
    CHECK(field(result, "label").as_string() == "bob");
    CHECK(field(result, "size_seen").as_int() == 3);
  }

  TEST_CASE("next continues into another table and both tables add rationale") {
    const auto even = tiers().evaluate({{"size", 12}});
    CHECK(field(even, "tier").as_string() == "medium");
    CHECK(field(even, "extra").as_int() == 24);
    CHECK(field(even, "lines") == lines({"size=12 name=anon", "size 12 is medium", "double is 24"}));

    const auto odd = tiers().evaluate({{"size", 11}});
    CHECK(field(odd, "tier").as_string() == "medium");
    CHECK(field(odd, "extra").as_int() == -1);
    CHECK(field(odd, "lines") == lines({"size=11 name=anon", "size 11 is medium", "no details"}));
  }

  TEST_CASE("fallback evaluates another table with overridden inputs and keeps the kept fields") {
    const auto result = tiers().evaluate({{"size", 5}, {"mode", "manual"}, {"name", "Ann"}});
    // The callee saw size 105 and name "fallback" (lowered), so the big rule fired there.
    CHECK(field(result, "tier").as_string() == "big");
    CHECK(field(result, "size_seen").as_int() == 105);
    // label and extra are kept from the caller.
    CHECK(field(result, "label").as_string() == "ann");
    CHECK(field(result, "extra").as_int() == 7);
    // The callee's rationale is appended without its header.
    CHECK(field(result, "lines") == lines({"size=5 name=ann", "manual mode", "size 105 is big"}));
  }

  TEST_CASE("fallback overrides inputs, replaces unkept fields and appends rationale without a header") {
    const RuleSet rules = RuleSet::from_string(kFallback, "fallback.yaml");
    const auto result = rules.evaluate({{"n", -4}});
    CHECK(field(result, "who").as_string() == "callee");
    CHECK(field(result, "n_seen").as_int() == 4);
    CHECK(field(result, "result").as_string() == "handled");
    CHECK(field(result, "note").as_string() == "from-caller");
    CHECK(field(result, "log") == lines({"header n=-4 who=caller", "delegating negative -4", "handled 4 for callee"}));

    const auto direct = rules.evaluate({{"n", 2}});
    CHECK(field(direct, "who").as_string() == "caller");
    CHECK(field(direct, "result").as_string() == "direct");
    CHECK(field(direct, "note").as_string() == "unset");
    CHECK(field(direct, "log") == lines({"header n=2 who=caller", "direct 2"}));
  }

  TEST_CASE("a called rule set's record holds the defaults of the fields its rule left alone") {
    // The callee writes only `b`: `a` and `c` are read from the record value as their defaults.
    const snnplan::testing::TempFile leaf("leaf.yaml", R"(snnplan: 1
inputs: {n: {type: int}}
record:
  a: {type: string, default: first}
  b: {type: int, default: 0}
  c: {type: "list[int]?", default: [4, 5]}
  why: {type: rationale}
start: only
tables:
  only: [{name: one, set: {b: = n * 2}, because: "doubled {n}"}]
)");
    const snnplan::testing::TempFile top("top.yaml", R"(snnplan: 1
uses: {leaf: leaf.yaml}
inputs: {n: {type: int}}
let:
  sub: {call: leaf, with: {n: = n}}
record:
  a: {type: string, init: = sub.a}
  b: {type: int, default: 0}
  c: {type: "list[int]?", init: = sub.c}
  lines: {type: "list[string]", init: = sub.why}
start: only
tables:
  only: [{name: one, set: {b: = sub.b}}]
)");
    const RuleSet rules = RuleSet::from_file(top.path());
    const auto result = rules.evaluate({{"n", 21}});
    REQUIRE(result.ok());
    CHECK(field(result, "a").as_string() == "first");
    CHECK(field(result, "b").as_int() == 42);
    CHECK(field(result, "c") == Value(Value::List{Value(4), Value(5)}));
    CHECK(field(result, "lines") == lines({"doubled 21"}));
  }

  TEST_CASE("an invariant's call after the deepest chain of table calls runs at its own rule set's level") {
    // t0 -> ... -> t32 is the deepest walk the evaluator allows (32 nested calls). The
    // invariant's `call` belongs to the top rule set, one level below it, not below t32.
    const snnplan::testing::TempFile leaf("leaf.yaml", R"(snnplan: 1
inputs: {n: {type: int}}
record: {v: {type: int, init: = n}}
start: only
tables:
  only: [{name: one, set: {v: = n}}]
)");
    std::string text = R"(snnplan: 1
uses: {leaf: leaf.yaml}
inputs: {n: {type: int}}
let:
  sub: {call: leaf, with: {n: = n}}
record: {v: {type: int, default: 0}}
ensure:
  - {name: leaf-agrees, require: "sub.v == n", message: "the leaf disagrees"}
start: t0
tables:
)";
    for (int k = 0; k <= 32; ++k) {
      text += "  t" + std::to_string(k) + ": [{name: r" + std::to_string(k);
      text += k < 32 ? ", next: t" + std::to_string(k + 1) + "}]\n" : ", set: {v: 1}}]\n";
    }
    const snnplan::testing::TempFile top("deep.yaml", text);
    const RuleSet rules = RuleSet::from_file(top.path());
    const auto result = rules.evaluate({{"n", 1}});
    CHECK(field(result, "v").as_int() == 1);
  }

  TEST_CASE("an error rule stops evaluation with its rendered message as a rule error") {
    const auto result = tiers().evaluate({{"size", -1}, {"strict", true}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == EvaluationErrorKind::rule_error);
    CHECK(result.error().message == "negative size -1 in strict mode");
  }

  TEST_CASE("when no rule matches the error names the table") {
    const auto result = tiers().evaluate({{"size", -1}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == EvaluationErrorKind::rule_error);
    CHECK(result.error().message == "no rule of table 'main' matched these inputs");
  }

  TEST_CASE("a missing required input is a bad-input error") {
    const auto result = tiers().evaluate({{"name", "x"}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == EvaluationErrorKind::bad_input);
    CHECK(result.error().message == "missing required input 'size'");
  }

  TEST_CASE("a null input counts as not given") {
    const auto missing = tiers().evaluate({{"size", nullptr}});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "missing required input 'size'");

    const auto defaulted = tiers().evaluate({{"size", 3}, {"name", nullptr}});
    CHECK(field(defaulted, "label").as_string() == "anon");
  }

  TEST_CASE("an unknown input is a bad-input error with a suggestion") {
    auto result = tiers().evaluate({{"size", 3}, {"nme", "x"}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == EvaluationErrorKind::bad_input);
    CHECK(result.error().message == "unknown input 'nme' (did you mean 'name'?)");

    result = tiers().evaluate({{"size", 3}, {"colour", "red"}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == "unknown input 'colour'");
  }

  TEST_CASE("an input of the wrong type is a bad-input error") {
    auto result = tiers().evaluate({{"size", "ten"}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == EvaluationErrorKind::bad_input);
    CHECK(result.error().message == "input 'size' must be int, got string");

    result = tiers().evaluate({{"size", 3}, {"strict", 1}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == "input 'strict' must be bool, got int");

    result = tiers().evaluate({{"size", 2.5}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == "input 'size' must be int, got float");
  }

  TEST_CASE("a value outside one_of fails with the input's error template") {
    const auto result = tiers().evaluate({{"size", 3}, {"mode", "turbo"}, {"name", "Zed"}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == EvaluationErrorKind::rule_error);
    CHECK(result.error().message == "mode 'turbo' is not supported for zed");
  }

  TEST_CASE("a value outside one_of without an error template gets the generic message") {
    const RuleSet rules = RuleSet::from_string(R"(snnplan: 1
inputs:
  color: {type: string, one_of: [red, green]}
record:
  out: {type: string, init: = color}
start: main
tables:
  main:
    - name: only
      set: {out: = color}
)",
                                               "test.yaml");
    const auto result = rules.evaluate({{"color", "blue"}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == EvaluationErrorKind::rule_error);
    CHECK(result.error().message == "input 'color' has a value that is not allowed: 'blue'");
    CHECK(field(rules.evaluate({{"color", "green"}}), "out").as_string() == "green");
  }

  TEST_CASE("lower: true lower-cases an input before one_of and rules see it") {
    const auto result = tiers().evaluate({{"size", 3}, {"mode", "MaNuAl"}, {"name", "MiXeD"}});
    CHECK(field(result, "tier").as_string() == "big");
    CHECK(field(result, "label").as_string() == "mixed");
  }

  TEST_CASE("the reference's prefer check is case-insensitive and reports the original error") {
    const auto& rules = RuleSet::builtin();
    const auto ok = rules.evaluate({{"model", "vgg"}, {"world_size", 1}, {"prefer", "SPEED"}, {"batch_size", 8}});
    CHECK(field(ok, "prefer").as_string() == "speed");

    const auto bad = rules.evaluate({{"model", "vgg"}, {"world_size", 4}, {"prefer", "Fast"}, {"batch_size", 8}});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().kind == EvaluationErrorKind::rule_error);
    CHECK(bad.error().message == "Unsupported prefer='fast'. Expected one of ('speed', 'memory', 'capacity').");
  }

  TEST_CASE("evaluating from eight threads at once gives the same results as one thread") {
    const RuleSet& rules = RuleSet::builtin();
    const std::vector<Inputs> cases = {
        {{"model", "cifar10dvs_vgg"}, {"world_size", 8}, {"prefer", "speed"}, {"batch_size", 64}},
        {{"model", "spikformer_8_384"}, {"world_size", 8}, {"prefer", "memory"}, {"batch_size", 64}},
        {{"model", "resnet"}, {"world_size", 6}, {"prefer", "capacity"}, {"batch_size", 48}},
        {{"model", "resnet"}, {"world_size", 16}, {"prefer", "capacity"}, {"batch_size", 8}},
        {{"model", "resnet"}, {"world_size", 4}, {"prefer", "bogus"}, {"batch_size", 8}},
        {{"model", "resnet"}, {"world_size", 3}, {"prefer", "memory"}, {"batch_size", 8}, {"tensor_parallel_available", false}},
    };
    // Each thread evaluates both ways: an owning record, and views into its own Evaluation.
    auto render_all = [&] {
      std::vector<std::string> out;
      snnplan::Evaluation evaluation;
      for (int round = 0; round < 50; ++round) {
        for (const Inputs& inputs : cases) {
          const auto result = rules.evaluate(inputs);
          out.push_back(result.ok() ? snnplan::render::json_line(snnplan::render::to_json(result.record()))
                                    : "error: " + result.error().message);
          std::string line;
          if (rules.evaluate(inputs, evaluation)) snnplan::render::append_json_line(line, evaluation);
          else line = "error: " + evaluation.error().message;
          out.push_back(line);
        }
      }
      return out;
    };
    const std::vector<std::string> expected = render_all();
    std::vector<std::vector<std::string>> got(8);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < got.size(); ++t) threads.emplace_back([&, t] { got[t] = render_all(); });
    for (std::thread& thread : threads) thread.join();
    for (std::size_t t = 0; t < got.size(); ++t) {
      CAPTURE(t);
      CHECK(got[t] == expected);
    }
    CHECK(expected.size() == 600);
    for (std::size_t k = 0; k < expected.size(); k += 2) CHECK(expected[k] == expected[k + 1]);
  }

  TEST_CASE("recommend returns the typed recommendation of the built-in rules") {
    const snnplan::Recommendation rec = snnplan::recommend("cifar10dvs_vgg", 8, "speed", 64);
    CHECK(rec.prefer == "speed");
    CHECK(rec.model == "cifar10dvs_vgg");
    CHECK(rec.world_size == 8);
    CHECK(rec.mode == "fsdp2_tp");
    CHECK(rec.optimizer_sharding == "none");
    CHECK(rec.memopt_level == 0);
    REQUIRE(rec.mesh_shape.has_value());
    CHECK(*rec.mesh_shape == std::vector<std::int64_t>{4, 2});
    CHECK(rec.tp_mesh_dim == 1);
    CHECK(rec.dp_mesh_dim == std::optional<std::int64_t>{0});
    CHECK_FALSE(rec.pp_microbatches.has_value());
    CHECK(rec.pp_memopt_stage_budget_ratio == 0.5);
    CHECK(rec.pp_schedule == "1f1b");
    CHECK(rec.pp_virtual_stages == 1);
    CHECK_FALSE(rec.pp_layout.has_value());
    CHECK_FALSE(rec.pp_delay_wgrad);
    CHECK(rec.rationale ==
          std::vector<std::string>{
              "prefer='speed' with model='cifar10dvs_vgg', world_size=8, backend='inductor'.",
              "Use fsdp2_tp on multi-GPU CIFAR10DVSVGG because current inductor benchmarks show the best global "
              "throughput there."});
  }

  TEST_CASE("recommend for capacity chooses the interleaved pipeline with its microbatch count") {
    const snnplan::Recommendation rec = snnplan::recommend("spikformer_8_384", 4, "capacity", 64);
    CHECK(rec.mode == "pp");
    CHECK(rec.memopt_level == 1);
    CHECK(rec.pp_schedule == "interleaved");
    CHECK(rec.pp_virtual_stages == 2);
    CHECK(rec.pp_microbatches == std::optional<std::int64_t>{32});
    CHECK_FALSE(rec.mesh_shape.has_value());
    CHECK_FALSE(rec.dp_mesh_dim.has_value());
  }

  TEST_CASE("recommend passes availability flags through to the rules") {
    snnplan::RecommendOptions options;
    options.zero_redundancy_optimizer_available = false;
    const auto dp = snnplan::recommend("resnet", 4, "speed", 64, options);
    CHECK(dp.mode == "dp");
    CHECK(dp.optimizer_sharding == "none");
    CHECK(snnplan::recommend("resnet", 4, "speed", 64).optimizer_sharding == "zero");

    options = {};
    options.tensor_parallel_available = false;
    const auto fsdp2 = snnplan::recommend("resnet", 4, "memory", 64, options);
    CHECK(fsdp2.mode == "fsdp2");
    CHECK_FALSE(fsdp2.mesh_shape.has_value());
  }

  TEST_CASE("recommend throws RuleError with the reference message for an unsupported prefer") {
    CHECK_THROWS_WITH_AS(snnplan::recommend("cifar10dvs_vgg", 8, "bogus", 64),
                         "Unsupported prefer='bogus'. Expected one of ('speed', 'memory', 'capacity').",
                         snnplan::RuleError);
  }

  TEST_CASE("recommend throws RuleError for a pipeline batch that cannot be split") {
    // Two ranks, interleaved: 4 virtual stages, and prime 17 has no divisor in [4, 16].
    CHECK_THROWS_WITH_AS(snnplan::recommend("resnet", 2, "capacity", 17),
                         "batch_size (17) must be divisible by at least one microbatch count in [4, 16] for pipeline "
                         "parallelism.",
                         snnplan::RuleError);
  }

  TEST_CASE("to_recommendation throws InputError for a record without the reference's fields") {
    const RuleSet rules = RuleSet::from_string(R"(snnplan: 1
inputs:
  x: {type: int}
record:
  prefer: {type: string, default: speed}
start: main
tables:
  main:
    - name: only
      when: {x: 1}
      set: {prefer: memory}
    - name: other
      set: {prefer: speed}
)",
                                               "test.yaml");
    const auto result = rules.evaluate({{"x", 1}});
    REQUIRE(result.ok());
    CHECK_THROWS_WITH_AS((void)snnplan::to_recommendation(result.record()), "the record has no field 'model'",
                         snnplan::InputError);
  }

  TEST_CASE("the rule file on disk behaves like the built-in rules and is the same text") {
    const std::string path = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
    CHECK(read_file(path) == RuleSet::builtin_text());
    const RuleSet from_disk = RuleSet::from_file(path);
    CHECK(from_disk.file_name() == path);
    CHECK(from_disk.warnings().empty());
    CHECK(RuleSet::builtin().warnings().empty());
    REQUIRE(from_disk.inputs().size() == RuleSet::builtin().inputs().size());
    for (std::size_t k = 0; k < from_disk.inputs().size(); ++k) {
      CHECK(from_disk.inputs()[k].name == RuleSet::builtin().inputs()[k].name);
      CHECK(from_disk.inputs()[k].type == RuleSet::builtin().inputs()[k].type);
      CHECK(from_disk.inputs()[k].required == RuleSet::builtin().inputs()[k].required);
    }
    for (const char* prefer : {"speed", "memory", "capacity", "bogus"}) {
      for (std::int64_t world : {1, 2, 3, 4, 8}) {
        for (std::int64_t batch : {1, 8, 9, 64}) {
          const Inputs inputs = {{"model", "cifar10dvs_vgg"}, {"world_size", world}, {"prefer", prefer}, {"batch_size", batch}};
          CAPTURE(prefer);
          CAPTURE(world);
          CAPTURE(batch);
          const auto a = from_disk.evaluate(inputs);
          const auto b = RuleSet::builtin().evaluate(inputs);
          REQUIRE(a.ok() == b.ok());
          if (a.ok()) {
            CHECK(a.record().names() == b.record().names());
            CHECK(a.record().values() == b.record().values());
          } else {
            CHECK(a.error().message == b.error().message);
          }
        }
      }
    }
    CHECK(snnplan::recommend("spikformer_8_384", 8, "memory", 64, {}, from_disk) ==
          snnplan::recommend("spikformer_8_384", 8, "memory", 64));
  }

  TEST_CASE("the built-in rules declare the reference's inputs, required ones first") {
    const auto& inputs = RuleSet::builtin().inputs();
    REQUIRE(inputs.size() == 9);
    CHECK(inputs[0].name == "model");
    CHECK(inputs[0].type == "string");
    CHECK(inputs[0].required);
    CHECK(inputs[1].name == "world_size");
    CHECK(inputs[1].type == "int");
    CHECK(inputs[4].name == "backend");
    CHECK_FALSE(inputs[4].required);
    CHECK(inputs[8].name == "tensor_parallel_available");
    CHECK(inputs[8].type == "bool");
  }
}
