// `snnplan check FILE...`: every problem of each rule file with its position, source line and
// caret, then (text format) one summary line per file. The source lines come from the texts the
// load kept, not from the files again: they show what was checked.
//
// The check itself, with the warning policy (`--error`, `--ignore`, `--strict`), `allow:` and
// `--show-allowed`, is usecases/check.hpp's; this file reads the flags, loads each file its
// way (standard input, the compiled-rules cache) and prints. `--overlaps` asks the analysis for
// the rules partly covered by earlier ones (notes).

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/messages.hpp"
#include "frontends/cli/rule_files.hpp"
#include "render/format.hpp"
#include "usecases/check.hpp"

namespace snnplan::cli {
namespace {

struct CheckFlags {
  std::vector<std::string> files;
  bool strict = false;
  std::vector<std::string> error_codes;
  std::vector<std::string> ignored_codes;
  bool show_allowed = false;
  bool overlaps = false;
  std::vector<std::string> rule_roots;
  std::string format;
};

usecases::WarningPolicy policy_of(const CheckFlags& f) {
  try {
    return usecases::WarningPolicy(f.error_codes, f.ignored_codes, f.strict);
  } catch (const std::invalid_argument& e) {
    throw UsageError{e.what()};
  }
}

ExitCode check(const CheckFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::diagnostics);
  const usecases::CheckRequest request{.policy = policy_of(f),
                                       .show_allowed = f.show_allowed,
                                       .overlaps = f.overlaps,
                                       .rule_roots = f.rule_roots};
  if (std::count(f.files.begin(), f.files.end(), "-") > 1)
    throw UsageError{messages::stdin_read_twice("-", "-")};
  std::vector<Diagnostic> all;
  std::vector<SourceText> sources;
  std::vector<std::string> summaries;
  bool failed = false;
  for (const std::string& path : f.files) {
    usecases::CheckedRules checked = usecases::check_rules(
        [&](const LoadOptions& options) { return load_rule_file(path, io.in, options); },
        request);
    failed = failed || checked.failed;
    summaries.push_back(checked.summary(path == "-" ? std::string(kStdinName) : path));
    all.insert(all.end(), std::make_move_iterator(checked.diagnostics.begin()),
               std::make_move_iterator(checked.diagnostics.end()));
    sources.insert(sources.end(), std::make_move_iterator(checked.sources.begin()),
                   std::make_move_iterator(checked.sources.end()));
  }
  io.out << render::render_diagnostics(all, sources, format);
  // The summary is for people; `--format json` stays one JSON array of diagnostics.
  if (format == render::Format::text)
    for (const std::string& line : summaries) io.out << line << '\n';
  return failed ? ExitCode::rules_unusable : ExitCode::ok;
}

}  // namespace

Command setup_check(CLI::App& app) {
  return make_command<CheckFlags>(
      app, "check", "Check rule files; report every problem with its position.",
      [](CLI::App& command, CheckFlags& f) {
        command.add_option("files", f.files, "rule files ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        command.add_flag("--strict", f.strict, "treat warnings as failures (for CI)");
        command
            .add_option("--error", f.error_codes,
                        "make findings with these codes errors (comma-separated; docs/rules.md "
                        "lists the codes)")
            ->delimiter(',')
            ->type_name(kCodesPlaceholder);
        command
            .add_option("--ignore", f.ignored_codes,
                        "drop warnings and notes with these codes (comma-separated)")
            ->delimiter(',')
            ->type_name(kCodesPlaceholder);
        command.add_flag(
            "--show-allowed", f.show_allowed,
            "also show the findings the rule file accepts with allow:, as notes with their reason");
        command.add_flag("--overlaps", f.overlaps,
                         "also note each rule that matches some inputs an earlier rule takes "
                         "first (not a catch-all), with such an input");
        add_rules_root_option(command, f.rule_roots);
        add_format_option(command, f.format, render::Output::diagnostics);
      },
      &check);
}

}  // namespace snnplan::cli
