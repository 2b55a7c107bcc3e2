// The broken rule corpus (tests/data/broken) under every command: rows of the bad-input matrix
// (tests/bad_input_matrix.hpp has the harness and the list of its files).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bad_input_matrix.hpp"

namespace bad_input_matrix {
namespace {

const fs::path kBrokenCorpus = fs::path(SNNPLAN_TEST_DATA) / "broken";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line of `text` that reports an error (warnings about the same file may come first).
std::string first_error_line(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (contains(line, ": error: ")) return line;
  return "(no error line)";
}

// "file:line:column: error: message" of one diagnostic of `check --format json`.
std::string fmt_location(const nlohmann::json& d) {
  return d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()) + ":" +
         std::to_string(d.at("column").get<int>()) +
         ": error: " + d.at("message").get<std::string>();
}

}  // namespace

// Each tests/data/broken/<case>.yaml with the first line of <case>.expected, the file name in
// it replaced by the path the CLI is given.
std::vector<BrokenFile> broken_files() {
  std::vector<BrokenFile> files;
  for (const auto& entry : fs::directory_iterator(kBrokenCorpus)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().filename().string();
    const std::string path = entry.path().string();
    const std::string text = read_text(fs::path(entry.path()).replace_extension(".expected"));
    std::string expected = text.substr(0, text.find('\n'));
    for (auto at = expected.find(name); at != std::string::npos;
         at = expected.find(name, at + path.size()))
      expected.replace(at, name.size(), path);
    // The second line: "code: CODE".
    std::string code = text.substr(std::min(text.size(), text.find('\n') + 1));
    code = code.substr(0, code.find('\n'));
    if (code.rfind("code: ", 0) == 0) code.erase(0, 6);
    files.push_back({path, expected, code});
  }
  std::sort(files.begin(), files.end(),
            [](const BrokenFile& a, const BrokenFile& b) { return a.path < b.path; });
  return files;
}

TEST_SUITE("bad-input matrix") {
  TEST_CASE("every broken rule file makes check exit 3 with its expected first error on stdout") {
    const auto files = broken_files();
    REQUIRE(files.size() >= 30);
    for (const BrokenFile& file : files) {
      INFO("file: ", file.path);
      const CliRun run = run_cli({"check", file.path});
      INFO("stdout: ", run.out);
      CHECK(run.code == kRulesUnusable);
      CHECK(first_error_line(run.out) == file.first_error + " [" + file.code + "]");
      CHECK(run.err.empty());

      const CliRun json = run_cli({"check", "--format", "json", file.path});
      CHECK(json.code == kRulesUnusable);
      const auto diagnostics = nlohmann::json::parse(json.out, nullptr, false);
      REQUIRE(diagnostics.is_array());
      const auto error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                      [](const auto& d) { return d.at("severity") == "error"; });
      REQUIRE(error != diagnostics.end());
      CHECK(error->at("file") == file.path);
      CHECK(file.first_error == fmt_location(*error));
    }
  }

  TEST_CASE(
      "every broken rule file makes recommend, explain, graph, test and plan exit 3 with the same "
      "first error on stderr") {
    const NoRulesVariable no_rules;
    for (const BrokenFile& file : broken_files()) {
      const std::vector<std::vector<std::string>> commands = {
          with(kRecommend, {"--rules", file.path}),
          {"recommend", "--rules", file.path, "--batch", "-"},
          {"explain", "--rules", file.path, "--model", "m"},
          {"graph", "--rules", file.path},
          {"test", file.path, kRuleTests},
          with(kPlan, {"--rules", file.path}),
      };
      for (const auto& command : commands) {
        INFO("command: ", command_line(command));
        const CliRun run = run_cli(command, "{" + kGood + "}\n");
        INFO("stderr: ", run.err);
        CHECK(run.code == kRulesUnusable);
        CHECK(first_error_line(run.err) == file.first_error);
        CHECK(run.out.empty());
      }
    }
  }
}

}  // namespace bad_input_matrix
