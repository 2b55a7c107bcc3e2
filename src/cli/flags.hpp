#pragma once
// Reading flag values the way every subcommand does: strict integers, booleans and UTF-8,
// values given as '' kept apart from values not given, `--format` from the format table.
// Bad values throw UsageError naming the flag.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "cli/exit_code.hpp"
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

/// Adds `--format` for `output`: its default, choices and validation come from the format
/// table (render/format.hpp). Read the value with render::parse_format(format, output).
CLI::Option* add_format_option(CLI::App& command, std::string& format, render::Output output);

/// CLI11 gives an option that expects a value the next argument, whatever it is, so
/// `--model --backend x` would run with the model "--backend". A value that is the name of a
/// flag of the same command (or the app's) is refused as a forgotten value.
void refuse_flag_names_as_values(CLI::App& command);

}  // namespace snnplan::cli
