#pragma once
// Scalars for YAML output (recommend --format yaml, plan --format yaml) written so that YAML
// readers read back what was meant: yaml-cpp's emitter writes a string such as "123", "true",
// "yes" or "1.5" plain, which a reader takes for a number or a boolean, and writes 1.0 as "1".

#include <yaml-cpp/emitter.h>

#include <string>
#include <string_view>

#include "render/flow_yaml.hpp"  // flow_yaml, written with these scalars
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

}  // namespace snnplan::render
