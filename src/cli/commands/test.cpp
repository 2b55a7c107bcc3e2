// `snnplan test RULES TESTFILE...`: rule tests in YAML and rule coverage (cli/rule_tests.hpp).

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/rule_files.hpp"
#include "cli/rule_tests.hpp"
#include "cli/test_report.hpp"
#include "core/messages.hpp"
#include "load/literals.hpp"

namespace snnplan::cli {
namespace {

struct TestFlags {
  std::string rules;
  std::vector<std::string> rule_roots;
  std::vector<std::string> files;
  bool show_coverage = false;
  double min_coverage = 0;
  std::string format = "text";
};

// The cases of every test file; a file that cannot be read is a UsageError, problems in one
// are diagnostics (all files are read before any is reported).
std::vector<RuleTestCase> read_cases(const std::vector<std::string>& files,
                                     std::vector<Diagnostic>& problems) {
  std::vector<RuleTestCase> cases;
  for (const std::string& path : files) {
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored))
      throw UsageError{messages::cannot_read_tests(path, "it is a directory")};
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw UsageError{
          messages::cannot_read_tests(path, errno ? std::strerror(errno) : "cannot open it")};
    std::stringstream text;
    text << in.rdbuf();
    auto loaded = load_rule_tests(text.str(), path, problems);
    cases.insert(cases.end(), loaded.begin(), loaded.end());
  }
  return cases;
}

ExitCode test(const TestFlags& f, const Streams& io) {
  const RuleSet rules = load_rules(f.rules, io.in, LoadOptions{.rule_roots = f.rule_roots});  // the file named, even '' (no fallback)
  std::vector<Diagnostic> problems;
  const std::vector<RuleTestCase> cases = read_cases(f.files, problems);
  if (!problems.empty()) {
    for (const Diagnostic& d : problems) io.err << format(d) << '\n';
    return ExitCode::bad_input;
  }
  const RuleTestReport report = run_rule_tests(rules, cases);
  if (f.format == "json")
    io.out << json_test_report(report);
  else if (f.format == "junit")
    io.out << junit_test_report(report, f.rules);
  else
    io.out << text_test_report(report, f.show_coverage);
  if (report.failed > 0) return ExitCode::rule_error;
  if (report.coverage_percent() + 1e-9 < f.min_coverage) {
    io.err << "error: " << messages::coverage_below(report.coverage_percent(), f.min_coverage)
           << '\n';
    return ExitCode::rule_error;
  }
  return ExitCode::ok;
}

}  // namespace

Command setup_test(CLI::App& app) {
  return make_command<TestFlags>(
      app, "test", "Run rule tests (YAML) and report rule coverage.",
      [](CLI::App& command, TestFlags& f) {
        command.add_option("rules", f.rules, "rule file under test ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        add_rules_root_option(command, f.rule_roots);
        command.add_option("tests", f.files, "test files")->required()->type_name(kFilePlaceholder);
        command.add_flag("--coverage", f.show_coverage, "print how often each rule fired");
        // A percentage from 0 to 100, read as every float flag is; CLI::Range would let "nan"
        // through (every comparison with NaN is false).
        const CLI::Validator percentage(
            [](std::string& text) -> std::string {
              const DecimalFloat read = read_decimal_float(text);
              if (read.status != DecimalFloat::Status::ok ||
                  !(read.value >= 0.0 && read.value <= 100.0))
                return messages::flag_not_percentage(text);
              return {};
            },
            "0-100");
        command
            .add_option("--min-coverage", f.min_coverage,
                        "fail when fewer than this percentage of rules fired")
            ->check(percentage)
            ->type_name("PERCENT");
        add_choice_option(command, "--format", f.format, "report format", test_report_formats());
      },
      &test);
}

}  // namespace snnplan::cli
