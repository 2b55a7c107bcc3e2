#pragma once
// The input space the analysis searches, built one way for every driver: the table analysis
// (and the invariants' proof inside it), the partition (`diff`, `map`) and coverage
// (`test --coverage`, `test --generate`, the mutants' distinguishing inputs). Building it is
// always the same steps in the same order, which this file owns:
//
//   1. a Model per file, with the inputs held fixed made one-valued (before any shape, so the
//      shapes see them as enumerated);
//   2. the facts gathered with the file's Shapes (what `Gather` says: which rules' matchers,
//      whether the values rules set and the lets count), then whatever else the caller adds
//      with the same Shapes (the invariants), before any representative is made;
//   3. the fallbacks' `with` values resolved by the evaluator's Probe (resolve_overrides);
//   4. for several files, the other files' facts and compared constants moved into the
//      first file's slots, so one set of cells refines the conditions of all of them;
//   5. the representatives of every input (finish_inputs), and the space of the gathered
//      facts (make_space), enumerated with search.cpp's walk.
//
// What differs between the drivers is only the request (which facts, how many files, which
// inputs fixed), so two drivers asked the same thing see the same space.
//
// The space is split two ways, each defined once here. A Region is a region of the decision
// (the inputs that take one path to one kind of end), the only region every command names:
// `test --generate` writes a test per region, `map` colours a grid cell by its region's path,
// `diff` groups its changes by the pair of regions (old file's, new file's) a point lies in. A
// Cell is a piece of the partition of the space by the gathered conditions (partition.hpp):
// where the space is exact, every input of a cell takes one path, and the cells of a path's
// regions are what `diff` describes as conditions. A cell may still hold inputs of two regions
// of one path, where a value the cells do not decide (undecided_values(): a call of
// pipeline_microbatches()) fails at some of them.

#include <compare>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyse/model.hpp"
#include "analyse/search.hpp"
#include "analyse/shapes.hpp"
#include "compile/compiled_rules.hpp"
#include "snnplan/evaluation_result.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/value.hpp"

namespace snnplan::analyse {

/// A region of the decision: the inputs that take the same path through the tables (the same
/// fired rules, in order) to the same kind of end (a record, or an error; the error's text
/// quotes inputs, so two inputs of one region may fail with different texts).
struct Region {
  std::vector<std::string> path;  ///< fired rules as "table/rule" (snnplan::fired_rule_path)
  bool error = false;             ///< the evaluation ends in an error
  friend auto operator<=>(const Region&, const Region&) = default;
};

/// The region of one evaluation: its result and its trace. Every command takes an input's
/// region from here, so none can count regions another way.
Region region_of(const EvaluationResult& result, const std::vector<TraceStep>& steps);

/// A region with the input found for it (the plainest one, for `test --generate`).
struct RegionWitness {
  Region region;
  Inputs witness;
};

/// A cell of the partition of the space (partition.hpp): one class label per coordinate (an
/// enumerated input's class of values, the sign of an integer condition, the state of a sampled
/// int input). Two points share a cell exactly when they meet every gathered condition alike,
/// so (where the space is exact) take the same path.
using Cell = std::vector<std::string>;

/// Which facts split the input space into classes.
enum class Gather : std::uint8_t {
  /// The matchers of every rule, each rule's kept in its RuleModel::facts: the table
  /// analysis, which makes a space per table from them.
  rule_conditions,
  /// The matchers of the rules that can fire (up to each table's first catch-all); the values
  /// rules set are read only to find those the cells do not decide (undecided_values()):
  /// the partition of `diff` and `map`.
  decision_conditions,
  /// The matchers of every rule, the values rules set and the lets: the representatives
  /// coverage witnesses, generated tests and mutants' distinguishing inputs come from.
  conditions_and_values,
};

/// An input held at one value: the space (and its cells) of that slice only.
struct FixedInput {
  std::string name;
  Value value;
};

/// A value a rule sets that the cells do not decide (it calls an opaque builtin, say): it
/// may change at some inputs of a cell and not at others, so callers sample the inputs it
/// reads densely where the rule fires.
struct UndecidedValue {
  std::string rule;         // "table/rule", as fired_rule_path() names it
  std::vector<int> inputs;  // the inputs it reads (first file's slots)
  Issue issue;
};

struct SpaceRequest {
  Gather gather = Gather::decision_conditions;
  std::vector<FixedInput> fixed;
  /// More facts of the first file, gathered with its Shapes after the rules' and before the
  /// representatives are made (the invariants' proof: InvariantProof::gather).
  std::function<void(Model&, Shapes&)> also;
};

class InputSpace {
 public:
  /// `files` declare the same input names (the first file's slots are the space's; a file
  /// with an input the first lacks adds nothing: the caller compares names). Throws
  /// std::invalid_argument (with the message) for a fixed input that is not an input, or
  /// whose value its file refuses (type, allowed values).
  InputSpace(std::span<const detail::CompiledRules* const> files, const SpaceRequest& request);
  InputSpace(const detail::CompiledRules& rules, const SpaceRequest& request);
  ~InputSpace();
  InputSpace(const InputSpace&) = delete;
  InputSpace& operator=(const InputSpace&) = delete;

  /// The first file's model: input names, domains, representatives, each rule's facts.
  [[nodiscard]] Model& model() { return *model_; }
  [[nodiscard]] const Model& model() const { return *model_; }
  /// Every fact gathered, in the first file's slots.
  [[nodiscard]] const Facts& facts() const { return facts_; }
  /// The space of facts(): which inputs are enumerated, which sampled. Made on first use (the
  /// table analysis makes a space per table instead).
  [[nodiscard]] const Space& space() const;
  /// Whether every combination of condition outcomes has a point in space(): no fact or
  /// input beyond what the analysis decides exactly. (The fallbacks' expression values are
  /// not counted here; undecided() lists them.)
  [[nodiscard]] bool exact() const;
  /// Constructs beyond what the cells decide exactly, each once, in the order found: the
  /// fallbacks' expression values, the facts', the space's.
  [[nodiscard]] const std::vector<Issue>& undecided() const;
  /// The values rules set that the cells do not decide (Gather::decision_conditions).
  [[nodiscard]] const std::vector<UndecidedValue>& undecided_values() const {
    return undecided_values_;
  }
  /// Visits every combination of representatives of space(); `visit` returns false to stop.
  Walk enumerate(const std::function<bool(const std::vector<RValue>&)>& visit,
                 std::string& why) const;

 private:
  void gather(Model& m, Shapes& shapes, Facts& facts, std::vector<UndecidedValue>& values,
              Gather what);

  std::unique_ptr<Model> model_;
  std::vector<std::unique_ptr<Model>> others_;
  Facts facts_;
  std::vector<Issue> fallback_issues_;
  std::vector<UndecidedValue> undecided_values_;
  mutable std::optional<Space> space_;
  mutable std::optional<std::vector<Issue>> undecided_;
};

}  // namespace snnplan::analyse
