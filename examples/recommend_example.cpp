// Embedding snnplan: ask the built-in rules, then a rule set loaded from text.
#include <snnplan/snnplan.hpp>

#include <iostream>

int main() {
  // The reference's function, backed by the built-in rule table.
  const snnplan::Recommendation rec = snnplan::recommend("spikformer_8_384", 8, "memory", 64);
  std::cout << "mode=" << rec.mode << " mesh=[" << (*rec.mesh_shape)[0] << ", " << (*rec.mesh_shape)[1] << "]\n";
  for (const std::string& line : rec.rationale) std::cout << "  " << line << '\n';

  // Any rule set: named inputs in, a record out; errors are values.
  const snnplan::EvaluationResult result =
      snnplan::RuleSet::builtin().evaluate({{"model", "vgg"}, {"world_size", 4}, {"prefer", "fast"}, {"batch_size", 8}});
  if (!result.ok()) std::cout << "error: " << result.error().message << '\n';
  return 0;
}
