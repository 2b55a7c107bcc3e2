#pragma once
// The partition of the declared input domain into cells (input_space.hpp's Cell): sets of
// inputs on which every condition of every rule of one or more rule files has the same
// outcome, so every rule path is constant on a cell (its end may not be: a value the cells do
// not decide may fail at some of its inputs only; undecided_values()).
// Built from the table analysis' own pieces (shapes, domains, search): a cell is a class of
// each enumerated input (a bool, an allowed value, a compared string constant, a tested
// prefix, "any other string") and a sign of each integer condition of the sampled int inputs.
// For `snnplan diff` (two files: the cells of both, refined together) and `snnplan map`. The
// space the cells split is input_space.hpp's, gathered with Gather::decision_conditions.
//
// The cells are exact under the same subset table_analysis.cpp describes; where a condition
// is beyond it, undecided() says so (the points are then samples, not one per cell, and a
// cell may straddle regions) and the caller must say so too.

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analyse/input_space.hpp"
#include "analyse/model.hpp"
#include "analyse/search.hpp"
#include "compile/compiled_rules.hpp"

namespace snnplan::analyse {

/// Inputs whose defaults differ between the files that are also tried left out, at most
/// (each doubles the points).
inline constexpr std::size_t kMaxOmitted = 4;

class Partition {
 public:
  /// `files` must declare the same input names (the first file's slot order is used for
  /// points); the conditions of every rule of every file refine the cells. Throws
  /// std::invalid_argument (with the message) for a fixed input that is not an input, or
  /// whose value its file refuses (type, allowed values).
  Partition(std::span<const detail::CompiledRules* const> files,
            const std::vector<FixedInput>& fixed);
  ~Partition();
  Partition(const Partition&) = delete;
  Partition& operator=(const Partition&) = delete;

  /// A point: a value per input slot of the first file, and which inputs are left out (so
  /// each file's default applies). Inputs are left out only where the files' defaults
  /// differ: elsewhere leaving one out is the same as giving its default.
  struct Point {
    std::span<const RValue> values;
    std::span<const bool> omitted;
  };

  /// Visits points of which at least one lies in every cell; several may share one.
  /// Returns Walk::done, or why it stopped (`why`).
  Walk for_each_point(const std::function<bool(const Point&)>& visit, std::string& why) const;
  /// The cell of any point of the domain (visited or not).
  [[nodiscard]] Cell cell_of(const Point& point) const;
  /// The union of `cells` as readable conditions, e.g. "prefer == 'speed' && world_size >=
  /// 8": a disjunction of conjunctions, an input left out where the union covers all of its
  /// classes (given the other conditions). "true" when the union is the whole domain.
  [[nodiscard]] std::string describe(const std::vector<Cell>& cells) const;
  /// Constructs beyond what the cells decide exactly, each once.
  [[nodiscard]] const std::vector<Issue>& undecided() const { return undecided_; }

  /// The values rules set that the cells do not decide (input_space.hpp).
  [[nodiscard]] const std::vector<UndecidedValue>& undecided_values() const {
    return space_.undecided_values();
  }
  /// The first file's model (input names, domains).
  [[nodiscard]] const Model& model() const { return space_.model(); }

 private:
  // What a cell's class is taken of: an enumerated input (its value's class), the sign of
  // an integer condition (<, =, >), or the state of a sampled int input (given, null, left
  // out).
  struct Coordinate {
    enum class Kind : std::uint8_t { input, atom, state };
    Kind kind = Kind::input;
    int input = -1;
    const Atom* atom = nullptr;
  };
  [[nodiscard]] std::string label(const Coordinate& c, const Point& point) const;
  /// The classes of one coordinate as a condition ("" when it says nothing).
  [[nodiscard]] std::string condition(const Coordinate& c,
                                      const std::set<std::string>& classes) const;

  InputSpace space_;
  std::vector<Coordinate> coordinates_;
  std::vector<int> defaults_differ_;  // inputs whose default is not the same in every file
  std::vector<Issue> undecided_;
  mutable std::optional<std::set<Cell>> all_cells_;  // every cell, found on first use
};

}  // namespace snnplan::analyse
