#pragma once
// The generated parts of docs/rules.md: the matcher, builtin and diagnostic-code tables,
// written from their rows (language/matchers.cpp, language/builtins.cpp, and
// core/diagnostic_codes.cpp with code_examples.cpp's examples) so the documentation cannot
// drift from the language. tools/rules_reference rewrites docs/rules.md with them; a test fails
// when they differ.

#include <string>
#include <string_view>

namespace snnplan::rules_reference {

/// The markdown table of every matcher.
std::string matcher_reference();
/// The markdown table of every builtin.
std::string builtin_reference();

/// The markdown table of every diagnostic code (core/diagnostic_codes.cpp), with its example.
std::string diagnostic_code_reference();

/// `document` with the text between each `<!-- NAME:begin -->` / `<!-- NAME:end -->` pair of
/// markers (NAME = matchers, builtins) replaced by the generated table. Markers missing: the
/// document unchanged.
std::string with_generated_reference(std::string_view document);

}  // namespace snnplan::rules_reference
