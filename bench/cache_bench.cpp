// Loading rules without parsing YAML (issue 21).
//
//   cache/yaml/N        RuleSet::from_file of a generated table of N rules (bench/scaling_rules),
//                       no cache: read, parse YAML, check, compile
//   cache/first/N       the same with LoadOptions::use_cache into an empty cache: all of the
//                       above plus writing the compiled form
//   cache/second/N      the same file again: the compiled form read back from the cache
//   cache/read/N        the baseline of cache/second/N, in the same run: only reading the rule
//                       file and its cache file into memory (what a load from the cache cannot
//                       do without), with nothing decoded
//   yaml-cpp/events/N   yaml-cpp's own event parser over the same text with a handler that does
//                       nothing: the floor of any loader built on yaml-cpp (its scanner)
//   yaml-cpp/nodes/N    YAML::Load of the same text: yaml-cpp's node tree, what the loader reads
//   builtin/yaml        the built-in rules from their YAML text (RuleSet::from_string)
//   builtin/compiled    the built-in rules from their embedded compiled form (what
//                       RuleSet::builtin() does)
//
// The cache lives in a temporary directory ($XDG_CACHE_HOME is set to it), removed at exit; the
// rule files are written there too and named relative to it (the working directory).

#include <benchmark/benchmark.h>

#include <stdlib.h>
#include <unistd.h>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/rule_set_access.hpp"
#include "compile/serialized_rules.hpp"
#include "scaling_rules.hpp"
#include "snnplan/rule_set.hpp"

namespace {

namespace fs = std::filesystem;

std::string g_home;

// Named relative to the working directory (the temporary one), as `--rules big.yaml` names it:
// every source location holds the name, and a long one costs an allocation per location.
std::string rule_file(int n) {
  const std::string path = "scaling_" + std::to_string(n) + ".yaml";
  if (!fs::exists(path)) std::ofstream(path) << bench::scaling_rules(n);
  return path;
}

void yaml_load(benchmark::State& state, int n) {
  const std::string path = rule_file(n);
  for (auto _ : state) benchmark::DoNotOptimize(snnplan::RuleSet::from_file(path));
}

// Receives every event and keeps nothing.
class IgnoreEvents final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string& value) override {
    bytes += value.size();
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
  std::size_t bytes = 0;
};

void yaml_cpp_events(benchmark::State& state, int n) {
  const std::string text = bench::scaling_rules(n);
  for (auto _ : state) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    IgnoreEvents events;
    while (parser.HandleNextDocument(events)) {
    }
    benchmark::DoNotOptimize(events.bytes);
  }
}

void yaml_cpp_nodes(benchmark::State& state, int n) {
  const std::string text = bench::scaling_rules(n);
  for (auto _ : state) benchmark::DoNotOptimize(YAML::Load(text));
}

void first_load(benchmark::State& state, int n) {
  const std::string path = rule_file(n);
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(g_home + "/cache");
    state.ResumeTiming();
    benchmark::DoNotOptimize(snnplan::RuleSet::from_file(path, snnplan::LoadOptions{.use_cache = true}));
  }
}

void second_load(benchmark::State& state, int n) {
  const std::string path = rule_file(n);
  static_cast<void>(snnplan::RuleSet::from_file(path, snnplan::LoadOptions{.use_cache = true}));
  for (auto _ : state)
    benchmark::DoNotOptimize(snnplan::RuleSet::from_file(path, snnplan::LoadOptions{.use_cache = true}));
  state.counters["cache_bytes"] = 0;
  for (const auto& entry : fs::directory_iterator(g_home + "/cache/snnplan"))
    state.counters["cache_bytes"] += static_cast<double>(entry.file_size());
}

std::size_t read_whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(fs::file_size(path), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<std::size_t>(in.gcount());
}

void read_only(benchmark::State& state, int n) {
  const std::string path = rule_file(n);
  static_cast<void>(snnplan::RuleSet::from_file(path, snnplan::LoadOptions{.use_cache = true}));
  std::vector<fs::path> cached;
  for (const auto& entry : fs::directory_iterator(g_home + "/cache/snnplan")) cached.push_back(entry.path());
  for (auto _ : state) {
    std::size_t bytes = read_whole_file(path);
    for (const fs::path& file : cached) bytes += read_whole_file(file);
    benchmark::DoNotOptimize(bytes);
  }
}

void builtin_yaml(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(snnplan::RuleSet::from_string(snnplan::RuleSet::builtin_text(), "rules/snn_distributed.yaml"));
}

void builtin_compiled(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(snnplan::RuleSetAccess::builtin("snn_distributed.yaml"));
}

}  // namespace

int main(int argc, char** argv) {
  std::string pattern = (fs::temp_directory_path() / "snnplan-cache-bench.XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return 1;
  g_home = pattern;
  if (::chdir(g_home.c_str()) != 0) return 1;
  ::setenv("XDG_CACHE_HOME", (g_home + "/cache").c_str(), 1);
  ::unsetenv("SNNPLAN_NO_CACHE");
  for (int n : {1000, 10000}) {
    const std::string s = std::to_string(n);
    const int iterations = n >= 10000 ? 3 : 10;
    benchmark::RegisterBenchmark(("cache/yaml/" + s).c_str(), yaml_load, n)->Unit(benchmark::kMillisecond)->Iterations(iterations);
    benchmark::RegisterBenchmark(("yaml-cpp/events/" + s).c_str(), yaml_cpp_events, n)->Unit(benchmark::kMillisecond)->Iterations(iterations);
    benchmark::RegisterBenchmark(("yaml-cpp/nodes/" + s).c_str(), yaml_cpp_nodes, n)->Unit(benchmark::kMillisecond)->Iterations(iterations);
    benchmark::RegisterBenchmark(("cache/first/" + s).c_str(), first_load, n)->Unit(benchmark::kMillisecond)->Iterations(iterations);
    benchmark::RegisterBenchmark(("cache/second/" + s).c_str(), second_load, n)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("cache/read/" + s).c_str(), read_only, n)->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("builtin/yaml", builtin_yaml)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("builtin/compiled", builtin_compiled)->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fs::remove_all(g_home);
  return 0;
}
