#include "core/diagnostic_codes.hpp"

#include <algorithm>
#include <iterator>

#include "core/messages.hpp"

namespace snnplan::detail {
namespace {

constexpr Severity kError = Severity::error;
constexpr Severity kWarning = Severity::warning;
constexpr Severity kNote = Severity::note;
namespace m = messages;

// The examples call the functions that write the real messages, so the documented example is
// what `check` prints.
// clang-format off
constexpr DiagnosticCodeInfo kCodes[] = {
    {"allow-error", kError, "`allow:` names a code that is an error, which cannot be accepted",
     [] { return m::allow_error("type-mismatch"); }},
    {"cannot-read", kError, "the rule file cannot be read",
     [] { return m::cannot_read("rules/x.yaml", "No such file or directory"); }},
    {"conflicting-actions", kError, "a rule has more than one of `error`, `next` and `fallback`",
     [] { return m::conflicting_actions("tp"); }},
    {"duplicate-key", kError, "a key appears twice in one mapping", [] { return m::duplicate_key("when"); }},
    {"duplicate-name", kError, "two rules, invariants or declarations share a name",
     [] { return m::duplicate_name("rule name", "tp", "rules/x.yaml:40:9"); }},
    {"empty-rule", kError, "a rule has no outcome (`set`, `because`, `error`, `next` or `fallback`)",
     [] { return m::rule_needs_outcome("tp"); }},
    {"expression-syntax", kError, "an `= expression` does not parse",
     [] { return m::expression_syntax(m::expression_trailing(")")); }},
    {"expression-too-long", kError, "an expression is longer than the limit", [] { return m::expression_too_long(4096); }},
    {"file-too-large", kError, "the rule file is larger than the limit", [] { return m::rule_file_too_large(16777216); }},
    {"float-range", kError, "a float literal is out of range", [] { return m::float_out_of_range("1e999"); }},
    {"integer-range", kError, "an integer literal does not fit 64 bits",
     [] { return m::integer_literal_too_large("99999999999999999999"); }},
    {"invariant-violated", kError, "a record some input gets breaks an `ensure:` invariant (at the rule that made it)",
     [] {
       return m::invariant_violated("fsdp2-tp-mesh", "world_size=9, prefer='speed'",
                                    "mode fsdp2_tp needs a 2-D mesh, got mesh_shape=None",
                                    "recommend/by-preference-speed -> speed/spikformer-fsdp2-tp");
     }},
    {"let-cycle", kError, "derived values depend on each other in a cycle", [] { return m::let_cycle("a -> b -> a"); }},
    {"missing-input", kError, "a `call` does not give a required input of the called rule set",
     [] { return m::call_missing_input("plan", "world_size"); }},
    {"missing-key", kError, "a required key is missing", [] { return m::missing_key("type", "input 'x'"); }},
    {"no-rationale-field", kError, "a rule has `because` but the record has no rationale field",
     [] { return m::because_needs_rationale_field(); }},
    {"not-a-rule-file", kError, "a file named under `uses` is not a rule file", [] { return m::not_a_rule_file("notes.yaml"); }},
    {"not-one-of", kError, "a literal default or `with` value that its input's `one_of` refuses",
     [] { return m::not_one_of("the default", "'fast'", "prefer", "speed, memory, capacity"); }},
    {"rationale-field", kError, "a second rationale field, or a rule setting the rationale field",
     [] { return m::rationale_field_set("rationale"); }},
    {"table-cycle", kError, "tables call each other through `next`/`fallback` in a cycle",
     [] { return m::table_cycle("memory -> speed -> memory"); }},
    {"template-syntax", kError, "a `{name}` template is malformed", [] { return m::unbalanced_brace("world {size"); }},
    {"test-file", kError, "a rule-test file is malformed (snnplan test)",
     [] { return m::missing_key("input", "a test"); }},
    {"type-mismatch", kError, "a value has a type its place does not accept",
     [] { return m::type_mismatch("record field 'memopt_level'", "int", "string"); }},
    {"unknown-code", kError, "`allow:` names a code that does not exist",
     [] { return m::unknown_code("shadowed", "shadowed-rule"); }},
    {"unknown-key", kError, "a key its mapping does not have, or an unknown matcher",
     [] { return m::unknown_key("whne", "rule 'tp'", "when"); }},
    {"unknown-name", kError, "a name that is not an input, derived value, field, table or builtin",
     [] { return m::unknown_name("fact", "y", "x"); }},
    {"unknown-type", kError, "a type name that does not exist", [] { return m::unknown_type("integer"); }},
    {"unsupported-version", kError, "the format version is not one this snnplan reads",
     [] { return m::unsupported_version("2", 1); }},
    {"uses", kError, "a file named under `uses` cannot be used (missing, outside the roots, broken, a cycle)",
     [] { return m::uses_cycle("a.yaml -> b.yaml -> a.yaml"); }},
    {"wrong-arity", kError, "a builtin is called with the wrong number of arguments", [] { return m::wrong_arity("min", "2", 1); }},
    {"wrong-kind", kError, "a value has the wrong YAML kind (a list where a mapping belongs, ...)",
     [] { return m::expected_kind("inputs", "a mapping"); }},
    {"yaml-syntax", kError, "the file is not valid YAML", [] { return m::yaml_syntax("illegal map value"); }},
    {"yaml-too-deep", kError, "YAML nesting is deeper than the limit", [] { return m::yaml_too_deep(64); }},
    {"yaml-too-many-nodes", kError, "aliases expand to more YAML nodes than the limit",
     [] { return m::yaml_too_many_nodes(1000000); }},
    {"literal-names-value", kWarning, "a `set` or `with` text that is the name of an input or derived value (`=` left out)",
     [] { return m::literal_names_value("zero_sharding", "derived value"); }},
    {"overwritten-set", kWarning, "a `set` that the rule's `next` table or `fallback` always overwrites",
     [] { return m::overwritten_by_next("mode", "by-preference", "speed"); }},
    {"shadowed-rule", kWarning, "a rule fires for no input: earlier rules cover everything it matches",
     [] { return m::shadowed_by("tp", "'all' (rules/x.yaml:12:9)"); }},
    {"table-calls-too-deep", kWarning, "a chain of table calls is deeper than the evaluator allows",
     [] { return m::table_calls_too_deep(33, 32, "a -> b -> ..."); }},
    {"table-gap", kWarning, "some reachable input matches no rule of a table (a note where not decided)",
     [] { return m::table_gap("memory", "world_size=2, fsdp2_available=false"); }},
    {"type-unproven", kWarning,
     "a value may have a type its place does not accept, for inputs the checker cannot rule out",
     [] { return m::type_unproven("record field 'tp_mesh_dim'", "int", "null"); }},
    {"unreachable-rule", kWarning, "a rule follows a catch-all rule", [] { return m::unreachable_rule("never", "main"); }},
    {"unreachable-table", kWarning, "no table call from the start table reaches this table",
     [] { return m::unreachable_table("old", "recommend"); }},
    {"unused", kWarning, "an input or derived value that no condition, value or template reads",
     [] { return m::unused("derived value", "fsdp2_tp_mesh"); }},
    {"unused-allow", kWarning, "an `allow:` code accepts no finding (the finding went away)",
     [] { return m::unused_allow("shadowed-rule"); }},
    {"analysis-incomplete", kNote, "a construct the table analysis does not decide",
     [] { return m::analysis_incomplete("table 'main'", m::analysis_float_condition()); }},
    {"overlapping-rule", kNote, "a rule partly covered by earlier ones (`check --overlaps` only)",
     [] { return m::overlapping_rule("fsdp2", "rule 'zero'", "world_size=2, fsdp2_available=true", "zero"); }},
    {"yaml-unclosed-flow", kNote, "where an unclosed `{` or `[` starts (beside a yaml-syntax error)",
     [] { return m::yaml_unclosed_flow(true); }},
};
// clang-format on

constexpr bool grouped_and_sorted() {
  for (std::size_t k = 1; k < std::size(kCodes); ++k) {
    const auto& a = kCodes[k - 1];
    const auto& b = kCodes[k];
    // Severity counts up from note to error; the table goes down.
    if (a.severity < b.severity) return false;
    if (a.severity == b.severity && !(a.code < b.code)) return false;
  }
  return true;
}
static_assert(grouped_and_sorted(),
              "rows grouped by severity (errors first), alphabetical within a group");

}  // namespace

std::span<const DiagnosticCodeInfo> diagnostic_codes() {
  return kCodes;
}

const DiagnosticCodeInfo* find_diagnostic_code(std::string_view code) {
  const auto at = std::find_if(std::begin(kCodes), std::end(kCodes),
                               [&](const DiagnosticCodeInfo& row) { return row.code == code; });
  return at == std::end(kCodes) ? nullptr : &*at;
}

std::vector<std::string> diagnostic_code_names() {
  std::vector<std::string> names;
  for (const DiagnosticCodeInfo& row : kCodes) names.emplace_back(row.code);
  return names;
}

}  // namespace snnplan::detail
