#pragma once
// The box analysis: the input space split by the rules' own boxes instead of a grid of
// points, for tables whose conditions are boxes (DMN-style decision tables). A rule is a box
// when every matcher of its `when` reads an input directly and compares it with a constant:
// an int input (never null) with eq, lt, le, gt or ge (an interval), or an input of finitely
// many classes (a bool, an input with one_of, a string compared for equality) with any
// matcher (a set of its representatives, decided by the language's own matcher functions).
//
// Cells are refined first-hit: a cell takes the first rule (in table order) that is not
// disjoint from it; when that rule covers the whole cell it fires there, whatever the later
// rules say; otherwise the cell is split by that rule's bounds on one input (inside, below,
// above) and each part goes on from there. Rules disjoint from a cell are dropped for its
// parts, so the cost grows with the cells the first hits make, not with the product of every
// input's thresholds. What is found is exact: rules that never fire and what fires first
// where they match, every input no rule matches, and (for `diff`) every cell where the two
// files' first hits differ. Where a table is not made of boxes the grid (search.hpp) decides.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "analyse/model.hpp"
#include "compile/compiled_rules.hpp"

namespace snnplan::analyse {

/// Cells the box analysis refines a table (or a pair of files) into, at most; beyond, it
/// gives up and the grid decides (or says it cannot).
inline constexpr std::size_t kMaxCells = 2000000;

/// Box tests (a pair of rules, an earlier rule scanned) the changed regions of a decision
/// table may take (BoxDiff::for_each_region), at most: 9x what a 5,000-rule, 5-column table
/// against a copy with 10 % of its rows perturbed takes (bench/dmn_scale.py), some 10-20 s of
/// tests alone here.
inline constexpr std::size_t kMaxBoxTests = 1000000000;

/// One coordinate of a box: the closed interval [lo, hi] of an int input, or the set of a
/// finite input's representatives (bit k: Model's reps[k]).
struct Span {
  std::int64_t lo = 0, hi = -1;
  std::uint64_t mask = 0;
};
using Box = std::vector<Span>;

/// A set of inputs as boxes: the union of the disjoint `pieces`, or, where those would be more
/// than the boxes `within` less (and more than kMinRegionPieces), or more than
/// kMaxRegionPieces, `within` less the union of `less` (`pieces` then holds one box of the
/// set, with its nicest point).
struct BoxRegion {
  std::vector<Box> pieces;
  Box within;
  std::vector<Box> less;
};

/// Disjoint boxes a changed region is described by, at most; beyond (or beyond the number of
/// boxes it is cut by, when that is more than kMinRegionPieces), it is described as a box less
/// the boxes of the earlier rules: words linear in the rules, where the pieces of a region of
/// a 7-input table run to hundreds of thousands.
inline constexpr std::size_t kMinRegionPieces = 16;
inline constexpr std::size_t kMaxRegionPieces = 1000;

/// The inputs the boxes are over (the dimensions) and the geometry of boxes over them.
/// Every span of a box has both parts: an int coordinate's mask is all ones, a finite one's
/// interval is [0, 0], so the geometry needs no case per kind.
class BoxSpace {
 public:
  explicit BoxSpace(const Model& model) : m_(model), dim_(model.inputs.size(), -1) {}

  /// Makes the inputs `rule`'s matchers read (slots of `file`, matched to the model's
  /// inputs by name) dimensions; false when one is not an input or not a box coordinate.
  bool read(const detail::CompiledRules& file, const detail::CompiledRule& rule);
  /// Orders the dimensions; call after every read() and before anything below.
  void finish();
  /// The box of `rule`; std::nullopt when a matcher is not a box (an operand that is not a
  /// constant, `ne` on an int, a comparison that fails).
  [[nodiscard]] std::optional<Box> box(const detail::CompiledRules& file,
                                       const detail::CompiledRule& rule) const;

  /// The whole domain of the dimensions.
  [[nodiscard]] Box domain() const;
  /// The model inputs of the dimensions, in declaration order.
  [[nodiscard]] const std::vector<int>& inputs() const { return inputs_; }
  [[nodiscard]] static bool is_empty(const Box& box);
  [[nodiscard]] static bool disjoint(const Box& a, const Box& b);
  [[nodiscard]] static bool covers(const Box& outer, const Box& inner);
  [[nodiscard]] static Box intersection(const Box& a, const Box& b);
  /// `cell` split by `rule`, which meets it without covering it, on its first coordinate that
  /// `rule` narrows: the part inside first, then the parts outside.
  [[nodiscard]] static std::vector<Box> split(const Box& cell, const Box& rule);
  /// `piece` less `cut` (which meets it) as disjoint boxes appended to `out`: per coordinate
  /// `cut` narrows, the parts outside it there (at most two per coordinate), the coordinates
  /// before it already inside, as split() makes them one coordinate at a time.
  static void subtract(const Box& piece, const Box& cut, std::vector<Box>& out);
  /// The number of points of `box` (a finite coordinate's representatives), saturating.
  [[nodiscard]] static double volume(const Box& box);
  /// The nicest point of `cell` (Model::niceness over the dimensions): one value per model
  /// input, placeholders for the inputs that are not dimensions; `at` (if given) gets the
  /// point as a box.
  [[nodiscard]] std::vector<RValue> nicest(const Box& cell, Wide& score, Box* at = nullptr) const;
  /// A score that orders cells as the niceness of their nicest points does, cheaply.
  [[nodiscard]] Wide score(const Box& cell) const;
  /// A cell as a label per dimension (a partition Cell, input_space.hpp), and back.
  [[nodiscard]] std::vector<std::string> key(const Box& cell) const;
  [[nodiscard]] Box from_key(const std::vector<std::string>& key) const;
  /// The union of disjoint `cells` as readable conditions ("x >= 3 && x <= 7 && mode ==
  /// 'a' || ..."), adjacent cells merged first; "true" for the whole domain.
  [[nodiscard]] std::string describe(std::vector<Box> cells) const;
  /// `within` less the union of `less` as a readable condition ("x >= 3 && x <= 7 && !(x >=
  /// 5 && y <= 2) && ..."), each box of `less` by its bounds that `within` does not imply.
  [[nodiscard]] std::string describe(const Box& within, const std::vector<Box>& less) const;

 private:
  [[nodiscard]] std::string condition(std::size_t d, const Span& span) const;

  const Model& m_;
  std::vector<int> dim_;  // per model input: its dimension, or -1
  std::vector<int> inputs_;
  std::vector<std::vector<Wide>> rep_score_;  // per finite dimension, per representative
};

/// The first-hit refinement of the same cells by one or more chains of tables (one per
/// file): a cell is refined until every chain's path through its tables is constant on it.
class Refinement {
 public:
  struct Chain {
    std::vector<std::vector<Box>> tables;  // per table: its rules' boxes, to the first catch-all
    std::vector<std::vector<int>> then;    // per table, per rule: the table it goes on to, or -1
    int start = 0;
    /// Per table, per rule: an id equal between two chains' rules exactly when they do the
    /// same (box, effect, the tables after them). With two chains that have them, a cell
    /// where both would try rules of the same ids from there on gives both the same answer
    /// and is not visited (the diff's unchanged cells).
    std::vector<std::vector<int>> same_as;
  };
  /// A step of a path: rule `rule` of `table` fired (-1: no rule of the table matched);
  /// paths form a tree, 0 the empty path.
  struct Step {
    std::size_t parent = 0;
    int table = -1, rule = -1;
  };

  explicit Refinement(std::vector<Chain> chains) : chains_(std::move(chains)) {}
  /// Visits every cell of `root` with each chain's path (a step id), but the unchanged
  /// cells of two chains with `same_as`. Only the first
  /// `start_rules` rules of chain 0's start table are tried (all: SIZE_MAX). Returns false
  /// when `budget` (cells) runs out or a path is longer than kMaxCallDepth tables.
  bool run(const Box& root, std::size_t start_rules,
           const std::function<void(const Box&, std::span<const std::size_t>)>& visit,
           std::size_t& budget);
  [[nodiscard]] const Step& step(std::size_t id) const { return steps_[id]; }
  /// The path `from` goes on to when rule `rule` of `table` fires (-1: none matched).
  std::size_t child(std::size_t from, int table, int rule);
  [[nodiscard]] const std::vector<Chain>& chains() const { return chains_; }

 private:

  std::vector<Chain> chains_;
  std::vector<Step> steps_{Step{}};
  std::map<std::tuple<std::size_t, int, int>, std::size_t> children_;
};

enum class Cover : std::uint8_t { covered, uncovered, too_many };

/// Whether the boxes `candidates` of `boxes` cover `root`. A cell any of them covers is done;
/// one none meets is not covered; otherwise it is split by the first that meets it. With
/// `space`, the cells are taken nicest first, so the first cell found uncovered holds the
/// nicest uncovered point (`found`); without, depth first, outside parts first (where a
/// point no box holds is likeliest).
Cover find_uncovered(const std::vector<Box>& boxes, std::vector<int> candidates, const Box& root,
                     const BoxSpace* space, Box* found, std::size_t& budget);

/// What a scan of one table's rules (those up to its first catch-all) found, by the grid
/// (table_analysis.cpp) or by the boxes; table_analysis.cpp reports it.
struct TableScan {
  explicit TableScan(std::size_t n)
      : fired(n), matched(n), blocked(n), by(n), overlapped(n), overlap(n), overlap_first(n) {}
  std::vector<bool> fired;    // first hit for some input
  std::vector<bool> matched;  // matches some input (alone)
  std::vector<std::string> blocked;  // matches where an earlier condition fails: the input, why
  std::vector<std::set<std::size_t>> by;  // the rules that fire first where it matches
  bool uncovered = false;                 // some input matches no rule
  // With overlaps asked for: the earlier rules matching an input it matches, and the nicest
  // input it matches where an earlier rule fires first (with that rule).
  std::vector<std::set<std::size_t>> overlapped;
  std::vector<std::optional<std::vector<RValue>>> overlap;
  std::vector<std::size_t> overlap_first;
  std::vector<int> vars;  // the inputs an input is shown with
  /// The boxes only: the nicest input no rule matches, when `uncovered`.
  std::optional<std::vector<RValue>> gap;
};

/// The boxes' scan of table `t` of the model's file: std::nullopt when its rules are not
/// boxes or refine into more than kMaxCells cells.
std::optional<TableScan> box_scan(const Model& m, int t, bool overlaps);

/// The cells on which two files' rule paths are constant, for `snnplan diff`.
class BoxDiff {
 public:
  /// nullptr when a file is beyond the boxes: a table's conditions are not boxes, a value a
  /// rule sets or a text it writes reads the inputs (so a cell would not give one answer), a
  /// fallback sets inputs, `ensure` entries or field inits that read inputs, or the files
  /// declare their inputs differently. `m` is the model of both files (Partition's).
  static std::unique_ptr<BoxDiff> make(const Model& m,
                                       std::span<const detail::CompiledRules* const> files);

  /// Visits every cell where the files may answer differently (cells where both try rules
  /// that do the same are left out) with each file's path through the tables there (ids:
  /// equal ids, the same fired rules and the same end; path_names() names them). False when
  /// there are more than kMaxCells cells.
  bool for_each_cell(
      const std::function<void(const Box&, std::size_t old_path, std::size_t new_path)>& visit);
  /// Files whose start tables each decide alone (no rule goes on to another table, so a
  /// rule's effect is the answer: a DMN decision table) and whose records are made alike:
  /// visits each pair of rules (old, new; -1: none matched) whose effects differ with the
  /// inputs where both fire first (their boxes' intersection less every earlier rule's box of
  /// either file), each pair once. Nothing else of the domain is
  /// refined, so the work follows the changed regions, not the cells between them.
  /// std::nullopt when the files are not such (for_each_cell() applies); false when the
  /// regions take more than kMaxCells boxes.
  std::optional<bool> for_each_region(
      const std::function<void(BoxRegion&&, std::size_t old_path, std::size_t new_path)>& visit);
  /// How nice the nicest point of a cell is (smaller is nicer), and that point.
  [[nodiscard]] Wide score(const Box& cell) const { return space_.score(cell); }
  [[nodiscard]] std::vector<RValue> point(const Box& cell) const;
  [[nodiscard]] std::vector<std::string> key(const Box& cell) const { return space_.key(cell); }
  /// The fired rules of path `path` of file `file` (0 old, 1 new) as "table/rule", as
  /// fired_rule_path() names them.
  [[nodiscard]] std::vector<std::string> path_names(int file, std::size_t path) const;
  [[nodiscard]] std::string describe(const std::vector<std::vector<std::string>>& keys) const;
  [[nodiscard]] std::string describe(const Box& within, const std::vector<Box>& less) const {
    return space_.describe(within, less);
  }

 private:
  explicit BoxDiff(const Model& m) : space_(m) {}

  BoxSpace space_;
  std::vector<const detail::CompiledRules*> files_;
  std::optional<Refinement> refinement_;
  // Per file, per rule of its start table and one more for "none matched": an id equal
  // between the files exactly when the answers are (empty unless the records are made alike).
  std::vector<std::vector<int>> effects_;
};

}  // namespace snnplan::analyse
