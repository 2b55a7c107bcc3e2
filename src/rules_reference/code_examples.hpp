#pragma once
// The example message of every diagnostic code, for docs/rules.md's code table
// (rules_reference/tables.cpp). The codes themselves are core/diagnostic_codes.hpp's rows, which the
// loader reads, so they sit below the stages; the examples call the message functions of the
// stage that reports each code (load/, check/, analyse/, api/), so they sit above them, here,
// and the documented example is what `check` prints.

#include <string>
#include <string_view>

namespace snnplan::rules_reference {

/// The example message of diagnostic code `code`, e.g. "duplicate key 'when'" for
/// "duplicate-key"; "" for a code without one (a test holds every code to having one).
std::string diagnostic_code_example(std::string_view code);

}  // namespace snnplan::rules_reference
