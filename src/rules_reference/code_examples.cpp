#include "rules_reference/code_examples.hpp"

#include <algorithm>
#include <iterator>

#include "analyse/messages.hpp"
#include "api/messages.hpp"
#include "check/messages.hpp"
#include "load/messages.hpp"

namespace snnplan::rules_reference {
namespace {

namespace m = messages;

struct CodeExample {
  std::string_view code;
  std::string (*example)();
};

// In core/diagnostic_codes.cpp's order: errors, warnings, notes, alphabetical within each.
// clang-format off
constexpr CodeExample kExamples[] = {
    {"allow-error", [] { return m::allow_error("type-mismatch"); }},
    {"cannot-read", [] { return m::cannot_read("rules/x.yaml", "No such file or directory"); }},
    {"conflicting-actions", [] { return m::conflicting_actions("tp"); }},
    {"duplicate-key", [] { return m::duplicate_key("when"); }},
    {"duplicate-name", [] { return m::duplicate_name("rule name", "tp", "rules/x.yaml:40:9"); }},
    {"empty-rule", [] { return m::rule_needs_outcome("tp"); }},
    {"expression-syntax", [] { return m::expression_syntax(m::expression_trailing(")")); }},
    {"expression-too-long", [] { return m::expression_too_long(4096); }},
    {"file-too-large", [] { return m::rule_file_too_large(16777216); }},
    {"float-range", [] { return m::float_out_of_range("1e999"); }},
    {"integer-range", [] { return m::integer_literal_too_large("99999999999999999999"); }},
    {"invariant-violated",
     [] {
       return m::invariant_violated("fsdp2-tp-mesh", "world_size=9, prefer='speed'",
                                  "mode fsdp2_tp needs a 2-D mesh, got mesh_shape=None",
                                  "recommend/by-preference-speed -> speed/spikformer-fsdp2-tp");
     }},
    {"let-cycle", [] { return m::let_cycle("a -> b -> a"); }},
    {"missing-input", [] { return m::call_missing_input("plan", "world_size"); }},
    {"missing-key", [] { return m::missing_key("type", "input 'x'"); }},
    {"no-rationale-field", [] { return m::because_needs_rationale_field(); }},
    {"not-a-rule-file", [] { return m::not_a_rule_file("notes.yaml"); }},
    {"not-one-of", [] { return m::not_one_of("the default", "'fast'", "prefer", "speed, memory, capacity"); }},
    {"rationale-field", [] { return m::rationale_field_set("rationale"); }},
    {"table-cycle", [] { return m::table_cycle("memory -> speed -> memory"); }},
    {"template-syntax", [] { return m::unbalanced_brace("world {size"); }},
    {"test-file", [] { return m::missing_key("input", "a test"); }},
    {"type-mismatch", [] { return m::type_mismatch("record field 'memopt_level'", "int", "string"); }},
    {"unknown-code", [] { return m::unknown_code("shadowed", "shadowed-rule"); }},
    {"unknown-key", [] { return m::unknown_key("whne", "rule 'tp'", "when"); }},
    {"unknown-name", [] { return m::unknown_name("fact", "y", "x"); }},
    {"unknown-type", [] { return m::unknown_type("integer"); }},
    {"unsupported-version", [] { return m::unsupported_version("3", 1, 2); }},
    {"uses", [] { return m::uses_cycle("a.yaml -> b.yaml -> a.yaml"); }},
    {"wrong-arity", [] { return m::wrong_arity("min", "2", 1); }},
    {"wrong-kind", [] { return m::expected_kind("inputs", "a mapping"); }},
    {"yaml-syntax", [] { return m::yaml_syntax("illegal map value"); }},
    {"yaml-too-deep", [] { return m::yaml_too_deep(64); }},
    {"yaml-too-many-nodes", [] { return m::yaml_too_many_nodes(1000000); }},
    {"constraint-never-fails", [] { return m::constraint_never_fails(m::search_constraint_subject("tp-at-least-one", "layout", ""), false); }},
    {"constraint-never-holds", [] { return m::constraint_never_holds(m::search_constraint_subject("no-recompute", "layout", "recompute"), false); }},
    {"literal-names-value", [] { return m::literal_names_value("zero_sharding", "derived value"); }},
    {"overwritten-set", [] { return m::overwritten_by_next("mode", "by-preference", "speed"); }},
    {"shadowed-rule", [] { return m::shadowed_by("tp", "'all' (rules/x.yaml:12:9)"); }},
    {"table-calls-too-deep", [] { return m::table_calls_too_deep(33, 32, "a -> b -> ..."); }},
    {"table-gap", [] { return m::table_gap("memory", "world_size=2, fsdp2_available=false"); }},
    {"type-unproven", [] { return m::type_unproven("record field 'tp_mesh_dim'", "int", "null"); }},
    {"unreachable-rule", [] { return m::unreachable_rule("never", "main"); }},
    {"unreachable-table", [] { return m::unreachable_table("old", "recommend"); }},
    {"unused", [] { return m::unused("derived value", "fsdp2_tp_mesh"); }},
    {"unused-allow", [] { return m::unused_allow("shadowed-rule"); }},
    {"analysis-incomplete", [] { return m::analysis_incomplete("table 'main'", m::analysis_float_condition()); }},
    {"overlapping-rule", [] { return m::overlapping_rule("fsdp2", "rule 'zero'", "world_size=2, fsdp2_available=true", "zero"); }},
    {"yaml-unclosed-flow", [] { return m::yaml_unclosed_flow(true); }},
};
// clang-format on

}  // namespace

std::string diagnostic_code_example(std::string_view code) {
  const auto at = std::find_if(std::begin(kExamples), std::end(kExamples),
                               [&](const CodeExample& row) { return row.code == code; });
  return at == std::end(kExamples) ? std::string() : at->example();
}

}  // namespace snnplan::rules_reference
