#pragma once
// The proof of `ensure:` invariants over the regions the table analysis splits the input
// domain into. The regions come from every condition of every table, the values rules set
// and the invariants' own conditions (shapes.cpp); at one representative of each region the
// evaluator itself computes the record and checks the invariants (evaluate::broken_invariant),
// so a violation found is what `recommend` does for that input, and a region without one has
// none wherever the record's invariant-relevant values are constant on the region. Where they
// are not (a field computed from the inputs and used beyond its null-ness and length, or a
// construct the shapes do not model), a note says the invariant was only checked at the
// representatives.

#include <vector>

#include "analyse/model.hpp"
#include "analyse/shapes.hpp"
#include "snnplan/diagnostic.hpp"

namespace snnplan::analyse {

class InvariantProof {
 public:
  explicit InvariantProof(Model& model) : m_(model) {}

  /// What the invariants and the values rules set depend on. Call with the analysis' Shapes
  /// before the inputs' representatives are made (finish_inputs), so the constants they
  /// compare inputs with get representatives.
  void gather(Shapes& shapes);
  /// Errors "invariant-violated" at the rule that made each violating record (with a witness
  /// input and the rule path), notes "analysis-incomplete" where the proof is not exact.
  std::vector<Diagnostic> prove();
  /// After prove(): per invariant, whether it holds for every input, exactly (no violation
  /// and no note).
  [[nodiscard]] const std::vector<bool>& proved() const { return proved_; }

 private:
  Model& m_;
  Facts joint_;                          // the regions: every condition and set value
  std::vector<std::vector<Issue>> why_;  // per invariant: why its proof is not exact
  std::vector<bool> proved_;
};

}  // namespace snnplan::analyse
