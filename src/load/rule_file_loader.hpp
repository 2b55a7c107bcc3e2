#pragma once
// Stage 1 of the pipeline: YAML text -> syntax tree with source positions.
// Only the shape of the file is checked here (keys, value kinds, expression syntax);
// names and types are the checker's business.

#include <string_view>
#include <vector>

#include "language/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::load {

/// Limits on hostile input (see "Limits" in docs/cli.md).
inline constexpr std::size_t kMaxRuleFileBytes = 4 * 1024 * 1024;
/// YAML nesting (mappings and lists inside each other), counted from the top-level mapping.
inline constexpr int kMaxYamlDepth = 64;
/// YAML nodes that aliases add when expanded where they are used (the file's own nodes are
/// bounded by its size): a file whose aliases multiply ("billion laughs") is refused after
/// this many steps, never expanded.
inline constexpr std::size_t kMaxYamlNodes = 100000;

struct LoadedFile {
  syntax::RuleFile file;
  std::vector<Diagnostic> diagnostics;  // every problem found, not just the first
  /// The text is YAML whose top level is a mapping with the key `snnplan`. When it is not,
  /// the file is probably not meant as a rule file at all, and a file that the user did not
  /// name is then reported without quoting it (see api/rule_set.cpp).
  bool is_rule_file = false;
};

/// Parses a rule file. Never throws for bad content: problems come back as diagnostics.
LoadedFile load_rule_file(std::string_view text, const std::string& file_name);

}  // namespace snnplan::load
