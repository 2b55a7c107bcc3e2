#pragma once
// The keys of rule files and rule-test files, defined once: one row per key of each kind of
// mapping, with the shape of its value. The loaders (rule_file_loader.cpp, rule_tests.cpp)
// take their known keys from these rows, and `snnplan schema` builds the JSON Schema from the
// same rows (render/schema.cpp), so the schema cannot say other than the loader does. A test
// (tests/schema_test.py) holds them to it: every key or type error the loader reports in the
// broken corpus is a schema error too.
//
// Adding a key: its row here (the shape says what the loader accepts), then read it in the
// loader. The schema follows by itself.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::load {

/// The mappings of the two file kinds whose keys are fixed (not names the user chooses).
enum class Section : std::uint8_t {
  rule_file,     ///< the top level of a rule file
  input,         ///< an entry of `inputs`
  record_field,  ///< an entry of `record`
  let_call,      ///< a `let` entry that calls another rule set
  let_search,    ///< a `let` entry whose value a candidate search chooses
  search,        ///< a let's `search`
  search_constraint,  ///< an entry of a search's `require` (or a tier's), and its `fits`
  search_tier,        ///< an entry of a search's `tiers`
  search_failure,     ///< a search's `none_valid` or `none_fits`
  rule,          ///< a rule of a table
  fallback,      ///< a rule's `fallback`
  table,         ///< a table written as a mapping (`rules` with `allow`/`reason`)
  invariant,     ///< an entry of `ensure`
  test_file,     ///< the top level of a rule-test file
  test,          ///< an entry of a test file's `tests`
  none,          ///< for rows whose value holds no section
};

/// What the value of a key is, as the loader reads it.
enum class Shape : std::uint8_t {
  any,                  ///< not read: free-form (the descriptions of inputs and rules)
  scalar,               ///< a string, number or boolean, read as text (names, templates)
  boolean,              ///< true or false
  format_version,       ///< the integer snnplan::rule_format_version
  value,                ///< null, a scalar, an '= expression' string or a list of values
  scalar_or_scalars,    ///< a scalar or a list of scalars (because)
  scalars,              ///< a list of scalars (one_of, keep)
  input_type,           ///< a type name (language/syntax.hpp)
  field_type,           ///< a type name or `rationale`
  section,              ///< a mapping with the keys of the row's section
  sections,             ///< a list of such mappings
  named_sections,       ///< user-chosen names -> mappings of the row's section
  named_section_lists,  ///< user-chosen names -> lists of mappings of the row's section
  named_tables,         ///< user-chosen names -> a list of rules, or a mapping of the row's section
  named_scalars,        ///< user-chosen names -> scalars (uses)
  named_values,         ///< user-chosen names -> values (set, with, a test's input)
  named_lets,  ///< names -> a value (an expression without '='), a call (the row's section) or a search
  conditions,  ///< facts -> a value, a list (one of) or a mapping of matchers (when)
};

struct KeyRow {
  std::string_view key;
  Shape shape;
  Section section;  ///< the mappings inside the value, for the shapes that hold some
  bool required;
  std::string_view summary;  ///< one line, shown by editors from the schema
};

/// The keys of `section`, in the order they are documented and suggested.
std::span<const KeyRow> keys(Section section);
/// The key names of `section`, for did-you-mean suggestions.
std::vector<std::string> key_names(Section section);
/// The row of `key` in `section`, or nullptr when it is not one of its keys.
const KeyRow* find_key(Section section, std::string_view key);
/// One line saying what a mapping of `section` is.
std::string_view summary(Section section);

}  // namespace snnplan::load
