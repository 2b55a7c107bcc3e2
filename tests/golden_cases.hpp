#pragma once
// Golden cases shared by the tests that keep them (table_analysis_test.cpp, checker_test.cpp):
// a directory of <case>.yaml files, each beside its <case>.expected.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "snnplan/snnplan.hpp"

namespace snnplan::testing {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The names of the cases in `directory` (its .yaml files without the extension), sorted.
inline std::vector<std::string> case_names(const std::filesystem::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.is_regular_file() && entry.path().extension() == ".yaml")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Checks that `directory` has at least `at_least` cases and that every case has its
/// .expected file and every .expected file its case.
inline void check_cases_are_paired(const std::filesystem::path& directory, std::size_t at_least) {
  const auto names = case_names(directory);
  CHECK(names.size() >= at_least);
  for (const std::string& name : names) {
    CAPTURE(name);
    CHECK(std::filesystem::exists(directory / (name + ".expected")));
  }
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() != ".expected") continue;
    CAPTURE(entry.path().string());
    CHECK(std::filesystem::exists(std::filesystem::path(entry.path()).replace_extension(".yaml")));
  }
}

/// The default rules with one piece of text replaced (which must be there).
inline std::string default_rules_with(const std::string& from, const std::string& to) {
  std::string text(RuleSet::builtin_text());
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "the default rules do not contain: " << from);
  text.replace(at, from.size(), to);
  return text;
}

}  // namespace snnplan::testing
