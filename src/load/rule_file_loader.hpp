#pragma once
// Stage 1 of the pipeline: YAML text -> syntax tree with source positions.
// Only the shape of the file is checked here (keys, value kinds, expression syntax);
// names and types are the checker's business.

#include <string_view>
#include <vector>

#include "load/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::load {

/// Limits on hostile input (see the README's "Limits" section).
inline constexpr std::size_t kMaxRuleFileBytes = 4 * 1024 * 1024;

struct LoadedFile {
  syntax::RuleFile file;
  std::vector<Diagnostic> diagnostics;  // every problem found, not just the first
};

/// Parses a rule file. Never throws for bad content: problems come back as diagnostics.
LoadedFile load_rule_file(std::string_view text, const std::string& file_name);

}  // namespace snnplan::load
