// `snnplan test RULES TESTFILE...`: rule tests in YAML with rule, condition, boundary and search
// coverage, a front end over snnplan::run_rule_tests (include/snnplan/rule_tests.hpp) and the
// reports of testing/report.hpp.

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <optional>
#include <ostream>

#include "frontends/cli/batch.hpp"
#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/cli/messages.hpp"
#include "load/literals.hpp"
#include "snnplan/rule_tests.hpp"
#include "testing/report.hpp"
#include "testing/rule_tests.hpp"
#include "usecases/sampled_diff.hpp"

namespace snnplan::cli {
namespace {

struct TestFlags {
  std::string rules;
  std::vector<std::string> rule_roots;
  std::vector<std::string> files;
  bool show_coverage = false;
  std::string min_coverage;  // "100" (rule) or "rule=100,condition=100,boundary=90"
  std::string format = "text";
  bool mutate = false;
  double min_score = -1;  // below 0: not given
  bool generate = false;
  bool boundaries = false;
  std::string corpus;  // with --generate, where the regions cannot be enumerated
  std::size_t sample = 2000;
  std::uint64_t seed = 1;
  CLI::Option* corpus_option = nullptr;
};

// The minimum percentage of each coverage kind --min-coverage asks for (none: no minimum).
using Minimums = std::array<std::optional<double>, std::size(kCoverageKinds)>;

// "100" is the minimum rule coverage; "rule=100,boundary=90" names the kinds. std::nullopt
// when the text is neither (percentages are read as every float flag is, 0 to 100).
std::optional<Minimums> read_minimums(const std::string& text) {
  Minimums out;
  auto percentage = [](const std::string& number) -> std::optional<double> {
    const DecimalFloat read = read_decimal_float(number);
    // NaN fails both comparisons, so it is refused too.
    if (read.status != DecimalFloat::Status::ok || !(read.value >= 0.0 && read.value <= 100.0))
      return std::nullopt;
    return read.value;
  };
  if (text.find('=') == std::string::npos) {
    out[0] = percentage(text);
    return out[0] ? std::optional(out) : std::nullopt;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) return std::nullopt;
    const std::string kind = item.substr(0, eq);
    const auto value = percentage(item.substr(eq + 1));
    std::size_t k = 0;
    while (k < out.size() && kind != to_string(kCoverageKinds[k])) ++k;
    if (k == out.size() || !value || out[k]) return std::nullopt;
    out[k] = value;
    start = end + 1;
  }
  return out;
}

ExitCode test(const TestFlags& f, const Streams& io) {
  if (f.generate && (!f.files.empty() || f.mutate || !f.min_coverage.empty()))
    throw UsageError{messages::generate_with_test_files()};
  if (!f.generate && f.files.empty()) throw UsageError{messages::test_files_required()};
  if (f.rules == "-" && f.corpus_option->count() && f.corpus == "-")
    throw UsageError{messages::stdin_read_twice("-", "--corpus -")};
  const RuleSet rules =
      load_rules(f.rules, io.in,
                 LoadOptions{.rule_roots = f.rule_roots});  // the file named, even '' (no fallback)
  if (f.generate) {
    testing::GenerateOptions options{.boundaries = f.boundaries, .sampled = f.corpus_option->count() > 0,
                                     .corpus = {}, .corpus_name = f.corpus, .samples = f.sample, .seed = f.seed};
    if (f.corpus_option->count()) {
      std::vector<std::string> lines;
      with_batch_input(f.corpus, io.in, [&](std::istream& in, const std::string&) {
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        return ExitCode::ok;
      }, messages::kCorpusFile);
      try {
        options.corpus = usecases::corpus_inputs(lines, rules);
      } catch (const std::invalid_argument& e) {
        throw UsageError{e.what()};
      }
    }
    std::string why;
    const auto text = testing::generated_tests(rules, f.rules, options, why);
    if (!text) {
      io.err << "error: " << messages::cannot_generate(why) << '\n';
      return ExitCode::rule_error;
    }
    io.out << *text;
    return ExitCode::ok;
  }
  RuleTestReport report;
  try {
    report = run_rule_tests(rules, f.files, RuleTestOptions{.mutate = f.mutate});
  } catch (const TestFileError& e) {
    throw UsageError{e.what()};
  }
  if (!report.problems.empty()) {
    for (const Diagnostic& d : report.problems) io.err << format(d) << '\n';
    return ExitCode::bad_input;
  }
  const Minimums minimums = f.min_coverage.empty() ? Minimums{} : *read_minimums(f.min_coverage);
  const std::optional<MutationResults>& mutation = report.mutation;
  if (f.format == "json") {
    io.out << to_json(report);
  } else if (f.format == "junit") {
    io.out << testing::junit_test_report(report, f.rules);
  } else {
    io.out << testing::text_test_report(report, f.show_coverage);
    if (mutation) io.out << testing::text_mutation_report(*mutation);
  }
  if (report.failed > 0) {
    if (f.mutate) io.err << "error: " << messages::mutation_needs_passing_tests() << '\n';
    return ExitCode::rule_error;
  }
  ExitCode code = ExitCode::ok;
  if (mutation && f.min_score >= 0 && mutation->score() + 1e-9 < f.min_score) {
    io.err << "error: " << messages::mutation_score_below(mutation->score(), f.min_score) << '\n';
    code = ExitCode::rule_error;
  }
  for (std::size_t k = 0; k < minimums.size(); ++k) {
    const CoverageKind kind = kCoverageKinds[k];
    if (minimums[k] && report.coverage.percent(kind) + 1e-9 < *minimums[k]) {
      io.err << "error: "
             << messages::coverage_kind_below(to_string(kind),
                                              report.coverage.percent(kind), *minimums[k])
             << '\n';
      code = ExitCode::rule_error;
    }
  }
  return code;
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
        command.add_option("tests", f.files, "test files (none with --generate)")
            ->type_name(kFilePlaceholder);
        command.add_flag("--coverage", f.show_coverage,
                         "print how often each rule fired, and each condition and boundary no "
                         "test covers with an input that would");
        const CLI::Validator minimums(
            [](std::string& text) -> std::string {
              return read_minimums(text) ? std::string() : messages::flag_not_min_coverage(text);
            },
            "");
        command
            .add_option("--min-coverage", f.min_coverage,
                        "fail below these percentages: 100 (rule coverage), or "
                        "rule=100,condition=100,boundary=90")
            ->check(minimums)
            ->type_name("[KIND=]PERCENT");
        add_choice_option(command, "--format", f.format, "report format",
                          testing::test_report_formats());
        CLI::Option* mutate = command.add_flag(
            "--mutate", f.mutate,
            "run the tests against mutants of the rules and report the ones no test kills");
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
            .add_option("--min-score", f.min_score,
                        "with --mutate: fail when the mutation score is below this percentage")
            ->check(percentage)
            ->needs(mutate)
            ->type_name("PERCENT");
        CLI::Option* generate = command.add_flag(
            "--generate", f.generate,
            "write a starter test file for RULES: a test per region of the decision, each "
            "expecting today's answer (review it before committing)");
        command
            .add_flag("--boundaries", f.boundaries,
                      "with --generate: also a test on each side of every threshold")
            ->needs(generate);
        f.corpus_option = command
                              .add_option("--corpus", f.corpus,
                                          "with --generate, for a rule file whose regions cannot be "
                                          "enumerated (a search): JSON Lines of requests to pick tests "
                                          "from, with a sample drawn around them ('-': standard input)")
                              ->needs(generate)
                              ->type_name(kFilePlaceholder);
        command.add_option("--sample", f.sample, "with --corpus: how many inputs to draw around it (default 2000)")
            ->needs(f.corpus_option)
            ->type_name("N");
        command.add_option("--seed", f.seed, "with --corpus: the seed of the sample (default 1)")
            ->needs(f.corpus_option)
            ->type_name("INT");
      },
      &test);
}

}  // namespace snnplan::cli
