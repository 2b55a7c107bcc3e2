#pragma once
// Every message text snnplan prints, in one place, so wording stays consistent and tests can
// assert it exactly. Messages that reproduce the reference (rationale, ValueError texts) are
// not here: they are data in the rule file.

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace snnplan::messages {

// ---- rule file: YAML shape -----------------------------------------------------------------
inline std::string rule_file_too_large(std::size_t limit) {
  return fmt::format("rule file is larger than the limit of {} bytes", limit);
}
/// yaml-cpp's text, explained for the two commonest slips.
inline std::string yaml_syntax(std::string_view what) {
  if (what == "illegal map value")
    return "YAML syntax error: a ': ' inside an unquoted text starts a mapping here; quote the "
           "text (because: \"... : ...\")";
  if (what == "end of map not found" || what == "end of sequence not found")
    return "YAML syntax error: this line is indented differently from the keys above it; line a "
           "key up with the keys of its own mapping";
  return fmt::format("YAML syntax error: {}", what);
}
inline std::string text_made_a_mapping(std::string_view what, std::string_view key) {
  return fmt::format(
      "{} must be a string, but the ': ' after '{}' made it a mapping; quote the text", what, key);
}
inline std::string yaml_unclosed_flow(bool is_map) {
  return is_map ? "the flow mapping '{' that starts here is not closed with '}'"
                : "the flow sequence '[' that starts here is not closed with ']'";
}
inline std::string yaml_unclosed_quote(char quote) {
  return fmt::format("the quoted string that starts here is not closed with {}",
                     quote == '"' ? "'\"'" : "\"'\"");
}
inline std::string yaml_second_document() {
  return "a second YAML document starts here (a rule file holds one; remove the '---' or '...' and "
         "what follows)";
}
inline std::string yaml_too_deep(int limit) {
  return fmt::format("YAML nesting is deeper than {} levels", limit);
}
inline std::string yaml_too_many_nodes(std::size_t limit) {
  return fmt::format(
      "the rule file has more than {} YAML nodes once aliases are expanded "
      "(each use of an alias counts in full)",
      limit);
}
inline std::string cannot_read(std::string_view path, std::string_view why) {
  return fmt::format("cannot read rule file '{}': {}", path, why);
}
inline std::string unknown_key(std::string_view key, std::string_view where,
                               std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("unknown key '{}' in {}", key, where);
  return fmt::format("unknown key '{}' in {} (did you mean '{}'?)", key, where, suggestion);
}
inline std::string duplicate_key(std::string_view key) {
  return fmt::format("duplicate key '{}'", key);
}
inline std::string missing_key(std::string_view key, std::string_view where) {
  return fmt::format("missing required key '{}' in {}", key, where);
}
inline std::string expected_kind(std::string_view what, std::string_view expected) {
  return fmt::format("{} must be {}", what, expected);
}
inline std::string version_not_a_number(std::string_view got) {
  return fmt::format("the format version must be a number (write snnplan: 1), got the string '{}'",
                     got);
}
inline std::string unsupported_version(std::string_view got, int supported) {
  return fmt::format("unsupported rule format version {} (this snnplan reads version {})", got,
                     supported);
}
inline std::string unknown_type(std::string_view got) {
  return fmt::format(
      "unknown type '{}' (expected string, int, bool, float, list[int], list[string], "
      "rationale; add '?' to allow null)",
      got);
}
inline std::string unknown_match_op(std::string_view got, std::string_view suggestion) {
  std::string base = fmt::format(
      "unknown matcher '{}' (expected eq, ne, lt, le, gt, ge, one_of, not_one_of)", got);
  if (!suggestion.empty()) base += fmt::format("; did you mean '{}'?", suggestion);
  return base;
}
inline std::string template_conversion(std::string_view conversion) {
  return fmt::format("template conversion '{}' is not supported (only '!r', Python's repr())",
                     conversion);
}
inline std::string unbalanced_brace(std::string_view text) {
  return fmt::format(
      "unbalanced '{{' or '}}' in template \"{}\" (write '{{{{' or '}}}}' for a brace)", text);
}
inline std::string rule_needs_outcome(std::string_view rule) {
  return fmt::format("rule '{}' does nothing: give it set, because, error, next or fallback", rule);
}
inline std::string conflicting_actions(std::string_view rule) {
  return fmt::format("rule '{}' may have only one of error, next and fallback", rule);
}

// ---- uses: rule files calling other rule files ----------------------------------------------
inline std::string uses_too_deep(std::size_t limit) {
  return fmt::format("rule files use each other more than {} levels deep", limit);
}
// `bare`: the name has no directory part, so a built-in rule file of that name was looked for.
inline std::string uses_not_found(std::string_view file, std::string_view directory, bool bare) {
  if (!bare && directory.empty())
    return fmt::format(
        "cannot find rule file '{}' (only a bare file name can name a built-in rule file)", file);
  if (!bare) return fmt::format("cannot find rule file '{}' in {}", file, directory);
  if (directory.empty())
    return fmt::format("cannot find rule file '{}' among the built-in rule files", file);
  return fmt::format("cannot find rule file '{}' in {} or among the built-in rule files", file,
                     directory);
}
inline std::string uses_cycle(std::string_view path) {
  return fmt::format("rule files use each other in a cycle: {}", path);
}
/// `roots`: the rule roots, already joined for display ("/a, /b").
inline std::string uses_outside_root(std::string_view file, std::string_view roots) {
  return fmt::format(
      "rule file '{}' is outside the rule root ({}): a rule file may use only files under its root "
      "(--rules-root DIR adds one)",
      file, roots);
}
inline std::string uses_not_regular(std::string_view file, std::string_view what) {
  return fmt::format("cannot use '{}': it is {}, not a regular file", file, what);
}
/// A used file that is not a rule file at all; said without quoting any of its content.
inline std::string not_a_rule_file(std::string_view file) {
  return fmt::format(
      "'{}' is not a rule file (not YAML, or not a mapping with the key snnplan); its content is "
      "not shown",
      file);
}
inline std::string uses_has_errors(std::string_view file, std::string_view used_as) {
  return fmt::format("rule file '{}' (used as '{}') has errors", file, used_as);
}

// ---- expressions ---------------------------------------------------------------------------
inline std::string expression_syntax(std::string_view what) {
  return fmt::format("expression: {}", what);
}
inline std::string expression_trailing(std::string_view token) {
  return fmt::format("unexpected '{}' after the expression", token);
}
inline std::string expression_unterminated_string() {
  return "unterminated string literal";
}
inline std::string expression_unknown_escape(char escape) {
  return fmt::format("unknown escape '\\{}' in string literal", escape);
}
inline std::string expression_not_an_operator(std::string_view written, std::string_view meant,
                                              std::string_view why = {}) {
  return fmt::format("'{}' is not an operator; write '{}'{}", written, meant, why);
}
inline std::string expression_unexpected_character(std::string_view c) {
  return fmt::format("unexpected character '{}'", c);
}
inline std::string expression_expected(std::string_view what, std::string_view found) {
  return fmt::format("expected {}, found '{}'", what, found);
}
inline std::string expression_chained_comparison() {
  return "comparisons do not chain; combine them with '&&'";
}
inline std::string integer_literal_too_large(std::string_view text) {
  return fmt::format("integer {} does not fit in 64 bits", text);
}
// A number as a message shows it: whole when short, else its head and length (a float
// literal beyond the largest double may have 309 digits).
inline std::string shown_number(std::string_view text) {
  constexpr std::size_t kShown = 24;
  if (text.size() <= kShown) return std::string(text);
  return fmt::format("{}... ({} characters)", text.substr(0, kShown), text.size());
}
inline std::string float_out_of_range(std::string_view text) {
  return fmt::format("float {} is beyond the range of a 64-bit float", shown_number(text));
}
inline std::string expression_too_deep(int limit) {
  return fmt::format("expression nests deeper than {} levels", limit);
}
inline std::string expression_too_long(std::size_t limit) {
  return fmt::format("expression is longer than {} characters", limit);
}

// ---- names and types -----------------------------------------------------------------------
inline std::string unknown_name(std::string_view kind, std::string_view name,
                                std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("unknown {} '{}'", kind, name);
  return fmt::format("unknown {} '{}' (did you mean '{}'?)", kind, name, suggestion);
}
inline std::string duplicate_name(std::string_view kind, std::string_view name,
                                  std::string_view first) {
  return fmt::format("duplicate {} '{}' (first declared at {})", kind, name, first);
}
inline std::string let_cycle(std::string_view path) {
  return fmt::format("derived values depend on each other in a cycle: {}", path);
}
inline std::string table_cycle(std::string_view path) {
  return fmt::format("tables call each other in a cycle, which could loop forever: {}", path);
}
inline std::string wrong_arity(std::string_view builtin, std::string_view expected,
                               std::size_t got) {
  // "1", "at least 1" -> argument; "2", "1 to 3" -> arguments
  const bool one = expected.size() >= 1 && expected.back() == '1' &&
                   (expected.size() == 1 || expected[expected.size() - 2] == ' ');
  return fmt::format("{}() takes {} argument{}, got {}", builtin, expected, one ? "" : "s", got);
}
inline std::string type_mismatch(std::string_view what, std::string_view expected,
                                 std::string_view got) {
  return fmt::format("{} must be {}, but it is {}", what, expected, got);
}
inline std::string incomparable(std::string_view op, std::string_view left,
                                std::string_view right) {
  return fmt::format("cannot compare {} with {} using '{}'", left, right, op);
}
inline std::string not_an_input(std::string_view name) {
  return fmt::format("'{}' is not an input; fallback `with` may only override inputs", name);
}
inline std::string rationale_field_set(std::string_view name) {
  return fmt::format("'{}' collects rationale lines; use `because` instead of setting it", name);
}
inline std::string because_needs_rationale_field() {
  return "`because` needs a record field of type rationale to collect its lines";
}
inline std::string one_rationale_field() {
  return "a record may have at most one field of type rationale";
}
inline std::string table_calls_too_deep(std::size_t depth, int limit, std::string_view path) {
  return fmt::format(
      "table calls can nest {} levels deep, beyond the limit of {}: an evaluation that follows {} "
      "fails",
      depth, limit, path);
}
inline std::string unreachable_table(std::string_view table, std::string_view start) {
  return fmt::format("table '{}' is never used: no path from the start table '{}' reaches it",
                     table, start);
}
inline std::string unused(std::string_view kind, std::string_view name) {
  return fmt::format("{} '{}' is never used", kind, name);
}
// A part of a value (a branch of `?:`, an argument of try(), a list item) whose kind its place
// does not accept, reported at the part: "record field 'level' must be int, but the value
// after ':' is string".
inline std::string part_type_mismatch(std::string_view what, std::string_view expected,
                                      std::string_view part, std::string_view got) {
  return fmt::format("{} must be {}, but {} is {}", what, expected, part, got);
}
/// A value (or a part of one) whose kinds only partly fit its place: the checker cannot
/// prove that no input gives it a kind the place refuses (a `type-unproven` warning).
inline std::string type_unproven(std::string_view what, std::string_view expected,
                                 std::string_view got) {
  return fmt::format(
      "{} must be {}, but it may be {}, which the checker cannot rule out: evaluation fails for "
      "inputs where it is not {}",
      what, expected, got, expected);
}
inline std::string part_type_unproven(std::string_view what, std::string_view expected,
                                      std::string_view part, std::string_view got) {
  return fmt::format(
      "{} must be {}, but {} may be {}, which the checker cannot rule out: evaluation fails for "
      "inputs where it is not {}",
      what, expected, part, got, expected);
}
inline std::string operands_of(std::string_view op) { return fmt::format("the operands of '{}'", op); }
inline std::string left_operand(std::string_view op) { return fmt::format("the left operand of '{}'", op); }
inline std::string right_operand(std::string_view op) { return fmt::format("the right operand of '{}'", op); }
/// What an ordering (and `+`, with lists) takes whatever the values are.
inline std::string operand_pairs(bool lists) {
  return lists ? "two numbers, two strings or two lists" : "two numbers or two strings";
}
inline std::string kinds_and(std::string_view left, std::string_view right) {
  return fmt::format("{} and {}", left, right);
}
inline std::string list_holding(std::string_view items) { return fmt::format("a list holding {}", items); }
/// The value of derived value `name`, as the part of a value that is reported.
inline std::string derived_value_part(std::string_view name) {
  return fmt::format("derived value '{}'", name);
}
inline std::string branch_after(char separator) {
  return fmt::format("the value after '{}'", separator);
}
inline std::string try_argument(std::size_t position) {
  return position == 1 ? "the value of try()" : "the fallback of try()";
}
inline std::string list_item(std::size_t position) {
  return fmt::format("item {} of the list", position);
}
inline std::string items_of(std::string_view what) {
  return fmt::format("the items of {}", what);
}
inline std::string template_placeholder(std::string_view name) {
  return fmt::format("the placeholder {{{}}}", name);
}
inline std::string template_value_kinds() { return "a string, int, float, bool, list or null"; }
// A literal a value's input can never accept: "the default 'fast' of input 'prefer' is not one
// of the values its one_of allows (speed, memory)".
inline std::string not_one_of(std::string_view what, std::string_view value,
                              std::string_view input, std::string_view options) {
  return fmt::format("{} {} of input '{}' is not one of the values its one_of allows ({})", what,
                     value, input, options);
}
// A `set` or `with` text that is exactly the name of an input or derived value.
inline std::string expression_meant(std::string_view name) {
  return fmt::format("did you mean '= {}'?", name);
}
inline std::string literal_names_value(std::string_view name, std::string_view kind) {
  return fmt::format("the text '{}' is the name of {} '{}', but without '=' it is only text ({})",
                     name, kind, name, expression_meant(name));
}
inline std::string with_hint(std::string_view message, std::string_view hint) {
  return fmt::format("{} ({})", message, hint);
}
inline std::string overwritten_by_next(std::string_view field, std::string_view rule,
                                       std::string_view table) {
  return fmt::format(
      "rule '{}' sets '{}', but every rule of table '{}' (reached through next) that returns a "
      "record sets it again, so this value is never used",
      rule, field, table);
}
inline std::string overwritten_by_fallback(std::string_view field, std::string_view rule,
                                           std::string_view table) {
  return fmt::format(
      "rule '{}' sets '{}', but its fallback to table '{}' replaces it with that table's value "
      "(add it to keep to keep this one)",
      rule, field, table);
}
inline std::string overlapping_rule(std::string_view rule, std::string_view earlier,
                                    std::string_view inputs, std::string_view first) {
  return fmt::format(
      "rule '{}' partly overlaps earlier {}: for {} it matches, but '{}' fires first", rule,
      earlier, inputs, first);
}
inline std::string call_missing_input(std::string_view rules, std::string_view input) {
  return fmt::format("the call of '{}' does not give its required input '{}'", rules, input);
}
inline std::string unreachable_rule(std::string_view rule, std::string_view table) {
  return fmt::format("rule '{}' follows a catch-all rule in table '{}' and can never fire", rule,
                     table);
}

// ---- evaluation ----------------------------------------------------------------------------
inline std::string missing_input(std::string_view name) {
  return fmt::format("missing required input '{}'", name);
}
inline std::string unknown_input(std::string_view name, std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("unknown input '{}'", name);
  return fmt::format("unknown input '{}' (did you mean '{}'?)", name, suggestion);
}
inline std::string input_refused(std::string_view name, std::string_view value) {
  return fmt::format("input '{}' = {} is not one of the values its one_of allows", name, value);
}
inline std::string input_not_in_builtin_rules(std::string_view name) {
  return fmt::format(
      "unknown input '{}': the built-in rules do not declare it (for another rule file's inputs, "
      "give that file with --rules FILE)",
      name);
}
inline std::string input_type(std::string_view name, std::string_view expected,
                              std::string_view got) {
  return fmt::format("input '{}' must be {}, got {}", name, expected, got);
}
inline std::string input_list_item(std::string_view name, std::string_view element,
                                   std::string_view got) {
  return fmt::format("input '{}' must be list[{}], got a list holding {}", name, element, got);
}
inline std::string input_too_long(std::string_view name, std::size_t length, std::size_t limit) {
  return fmt::format("input '{}' has a string of {} bytes, longer than the limit of {} bytes", name,
                     length, limit);
}
inline std::string not_allowed(std::string_view name, std::string_view value) {
  return fmt::format("input '{}' has a value that is not allowed: '{}'", name, value);
}
inline std::string no_rule_matched(std::string_view table) {
  return fmt::format("no rule of table '{}' matched these inputs", table);
}
inline std::string chain_too_deep(int limit) {
  return fmt::format("table calls nest deeper than {} levels", limit);
}
inline std::string integer_overflow(std::string_view what) {
  return fmt::format("integer overflow: {} is beyond the 128-bit range of intermediate results",
                     what);
}
inline std::string out_of_64_bits(std::string_view what) {
  return fmt::format("{} does not fit in a 64-bit integer", what);
}
inline std::string record_in_output(std::string_view field) {
  return fmt::format("record field '{}' holds a record; records cannot be output", field);
}
inline std::string negation(std::string_view operand) {
  return fmt::format("-({})", operand);
}
inline std::string division_by_zero() {
  return "division by zero";
}
inline std::string runtime_type(std::string_view where, std::string_view what) {
  return fmt::format("{}: {}", where, what);
}
inline std::string matcher_needs_list() {
  return "one_of needs a list";
}
/// "a list", or "a list of 2 items" for a matcher whose list has a fixed length.
inline std::string a_list_of(std::size_t items) {
  return items == 0 ? std::string("a list") : fmt::format("a list of {} items", items);
}
inline std::string builtin_argument(std::size_t position, std::string_view builtin) {
  return fmt::format("argument {} of {}()", position, builtin);
}

inline std::string operand_kinds(std::string_view op, std::string_view left,
                                 std::string_view right) {
  return fmt::format("cannot apply '{}' to {} and {}", op, left, right);
}
// The builtin pipeline_microbatches: the reference's ValueError texts, word for word.
inline std::string microbatches_not_positive(std::string_view name, std::string_view got) {
  return fmt::format("{} must be positive, but got {}.", name, got);
}
inline std::string microbatches_fewer_than_stages(std::string_view batch_size,
                                                  std::string_view num_stages) {
  return fmt::format(
      "batch_size ({}) must be >= num_stages ({}) for pipeline parallelism with the current "
      "microbatch "
      "splitting implementation.",
      batch_size, num_stages);
}
inline std::string microbatches_no_divisor(std::string_view batch_size, std::string_view num_stages,
                                           std::string_view target) {
  return fmt::format(
      "batch_size ({}) must be divisible by at least one microbatch count in [{}, {}] for pipeline "
      "parallelism.",
      batch_size, num_stages, target);
}

inline std::string repeat_too_long(std::string_view count, std::size_t limit) {
  return fmt::format(
      "repeat() would build a list of {} items (nested ones included), more than the limit of {}",
      count, limit);
}

inline std::string repr_too_long(std::size_t limit) {
  return fmt::format("repr() would write more than {} bytes", limit);
}

// ---- table analysis (`check`): why a table is not fully analysed, and what it found ---------
inline std::string analysis_incomplete(std::string_view subject, std::string_view what) {
  return fmt::format("{} not fully analysed: {}; shadowed rules and gaps may go unreported",
                     subject, what);
}
inline std::string analysis_too_many_alternatives() {
  return "the expression has too many alternative values";
}
inline std::string analysis_calls_rule_set(std::string_view let) {
  return fmt::format("derived value '{}' calls another rule set", let);
}
inline std::string analysis_list_input(std::string_view input) {
  return fmt::format("input '{}' is a list", input);
}
inline std::string analysis_three_inputs(std::string_view names) {
  return fmt::format("the condition relates more than two integer inputs ({})", names);
}
inline std::string analysis_period_too_large(std::string_view limit) {
  return fmt::format("the divisors of the condition multiply to more than {}", limit);
}
inline std::string analysis_divides_by_input() {
  return "the condition divides by a value that depends on inputs";
}
inline std::string analysis_multiplies_inputs() {
  return "the condition multiplies two values that depend on integer inputs";
}
inline std::string analysis_float_condition() {
  return "the condition compares a float value that depends on inputs";
}
inline std::string analysis_orders_strings() {
  return "the condition orders strings that depend on inputs";
}
inline std::string analysis_two_string_inputs() {
  return "the condition compares two string inputs with each other";
}
inline std::string analysis_record_field(std::string_view let, std::string_view field) {
  return fmt::format(
      "'{}.{}' is a field of another rule set's record, which the analysis does not evaluate", let,
      field);
}
inline std::string analysis_unsupported_expression() {
  return "the analysis does not support this kind of expression";
}
inline std::string analysis_builds_string() {
  return "the condition builds a string from an input";
}
inline std::string analysis_prefix_from_input(std::string_view builtin) {
  return fmt::format("{}() is given a prefix that depends on inputs", builtin);
}
inline std::string analysis_unsupported_builtin(std::string_view builtin) {
  return fmt::format("{}() is not supported by the analysis", builtin);
}
inline std::string analysis_overflow() {
  return "an integer condition overflows 128 bits";
}
inline std::string analysis_not_affine() {
  return "an integer condition is not periodic-affine (internal)";
}
inline std::string analysis_residues(std::string_view inputs, std::string_view limit) {
  return fmt::format("the divisors in the conditions on {} need more than {} residue classes",
                     inputs, limit);
}
inline std::string analysis_coefficients(std::string_view x, std::string_view y) {
  return fmt::format("the coefficients relating '{}' and '{}' are too large", x, y);
}
inline std::string analysis_lowered_options(std::string_view input) {
  return fmt::format("input '{}' is lowered and has non-ASCII options", input);
}
inline std::string analysis_lowered_constants(std::string_view input) {
  return fmt::format("input '{}' is lowered and compared with non-ASCII strings", input);
}
inline std::string analysis_no_representative(std::string_view input) {
  return fmt::format("no representative string found for input '{}'", input);
}
inline std::string analysis_chain(std::string_view names) {
  return fmt::format("the conditions relate the integer inputs {} in a chain", names);
}
inline std::string analysis_fallback_expression(std::string_view rule, std::string_view input) {
  return fmt::format("rule '{}' falls back to it with '{}' set to an expression", rule, input);
}
inline std::string analysis_fallback_overrides_condition(std::string_view rule,
                                                         std::string_view input) {
  return fmt::format(
      "rule '{}' falls back to it overriding '{}', which its own conditions depend on", rule,
      input);
}
inline std::string analysis_fallback_too_many(std::string_view rule) {
  return fmt::format("rule '{}' falls back to it overriding inputs with too many values", rule);
}
inline std::string analysis_too_many_points(std::size_t limit) {
  return fmt::format("its conditions depend on more than {} combinations of input values", limit);
}
inline std::string analysis_entry_too_many_points(std::size_t limit) {
  return fmt::format(
      "whether the inputs it is entered with reach a gap depends on more than {} combinations of "
      "input "
      "values",
      limit);
}
inline std::string analysis_blocked_rule(std::string_view rule, std::string_view where) {
  return fmt::format(
      "whether rule '{}' can fire depends on an earlier condition that fails to evaluate for some "
      "inputs "
      "({})",
      rule, where);
}
inline std::string shadowed_unsatisfiable(std::string_view rule) {
  return fmt::format("rule '{}' can never fire: no input satisfies all of its conditions", rule);
}
inline std::string shadowed_by(std::string_view rule, std::string_view earlier) {
  return fmt::format("rule '{}' can never fire: every input it matches is matched earlier by {}",
                     rule, earlier);
}
inline std::string table_gap(std::string_view table, std::string_view inputs) {
  return fmt::format("table '{}' has a gap: no rule matches {}", table, inputs);
}
inline std::string table_may_have_gap(std::string_view table, std::string_view inputs,
                                      std::string_view why) {
  return fmt::format(
      "table '{}' may have a gap: no rule matches {}; the condition under which the table is "
      "entered "
      "was not modelled ({}), so such inputs may never reach it",
      table, inputs, why);
}
inline std::string any_input_reaching_it() {
  return "any input that reaches it";
}
inline std::string any_input() {
  return "any input";
}
inline std::string invariant_violated(std::string_view name, std::string_view inputs,
                                      std::string_view message, std::string_view path) {
  return fmt::format("invariant '{}' does not hold for {}: {} (rule path: {})", name, inputs,
                     message, path);
}
inline std::string invariant_not_proved(std::string_view name, std::string_view what) {
  return fmt::format(
      "invariant '{}' checked only at representatives: {}; a violation between them may go "
      "unreported",
      name, what);
}
inline std::string invariant_compares_field_with_inputs() {
  return "it compares a record field with a value computed from the inputs";
}
inline std::string invariant_reads_computed_field(std::string_view field) {
  return fmt::format("it reads record field '{}', which a rule computes from the inputs here",
                     field);
}

// ---- check: diagnostic codes, `allow:` and the warning policy --------------------------------
inline std::string unknown_code(std::string_view code, std::string_view suggestion) {
  if (suggestion.empty())
    return fmt::format("unknown diagnostic code '{}' (the codes are listed in docs/rules.md)",
                       code);
  return fmt::format("unknown diagnostic code '{}' (did you mean '{}'?)", code, suggestion);
}
inline std::string allow_error(std::string_view code) {
  return fmt::format("'{}' is an error and cannot be allowed (allow accepts warnings and notes)",
                     code);
}
inline std::string ignore_error(std::string_view code) {
  return fmt::format(
      "--ignore {}: '{}' is an error and cannot be ignored (only warnings and notes can)", code,
      code);
}
inline std::string unused_allow(std::string_view code) {
  return fmt::format(
      "'{}' is allowed here but nothing here is reported with it; remove it from allow", code);
}
inline std::string allowed_finding(std::string_view severity, std::string_view message,
                                   std::string_view reason) {
  return fmt::format("allowed {}: {} (reason: {})", severity, message, reason);
}
inline std::string count_of(std::size_t n, std::string_view what) {
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}
/// `check`'s summary line of a file it accepts.
inline std::string check_ok(std::string_view file, std::size_t rules, std::size_t tables,
                            std::size_t warnings, std::size_t allowed) {
  std::string line = fmt::format("{}: ok \u2014 {} in {}, {}", file, count_of(rules, "rule"),
                                 count_of(tables, "table"), count_of(warnings, "warning"));
  if (allowed != 0) line += fmt::format(" ({} allowed)", allowed);
  return line;
}
/// `check`'s summary line of a file it refuses.
inline std::string check_failed(std::string_view file, std::size_t errors, std::size_t warnings,
                                bool strict) {
  return fmt::format("{}: failed \u2014 {}, {}{}", file, count_of(errors, "error"),
                     count_of(warnings, "warning"), strict && errors == 0 ? " (--strict)" : "");
}

// ---- records as the C++ API reads them (Recommendation, Plan) ---------------------------------
// `record` is "record" or "plan record".
inline std::string record_lacks_field(std::string_view record, std::string_view name) {
  return fmt::format("the {} has no field '{}'", record, name);
}
inline std::string record_field_kind(std::string_view record, std::string_view name,
                                     std::string_view expected) {
  return fmt::format("{} field '{}' is not {}", record, name, expected);
}
inline std::string record_field_items(std::string_view name, std::string_view what) {
  return fmt::format("record field '{}' holds {}", name, what);
}

// ---- values of the public API ----------------------------------------------------------------
inline std::string value_int_out_of_range(std::uint64_t value) {
  return fmt::format("snnplan::Value: {} does not fit in a 64-bit signed integer", value);
}

// ---- command line ----------------------------------------------------------------------------
inline std::string watch_needs_batch() {
  return "--watch needs --batch (it re-reads the rule file between lines)";
}
inline std::string jobs_needs_batch() {
  return "--jobs needs --batch (it answers batch lines on several threads)";
}
inline std::string watch_needs_rules() {
  return "--watch needs a rule file (--rules FILE or SNNPLAN_RULES)";
}
inline std::string flag_not_integer(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected an integer, got '{}'", flag, text);
}
inline std::string flag_out_of_range(std::string_view flag, std::string_view text) {
  return fmt::format("{}: {} does not fit in a 64-bit integer", flag, text);
}
inline std::string flag_not_number(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected a number, got '{}'", flag, text);
}
inline std::string flag_float_out_of_range(std::string_view flag, std::string_view text) {
  return fmt::format("{}: {} is beyond the range of a 64-bit float", flag, shown_number(text));
}
inline std::string flag_not_bool(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected true or false, got '{}'", flag, text);
}
inline std::string flag_not_utf8(std::string_view flag) {
  return fmt::format("{}: value is not valid UTF-8", flag);
}
inline std::string input_assignment(std::string_view text) {
  return fmt::format("--input: expected NAME=VALUE, got '{}'", text);
}
inline std::string batch_with_flags(std::string_view flag) {
  return fmt::format("{} cannot be combined with --batch (batch inputs come from the JSON lines)",
                     flag);
}
/// `why` is empty for a file that does not exist or cannot be read.
/// What with_batch_input() reads: names the input in cannot_open_batch().
inline constexpr std::string_view kBatchFile = "batch file";
inline constexpr std::string_view kDecisionLogFile = "decision log";
/// `what`: kBatchFile, or kDecisionLogFile for `snnplan replay`.
inline std::string cannot_open_batch(std::string_view path, std::string_view why = {},
                                     std::string_view what = kBatchFile) {
  if (why.empty()) return fmt::format("cannot open {} '{}'", what, path);
  return fmt::format("cannot open {} '{}': {}", what, path, why);
}
inline std::string cannot_read_tests(std::string_view path, std::string_view why) {
  return fmt::format("cannot read test file '{}': {}", path, why);
}
/// Decision logs (snnplan/decision_log.hpp) and `snnplan replay`.
inline std::string decision_log_cannot_open(std::string_view path) {
  return fmt::format("cannot open decision log {}", path);
}
inline std::string decision_log_not_opened(std::string_view path, std::string_view why) {
  return fmt::format("snnplan: cannot open decision log {} (SNNPLAN_DECISION_LOG): {}; decisions are not logged",
                     path, why);
}
inline std::string decision_log_short_write(std::ptrdiff_t written, std::size_t size) {
  return fmt::format("only {} of {} bytes written", written, size);
}
inline std::string decision_log_write_failed(std::string_view path, std::string_view why) {
  return fmt::format("snnplan: cannot write decision log {}: {} (the decision stands; further failures are "
                     "counted, not reported)", path, why);
}
inline std::string replay_not_json(std::string_view why) { return fmt::format("not JSON ({})", why); }
inline std::string replay_not_a_record() { return "not a decision record (a JSON object)"; }
inline std::string replay_other_format(std::string_view format) {
  return fmt::format("a record of another log format ({})", format);
}
inline std::string replay_missing_key(std::string_view key) {
  return fmt::format("the record has no valid \"{}\"", key);
}
inline std::string replay_masked(std::string_view names) {
  return fmt::format("inputs masked or dropped when logged: {}", names);
}
inline std::string replay_file_gone(std::string_view file, std::string_view why) {
  return fmt::format("its rule file {} cannot be loaded: {}", file, why);
}
inline std::string replay_undeclared_input(std::string_view name, std::string_view file) {
  return fmt::format("input '{}' is not declared by {}", name, file);
}
inline std::string replay_bad_inputs(std::string_view why) { return fmt::format("its inputs: {}", why); }
/// --probe-torch: the interpreter could not be started.
inline std::string probe_cannot_run(std::string_view python, std::string_view why) {
  return fmt::format("--probe-torch: cannot run {}: {}", python, why);
}
/// --probe-torch: the probe raised (PyTorch raising something other than ImportError).
inline std::string probe_failed(std::string_view python, std::string_view how, std::string_view last_line) {
  return fmt::format("--probe-torch: probing PyTorch with {} failed ({}): {}", python, how,
                     last_line.empty() ? std::string_view("no output") : last_line);
}
inline std::string probe_unreadable(std::string_view python, std::string_view last_line) {
  return fmt::format("--probe-torch: {} did not answer the probe as expected: {}", python, last_line);
}
/// What --probe-torch found, on stderr: which interpreter answered and its four values.
inline std::string probe_result(std::string_view python, const std::optional<std::string>& torch,
                                std::string_view found) {
  return fmt::format("snnplan: probed PyTorch with {} ({}):{}", python,
                     torch ? "torch " + *torch : std::string("no torch"), found);
}
/// `first` is how the input was given first, e.g. "--model" or "--input model=...".
inline std::string input_given_twice(std::string_view name, std::string_view first) {
  return fmt::format("input '{}' is given twice (first by {})", name, first);
}
inline std::string test_expect_error_kind() {
  return expected_kind("expect_error", "a string (the expected error message)");
}
inline std::string test_expect_and_error() {
  return "a test may have expect or expect_error, not both";
}
inline std::string batch_format(std::string_view format) {
  return fmt::format("--format {} cannot be combined with --batch (batch output is JSON Lines)",
                     format);
}
// ---- snnplan diff and map ----
inline std::string diff_inputs_differ(std::string_view old_file, std::string_view only_old,
                                      std::string_view new_file, std::string_view only_new) {
  std::string out = "the two rule files declare different inputs:";
  if (!only_old.empty()) out += fmt::format(" only {} has {}", old_file, only_old);
  if (!only_old.empty() && !only_new.empty()) out += ";";
  if (!only_new.empty()) out += fmt::format(" only {} has {}", new_file, only_new);
  return out;
}
inline std::string diff_too_many_defaults(std::size_t limit) {
  return fmt::format(
      "more than {} inputs have different defaults in the two files: only the first {} are also "
      "tried left out",
      limit, limit);
}
inline std::string diff_partial_region(std::string_view region) {
  return fmt::format(
      "values computed from the inputs change at some sampled inputs and not at others, or not in "
      "the same way, where {}: there they are compared at sampled inputs only",
      region);
}
inline std::string diff_dense_values(std::string_view rule, std::string_view why) {
  return fmt::format("what rule '{}' sets is beyond the regions ({})", rule, why);
}
inline std::string diff_dense_sampling(std::string_view inputs, std::string_view lo,
                                       std::string_view hi) {
  return fmt::format(
      "where such a rule fires, {} are also sampled densely ({}..{} each) besides the regions' own "
      "points",
      inputs, lo, hi);
}
inline std::string diff_condition_not_computable(std::string_view term) {
  return fmt::format("{} cannot be computed", term);
}
inline std::string map_unknown_axis(std::string_view flag, std::string_view name,
                                    std::string_view file) {
  return fmt::format("{} {}: not an input of {}", flag, name.empty() ? "''" : name, file);
}
inline std::string map_axis_needs_values(std::string_view flag, std::string_view name) {
  return fmt::format(
      "{} {}: give its values, as NAME=A..B[:STEP] or NAME=V1,V2,... (only a bool input may go "
      "without)",
      flag, name);
}
inline std::string map_range_needs_int(std::string_view where, std::string_view type) {
  return fmt::format(
      "{}: a range A..B needs an int input, this one is {}; list its values as V1,V2,...", where,
      type);
}
inline std::string map_range_step(std::string_view where, std::int64_t step) {
  return fmt::format("{}: the step must be at least 1, got {}", where, step);
}
inline std::string map_range_empty(std::string_view where, std::string_view range) {
  return fmt::format("{}: the range {} has no values", where, range);
}
inline std::string map_too_many_cells(double cells, std::size_t limit) {
  return fmt::format("the map would have {:.0f} cells, more than the limit of {} (1024 x 1024)",
                     cells, limit);
}
inline std::string map_same_axis(std::string_view name) {
  return fmt::format("--x and --y are both {}: map two different inputs", name);
}
inline std::string map_input_required(std::string_view name) {
  return fmt::format("input '{}' has no default: give it with --input {}=VALUE (or as an axis)",
                     name, name);
}
inline std::string map_unknown_field(std::string_view field, std::string_view file) {
  return fmt::format("--color-by {}: not a record field of {} (nor 'rule')", field, file);
}
inline std::string map_diff_with_rules() {
  return "--diff OLD NEW names the rule files: --rules cannot be given too";
}
inline std::string map_error_key() {
  return "error (the rules refuse these inputs)";
}
inline std::string map_unchanged_key() {
  return "unchanged";
}
inline std::string map_changed_key(std::string_view key) {
  return fmt::format("{} (changed)", key);
}
inline std::string map_legend_more(std::size_t more) {
  return fmt::format("... and {} more", more);
}
inline std::string diff_unknown_input(std::string_view name) {
  return fmt::format("--input {}: not an input of the rule files", name);
}
inline std::string diff_wrong_kind() {
  return "the rule files do not take this value for it (its type)";
}
inline std::string diff_not_allowed() {
  return "not one of its allowed values (one_of)";
}
inline std::string diff_input_refused(std::string_view name, std::string_view why) {
  return fmt::format("--input {}: {}", name, why);
}
inline std::string trace_needs_batch(std::string_view command) {
  return fmt::format("{} --trace needs --batch (the rule path is added to each batch line)",
                     command);
}
inline std::string trace_format(std::string_view format) {
  return fmt::format(
      "--trace cannot be combined with --format {} (the trace is part of the JSON output)", format);
}
inline std::string flag_value_missing(std::string_view flag_given) {
  return fmt::format("expected a value, got the flag {}", flag_given);
}
inline std::string unknown_subcommand(std::string_view name, const std::vector<std::string>& names,
                                      std::string_view suggestion) {
  std::string listed;
  for (const std::string& known : names) listed += (listed.empty() ? "" : ", ") + known;
  const std::string base = fmt::format("unknown subcommand '{}' (the subcommands are {})", name, listed);
  if (suggestion.empty()) return base;
  return fmt::format("{}; did you mean '{}'?", base, suggestion);
}
/// An option before the subcommand that is not one of snnplan's own (--help, --version).
inline std::string unknown_option(std::string_view flag, std::string_view suggestion) {
  const std::string base = fmt::format(
      "unknown option '{}' (before a subcommand snnplan takes only --help and --version; "
      "a subcommand's options follow it, as in snnplan recommend --model ...)", flag);
  if (suggestion.empty()) return base;
  return fmt::format("{}; did you mean '{}'?", base, suggestion);
}
/// Two arguments of one command that both name "-".
inline std::string stdin_read_twice(std::string_view first, std::string_view second) {
  return fmt::format("{} and {} cannot both read standard input ('-'); give one of them a file", first, second);
}
inline std::string watch_stdin() {
  return "--watch needs a rule file it can re-read, not standard input (--rules -)";
}
inline std::string not_a_choice(std::string_view value, std::string_view choices) {
  return fmt::format("{} not in {}", value, choices);
}

// ---- plan: topology, feature set, `snnplan plan` ---------------------------------------------
// (The plan's own refusals -- unknown objective or mode, pp, no TP candidates -- are data in
// rules/snn_plan.yaml.)
// The topology's refusals are upstream's SNNDistributedTopology texts (topology.py at the
// seed's commit), word for word: `type` is a Python type name (bool, float, str, NoneType,
// list), numbers are written in decimal whatever their size, `dims` is a Python dict's repr.
inline std::string topology_size_type(std::string_view name, std::string_view type) {
  return fmt::format("Topology dimension '{}' must be an integer, but got {}.", name, type);
}
inline std::string topology_name_type(std::string_view type) {
  return fmt::format("Topology dimension names must be strings, but got {}.", type);
}
inline std::string topology_world_size_type(std::string_view type) {
  return fmt::format("world_size must be an integer, but got {}.", type);
}
inline std::string topology_world_size(std::string_view world_size) {
  return fmt::format("world_size must be positive, but got {}.", world_size);
}
inline std::string topology_no_dimensions() {
  return "dims must not be empty.";
}
inline std::string topology_empty_name() {
  return "Topology dimension names must be non-empty.";
}
inline std::string topology_size(std::string_view name, std::string_view size) {
  return fmt::format("Topology dimension '{}' must be positive, but got {}.", name, size);
}
inline std::string topology_product(std::string_view dims, std::string_view product,
                                    std::string_view world_size) {
  return fmt::format("Topology dims {} multiply to {}, but world_size={}.", dims, product,
                     world_size);
}
/// Beyond upstream: snnplan's plans hold 64-bit world sizes.
inline std::string topology_too_large(std::string_view dims, std::string_view world_size) {
  return fmt::format(
      "Topology dims {} give world_size={}, beyond the 64-bit world sizes snnplan plans for.", dims,
      world_size);
}
/// A name given twice in "dp=4,dp=2" or a JSON object (a Python dict keeps one of them).
inline std::string topology_duplicate(std::string_view name) {
  return fmt::format("topology dimension '{}' is given more than once", name);
}
inline std::string topology_syntax(std::string_view text, std::string_view why) {
  return fmt::format(
      "cannot parse topology '{}': {} (expected NAME=SIZE,NAME=SIZE,..., e.g. dp=4,tp=2)", text,
      why);
}
inline std::string topology_entry_empty(std::size_t position) {
  return fmt::format("entry {} is empty", position);
}
inline std::string topology_entry_no_equals(std::string_view entry) {
  return fmt::format("entry '{}' has no '='", entry);
}
inline std::string topology_entry_no_name(std::string_view entry) {
  return fmt::format("entry '{}' has no dimension name", entry);
}
inline std::string topology_entry_no_size(std::string_view name) {
  return fmt::format("dimension '{}' has no size", name);
}
inline std::string topology_entry_not_integer(std::string_view name, std::string_view size) {
  return fmt::format("the size of dimension '{}' is not an integer: '{}'", name, size);
}
inline std::string topology_entry_too_large(std::string_view name, std::string_view size) {
  return fmt::format("the size of dimension '{}' does not fit in a 64-bit integer: '{}'", name,
                     size);
}
inline std::string topology_entry_duplicate(std::string_view name) {
  return fmt::format("dimension '{}' is given more than once", name);
}
/// Upstream's TypeError for a keyword DistributedFeatureSet does not declare (here: a flag
/// the plan rules do not declare).
inline std::string unknown_feature(std::string_view name) {
  return fmt::format("DistributedFeatureSet.__init__() got an unexpected keyword argument '{}'",
                     name);
}
inline std::string feature_given_twice(std::string_view name) {
  return fmt::format("--feature {}: given more than once", name);
}
inline std::string feature_assignment(std::string_view text) {
  return fmt::format("--feature: expected NAME=true|false, got '{}'", text);
}
inline std::string feature_not_bool(std::string_view name, std::string_view got) {
  return fmt::format("feature '{}' must be true or false, got {}", name, got);
}
inline std::string flag_not_yes_no(std::string_view flag, std::string_view text) {
  return fmt::format("{}: expected yes or no, got '{}'", flag, text);
}
inline std::string flag_empty_item(std::string_view flag, std::string_view text) {
  return fmt::format("{}: empty name in '{}' (expected NAME,NAME,...)", flag, text);
}
inline std::string plan_flag_required(std::string_view flag) {
  return fmt::format("{} is required (or give --batch FILE with one JSON object per line)", flag);
}
inline std::string integer_input_too_large(std::string_view key, std::string_view got) {
  return fmt::format("input '{}': {} does not fit in a 64-bit integer", key, got);
}
inline std::string integer_input_range(std::string_view key, std::string_view got) {
  return fmt::format("input '{}' must be an integer that fits in 64 bits, got {}", key, got);
}
inline std::string batch_empty_line() {
  return "empty line (expected a JSON object)";
}
/// `column` counts from 1. JSON text never holds a raw NUL byte (a string may hold \u0000).
inline std::string batch_nul_byte(std::size_t column) {
  return fmt::format(
      "a NUL byte at column {} (JSON text cannot contain one; inside a string write \\u0000)",
      column);
}
inline std::string batch_not_json(std::string_view what) {
  return fmt::format("not valid JSON: {}", what);
}
inline std::string batch_line_not_object(std::string_view got) {
  return fmt::format("a batch line must be a JSON object, got {}", got);
}
inline std::string batch_value_kind(std::string_view key, std::string_view got) {
  return fmt::format(
      "input '{}' must be a string, number, boolean, null or an array of those, got {}", key, got);
}
inline std::string array_holding(std::string_view kind) {
  return fmt::format("an array holding {}", kind);
}
inline std::string batch_duplicate_key(std::string_view key) {
  return fmt::format("duplicate key '{}' in a JSON object", key);
}
}  // namespace snnplan::messages

namespace snnplan::messages {
/// The candidate closest to `name` by edit distance, or "" when none is close enough to be
/// a plausible typo. Used for every "did you mean" hint.
std::string closest_match(std::string_view name, const std::vector<std::string>& candidates);
}  // namespace snnplan::messages

// ---- front ends: output formats, requests, the C API ------------------------------------------
namespace snnplan::messages {
/// "{json,yaml,text}": a set of choices as CLI11 writes one.
inline std::string choice_set(const std::vector<std::string>& names) {
  std::string out = "{";
  for (const std::string& name : names) out += (out.size() > 1 ? "," : "") + name;
  return out + "}";
}
/// Without the "--format: " CLI11 puts before a validator's message.
inline std::string unknown_format(std::string_view name, const std::vector<std::string>& supported) {
  return not_a_choice(name, choice_set(supported));
}
inline std::string format_cannot_render(std::string_view name,
                                        const std::vector<std::string>& supported) {
  return fmt::format("the format {} does not render this output (it is rendered as one of {})",
                     name, choice_set(supported));
}
inline std::string format_without_row(int format) {
  return fmt::format("format {} has no row in the format table", format);
}
}  // namespace snnplan::messages

namespace snnplan::messages {
// ---- front ends: the command line ------------------------------------------------------------
inline std::string run_with_help() { return "Run with --help for usage."; }
/// `snnplan --version`: the library, the rule format it reads and each built-in rule file's
/// SHA-256 (as sha256sum prints it for the file in rules/).
/// One built-in rule file for --version: its bytes' SHA-256 and, when it `uses:` others, its
/// revision (RuleSet::sha256(), what decision records name), else empty.
struct BuiltinRevision {
  std::string_view file;
  std::string_view sha256;
  std::string revision;
};
inline std::string version_report(std::string_view version, int rule_format,
                                  const std::vector<BuiltinRevision>& builtins) {
  std::string out = fmt::format("snnplan {}\nrule format {}\n", version, rule_format);
  for (const BuiltinRevision& b : builtins) {
    out += fmt::format("built-in rules {} sha256:{}", b.file, b.sha256);
    if (!b.revision.empty()) out += fmt::format(" revision:{} (with the files it uses)", b.revision);
    out += '\n';
  }
  return out;
}
inline std::string rejected_edit() {
  return "snnplan: rejected an edit of the rule file; the previous rules stay in use:";
}
inline std::string plan_key_without_flag(std::string_view key) {
  return fmt::format("the plan request key '{}' has no flag", key);
}

// Output (-o FILE and standard output) and interrupted runs.
inline std::string cannot_write_output(std::string_view reason) {
  return fmt::format("cannot write output: {}", reason);
}
/// When the stream that failed gives no reason of its own (not a file descriptor).
inline std::string output_stream_failed() {
  return "the output stream failed";
}
inline std::string output_path_empty() {
  return "-o/--output needs a file name, but got ''";
}
inline std::string output_is_directory(std::string_view path) {
  return fmt::format("'{}' is a directory", path);
}
inline std::string cannot_create_output(std::string_view path, std::string_view reason) {
  return fmt::format("cannot create a file beside '{}': {}", path, reason);
}
inline std::string signal_name(int signal) {
  return signal == 2 ? "SIGINT" : signal == 15 ? "SIGTERM" : fmt::format("signal {}", signal);
}
/// A batch stopped by a signal: how far it got, and where that went.
inline std::string batch_interrupted(int signal, std::size_t lines, std::string_view output_file) {
  if (output_file.empty())
    return fmt::format("interrupted by {}: {} complete line{} written", signal_name(signal), lines,
                       lines == 1 ? "" : "s");
  return fmt::format("interrupted by {} after {} line{}: '{}' was left as it was",
                     signal_name(signal), lines, lines == 1 ? "" : "s", output_file);
}
inline std::string interrupted(int signal, std::string_view output_file) {
  if (output_file.empty()) return fmt::format("interrupted by {}", signal_name(signal));
  return fmt::format("interrupted by {}: '{}' was left as it was", signal_name(signal),
                     output_file);
}
inline std::string batch_line_too_long(std::size_t limit) {
  return fmt::format(
      "line is longer than the limit of {} bytes; it was skipped without being read whole", limit);
}
}  // namespace snnplan::messages

namespace snnplan::messages {
// ---- front ends: the C API (without allocating where memory may be short) ----------------------
inline const char* c_null_out_rules() { return "out_rules must not be NULL"; }
inline const char* c_null_rule_root() {
  return "rule_roots must hold root_count directory names, none of them NULL";
}
inline const char* c_null_path() { return "path must not be NULL"; }
inline const char* c_null_text() { return "text must not be NULL"; }
inline const char* c_null_log_path() { return "log_path must not be NULL"; }
inline const char* c_null_rules() { return "rules must not be NULL"; }
inline const char* c_null_candidate() { return "candidate must not be NULL"; }
inline const char* c_log_options_not_object() {
  return "options_json must be a JSON object with labels, drop_inputs or mask_inputs";
}
inline std::string c_log_options_not_json(std::string_view why) {
  return fmt::format("options_json is not JSON: {}", why);
}
inline std::string c_log_option_unknown(std::string_view key) {
  return fmt::format("unknown decision-log option '{}' (known: labels, drop_inputs, mask_inputs)", key);
}
inline std::string c_log_option_wrong_type(std::string_view key, std::string_view expected) {
  return fmt::format("decision-log option '{}' must be {}", key, expected);
}
inline const char* c_out_of_memory() { return "out of memory"; }
inline const char* c_unknown_internal_error() { return "unknown internal error"; }
/// `what`: the exception's what(), or "" when there is none.
inline std::string c_internal_error(std::string_view what) {
  return what.empty() ? std::string("internal error") : fmt::format("internal error: {}", what);
}
}  // namespace snnplan::messages

namespace snnplan::messages {
// ---- front ends: the Python module (TypeError and ValueError texts)
// ------------------------------
/// "batch_size must be int, not str": `got` is the Python type's name.
inline std::string py_wrong_type(std::string_view what, std::string_view expected,
                                 std::string_view got) {
  return fmt::format("{} must be {}, not {}", what, expected, got);
}
inline std::string py_int_too_large(std::string_view what, std::string_view value) {
  return fmt::format("{} = {} does not fit in a 64-bit integer", what, value);
}
/// The package's wrappers always pass every argument; another caller of the internal function gets this.
inline std::string py_positional_arguments(std::string_view function, int expected, std::ptrdiff_t given) {
  return fmt::format("{}() takes {} positional arguments but {} were given", function, expected, given);
}
/// snnplan/_types.py and the extension disagree about the record (a broken installation).
inline std::string py_record_class_mismatch(std::string_view what) {
  return fmt::format("snnplan: SNNDistributedRecommendation does not match the extension: {}", what);
}
/// snnplan/_drop_in.py and the extension disagree about the availability constants.
inline std::string py_availability_constants_mismatch() {
  return "snnplan: the *_AVAILABLE constants do not match the extension: expected a namespace dict and four names";
}
/// The probe ran but one of the package's constants is still not set.
inline std::string py_constant_missing(std::string_view name) {
  return fmt::format("module 'snnplan' has no attribute '{}' after probing PyTorch", name);
}
/// Decision logs from Python (snnplan.DecisionLog, RuleSet.with_decision_log).
inline std::string py_log_names_not_str(std::string_view what) {
  return fmt::format("{} must be an iterable of input names (str), such as ['model']", what);
}
inline const char* py_log_labels_not_str() { return "labels must map str to str, such as {'job': '42'}"; }
inline const char* py_log_options_with_log() {
  return "labels, drop_inputs and mask_inputs are a DecisionLog's own: give them when it is made";
}
}  // namespace snnplan::messages

namespace snnplan::messages {
// ---- front ends: `snnplan test` reports ---------------------------------------------------------
inline std::string test_unnamed(std::uint32_t line) {
  return fmt::format("test at line {}", line);
}
inline std::string test_failed(std::string_view name, std::string_view where) {
  return fmt::format("FAIL {} ({})", name, where);
}
inline std::string test_field_differs(std::string_view field, std::string_view expected, std::string_view got) {
  return fmt::format("{}:\n    expected: {}\n    got:      {}", field, expected, got);
}
/// The allowed keys are listed because a test file has few and a typo is common.
inline std::string test_unknown_key(std::string_view key, std::string_view where, std::string_view suggestion,
                                    std::string_view allowed) {
  if (suggestion.empty()) return fmt::format("unknown key '{}' in {}; allowed: {}", key, where, allowed);
  return fmt::format("unknown key '{}' in {} (did you mean '{}'?); allowed: {}", key, where, suggestion, allowed);
}
inline std::string test_duplicate_name(std::string_view name, std::string_view first) {
  return fmt::format("a test named '{}' already exists (at {}); test names must be unique", name, first);
}
inline std::string test_unknown_field(std::string_view field, std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("the record has no field '{}'", field);
  return fmt::format("the record has no field '{}' (did you mean '{}'?)", field, suggestion);
}
inline std::string test_field_type(std::string_view field, std::string_view expected, std::string_view got) {
  return fmt::format("field '{}' is {}, but the test expects {}", field, expected, got);
}
inline std::string test_unknown_rule(std::string_view path, std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("no rule '{}' in the rule file (rule paths are table/rule)", path);
  return fmt::format("no rule '{}' in the rule file (did you mean '{}'?)", path, suggestion);
}
inline std::string test_exact_with_error() { return "exact applies to expect, not to expect_error"; }
inline std::string test_not_expected() { return "(no such field in expect, and the test is exact)"; }
inline std::string test_a_record(std::string_view mode) { return fmt::format("a record (mode: {})", mode); }
inline std::string test_an_error(std::string_view message) { return fmt::format("an error: {}", message); }
inline std::string test_no_field() { return "(no such field)"; }
inline std::string coverage_kind_below(std::string_view kind, double percent, double minimum) {
  return fmt::format("{} coverage {:.1f}% is below the minimum {}%", kind, percent, minimum);
}
inline std::string mutation_summary(std::size_t mutants, std::size_t killed, std::size_t survived,
                                    std::size_t equivalent, double score, double seconds, unsigned threads) {
  return fmt::format("mutation testing: {} mutants, {} killed, {} survived, {} equivalent; mutation score {:.1f}% "
                     "({} of {}) in {:.2f} s on {} thread{}",
                     mutants, killed, survived, equivalent, score, killed, mutants - equivalent, seconds, threads,
                     threads == 1 ? "" : "s");
}
inline std::string mutation_survivors_heading() {
  return "surviving mutants (no test tells them apart from the rules):\n";
}
inline std::string mutation_equivalent_heading() {
  return "equivalent mutants (the same answer for every input; not counted):\n";
}
inline std::string mutation_score_below(double score, double minimum) {
  return fmt::format("mutation score {:.1f}% is below the minimum {}%", score, minimum);
}
inline std::string mutation_needs_passing_tests() {
  return "mutation testing needs every test to pass first";
}
inline std::string flag_not_in_range(std::uint64_t low, std::uint64_t high, std::string_view text) {
  return fmt::format("expected an integer from {} to {}, got '{}'", low, high, text);
}
inline std::string flag_not_percentage(std::string_view text) {
  return fmt::format("expected a number from 0 to 100, got '{}'", text);
}
inline std::string cannot_generate(std::string_view why) { return fmt::format("cannot generate tests: {}", why); }
inline std::string test_files_required() { return "tests is required"; }
inline std::string generate_with_test_files() {
  return "--generate writes a test file for the rules; it takes no test files (and no --mutate or --min-coverage)";
}
// The first line of a YAML file that any YAML language server reads as the file's JSON Schema.
inline std::string yaml_schema_comment(std::string_view schema) {
  return fmt::format("# yaml-language-server: $schema={}\n", schema);
}
inline std::string generated_header(std::string_view rules, bool boundaries) {
  return fmt::format("# Generated by `snnplan test --generate {}{}`: one test per region of the decision{}.\n"
                     "# Each test expects what the rules answer today: review every expectation, then commit.\n",
                     rules, boundaries ? " --boundaries" : "", boundaries ? ", and one on each side of every threshold" : "");
}
// The goals no generated test reaches: the analysis found no input for them (it is not exact
// on this file), so the header asks for a test written by hand.
inline std::string generated_not_covered_heading() {
  return "# Not covered: no input the analysis tries reaches these goals (it is not exact on this\n"
         "# file); write a test for each by hand:\n";
}
inline std::string generated_not_covered(std::string_view goal) { return fmt::format("#   {}\n", goal); }
inline std::string generated_name(std::size_t number, std::string_view path) {
  return fmt::format("region {}: {}", number, path);
}
inline std::string generated_goal_name(std::string_view kind, std::string_view owner, std::string_view what) {
  return what.empty() ? fmt::format("{}: {}", kind, owner) : fmt::format("{}: {}: {}", kind, owner, what);
}
inline std::string coverage_unreachable_heading() {
  return "unreachable (no input covers them, so they do not count):\n";
}
inline std::string coverage_no_witnesses(std::string_view why) {
  return fmt::format("(no inputs are suggested: {})", why);
}
inline std::string flag_not_min_coverage(std::string_view text) {
  return fmt::format("expected a percentage from 0 to 100 or KIND=PERCENT,... with KIND rule, condition or "
                     "boundary, got '{}'", text);
}
}  // namespace snnplan::messages
