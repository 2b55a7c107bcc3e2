#pragma once
// Parser of the rule language's expressions: `world_size >= 4 && world_size % 2 == 0 ? ...`.

#include <cstdint>
#include <functional>
#include <string_view>
#include <variant>

#include "language/syntax.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::load {

/// Limits that keep hostile rule files from exhausting the stack or memory.
inline constexpr std::size_t kMaxExpressionLength = 4096;
inline constexpr int kMaxExpressionDepth = 64;

/// What `/` means: in a version-1 rule file, `divide` (integers divide as `//` does); from
/// version 2 on, Python 3's true division (`true_divide`). `//` is floor division in both.
enum class Division : std::uint8_t { version_1, python };

/// Parses `text`, whose first character sits at `start` in the rule file, so diagnostics
/// point at the exact column inside the expression.
std::variant<syntax::Expr, Diagnostic> parse_expression(std::string_view text,
                                                         const SourceLocation& start,
                                                         Division division = Division::version_1);

/// Same, for text whose characters are not laid out on one line as written (quoted scalars
/// with escapes, block scalars): `locate(offset)` gives the file position of each character.
std::variant<syntax::Expr, Diagnostic> parse_expression(
    std::string_view text, const std::function<SourceLocation(std::size_t)>& locate,
    Division division = Division::version_1);

}  // namespace snnplan::load
