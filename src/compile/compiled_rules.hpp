#pragma once
// Stage 3 output: a rule file with every name resolved to a slot or index, constants folded,
// and nothing left to look up by string at evaluation time. Immutable once built, so one
// instance serves any number of threads.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "check/allowances.hpp"
#include "core/runtime_value.hpp"
#include "language/builtins.hpp"
#include "language/matchers.hpp"
#include "language/syntax.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/input_info.hpp"
#include "snnplan/value_view.hpp"

namespace snnplan::detail {

struct CompiledRules;

/// A compiled expression node. Facts are read by slot: inputs first, then `let` values.
/// For `member` nodes, slot is the field index when the record's schema is known at compile
/// time, else -1 (looked up by name).
struct Node {
  syntax::ExprKind kind = syntax::ExprKind::literal;
  syntax::Op op = syntax::Op::add;
  /// In a search's values, constraints and key: the deepest enumeration this node's value
  /// varies with, or -1 when it is the same for every candidate of a tier (everything outside
  /// searches). Set by mark_candidate_levels, for rules compiled and rules read back alike.
  std::int16_t level = -1;
  const language::BuiltinInfo* builtin = nullptr;  // kind == call
  int slot = -1;
  RValue constant;  // kind == literal (also folded constant lists)
  std::vector<Node> children;
  SourceLocation location;
  std::string name;  // fact or builtin name, for messages
};

struct CompiledTemplate {
  struct Piece {
    std::string_view text;  // literal text when slot < 0, kept in the rule set's constants
    int slot = -1;
    bool python_repr = false;  // the value as Python's repr() writes it
  };
  std::vector<Piece> pieces;
  /// The literal pieces' total length: what a rendering needs besides its values.
  std::size_t literal_bytes = 0;
  /// The pieces as a rendering writes them: a literal text, then (piece >= 0) the value of that
  /// placeholder piece. Text and value in one step: half the steps of walking the pieces.
  struct Run {
    std::string_view text;
    std::int32_t piece = -1;
  };
  std::vector<Run> runs;
  std::size_t placeholder_count = 0;
  [[nodiscard]] bool has_placeholders() const { return placeholder_count != 0; }
  /// Room for `count` pieces (and so for their runs, never more than the pieces).
  void reserve(std::size_t count) {
    pieces.reserve(count);
    runs.reserve(count);
  }
  /// Appends a piece, keeping literal_bytes, runs and placeholder_count.
  void add(Piece piece) {
    const auto k = static_cast<std::int32_t>(pieces.size());
    const bool open = !runs.empty() && runs.back().piece < 0;  // text without its value yet
    if (piece.slot >= 0) {
      ++placeholder_count;
      if (open)
        runs.back().piece = k;
      else
        runs.push_back({{}, k});
    } else {
      literal_bytes += piece.text.size();
      if (open && runs.back().text.empty())
        runs.back().text = piece.text;
      else
        runs.push_back({piece.text, -1});
    }
    pieces.push_back(piece);
  }
  std::string source_text;
  /// A template without placeholders is its own text: rendered without copying, as a view
  /// of the rule set's constants.
  bool is_fixed = false;
  std::string_view fixed_text;
};

/// A name's length and first eight bytes: most names already differ there, so a scan for a
/// name compares two integers per candidate before it compares any text.
struct NameKey {
  std::size_t size = 0;
  std::uint64_t head = 0;
  static NameKey of(std::string_view name) noexcept {
    NameKey key{name.size(), 0};
    if (!name.empty()) std::memcpy(&key.head, name.data(), std::min<std::size_t>(name.size(), sizeof key.head));
    return key;
  }
  /// Whether `name` (whose key is `key`) is the name this key was made of, `full`.
  static bool same(const NameKey& a, const NameKey& key, std::string_view full, std::string_view name) noexcept {
    return a.size == key.size && a.head == key.head &&
           (name.size() <= sizeof a.head ||
            std::memcmp(full.data() + sizeof a.head, name.data() + sizeof a.head, name.size() - sizeof a.head) == 0);
  }
};

struct CompiledInput {
  std::string name;
  NameKey key;
  syntax::TypeSpec type;
  std::optional<RValue> default_value;  // none: the input is required; lowered when `lower`
  bool lower = false;
  std::vector<RValue> one_of;  // empty: any value of the type
  std::optional<CompiledTemplate> error;
  SourceLocation location;         // of its name
  SourceLocation one_of_location;  // of its one_of list, when it has one
  std::string description;         // the rule file's, or empty
};

/// What a caller learns of an input (RuleSet::inputs): derived from the compiled input, so a
/// rule set read back from the cache describes its inputs as the compiled one does.
InputInfo input_info(const CompiledInput& input);

struct CompiledMatcher {
  int slot = -1;
  syntax::MatchOp op = syntax::MatchOp::eq;
  const language::MatcherInfo* info = nullptr;  // the row of `op`
  Node operand;
  std::string fact;
  SourceLocation location;
  std::string text;  // operand as written
};

struct CompiledAssignment {
  int target = -1;  // record field index (set) or input slot (fallback with)
  Node value;
};

struct CompiledFallback {
  int table = -1;
  std::vector<CompiledAssignment> with;
  std::vector<bool> keep;  // per record field: keep the caller's value
};

struct CompiledRule {
  std::string name;
  SourceLocation location;
  std::vector<CompiledMatcher> when;
  std::vector<CompiledAssignment> set;
  std::vector<CompiledTemplate> because;
  std::optional<CompiledTemplate> error;
  int next = -1;
  std::optional<CompiledFallback> fallback;
};

/// Rules of a large table grouped by the constants they require facts to equal, so that a
/// walk visits only rules that can fire (built by compile/rule_index.cpp). The walk stays
/// first-hit in table order: it merges the rules for the inputs' key with the rules that do
/// not fix every key fact.
struct RuleIndex {
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const noexcept { return std::hash<std::string_view>{}(key); }
  };
  /// A keyed rule, with its first condition after the key when that is an integer
  /// comparison with a constant: the walk decides it from this compact copy, in one
  /// contiguous array, before touching the rule.
  struct Entry {
    Wide constant = 0;
    int rule = -1;
    int slot = -1;  // -1: no such condition
    bool (*holds)(Wide fact, Wide constant) = nullptr;  // the condition's MatcherInfo::holds_for_integers
  };
  std::vector<int> key_slots;  // facts whose values form the key, in key order
  std::unordered_map<std::string, std::vector<Entry>, Hash, std::equal_to<>> keyed;  // ascending rules
  std::vector<int> unkeyed;  // ascending rule indices
};

struct CompiledTable {
  std::string name;
  std::vector<CompiledRule> rules;
  std::optional<RuleIndex> index;  // only for tables long enough to gain from one
  SourceLocation location;         // of its name
};

/// A `let` that evaluates another rule set (index into CompiledRules::used).
struct CompiledCall {
  int rules = -1;
  std::vector<CompiledAssignment> with;  // target: the callee's input slot
};

/// A search's constraint (and its `fits`), checked as soon as the enumerations it uses, directly
/// or through the candidate's values, are bound: at `level` (the index of the innermost of
/// them; 0 when it uses none), so a constraint on `tp` alone prunes every `pp` and `cp` below.
struct CompiledConstraint {
  std::string name;
  SourceLocation location;
  Node holds;
  std::optional<CompiledTemplate> message;
  int level = 0;
};

/// A value the search sets in a slot of its own (an enumeration's item, a tier's value).
struct CompiledSlotValue {
  std::string name;
  int slot = -1;
  Node value;
};

struct CompiledTier {
  std::string name;
  std::vector<CompiledSlotValue> values;  // computed from facts when the tier starts
  std::vector<CompiledConstraint> constraints;
};

struct CompiledSearchFailure {
  std::vector<int> value_slots;  // its own values: lazy local values
  CompiledTemplate error;
};

/// smallest(v) / largest(v) / count() in a `none_fits` value: the slot it is read from and,
/// for the first two, the candidate value's slot it follows.
struct CompiledAggregate {
  enum class Kind : std::uint8_t { smallest, largest, count };
  Kind kind = Kind::count;
  int slot = -1;
  int of_slot = -1;
};

/// A `let` with `search` (syntax::Search), names resolved: every name the search declares
/// has a local slot (CompiledRules::local_values).
struct CompiledSearch {
  SourceLocation location;
  std::string name;                           // the let's
  std::vector<CompiledSlotValue> enumerations;  // outermost first; `value` is the list
  std::vector<int> candidate_slots;  // the candidate's values, forgotten for each candidate
  /// Per candidate slot: the deepest enumeration its value depends on (an index into
  /// `enumerations`), or -1 for none (the facts and the tier's values only). A value is
  /// forgotten when an enumeration at or above its level takes its next item, and at each tier.
  std::vector<int> candidate_levels;
  std::vector<CompiledConstraint> constraints;
  std::vector<CompiledTier> tiers;  // at least one
  std::optional<CompiledConstraint> fits;
  Node minimize;
  std::optional<CompiledSearchFailure> none_valid;
  std::optional<CompiledSearchFailure> none_fits;
  std::vector<CompiledAggregate> aggregates;
  /// The chosen candidate's record: enumerations, tier values, the candidate's values, then
  /// the tier's name (syntax::kTierField); `field_slots` per field but the last.
  std::shared_ptr<const std::vector<std::string>> field_names;
  std::vector<int> field_slots;
  // Derived by mark_candidate_levels (not stored in the serialized form):
  /// Per candidate slot: its value reads a tier's value (directly or through another candidate
  /// value), so it differs between tiers.
  std::vector<std::uint8_t> candidate_reads_tier;
  /// No enumeration and no shared constraint reads a tier's value: every tier starts from the
  /// same candidates, before its own constraints.
  bool tiers_share_candidates = false;
};

/// Sets Node::level in `search`'s enumerations, constraints, `fits` and key, and in its
/// candidate values (`local_values`, the rule set's, whose first slot is `first_local_slot`),
/// from candidate_levels and the enumerations' slots; and what reads the tiers' values
/// (candidate_reads_tier, tiers_share_candidates). compile/candidate_levels.cpp.
void mark_candidate_levels(CompiledSearch& search, std::vector<Node>& local_values, std::size_t first_local_slot);

/// An `ensure` entry. Its conditions and values read the record's fields as slots after the
/// facts (CompiledRules::field_slot), which the evaluator fills once the record is complete.
struct CompiledInvariant {
  std::string name;
  SourceLocation location;  // of its name
  CompiledRule condition;   // `when`, as a rule's conditions
  Node require;
  CompiledTemplate message;
  /// The table analysis proved that every record meets it (analyse/invariants.cpp, exactly,
  /// with no note), so the evaluator does not check it again. Set only by a load that ran the
  /// analysis; a plain load, a mutant or a rule set built any other way checks every
  /// invariant on every evaluation.
  bool proved = false;
};

struct CompiledField {
  std::string name;
  syntax::TypeSpec type;
  RValue default_value;
  std::optional<Node> init;
};

/// Upper bound on nested table calls (`next`, `fallback`). Cycles are refused at load;
/// this bound is the second guard.
inline constexpr int kMaxCallDepth = syntax::kMaxTableCallDepth;

/// A value computed at its first use, once, from any thread (RuleSet::sha256(): loading does
/// not pay for hashing). A copy computes its own.
class LazyText {
 public:
  LazyText() = default;
  LazyText(const LazyText&) {}
  LazyText& operator=(const LazyText&) { return *this; }
  template <typename Compute>
  const std::string& get(Compute compute) const {
    std::call_once(once_, [&] { value_ = compute(); });
    return value_;
  }

 private:
  mutable std::once_flag once_;
  mutable std::string value_;
};

struct CompiledRules {
  /// Storage of every constant's text and list items (RValues are views).
  ValueStore constants;
  std::string file_name;
  std::vector<CompiledInput> inputs;  // slots [0, inputs.size())
  std::unordered_map<std::string, int> input_slots;
  std::vector<int> restricted_inputs;  // inputs with allowed values (one_of), checked at binding
  std::vector<std::string> let_names;  // slot inputs.size() + k
  std::vector<Node> lets;
  std::vector<std::optional<CompiledCall>> calls;  // per let: set when the let calls a rule set
  std::vector<std::shared_ptr<const CompiledSearch>> searches;  // per let: set for a search
  /// The names searches declare, slots inputs.size() + lets.size() + k: candidate and failure
  /// values computed on first use from `local_values[k]`, enumerations, tier values and
  /// aggregates set by the search (their node is empty). The table analysis does not read
  /// them; analyse/search_constraints.cpp evaluates them over ranges.
  std::vector<std::string> local_names;
  std::vector<Node> local_values;
  std::vector<std::shared_ptr<const CompiledRules>> used;  // rule files named in `uses`
  std::vector<std::string> used_names;
  std::vector<int> let_order;  // indices into lets, dependencies first (Boost.Graph topological sort)
  std::vector<CompiledField> fields;
  /// Per field: its default, read until a record writes the field.
  std::vector<RValue> default_record;
  std::vector<int> initialised_fields;  // fields with an `init` expression, in field order
  /// Per field: its default as the views API returns it, copied whole to start the views, so
  /// that only the fields an evaluation wrote are converted. A default with no scalar view (a
  /// list, an integer beyond 64 bits) stands as null here and, for k < 64, among
  /// `unviewed_defaults`; fields from 64 on are converted on every evaluation anyway.
  std::vector<ValueView> default_views;
  /// Bit k (k < 64): field k's default is not in default_views, so views convert it always.
  std::uint64_t unviewed_defaults = 0;
  int rationale_field = -1;
  std::shared_ptr<const std::vector<std::string>> field_names;
  std::optional<CompiledTemplate> header;
  int start = 0;
  std::vector<CompiledTable> tables;
  std::vector<CompiledInvariant> invariants;
  std::vector<InputInfo> input_info;
  std::vector<Diagnostic> warnings;
  std::vector<check::AllowedDiagnostic> allowed;  // warnings and notes accepted by `allow:`
  std::string source_text;
  LazyText revision;  // RuleSet::sha256()

  /// Room for `count` fields in the tables add_field() appends to.
  void reserve_fields(std::size_t count) {
    fields.reserve(count);
    default_record.reserve(count);
    default_views.reserve(count);
  }
  /// Appends a record field, with its default and init in the tables derived from them.
  void add_field(CompiledField field) {
    const std::size_t k = fields.size();
    default_record.push_back(field.default_value);
    if (field.init) initialised_fields.push_back(static_cast<int>(k));
    default_views.emplace_back();
    if (!scalar_view(field.default_value, default_views.back()) && k < 64)
      unviewed_defaults |= std::uint64_t{1} << k;
    fields.push_back(std::move(field));
  }

  /// Sets each invariant's `proved` (one flag per invariant, in order), and with them
  /// every_invariant_proved(): the one way proofs are set, so the summary cannot fall behind.
  void set_proofs(const std::vector<bool>& proved) {
    for (std::size_t k = 0; k < invariants.size(); ++k)
      invariants[k].proved = k < proved.size() && proved[k];
    every_invariant_proved_ = std::all_of(invariants.begin(), invariants.end(),
                                          [](const CompiledInvariant& i) { return i.proved; });
  }
  /// Every invariant proved, as set_proofs() last set them: an evaluation then checks none
  /// without asking each. False until set_proofs() says otherwise (a compiled rule set, a
  /// mutant), when the evaluator asks each invariant's own `proved`.
  [[nodiscard]] bool every_invariant_proved() const { return every_invariant_proved_; }

  [[nodiscard]] std::size_t slot_count() const {
    return inputs.size() + lets.size() + local_values.size();
  }
  /// Whether let `k` is computed by more than its expression (a call, a search): the analyses
  /// treat such values as opaque.
  [[nodiscard]] bool computed_elsewhere(std::size_t k) const {
    return (k < calls.size() && calls[k]) || (k < searches.size() && searches[k]);
  }
  /// The slots of an evaluation's frame: the facts, then (only when there are invariants to
  /// check) one per record field.
  [[nodiscard]] std::size_t frame_slots() const {
    return slot_count() + (invariants.empty() ? 0 : fields.size());
  }
  /// The slot an invariant reads record field `field` from.
  [[nodiscard]] int field_slot(std::size_t field) const {
    return static_cast<int>(slot_count() + field);
  }
  [[nodiscard]] const std::string& slot_name(int slot) const {
    const auto k = static_cast<std::size_t>(slot);
    if (k < inputs.size()) return inputs[k].name;
    if (k < inputs.size() + lets.size()) return let_names[k - inputs.size()];
    if (k < slot_count()) return local_names[k - inputs.size() - lets.size()];
    return fields[k - slot_count()].name;
  }

 private:
  bool every_invariant_proved_ = false;
};

}  // namespace snnplan::detail
