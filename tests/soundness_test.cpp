// The soundness campaign's fixed-seed sample (issue 31, docs/soundness.md): mutants of every
// shipped rule file that `check` passes never fail at evaluation with a rule-file error the
// check did not warn of. The figures are asserted to show real work -- mutants rejected and
// mutants passed, inputs evaluated -- so a campaign that mutates nothing cannot pass.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "soundness/campaign.hpp"

namespace {

namespace fs = std::filesystem;

// Sanitizer builds run 10-50 times slower: a sixth of the mutants there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr std::uint64_t kMutants = 400;
#else
constexpr std::uint64_t kMutants = 2400;
#endif

std::vector<snnplan::soundness::BaseFile> shipped_rule_files() {
  const fs::path rules(SNNPLAN_RULES_DIR);
  std::vector<fs::path> paths{rules / "snn_distributed.yaml", rules / "snn_plan.yaml"};
  for (const auto& entry : fs::directory_iterator(rules / "history"))
    if (entry.path().extension() == ".yaml" && entry.path().string().find(".test.") == std::string::npos)
      paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  std::vector<snnplan::soundness::BaseFile> files;
  for (const fs::path& p : paths) files.push_back({p.filename().string(), snnplan::testing::read_text(p.string())});
  return files;
}

}  // namespace

TEST_SUITE("soundness") {
  TEST_CASE("no mutant of a shipped rule file that check passes fails at evaluation with a rule-file error") {
    const auto files = shipped_rule_files();
    REQUIRE(files.size() == 7);
    const snnplan::soundness::Figures figures =
        snnplan::soundness::run_campaign(files, {.mutants = kMutants, .seed = 31});
    const std::string report = snnplan::soundness::report(figures);
    std::cout << report;
    CHECK_MESSAGE(figures.misses == 0, report);
    CHECK(figures.mutants == kMutants);
    // The campaign really mutates: the check refuses many mutants and passes many others,
    // each of which is evaluated at its regions' points and at random ones.
    CHECK(figures.rejected >= kMutants / 5);
    CHECK(figures.passed >= kMutants / 5);
    CHECK(figures.rejected + figures.passed == figures.mutants);
    CHECK(figures.inputs >= figures.passed * 40);
    CHECK(figures.operators.size() >= 40);
  }
}
