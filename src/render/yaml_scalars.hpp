#pragma once
// Scalars for YAML output (recommend --format yaml, plan --format yaml) written so that YAML
// readers read back what was meant: yaml-cpp's emitter writes a string such as "123", "true",
// "yes" or "1.5" plain, which a reader takes for a number or a boolean, and writes 1.0 as "1".

#include <yaml-cpp/emitter.h>

#include <string>
#include <string_view>

#include "snnplan/value.hpp"

namespace snnplan::render {

/// A string, plain when it cannot read as anything else under YAML 1.2's core schema or
/// YAML 1.1 (PyYAML: yes/no/on/off, sexagesimal, dates), else double-quoted with escapes.
void emit_string(YAML::Emitter& out, std::string_view text);

/// A float as both schemas spell floats: "1.0", "0.1", "1.0e+20", ".inf", "-.inf", ".nan".
void emit_float(YAML::Emitter& out, double value);

/// Any value: lists of numbers and booleans in flow style, others in block style unless
/// `always_flow`.
void emit_value(YAML::Emitter& out, const Value& value, bool always_flow);

/// `value` as one line of YAML in flow style, as a rule-test file would write it: `dp`,
/// `"8"` (a string that would read as a number), `[4, 2]`, `null`.
std::string flow_yaml(const Value& value);

}  // namespace snnplan::render
