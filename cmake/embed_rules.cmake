# Writes OUTPUT, a C++ file holding the text of INPUT (the default rule file), so the table
# built into the library is byte for byte the file operators read and edit.
file(READ "${INPUT}" text)
set(delimiter "snnplan_rules")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )${delimiter}\"")
endif()
string(LENGTH "${text}" size)
file(WRITE "${OUTPUT}.tmp"
"// Generated from ${INPUT} by cmake/embed_rules.cmake. Do not edit.
#include <cstddef>
namespace snnplan::detail {
extern const char kBuiltinRulesText[];
extern const std::size_t kBuiltinRulesSize;
const char kBuiltinRulesText[] = R\"${delimiter}(${text})${delimiter}\";
const std::size_t kBuiltinRulesSize = sizeof(kBuiltinRulesText) - 1;
}  // namespace snnplan::detail
")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
