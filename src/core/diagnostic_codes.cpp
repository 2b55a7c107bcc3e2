#include "core/diagnostic_codes.hpp"

#include <algorithm>
#include <iterator>

namespace snnplan::detail {
namespace {

constexpr Severity kError = Severity::error;
constexpr Severity kWarning = Severity::warning;
constexpr Severity kNote = Severity::note;

// Each code's example message is rules_reference/code_examples.cpp's: it calls the stages' own message
// functions, which sit above this table.
// clang-format off
constexpr DiagnosticCodeInfo kCodes[] = {
    {"allow-error", kError, "`allow:` names a code that is an error, which cannot be accepted"},
    {"cannot-read", kError, "the rule file cannot be read"},
    {"conflicting-actions", kError, "a rule has more than one of `error`, `next` and `fallback`"},
    {"duplicate-key", kError, "a key appears twice in one mapping"},
    {"duplicate-name", kError, "two rules, invariants or declarations share a name"},
    {"empty-rule", kError, "a rule has no outcome (`set`, `because`, `error`, `next` or `fallback`)"},
    {"expression-syntax", kError, "an `= expression` does not parse"},
    {"expression-too-long", kError, "an expression is longer than the limit"},
    {"file-too-large", kError, "the rule file is larger than the limit"},
    {"float-range", kError, "a float literal is out of range"},
    {"integer-range", kError, "an integer literal does not fit 64 bits"},
    {"invariant-violated", kError, "a record some input gets breaks an `ensure:` invariant (at the rule that made it)"},
    {"let-cycle", kError, "derived values depend on each other in a cycle"},
    {"missing-input", kError, "a `call` does not give a required input of the called rule set"},
    {"missing-key", kError, "a required key is missing"},
    {"no-rationale-field", kError, "a rule has `because` but the record has no rationale field"},
    {"not-a-rule-file", kError, "a file named under `uses` is not a rule file"},
    {"not-one-of", kError, "a literal default or `with` value that its input's `one_of` refuses"},
    {"rationale-field", kError, "a second rationale field, or a rule setting the rationale field"},
    {"table-cycle", kError, "tables call each other through `next`/`fallback` in a cycle"},
    {"template-syntax", kError, "a `{name}` template is malformed"},
    {"test-file", kError, "a rule-test file is malformed (snnplan test)"},
    {"type-mismatch", kError, "a value has a type its place does not accept"},
    {"unknown-code", kError, "`allow:` names a code that does not exist"},
    {"unknown-key", kError, "a key its mapping does not have, or an unknown matcher"},
    {"unknown-name", kError, "a name that is not an input, derived value, field, table or builtin"},
    {"unknown-type", kError, "a type name that does not exist"},
    {"unsupported-version", kError, "the format version is not one this snnplan reads"},
    {"uses", kError, "a file named under `uses` cannot be used (missing, outside the roots, broken, a cycle)"},
    {"wrong-arity", kError, "a builtin is called with the wrong number of arguments"},
    {"wrong-kind", kError, "a value has the wrong YAML kind (a list where a mapping belongs, ...)"},
    {"yaml-syntax", kError, "the file is not valid YAML"},
    {"yaml-too-deep", kError, "YAML nesting is deeper than the limit"},
    {"yaml-too-many-nodes", kError, "aliases expand to more YAML nodes than the limit"},
    {"constraint-never-fails", kWarning, "a search's constraint or fit test that every candidate meets, for any input the file declares"},
    {"constraint-never-holds", kWarning, "a search's constraint or fit test that no candidate meets, for any input the file declares"},
    {"literal-names-value", kWarning, "a `set` or `with` text that is the name of an input or derived value (`=` left out)"},
    {"overwritten-set", kWarning, "a `set` that the rule's `next` table or `fallback` always overwrites"},
    {"shadowed-rule", kWarning, "a rule fires for no input: earlier rules cover everything it matches"},
    {"table-calls-too-deep", kWarning, "a chain of table calls is deeper than the evaluator allows"},
    {"table-gap", kWarning, "some reachable input matches no rule of a table (a note where not decided)"},
    {"type-unproven", kWarning, "a value may have a type its place does not accept, for inputs the checker cannot rule out"},
    {"unreachable-rule", kWarning, "a rule follows a catch-all rule"},
    {"unreachable-table", kWarning, "no table call from the start table reaches this table"},
    {"unused", kWarning, "an input or derived value that no condition, value or template reads"},
    {"unused-allow", kWarning, "an `allow:` code accepts no finding (the finding went away)"},
    {"analysis-incomplete", kNote, "a construct the table analysis does not decide"},
    {"overlapping-rule", kNote, "a rule partly covered by earlier ones (`check --overlaps` only)"},
    {"yaml-unclosed-flow", kNote, "where an unclosed `{` or `[` starts (beside a yaml-syntax error)"},
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
