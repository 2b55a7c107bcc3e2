#pragma once
// The CLI's exit codes (a fixed contract; see "Errors and exit codes" in docs/cli.md) and the one
// place outcomes map to them. A command returns its exit code, or throws; app.cpp's dispatch
// maps what it throws: UsageError and InputError -> bad_input, RuleError -> rule_error,
// EvaluationFailed -> by its kind, LoadError -> rules_unusable, WriteFailed (frontends/cli/output.hpp)
// -> write_failed, Interrupted -> interrupted_by(signal) (each one a line on stderr).

#include <cstddef>
#include <optional>
#include <string>

#include "snnplan/evaluation_result.hpp"

namespace snnplan::cli {

enum class ExitCode : int {
  ok = 0,
  rule_error = 1,      // the rules raised an error for these inputs (reference ValueError)
  differences = 1,     // `diff`: some input gets a different answer (as diff(1) says so)
  bad_input = 2,       // bad command line or bad input value
  rules_unusable = 3,  // the rule file failed to load or check
  write_failed = 4,    // the output could not be written (a full disk, a reader that went away)
  interrupted = 130,   // SIGINT: 128 + 2, as shells report a run the signal ended
  terminated = 143,    // SIGTERM: 128 + 15
};

/// What each exit code means, as `snnplan help --man` lists them (docs/cli.md says the same).
struct ExitCodeRow {
  ExitCode code;
  const char* meaning;
};
inline constexpr ExitCodeRow kExitCodes[] = {
    {ExitCode::ok, "success"},
    {ExitCode::rule_error,
     "the rules raised an error for these inputs, rule tests failed, or diff found changes"},
    {ExitCode::bad_input, "bad command line or bad input value"},
    {ExitCode::rules_unusable, "the rule file failed to load or check"},
};

inline int as_int(ExitCode code) {
  return static_cast<int>(code);
}
/// The worse of two line outcomes (bad input > rule error > ok), for batch runs.
inline ExitCode worse(ExitCode a, ExitCode b) {
  return as_int(a) >= as_int(b) ? a : b;
}

/// A refused evaluation: the rules' error (1) or an input they cannot take (2).
inline ExitCode exit_code_of(EvaluationErrorKind kind) {
  return kind == EvaluationErrorKind::rule_error ? ExitCode::rule_error : ExitCode::bad_input;
}

/// The exit code for a run that `signal` (SIGINT or SIGTERM) asked to stop.
inline ExitCode interrupted_by(int signal) {
  return signal == 15 ? ExitCode::terminated : ExitCode::interrupted;
}

/// Thrown when SIGINT or SIGTERM stopped a run (frontends/cli/interrupt.hpp): an output file is left
/// as it was, a message says how far the run got, exit interrupted_by(signal).
struct Interrupted {
  int signal;
  /// Complete output lines handed to the output before stopping; nullopt outside a batch.
  std::optional<std::size_t> lines_written;
};

/// Thrown for a bad command line: "error: message", exit 2.
struct UsageError {
  std::string message;
};

/// Thrown for a refused evaluation: "error: message", exit_code_of(kind). The message is kept
/// whole (it may hold NUL characters from the inputs, which an exception's what() would cut).
struct EvaluationFailed {
  EvaluationError error;
};

}  // namespace snnplan::cli
