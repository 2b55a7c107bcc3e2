#pragma once
// Reading flag values the way every subcommand does: strict integers, booleans and UTF-8,
// values given as '' kept apart from values not given, `--format` from the format table.
// Bad values throw UsageError naming the flag.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/cli/exit_code.hpp"
#include "render/format.hpp"

namespace snnplan::cli {

std::int64_t parse_int(const std::string& flag, const std::string& text);
/// true or false, any case.
bool parse_bool(const std::string& flag, const std::string& text);
/// yes/no (and true/false), any case.
bool parse_yes_no(const std::string& flag, const std::string& text);
/// The text itself, when it is well-formed UTF-8.
std::string parse_string(const std::string& flag, const std::string& text);

/// The value of an option when it was given on the command line, even as '' (so that
/// `--rules "$UNSET"` is refused rather than silently meaning "the default").
std::optional<std::string> given_value(const CLI::Option* option, const std::string& value);

// Placeholders of --help (`--rules FILE`, `--world-size INT`). The shell completions
// (frontends/cli/completion.cpp) read them too: FILE completes file names, BOOL true and false, and a
// choice placeholder ("{json,yaml,text}") its choices.
inline constexpr const char* kFilePlaceholder = "FILE";
inline constexpr const char* kBoolPlaceholder = "BOOL";
/// Diagnostic codes, comma-separated (`check --error`, `--ignore`).
inline constexpr const char* kCodesPlaceholder = "CODE,...";
/// The placeholder of a value of an input of `kind` ("int" -> "INT", "list[int]" -> "LIST").
std::string placeholder(std::string_view kind);
/// The choices an option's placeholder lists ("{json,yaml,text}"); empty for other options.
std::vector<std::string> choices_of(const CLI::Option& option);
/// The option's placeholder without what CLI11 adds for its validators.
std::string placeholder_of(const CLI::Option& option);
/// Whether the option takes a value (flags such as --strict take none).
bool takes_value(const CLI::Option& option);
/// Whether the option may be given more than once (--input, a list of files).
bool repeatable(const CLI::Option& option);

/// Adds `--format` for `output`: its default, choices and validation come from the format
/// table (render/format.hpp). Read the value with render::parse_format(format, output).
CLI::Option* add_format_option(CLI::App& command, std::string& format, render::Output output);

/// Adds an option (or, for a name without dashes, a positional) whose value is one of
/// `choices`; the first is the default.
CLI::Option* add_choice_option(CLI::App& command, const std::string& name, std::string& value,
                               const std::string& help, const std::vector<std::string>& choices);

/// Adds `--rules FILE` ("-" reads the rule file from standard input); `help` says what the
/// default is.
CLI::Option* add_rules_option(CLI::App& command, std::string& path, const std::string& help);

/// Adds `--jobs N` (with --batch: lines answered by N threads, output in input order).
CLI::Option* add_jobs_option(CLI::App& command, unsigned& jobs);

/// CLI11 gives an option that expects a value the next argument, whatever it is, so
/// `--model --backend x` would run with the model "--backend". A value that is the name of a
/// flag of the same command (or the app's) is refused as a forgotten value.
void refuse_flag_names_as_values(CLI::App& command);

}  // namespace snnplan::cli
