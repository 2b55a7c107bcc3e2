#pragma once
// One value as one line of YAML, for texts that quote values (rule-test differences and
// generated tests, the language server's hovers and lenses). Apart from yaml_scalars.hpp so
// that its users outside render do not include yaml-cpp.

#include <string>

#include "snnplan/value.hpp"

namespace snnplan::render {

/// `value` as one line of YAML in flow style, as a rule-test file would write it: `dp`,
/// `"8"` (a string that would read as a number), `[4, 2]`, `null`.
std::string flow_yaml(const Value& value);

}  // namespace snnplan::render
