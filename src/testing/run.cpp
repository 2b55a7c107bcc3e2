// snnplan::run_rule_tests (include/snnplan/rule_tests.hpp): test files read through load/,
// checked against the rules, then run (testing/rule_tests.hpp).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "testing/messages.hpp"
#include "load/rule_tests.hpp"
#include "snnplan/rule_tests.hpp"
#include "testing/rule_tests.hpp"

namespace snnplan {
namespace {

std::string read_test_file(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw TestFileError(path, messages::cannot_read_tests(path, "it is a directory"));
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw TestFileError(
        path, messages::cannot_read_tests(path, errno ? std::strerror(errno) : "cannot open it"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

RuleTestReport run_rule_tests_from_strings(const RuleSet& rules,
                                           const std::vector<SourceText>& files,
                                           const RuleTestOptions& options) {
  std::vector<Diagnostic> problems;
  std::vector<load::RuleTestCase> cases;
  for (const SourceText& file : files) {
    std::vector<load::RuleTestCase> loaded = load::load_rule_tests(file.text, file.file, problems);
    cases.insert(cases.end(), std::make_move_iterator(loaded.begin()),
                 std::make_move_iterator(loaded.end()));
  }
  // What the cases say about the rules is checked only in files whose shape is right.
  if (problems.empty()) testing::check_rule_tests(rules, cases, problems);
  if (!problems.empty()) {
    RuleTestReport report;
    report.problems = std::move(problems);
    return report;
  }
  return testing::run_cases(rules, cases, options);
}

RuleTestReport run_rule_tests(const RuleSet& rules, const std::vector<std::string>& paths,
                              const RuleTestOptions& options) {
  std::vector<SourceText> files;
  for (const std::string& path : paths) files.push_back(SourceText{path, read_test_file(path)});
  return run_rule_tests_from_strings(rules, files, options);
}

}  // namespace snnplan
