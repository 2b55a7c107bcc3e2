#pragma once
// The CLI's exit codes (a fixed contract; see the README's "Errors and exit codes").

namespace snnplan::cli {

enum class ExitCode : int {
  ok = 0,
  rule_error = 1,   // the rules raised an error for these inputs (reference ValueError)
  bad_input = 2,    // bad command line or bad input value
  rules_unusable = 3,  // the rule file failed to load or check
};

inline int as_int(ExitCode code) { return static_cast<int>(code); }
/// The worse of two outcomes (bad input > rule error > ok), for batch runs.
inline ExitCode worse(ExitCode a, ExitCode b) { return as_int(a) >= as_int(b) ? a : b; }

}  // namespace snnplan::cli
