#pragma once
// Stage 3 output: a rule file with every name resolved to a slot or index, constants folded,
// and nothing left to look up by string at evaluation time. Immutable once built, so one
// instance serves any number of threads.

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compile/runtime_value.hpp"
#include "load/syntax.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::detail {

struct CompiledRules;

/// A compiled expression node. Facts are read by slot: inputs first, then `let` values.
/// For `member` nodes, slot is the field index when the record's schema is known at compile
/// time, else -1 (looked up by name).
struct Node {
  syntax::ExprKind kind = syntax::ExprKind::literal;
  syntax::Op op = syntax::Op::add;
  syntax::Builtin builtin = syntax::Builtin::len;
  int slot = -1;
  RValue constant;  // kind == literal (also folded constant lists)
  std::vector<Node> children;
  SourceLocation location;
  std::string name;  // fact or builtin name, for messages
};

struct CompiledTemplate {
  struct Piece {
    std::string text;  // literal text when slot < 0
    int slot = -1;
  };
  std::vector<Piece> pieces;
  std::string source_text;
};

struct CompiledInput {
  std::string name;
  syntax::TypeSpec type;
  std::optional<RValue> default_value;  // none: the input is required
  bool lower = false;
  std::vector<RValue> one_of;  // empty: any value of the type
  std::optional<CompiledTemplate> error;
};

struct CompiledMatcher {
  int slot = -1;
  syntax::MatchOp op = syntax::MatchOp::eq;
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

struct CompiledTable {
  std::string name;
  std::vector<CompiledRule> rules;
};

/// A `let` that evaluates another rule set (index into CompiledRules::used).
struct CompiledCall {
  int rules = -1;
  std::vector<CompiledAssignment> with;  // target: the callee's input slot
};

struct CompiledField {
  std::string name;
  syntax::TypeSpec type;
  RValue default_value;
  std::optional<Node> init;
};

/// Upper bound on nested table calls (`next`, `fallback`). Cycles are refused at load;
/// this bound is the second guard.
inline constexpr int kMaxCallDepth = 32;

struct CompiledRules {
  std::string file_name;
  std::vector<CompiledInput> inputs;  // slots [0, inputs.size())
  std::unordered_map<std::string, int> input_slots;
  std::vector<std::string> let_names;  // slot inputs.size() + k
  std::vector<Node> lets;
  std::vector<std::optional<CompiledCall>> calls;  // per let: set when the let calls a rule set
  std::vector<std::shared_ptr<const CompiledRules>> used;  // rule files named in `uses`
  std::vector<std::string> used_names;
  std::vector<int> let_order;  // indices into lets, dependencies first (Boost.Graph topological sort)
  std::vector<CompiledField> fields;
  int rationale_field = -1;
  std::shared_ptr<const std::vector<std::string>> field_names;
  std::optional<CompiledTemplate> header;
  int start = 0;
  std::vector<CompiledTable> tables;
  std::vector<InputInfo> input_info;
  std::vector<Diagnostic> warnings;
  std::string source_text;

  [[nodiscard]] std::size_t slot_count() const { return inputs.size() + lets.size(); }
  [[nodiscard]] const std::string& slot_name(int slot) const {
    return slot < static_cast<int>(inputs.size()) ? inputs[static_cast<std::size_t>(slot)].name
                                                  : let_names[static_cast<std::size_t>(slot) - inputs.size()];
  }
};

}  // namespace snnplan::detail
