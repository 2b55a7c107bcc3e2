#include "load/keys.hpp"

#include <algorithm>
#include <iterator>

namespace snnplan::load {
namespace {

using enum Shape;
constexpr Section kNone = Section::none;

// clang-format off
constexpr KeyRow kRuleFileKeys[] = {
    {"snnplan", format_version, kNone, true, "the rule format version (2: `/` is true division; 1 is read too)"},
    {"description", scalar, kNone, false, "what the rule file decides"},
    {"uses", named_scalars, kNone, false, "other rule files whose records `let` may call: name -> path"},
    {"inputs", named_sections, Section::input, true, "the typed facts a caller gives"},
    {"let", named_lets, Section::let_call, false, "derived values: name -> expression, a call of a rule set, or a search"},
    {"record", named_sections, Section::record_field, true, "the output fields and their defaults"},
    {"rationale_header", scalar, kNone, false, "the first rationale line, with {name} placeholders"},
    {"start", scalar, kNone, true, "the table evaluation starts with"},
    {"ensure", sections, Section::invariant, false,
     "invariants every record must satisfy: check proves them, recommend refuses a record that breaks one"},
    {"tables", named_tables, Section::table, true,
     "ordered tables of rules (a list, or a mapping with rules, allow and reason): the first rule whose `when` holds fires"},
};
constexpr KeyRow kInputKeys[] = {
    {"type", input_type, kNone, true, "string, int, bool, float, list[...]; '?' for nullable"},
    {"default", value, kNone, false, "the value when the caller gives none"},
    {"lower", boolean, kNone, false, "lower-case the value as Python's str.lower() does"},
    {"one_of", scalars, kNone, false, "the values allowed"},
    {"error", scalar, kNone, false, "the error message for a value not in one_of, with {name} placeholders"},
    {"description", any, kNone, false, "what the input means"},
    {"allow", scalars, kNone, false, "warning or note codes accepted for this input (unused); needs reason"},
    {"reason", scalar, kNone, false, "why the findings named in allow are accepted"},
};
constexpr KeyRow kRecordFieldKeys[] = {
    {"type", field_type, kNone, true, "a type name, or rationale for the field that collects the rationale"},
    {"default", value, kNone, false, "the value before any rule sets it"},
    {"init", value, kNone, false, "an expression evaluated when a record is created"},
    {"description", any, kNone, false, "what the field means"},
};
constexpr KeyRow kLetCallKeys[] = {
    {"call", scalar, kNone, true, "the rule set (a name under uses) whose record is the value"},
    {"with", named_values, kNone, false, "its inputs: name -> value or '= expression'"},
};
constexpr KeyRow kLetSearchKeys[] = {
    {"search", section, Section::search, true, "the candidates to search; the value is the chosen one as a record"},
    {"description", any, kNone, false, "what the search chooses"},
};
constexpr KeyRow kSearchKeys[] = {
    {"for", named_values, kNone, true, "enumerations, outermost first: name -> a list expression, which may use the names before it"},
    {"let", named_values, kNone, false, "each candidate's values: name -> expression over facts, the candidate and the tier"},
    {"require", sections, Section::search_constraint, false, "constraints, in order: a candidate for which one does not hold is removed"},
    {"tiers", sections, Section::search_tier, false, "tried in order: the first tier with a candidate that fits is searched"},
    {"fits", section, Section::search_constraint, false, "what a candidate that passed the constraints must meet (a memory budget)"},
    {"minimize", value, kNone, true, "the key of the choice among candidates that fit: a value or a list, compared item by item; ties keep enumeration order"},
    {"none_valid", section, Section::search_failure, false, "the error when every candidate breaks a constraint"},
    {"none_fits", section, Section::search_failure, false, "the error when no candidate fits in any tier"},
    {"description", any, kNone, false, "what the search chooses"},
};
constexpr KeyRow kSearchConstraintKeys[] = {
    {"name", scalar, kNone, false, "the constraint's name, unique in its search (required in require)"},
    {"holds", value, kNone, true, "the condition a candidate must meet: an expression"},
    {"message", scalar, kNone, false, "why a candidate that breaks it is removed, with {name} placeholders"},
    {"description", any, kNone, false, "what the constraint is for"},
};
constexpr KeyRow kSearchTierKeys[] = {
    {"name", scalar, kNone, true, "the tier's name, unique in its search"},
    {"let", named_values, kNone, false, "values fixed for the tier: name -> expression over facts"},
    {"require", sections, Section::search_constraint, false, "constraints that hold in this tier only"},
    {"description", any, kNone, false, "what the tier tries"},
};
constexpr KeyRow kSearchFailureKeys[] = {
    {"let", named_values, kNone, false, "values for the message: name -> expression; smallest(v), largest(v) and count() aggregate the candidates tested"},
    {"error", scalar, kNone, true, "the error message, with {name} placeholders"},
};
constexpr KeyRow kRuleKeys[] = {
    {"name", scalar, kNone, true, "the rule's name, unique in its table"},
    {"description", any, kNone, false, "what the rule is for"},
    {"when", conditions, kNone, false, "fact -> value, list (one of) or {matcher: operand}; all must hold"},
    {"set", named_values, kNone, false, "record field -> value or '= expression'"},
    {"because", scalar_or_scalars, kNone, false, "rationale line(s), with {name} placeholders"},
    {"error", scalar, kNone, false, "refuse the inputs with this message"},
    {"next", scalar, kNone, false, "continue with this table"},
    {"fallback", section, Section::fallback, false, "continue with another table and changed inputs"},
    {"allow", scalars, kNone, false, "warning or note codes accepted for this rule (docs/rules.md lists them); needs reason"},
    {"reason", scalar, kNone, false, "why the findings named in allow are accepted"},
};
constexpr KeyRow kFallbackKeys[] = {
    {"table", scalar, kNone, true, "the table to continue with"},
    {"with", named_values, kNone, false, "input -> value or '= expression' for that table"},
    {"keep", scalars, kNone, false, "record fields that keep this rule's values"},
};
constexpr KeyRow kTableKeys[] = {
    {"rules", sections, Section::rule, true, "the table's rules, in order"},
    {"allow", scalars, kNone, false, "warning or note codes accepted for this table (docs/rules.md lists them); needs reason"},
    {"reason", scalar, kNone, false, "why the findings named in allow are accepted"},
    {"description", any, kNone, false, "what the table decides"},
};
constexpr KeyRow kInvariantKeys[] = {
    {"name", scalar, kNone, true, "the invariant's name, unique in the file"},
    {"description", any, kNone, false, "what the invariant says"},
    {"when", conditions, kNone, false, "where it applies: fact or record field -> matcher, as a rule's when"},
    {"require", value, kNone, true, "what must hold there: an expression over inputs, derived values and record fields"},
    {"message", scalar, kNone, true, "the error when it does not hold, with {name} placeholders"},
};
constexpr KeyRow kTestFileKeys[] = {
    {"tests", sections, Section::test, true, "the rule tests"},
};
constexpr KeyRow kTestKeys[] = {
    {"name", scalar, kNone, false, "what the test shows, unique among the tests"},
    {"description", scalar, kNone, false, "why the test exists, at more length than its name"},
    {"tags", scalars, kNone, false, "labels for grouping tests (shown in reports)"},
    {"input", named_values, kNone, true, "input name -> value"},
    {"expect", named_values, kNone, false, "record field -> expected value (a subset of the record)"},
    {"exact", boolean, kNone, false, "expect lists every field of the record: any other field fails"},
    {"expect_rules", scalars, kNone, false, "the rules that fire, as table/rule, in firing order"},
    {"expect_error", scalar, kNone, false, "the error message the rules must raise"},
};
// clang-format on

struct SectionRow {
  Section section;
  std::span<const KeyRow> keys;
  std::string_view summary;
};

constexpr SectionRow kSections[] = {
    {Section::rule_file, kRuleFileKeys, "an snnplan rule file"},
    {Section::input, kInputKeys, "a declared input"},
    {Section::record_field, kRecordFieldKeys, "a field of the record"},
    {Section::let_call, kLetCallKeys, "a call of another rule set"},
    {Section::let_search, kLetSearchKeys, "a value chosen by a candidate search"},
    {Section::search, kSearchKeys, "a candidate search: enumerations, constraints, tiers, a fit test and the key of the choice"},
    {Section::search_constraint, kSearchConstraintKeys, "a named condition every candidate must meet"},
    {Section::search_tier, kSearchTierKeys, "a tier of a search: fixed values and constraints of its own"},
    {Section::search_failure, kSearchFailureKeys, "the error a search raises when no candidate is left"},
    {Section::rule, kRuleKeys, "a rule"},
    {Section::fallback, kFallbackKeys, "where a rule continues"},
    {Section::table, kTableKeys, "a table with findings accepted in place"},
    {Section::invariant, kInvariantKeys, "a property every record must have"},
    {Section::test_file, kTestFileKeys, "an snnplan rule-test file"},
    {Section::test, kTestKeys, "a rule test: inputs and the expected record or error"},
};
constexpr bool rows_in_enum_order() {
  for (std::size_t k = 0; k < std::size(kSections); ++k)
    if (kSections[k].section != static_cast<Section>(k)) return false;
  return std::size(kSections) == static_cast<std::size_t>(Section::none);
}
static_assert(rows_in_enum_order(), "one row per Section, in enum order");

const SectionRow& row(Section section) {
  return kSections[static_cast<std::size_t>(section)];
}

}  // namespace

std::span<const KeyRow> keys(Section section) {
  return section == Section::none ? std::span<const KeyRow>() : row(section).keys;
}

std::vector<std::string> key_names(Section section) {
  std::vector<std::string> names;
  for (const KeyRow& k : keys(section)) names.emplace_back(k.key);
  return names;
}

const KeyRow* find_key(Section section, std::string_view key) {
  const auto rows = keys(section);
  const auto at =
      std::find_if(rows.begin(), rows.end(), [&](const KeyRow& k) { return k.key == key; });
  return at == rows.end() ? nullptr : &*at;
}

std::string_view summary(Section section) {
  return section == Section::none ? std::string_view() : row(section).summary;
}

}  // namespace snnplan::load
