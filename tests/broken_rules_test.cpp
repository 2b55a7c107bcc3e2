// A corpus of broken rule files, each with the exact first error it must produce.
//
// tests/data/broken/<case>.yaml sits beside <case>.expected, which holds two lines:
// `<case>.yaml:LINE:COL: error: MESSAGE` and `code: CODE`. To add a case, write the .yaml, run
// `snnplan check <case>.yaml` from that directory, and check that the position points at the
// offending token before saving the first error line (without the ` [CODE]` `check` ends it
// with) and its code as <case>.expected.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "snnplan/snnplan.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(SNNPLAN_TEST_DATA) / "broken";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }
std::string second_line(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? "" : first_line(text.substr(end + 1));
}

std::vector<fs::path> files_with_extension(const std::string& extension) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kCorpus))
    if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The first error diagnostic of loading `text`, or nullopt when it loads.
std::optional<snnplan::Diagnostic> first_error(const std::string& text, const std::string& file_name) {
  try {
    (void)snnplan::RuleSet::from_string(text, file_name);
  } catch (const snnplan::LoadError& e) {
    for (const snnplan::Diagnostic& d : e.diagnostics())
      if (d.severity == snnplan::Severity::error) return d;
  }
  return std::nullopt;
}

}  // namespace

TEST_SUITE("broken rules") {
  TEST_CASE("every broken rule file has an expected first error and every expectation has its file") {
    const auto yaml_files = files_with_extension(".yaml");
    const auto expected_files = files_with_extension(".expected");
    CHECK(yaml_files.size() >= 15);
    CHECK(yaml_files.size() == expected_files.size());
    for (const fs::path& yaml : yaml_files) {
      CAPTURE(yaml.string());
      CHECK(fs::exists(fs::path(yaml).replace_extension(".expected")));
    }
    for (const fs::path& expected : expected_files) {
      CAPTURE(expected.string());
      CHECK(fs::exists(fs::path(expected).replace_extension(".yaml")));
    }
  }

  TEST_CASE("each broken rule file fails to load with exactly its expected first error") {
    std::size_t checked = 0;
    for (const fs::path& yaml : files_with_extension(".yaml")) {
      const std::string name = yaml.filename().string();
      CAPTURE(name);
      const fs::path expected_path = fs::path(yaml).replace_extension(".expected");
      if (!fs::exists(expected_path)) continue;  // reported by the test above
      const std::string text = read_text(expected_path);
      const std::string expected = first_line(text);
      REQUIRE_FALSE(expected.empty());
      CHECK(expected.rfind(name + ":", 0) == 0);

      const auto error = first_error(read_text(yaml), name);
      REQUIRE_MESSAGE(error.has_value(), name << " loaded without errors");
      CHECK(snnplan::format(*error) == expected);
      CHECK("code: " + error->code == second_line(text));
      CHECK(error->location.file == name);
      CHECK(error->location.line >= 1);
      CHECK(error->location.column >= 1);
      ++checked;
    }
    CHECK(checked == 34);
  }

  TEST_CASE("loading a broken rule file from disk reports the same first error under its path") {
    for (const fs::path& yaml : files_with_extension(".yaml")) {
      const std::string name = yaml.filename().string();
      CAPTURE(name);
      const fs::path expected_path = fs::path(yaml).replace_extension(".expected");
      if (!fs::exists(expected_path)) continue;
      const std::string expected = first_line(read_text(expected_path));
      try {
        (void)snnplan::RuleSet::from_file(yaml.string());
        FAIL(name << " loaded without errors");
      } catch (const snnplan::LoadError& e) {
        // what() is "file:line:column: message" for the first error; positions in the message
        // (e.g. "first declared at") name the file as it was passed too.
        std::string full = expected;
        for (auto at = full.find(name); at != std::string::npos; at = full.find(name, at + yaml.string().size()))
          full.replace(at, name.size(), yaml.string());
        const std::string marker = ": error: ";
        const auto at = full.find(marker);
        REQUIRE(at != std::string::npos);
        const std::string without_severity = full.substr(0, at) + ": " + full.substr(at + marker.size());
        CHECK(std::string(e.what()) == without_severity);
      }
    }
  }
}
