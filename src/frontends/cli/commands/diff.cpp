// `snnplan diff OLD NEW`: which inputs get a different answer from NEW than from OLD, over
// the whole declared input domain, grouped by the rule paths that give them (the comparison is
// usecases/diff.hpp's). Exit codes as diff(1): 0 no change, 1 changes, 2 bad command
// line, 3 a file fails to load (or the two declare different inputs).

#include <map>
#include <optional>
#include <ostream>
#include <utility>
#include <variant>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/input_flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/cli/messages.hpp"
#include "render/format.hpp"
#include "usecases/diff.hpp"
#include "usecases/sampled_diff.hpp"
#include "frontends/cli/batch.hpp"

#include <istream>

namespace snnplan::cli {
namespace {

struct DiffFlags {
  std::string old_file, new_file;
  std::vector<std::string> inputs;
  std::vector<std::string> rule_roots;
  std::string format;
  std::size_t sample = 0;
  std::uint64_t seed = 1;
  std::string corpus;
  CLI::Option* sample_option = nullptr;
  CLI::Option* seed_option = nullptr;
  CLI::Option* corpus_option = nullptr;
};

// What --sample, --seed and --corpus ask for: a comparison on a corpus and a seeded sample, or
// nothing (then only a rule file with a search is sampled, with the defaults).
std::optional<usecases::SampleOptions> sample_options(const DiffFlags& f, const Streams& io) {
  if (!f.sample_option->count() && !f.corpus_option->count() && !f.seed_option->count()) return std::nullopt;
  usecases::SampleOptions options;
  options.samples = f.sample_option->count() ? f.sample : options.samples;
  options.seed = f.seed;
  if (f.corpus_option->count())
    with_batch_input(f.corpus, io.in, [&](std::istream& lines, const std::string&) {
      for (std::string line; std::getline(lines, line);) options.corpus.push_back(line);
      return ExitCode::ok;
    }, messages::kCorpusFile);
  return options;
}

ExitCode diff(const DiffFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::diff);
  if (f.old_file == "-" && f.new_file == "-")
    throw UsageError{messages::stdin_read_twice("-", "-")};
  if ((f.old_file == "-" || f.new_file == "-") && f.corpus_option->count() && f.corpus == "-")
    throw UsageError{messages::stdin_read_twice("-", "--corpus -")};
  const LoadOptions options{.rule_roots = f.rule_roots};
  const RuleSet old_rules = load_rule_file(f.old_file, io.in, options);
  const RuleSet new_rules = load_rule_file(f.new_file, io.in, options);
  const usecases::ComparedRuleSets compared =
      usecases::compare_rule_sets(old_rules, new_rules, [&](const RuleSet& before) {
        Inputs given;
        std::map<std::string, std::string> given_by;
        add_assignments(f.inputs, before, given, given_by);
        return std::variant<Inputs, std::string>(std::move(given));
      }, sample_options(f, io));
  if (!compared.input_mismatch.empty())
    throw LoadError({Diagnostic{Severity::error, SourceLocation{new_rules.file_name(), 0, 0},
                                "input-mismatch", compared.input_mismatch}});
  if (!compared.refused_inputs.empty()) throw UsageError{compared.refused_inputs};
  if (compared.sampled)
    io.out << (format == render::Format::text ? usecases::render_sampled_diff(*compared.sampled)
                                              : usecases::sampled_diff_json(*compared.sampled));
  else
    io.out << render::render_diff(compared.diff, format);
  return compared.changed() ? ExitCode::differences : ExitCode::ok;
}

}  // namespace

Command setup_diff(CLI::App& app) {
  return make_command<DiffFlags>(
      app, "diff",
      "Which inputs get a different answer from NEW than from OLD, over every input; exit 1 "
      "when any does, or when the comparison stopped before it reached every input.",
      [](CLI::App& command, DiffFlags& f) {
        command
            .add_option("old", f.old_file, "the rule file before the edit ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        command.add_option("new", f.new_file, "the rule file after the edit ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        command
            .add_option("--input", f.inputs,
                        "NAME=VALUE: compare only the inputs with this value (repeatable)")
            ->type_name("NAME=VALUE");
        add_rules_root_option(command, f.rule_roots);
        add_format_option(command, f.format, render::Output::diff);
        f.sample_option = command
                              .add_option("--sample", f.sample,
                                          "compare on N inputs drawn around the corpus (or the declared "
                                          "types) instead of every input; the default for rule files with "
                                          "a search (2000)")
                              ->type_name("N");
        f.seed_option = command.add_option("--seed", f.seed, "the seed of the sample (default 1; asks for a sampled comparison)")->type_name("INT");
        f.corpus_option = command
                              .add_option("--corpus", f.corpus,
                                          "JSON Lines file of requests to compare on, besides the sample "
                                          "('-': standard input)")
                              ->type_name(kFilePlaceholder);
      },
      &diff);
}

}  // namespace snnplan::cli
