#pragma once
// The compiled form of each built-in rule file, generated at build time by
// tools/serialize_builtins.cpp (compile/serialized_rules.hpp), with what a run would otherwise
// have to read the whole form back for: the revision (RuleSet::sha256()) that `snnplan
// --version` prints.

#include <cstddef>
#include <string_view>

namespace snnplan::detail {

struct BuiltinCompiledForm {
  std::string_view file;      ///< "snn_plan.yaml", as in kBuiltinRuleFiles
  std::string_view bytes;     ///< the serialized compiled rules
  std::string_view revision;  ///< RuleSet::sha256() of those rules
};
extern const BuiltinCompiledForm kBuiltinCompiledRules[];
extern const std::size_t kBuiltinCompiledRuleCount;
/// The SHA-256 of every built-in rule file the forms were compiled from, in kBuiltinRuleFiles'
/// order, each followed by '\n': a form and its revision hold only while this is still so.
extern const std::string_view kBuiltinCompiledFrom;

}  // namespace snnplan::detail
