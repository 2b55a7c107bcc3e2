#pragma once
// Rules that never both hold, proved without enumerating inputs: by folding one rule's
// conditions under the values the other one's equality conditions pin. Exact where the
// domain analysis is not (a `let` that calls another rule set, an opaque builtin), as long
// as the folding never needs such a value: `chosen_mode == fsdp2_tp`, with chosen_mode =
// `mode == null ? rec.mode : mode`, is false wherever `mode: pp` holds, whatever `rec` is.

#include "compile/compiled_rules.hpp"

namespace snnplan::analyse {

/// Whether rules `a` and `b` of `rules` (adjacent rules of one table) give the same answers
/// in either order, on every input: one of them (S) tests only inputs for equality with
/// constants, so trying it never fails, and under the values S pins the other's conditions
/// are false, computed without a failure. Then at most one fires on any input, and where S
/// does not fire, trying it changes nothing. False when this proof does not apply (which
/// says nothing about the swap).
bool swap_is_equivalent(const detail::CompiledRules& rules, const detail::CompiledRule& a,
                        const detail::CompiledRule& b);

}  // namespace snnplan::analyse
