#pragma once
// Mutations of a rule file's syntax tree for the soundness campaign (docs/soundness.md): each
// one a slip an operator could make by hand -- a literal of another type, a conditional cut
// to one branch, a misspelt or wrong name, a dropped field or matcher, a retargeted `next` or
// `fallback`, a changed matcher, swapped builtin arguments. The tree stays one the loader
// could have built (a one_of operand stays a list, a default stays a literal), so what is
// tested is the checker, not the loader's shape checks.

#include <cstdint>
#include <random>
#include <string>

#include "language/syntax.hpp"

namespace snnplan::soundness {

/// One applied mutation: its operator (for the figures) and what it changed, readable.
struct Mutation {
  std::string op;
  std::string what;
};

/// Applies one mutation chosen with `random` to `file` (which the caller copied); returns
/// what it did, or std::nullopt-like empty `op` when the file offers no site (never for the
/// shipped files).
Mutation mutate(syntax::RuleFile& file, std::mt19937_64& random);

}  // namespace snnplan::soundness
