// What reviewing a rule change costs: `snnplan diff` of the default table against a
// one-threshold edit, and `snnplan map` of 512 x 512 cells (evaluated through the fast path,
// RuleSet::evaluate(inputs, Evaluation&), rule paths from the regions), both run in-process
// through the CLI exactly as a user runs them, output into memory.

#include <benchmark/benchmark.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "frontends/cli/app.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The default table with the interleaved pipeline's world_size threshold moved from 2 to 4.
const std::string& edited_rules_path() {
  static const std::string path = [] {
    std::string text = read_file(SNNPLAN_DEFAULT_RULES_FILE);
    const std::string from = "world_size: {ge: 2}, batch_size";
    text.replace(text.find(from), from.size(), "world_size: {ge: 4}, batch_size");
    const std::string out = "/tmp/snnplan_review_bench_edit.yaml";
    std::ofstream(out, std::ios::binary) << text;
    return out;
  }();
  return path;
}

int run(const std::vector<std::string>& args, std::size_t& bytes) {
  std::vector<const char*> argv{"snnplan"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::istringstream in;
  std::ostringstream out, err;
  const int code = snnplan::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  bytes = out.str().size();
  return code;
}

void run_command(benchmark::State& state, const std::vector<std::string>& args, int expected) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    if (run(args, bytes) != expected) {
      state.SkipWithError("unexpected exit code");
      break;
    }
  }
  state.counters["output_bytes"] = static_cast<double>(bytes);
}

void diff_threshold_edit(benchmark::State& state) {
  run_command(state, {"diff", SNNPLAN_DEFAULT_RULES_FILE, edited_rules_path()}, 1);
}

void map_512(benchmark::State& state, const char* format) {
  run_command(state,
              {"map", "--x", "world_size=1..512", "--y", "batch_size=1..512", "--input",
               "model=resnet", "--input", "prefer=capacity", "--format", format},
              0);
  state.counters["cells"] = 512.0 * 512.0;
}

}  // namespace

BENCHMARK(diff_threshold_edit)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(map_512, svg, "svg")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(map_512, json, "json")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
