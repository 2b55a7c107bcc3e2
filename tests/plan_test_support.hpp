#pragma once
// What the plan tests share (plan_test.cpp, plan_cli_test.cpp): the error a call throws, the
// golden plans, the fields of a plan, and the check of upstream's own plans.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
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

namespace plan_test {

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
inline std::string input_error(F make) {
  try {
    make();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

template <typename F>
inline std::string rule_error(F make) {
  try {
    make();
  } catch (const RuleError& e) {
    return e.what();
  }
  return "";
}

// The message of whatever plan() throws: a refusal of the rules or of the inputs.
template <typename F>
inline std::string refusal(F make) {
  try {
    make();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

inline std::string topology_error(const std::string& text) {
  return input_error([&] { (void)Topology::parse(text); });
}

inline std::string mapping_error(const snnplan::TopologyMapping& dims, const Value& world_size = Value()) {
  return input_error([&] { (void)Topology::from_mapping(dims, world_size); });
}

struct GoldenPlan {
  std::size_t line_number = 0;
  json input;
  json expected;
};

inline std::vector<GoldenPlan> golden_plans() {
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

inline std::vector<std::string> keys_of(const json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

inline const std::vector<std::string> kPlanFields = {"mode",
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

inline const std::vector<std::string> kMemory8 = {"plan",       "--objective",    "memory",
                                           "--topology", "dp=4,tp=2",      "--batch-size",
                                           "64",         "--model-family", "cifar10dvs_vgg"};

inline PlanOptions with_mode(std::string mode) {
  PlanOptions options;
  options.mode = std::move(mode);
  return options;
}

inline std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

inline const char* const kPipelineRefusal =
    "Pipeline parallelism ('pp') is not supported by the unified analyze/plan/apply API. Please "
    "use the dedicated "
    "pipeline configuration path directly.";
inline const char* const kZeroNote =
    "Zero optimizer was disabled by DistributedFeatureSet; planner fell back to "
    "optimizer_strategy='none'.";

// Golden cases from upstream's own plan() at one commit (tools/gen_plan_golden.py --snapshot;
// see tests/data/plan/README.md): every error class and branch of plan_parity.py's requests.
// Each snapshot's file is checked with the plan rules that reproduce it.
struct UpstreamPlans {
  const char* file;               // under tests/data/plan/
  const snnplan::RuleSet& rules;  // the plan rules of that commit
  // Fields upstream's plan has that snnplan does not model (they are not compared).
  std::vector<std::string> unmodelled;
  // Fields snnplan's plan has that upstream's plan at that commit does not.
  std::vector<std::string> extra;
};

// Every line of `golden` through plan --batch's code with its rules. A plan is compared field
// by field on the fields upstream's plan has, and any other field snnplan prints is a mismatch
// unless `extra` names it: at HEAD snnplan's Plan still holds the seed's pp_* fields, which
// HEAD's plan dropped, and HEAD's mesh properties follow its fields, so field order is not
// compared here (the seed's order is, against plan.jsonl, below). Errors are compared word for
// word.
inline void check_upstream_plans(const UpstreamPlans& golden) {
  std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/plan/" + golden.file);
  REQUIRE(in.good());
  std::size_t cases = 0, errors = 0, beyond_64_bits = 0, mismatches = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++cases;
    const json row = json::parse(line);
    json expected = row.at("expected");
    for (const std::string& name : golden.unmodelled) expected.erase(name);
    const auto planned = snnplan::request::plan_json_line(row.at("input").dump(), golden.rules);
    const bool ok = planned.kind == snnplan::request::PlannedLine::Kind::ok;
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
    json got = json{{"error", planned.text}};
    if (ok && !expected.contains("error")) {
      const json plan_fields = json::parse(planned.text);
      got = json::object();
      for (auto it = expected.begin(); it != expected.end(); ++it)
        got[it.key()] = plan_fields.contains(it.key()) ? plan_fields.at(it.key()) : json("<missing>");
      for (auto it = plan_fields.begin(); it != plan_fields.end(); ++it)
        if (!expected.contains(it.key()) &&
            std::find(golden.extra.begin(), golden.extra.end(), it.key()) == golden.extra.end())
          got[it.key()] = it.value();  // a field upstream's plan does not have: a mismatch
    } else if (ok) {
      got = json::parse(planned.text);
    }
    if (got == expected) continue;
    if (++mismatches <= 5) {
      CAPTURE(cases);
      CAPTURE(row.at("input").dump());
      CHECK(got.dump() == expected.dump());
    }
  }
  CHECK(mismatches == 0);
  CHECK(cases >= 3000);
  CHECK(errors >= 1000);  // most random requests have a fault somewhere; each class is present
  CHECK(beyond_64_bits < 150);
}


}  // namespace plan_test
