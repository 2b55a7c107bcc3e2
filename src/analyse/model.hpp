#pragma once
// What the table analysis knows of a compiled rule file: each input's domain and its
// representatives, each table's rules with what their conditions depend on, and the ways each
// table is entered. Built from the compiled rules the evaluator runs (domains.cpp); values are
// the evaluator's own runtime values.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyse/terms.hpp"
#include "compile/compiled_rules.hpp"

namespace snnplan::analyse {

/// Combinations of representatives the analysis evaluates per table, at most.
inline constexpr std::size_t kMaxPoints = 200000;
/// Possible shapes of one expression, at most.
inline constexpr std::size_t kMaxAlternatives = 64;
/// Candidate values of the inputs a fallback overrides, at most.
inline constexpr std::size_t kMaxExistential = 4096;

/// A list input's representatives are exact for at most this many distinct constants its
/// items are looked for, positions and lengths compared with constants up to kMaxListCount,
/// and kMaxListReps lists in all; beyond, fewer are made and a note says so.
inline constexpr std::size_t kMaxListItems = 4;
inline constexpr Wide kMaxListCount = 8;
inline constexpr std::size_t kMaxListReps = 256;

/// A construct beyond what the analysis decides exactly, and where it is.
struct Issue {
  SourceLocation location;
  std::string what;
};

/// What the conditions of some expressions depend on.
struct Facts {
  std::set<int> deps;                 // inputs read
  std::map<std::string, Atom> atoms;  // integer conditions, by term
  std::vector<Issue> issues;          // constructs outside the supported subset

  void add_issue(const Issue& issue);
  void merge(const Facts& other, bool with_issues = true);
};

/// One input: its declared domain and the values the search tries.
struct InputDomain {
  std::string name;
  SourceLocation location;
  detail::KindSet kinds = detail::kAny;
  bool lower = false;
  bool has_one_of = false;
  std::vector<RValue> options;
  bool default_null = false;        // null is a valid start value (the declared default is null)
  bool null_possible = false;       // null can reach a table (default or a fallback override)
  bool sampled = false;             // int without one_of: sampled around the atoms' boundaries
  std::set<std::string> constants;  // strings it is compared with
  std::set<std::string> prefixes;   // strings it is tested to start with
  std::vector<RValue> reps;         // representatives when not sampled
  RValue placeholder;               // a valid value, for when the input does not matter
  std::optional<Issue> issue;       // its values cannot be represented exactly
  // A list input (list or null, no one_of): what index_of, contains and len read of it.
  bool list = false;
  detail::KindSet item_kinds = detail::kAny;  // of its items
  bool list_tested = false;  // read by them: its representatives are lists (domains.cpp)
  std::set<Wide> item_ints;  // ints its items are looked for (strings: `constants`)
  std::set<Wide> counts;     // int constants its positions and length are compared with
};

/// A fallback's `with` value for one input.
struct Override {
  int input = -1;
  std::optional<RValue> value;  // none: an expression of the inputs
  bool possible = true;         // false: the value is refused (type, one_of), the fallback fails
};

struct RuleModel {
  const detail::CompiledRule* rule = nullptr;
  int next = -1;
  int fallback = -1;
  std::vector<Override> with;
  Facts facts;
};

struct TableModel {
  const detail::CompiledTable* table = nullptr;
  std::vector<RuleModel> rules;
  std::size_t active = 0;  // rules up to and including the first catch-all
  bool has_catch_all = false;
};

/// A way into a table: rule `rule` of table `caller`, by `next` or by `fallback`.
struct Path {
  int caller = -1;
  int rule = -1;
  bool fallback = false;
  // fallback paths
  bool impossible = false;
  bool expression = false;      // a `with` value is an expression of the inputs
  std::string unmodelled;       // why the entry condition is not modelled exactly
  std::vector<int> quantified;  // overridden inputs, with the caller's candidates
  std::vector<std::vector<RValue>> candidates;
};

struct Model {
  explicit Model(const detail::CompiledRules& compiled);
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const detail::CompiledRules& rules;
  /// Text of the representatives the analysis makes up (the rules' own constants stay theirs).
  detail::ValueStore strings;
  std::vector<InputDomain> inputs;
  std::vector<TableModel> tables;
  std::vector<std::vector<Path>> callers;  // per table

  [[nodiscard]] const std::string& slot_name(int slot) const { return rules.slot_name(slot); }
  [[nodiscard]] std::vector<RValue> placeholders() const;
  /// Whether `pt` can start an evaluation: null only for inputs whose default is null.
  [[nodiscard]] bool valid_start(const std::vector<RValue>& pt) const;
  /// "x=3, flag=True": the inputs `vars` at `pt`, for a witness.
  [[nodiscard]] std::string describe_point(const std::vector<int>& vars,
                                           const std::vector<RValue>& pt) const;
  /// Smaller is a nicer witness: small integers, compared constants.
  [[nodiscard]] Wide niceness(const std::vector<int>& vars, const std::vector<RValue>& pt) const;
};

/// "'a', 'b' and 'c'".
std::string quote_list(const std::vector<std::string>& names);

}  // namespace snnplan::analyse
