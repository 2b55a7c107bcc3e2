// The language server's answer to a change (issue 33: diagnostics for the default rule file
// within 50 ms of a change): one didChange of rules/snn_distributed.yaml handled in-process by
// lsp::Server, from the JSON message to the publishDiagnostics written (the same analysis
// `snnplan check` runs, with the table analysis), against `snnplan check` of the same text run
// in-process through the CLI, measured in the same run. The text alternates between the file
// and a one-threshold edit, so that no iteration sees the text of the one before.

#include <benchmark/benchmark.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "frontends/cli/app.hpp"
#include "frontends/lsp/server.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The default table, and the same with the interleaved pipeline's world_size threshold moved.
const std::vector<std::string>& texts() {
  static const std::vector<std::string> both = [] {
    std::string text = read_file(SNNPLAN_DEFAULT_RULES_FILE);
    std::string edited = text;
    const std::string from = "world_size: {ge: 2}, batch_size";
    edited.replace(edited.find(from), from.size(), "world_size: {ge: 4}, batch_size");
    return std::vector<std::string>{text, edited};
  }();
  return both;
}

constexpr const char* kRoot = "/tmp/snnplan_lsp_bench";
constexpr const char* kUri = "file:///tmp/snnplan_lsp_bench/snn_distributed.yaml";

std::string message(const nlohmann::json& body) {
  return body.dump();
}

void BM_lsp_diagnostics_after_change(benchmark::State& state) {
  std::ostringstream out;
  snnplan::lsp::Server server(out, {});
  server.handle(message({{"jsonrpc", "2.0"},
                         {"id", 1},
                         {"method", "initialize"},
                         {"params",
                          {{"rootUri", std::string("file://") + kRoot},
                           {"capabilities", nlohmann::json::object()}}}}));
  server.handle(message(
      {{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", nlohmann::json::object()}}));
  server.handle(message(
      {{"jsonrpc", "2.0"},
       {"method", "textDocument/didOpen"},
       {"params",
        {{"textDocument",
          {{"uri", kUri}, {"languageId", "yaml"}, {"version", 1}, {"text", texts()[0]}}}}}}));
  std::vector<std::string> changes;
  for (int version = 2; version < 4; ++version)
    changes.push_back(message(
        {{"jsonrpc", "2.0"},
         {"method", "textDocument/didChange"},
         {"params",
          {{"textDocument", {{"uri", kUri}, {"version", version}}},
           {"contentChanges", {{{"text", texts()[static_cast<std::size_t>(version % 2)]}}}}}}}));
  std::size_t k = 0;
  for (auto _ : state) {
    out.str({});
    server.handle(changes[k++ % 2]);
    benchmark::DoNotOptimize(out.str().size());
  }
  if (server.document(kUri) == nullptr || !server.document(kUri)->rules())
    state.SkipWithError("the default rules did not load in the server");
}
BENCHMARK(BM_lsp_diagnostics_after_change)
    ->Name("lsp/diagnostics_after_change/default_rules")
    ->Unit(benchmark::kMillisecond);

void BM_check_in_process(benchmark::State& state) {
  // `snnplan check -` reads the text from standard input, as the server has it: no file read.
  std::size_t k = 0;
  for (auto _ : state) {
    std::istringstream in(texts()[k++ % 2]);
    std::ostringstream out;
    std::ostringstream err;
    const char* argv[] = {"snnplan", "check", "-"};
    const int code = snnplan::cli::run(3, argv, in, out, err);
    benchmark::DoNotOptimize(code);
    if (code != 0) state.SkipWithError("snnplan check failed on the default rules");
  }
}
BENCHMARK(BM_check_in_process)
    ->Name("check/in_process/default_rules")
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
