#pragma once
// Rule indexing for long tables: rules grouped by the constants their first conditions
// require facts to equal (see RuleIndex in compiled_rules.hpp).

#include <cstddef>

#include "compile/compiled_rules.hpp"

namespace snnplan::compile {

/// Tables shorter than this are walked: the walk is cheaper than computing a key.
inline constexpr std::size_t kIndexedTableMinRules = 32;

/// An index for `table`, or none when the table is short or has no fact that most of its
/// rules test for equality with a constant.
///
/// A rule is keyed only when its first conditions are exactly equalities of the key facts
/// with constants, so skipping a rule whose key differs skips nothing the plain walk would
/// have evaluated beyond those (pure, error-free) comparisons; every other rule stays in the
/// walk. The evaluator computes the key from the facts and falls back to the plain walk when
/// that fails, so errors surface exactly where the walk would report them.
std::optional<detail::RuleIndex> build_rule_index(const detail::CompiledTable& table);

/// Appends the key encoding of a fact or constant value to `key`; false when the value cannot
/// be keyed (a float may equal an integer constant, so floats are left to the walk).
template <typename String>
bool append_index_key(String& key, const detail::RValue& v) {
  using Kind = detail::RValue::Kind;
  switch (v.kind) {
    case Kind::string: {
      key += 's';
      const std::size_t size = v.text.size;
      key.append(reinterpret_cast<const char*>(&size), sizeof size);
      key += v.s();
      return true;
    }
    case Kind::integer:
      key += 'i';
      key.append(reinterpret_cast<const char*>(&v.i), sizeof v.i);
      return true;
    case Kind::boolean:
      key += v.b ? 'T' : 'F';
      return true;
    case Kind::null:
    case Kind::list:
    case Kind::record:
      key += 'x';  // no keyed rule requires these kinds, so such a key finds no keyed rule
      return true;
    case Kind::floating: return false;
  }
  return false;
}

}  // namespace snnplan::compile
