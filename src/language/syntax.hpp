#pragma once
// The syntax tree of a rule file, as the loader read it: names are not yet resolved and
// nothing is checked beyond the shape of the YAML. Every node keeps its source location so
// later stages can report positioned diagnostics.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/value_kinds.hpp"
#include "language/matchers.hpp"
#include "snnplan/source_location.hpp"
#include "snnplan/value.hpp"

namespace snnplan::syntax {

/// Upper bound on nested table calls (`next`, `fallback`) in one evaluation: a limit of the
/// rule language, which the checker warns about and the evaluator enforces.
inline constexpr int kMaxTableCallDepth = 32;

// ---- types ---------------------------------------------------------------------------------

using detail::KindSet;
using enum detail::Kind;

/// "int", "list[int]?", "rationale", ... as declared for inputs and record fields.
struct TypeSpec {
  KindSet kinds = kAny;          ///< kinds a value of this type may have (kNull when nullable)
  KindSet element_kinds = kAny;  ///< for lists: kinds of the elements
  bool is_rationale = false;     ///< the record field that collects rationale lines
};

/// Parses a type name; std::nullopt when it is not one.
std::optional<TypeSpec> parse_type(const std::string& text);
/// Every name parse_type() accepts ("int", "list[string]?", ...), `rationale` when asked.
std::vector<std::string> type_names(bool with_rationale);
/// One line saying what values a type name (one of type_names(true)) admits, for the schema's
/// enum descriptions and the language server's completion.
std::string type_summary(const std::string& name);
using detail::describe;

// ---- expressions ---------------------------------------------------------------------------

enum class ExprKind : std::uint8_t { literal, list, name, unary, binary, conditional, call, member };

enum class Op : std::uint8_t {
  negate, logical_not,                       // unary
  add, subtract, multiply, divide, modulo,   // arithmetic
  // Python 3's `/` (`snnplan: 2` files: a float, even of two integers) and `//` (the quotient
  // rounded toward negative infinity, of integers and of floats). A version-1 file's `/` is
  // `divide`: integers divide as `//` does, a float anywhere makes it `/`.
  true_divide, floor_divide,
  equal, not_equal, less, less_equal, greater, greater_equal,
  logical_and, logical_or,
};

const char* spelling(Op op);
/// < <= > >=: the operators that compare by order.
inline bool is_ordering(Op op) {
  return op == Op::less || op == Op::less_equal || op == Op::greater || op == Op::greater_equal;
}
/// == != and the orderings: the operators that compare two values.
inline bool is_comparison(Op op) { return op == Op::equal || op == Op::not_equal || is_ordering(op); }

struct Expr {
  ExprKind kind = ExprKind::literal;
  Op op = Op::add;
  SourceLocation location;
  Value literal;            // kind == literal
  std::string name;         // kind == name (fact), call (builtin) or member (field name)
  std::vector<Expr> children;
};

/// Text with `{name}` placeholders (`{name!r}`: the value as Python's repr() writes it); `{{`
/// and `}}` stand for braces.
struct Template {
  struct Piece {
    bool is_placeholder = false;
    std::string text;  // literal text or the placeholder's name
    SourceLocation location;
    bool python_repr = false;  // `{name!r}`
  };
  std::string text;
  SourceLocation location;
  std::vector<Piece> pieces;
};

template <typename T>
struct Located {
  T value{};
  SourceLocation location;
};

// ---- declarations --------------------------------------------------------------------------

/// `allow: [code, ...]` with `reason:` on an input, a rule or a table: warnings and notes with
/// these codes reported inside it are accepted (check::apply_allowances).
struct Allowance {
  std::vector<Located<std::string>> codes;
  Located<std::string> reason;
};

struct InputDecl {
  Located<std::string> name;
  Located<TypeSpec> type;
  std::optional<Expr> default_value;  // a literal
  bool lower = false;
  std::optional<Located<std::vector<Value>>> one_of;
  std::optional<Template> error;
  std::optional<Located<std::string>> description;  // shown by --help, hover and the outline
  std::optional<Allowance> allow;
};

struct Assignment {
  Located<std::string> target;
  Expr value;
};

/// `call: <rule set named in uses>` with `with: {input: value}`: evaluate another rule file.
struct Call {
  Located<std::string> rules;
  std::vector<Assignment> with;
};

struct Search;

struct LetDecl {
  Located<std::string> name;
  Expr expr;                  // unused when `call` or `search` is set
  std::optional<Call> call;   // the value is the called rule set's record
  /// The value is the record of the candidate a search chose (below). Shared: a search
  /// holds `let` declarations of its own.
  std::shared_ptr<const Search> search;
};

/// `uses: {name: file}`: another rule file whose record this one may compute.
struct Use {
  Located<std::string> name;
  Located<std::string> file;
};

struct FieldDecl {
  Located<std::string> name;
  Located<TypeSpec> type;
  std::optional<Expr> default_value;  // a literal
  std::optional<Expr> init;           // evaluated when a record is created
};

/// One `fact: matcher` entry of a rule's `when` (the matchers: language/matchers.hpp).
using language::MatchOp;

struct Matcher {
  Located<std::string> fact;
  MatchOp op = MatchOp::eq;
  Expr operand;      // for one_of / not_one_of: a list literal
  std::string text;  // the operand as written, for explanations
};


struct Fallback {
  SourceLocation location;
  Located<std::string> table;
  std::vector<Assignment> with;  // input overrides
  std::vector<Located<std::string>> keep;
};

struct Rule {
  SourceLocation location;  // where the rule's mapping starts
  Located<std::string> name;
  std::vector<Matcher> when;
  std::vector<Assignment> set;
  std::vector<Template> because;
  std::optional<Template> error;
  std::optional<Located<std::string>> next;
  std::optional<Fallback> fallback;
  std::optional<Allowance> allow;
};

struct Table {
  Located<std::string> name;
  std::vector<Rule> rules;
  std::optional<Allowance> allow;
};

/// An entry of `ensure`: where `when` holds (facts and record fields), `require` must be true
/// of the record an evaluation returns; otherwise the evaluation fails with `message`.
struct Invariant {
  SourceLocation location;  // where its mapping starts
  Located<std::string> name;
  std::vector<Matcher> when;
  Expr require;
  Template message;
};

/// A named condition of a search: a candidate for which `holds` is false is removed, and an
/// explanation says so with `message` (placeholders: facts and the candidate's values).
struct Constraint {
  Located<std::string> name;
  Expr holds;
  std::optional<Template> message;
};

/// `for: {name: list}`: one enumeration of a search; its list may use the enumerations
/// before it (`pp: divisors(world_size // tp)`).
struct Enumeration {
  Located<std::string> name;
  Expr values;
};

/// One entry of a search's `tiers`: values fixed for the tier (`let`, computed once when the
/// tier starts, from facts) and constraints that hold in this tier only.
struct Tier {
  Located<std::string> name;
  std::vector<LetDecl> lets;
  std::vector<Constraint> constraints;
};

/// `none_valid:` / `none_fits:`: the error a search raises when no candidate is left, with
/// values of its own (`let`) that may aggregate the candidates (smallest(estimate)).
struct SearchFailure {
  SourceLocation location;
  std::vector<LetDecl> lets;
  Template error;
};

/// `search:` in a `let`: candidates from nested enumerations, each with derived values
/// (`let`, per candidate, on first use), removed by constraints (`require`, in order), tried
/// tier after tier (the first tier with a candidate that `fits` wins), the feasible one
/// with the smallest `minimize` key chosen (enumeration order on ties). The let's value is
/// the chosen candidate as a record: its enumerations, its values and the tier's values
/// (with `tier`, the tier's name).
struct Search {
  SourceLocation location;
  std::vector<Enumeration> enumerations;
  std::vector<LetDecl> lets;
  std::vector<Constraint> constraints;
  std::vector<Tier> tiers;  // none written: one tier without values or constraints
  std::optional<Constraint> fits;
  Expr minimize;
  SourceLocation minimize_key;  // where `minimize:` is written (hover quotes its value)
  std::optional<SearchFailure> none_valid;
  std::optional<SearchFailure> none_fits;
};

/// The record field that names the tier a search's chosen candidate came from.
inline constexpr const char* kTierField = "tier";
/// The aggregates a search failure's values may call over the candidates tested against
/// `fits` (at least one was, when nothing fits): the smallest and largest value of one of their values,
/// and how many were tested.
inline constexpr std::string_view kSmallestAggregate = "smallest";
inline constexpr std::string_view kLargestAggregate = "largest";
inline constexpr std::string_view kCountAggregate = "count";
inline constexpr std::string_view kAggregates[] = {kSmallestAggregate, kLargestAggregate, kCountAggregate};
[[nodiscard]] constexpr bool is_aggregate(std::string_view name) {
  for (const std::string_view a : kAggregates)
    if (name == a) return true;
  return false;
}

struct RuleFile {
  std::string file_name;
  Located<std::int64_t> version;
  std::vector<Use> uses;
  std::vector<InputDecl> inputs;
  std::vector<LetDecl> lets;
  std::vector<FieldDecl> fields;
  std::optional<Template> rationale_header;
  std::optional<Located<std::string>> start;
  std::vector<Table> tables;
  std::vector<Invariant> invariants;
};

}  // namespace snnplan::syntax
