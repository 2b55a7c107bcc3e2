#pragma once
// What the workbench page draws from a rule file's text besides its diagnostics: the decision
// as a table (each table's rules as rows: name, conditions, what it sets, next / fallback, with
// their places so a click can jump to them) and the form to try an input (each declared input
// with its type, allowed values and default). Read from the syntax tree the loader builds, so
// it exists (partly) even for a text that does not check.

#include <nlohmann/json.hpp>
#include <string_view>

#include "language/syntax.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::serve {

/// {"tables": [{"name", "line", "rules": [{"name", "line", "column", "when": [{"fact", "op",
/// "operand", "line", "column"}], "set": [{"field", "value"}], "next", "fallback"}]}]}; `text`
/// is the text `file` was parsed from (the written values are quoted from it).
nlohmann::ordered_json outline_tables(const syntax::RuleFile& file, std::string_view text);

/// [{"name", "type", "required", "default", "one_of", "description"}] of the inputs `rules`
/// declares, in their order (null where an input has no default, one_of or description).
nlohmann::ordered_json outline_inputs(const RuleSet& rules);

/// The text of the value written at `at` in `text`: a scalar (quoted or not) or a flow
/// collection, up to the comma, brace or end of line that ends it.
std::string written_value(std::string_view text, const SourceLocation& at);

}  // namespace snnplan::serve
