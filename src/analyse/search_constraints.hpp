#pragma once
// Constraints of a search that the declared input domain decides: a `require` constraint (or
// the `fits` test) that no candidate can meet, so the search always fails or the tier is
// dead, and one that every candidate meets, so it removes nothing. Decided by evaluating the
// compiled expressions over ranges instead of values (search_constraints.cpp): each input is
// the range its declared type and `one_of` allow, each enumeration the range of the lists it
// can produce, each tier's values what the tier sets. A finding is a proof over every input
// the file declares; where the ranges cannot decide (a remainder of two inputs, a product of
// two unbounded inputs against a third), nothing is said.

#include <vector>

#include "compile/compiled_rules.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::analyse {

/// Warnings "constraint-never-holds" and "constraint-never-fails", one per constraint decided,
/// at the constraint's name: per search, its shared constraints, its fit test, then each tier's
/// own (check sorts every finding by position).
std::vector<Diagnostic> search_constraint_findings(const detail::CompiledRules& rules);

}  // namespace snnplan::analyse
