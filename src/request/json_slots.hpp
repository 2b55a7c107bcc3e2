#pragma once
// The batch's fast reading of a JSON line: the line most launchers send -- one object of
// distinct, known keys with plain values -- read in one pass straight into the rule set's input
// slots, strings as views of the line. Everything else (escapes, non-ASCII text, floats,
// arrays, big integers, unknown or repeated keys, and every kind of bad line) is left to
// inputs_from_json_line (json_inputs.hpp), which words each refusal exactly as it always did:
// this reader decides only whether a line is plain, never what is wrong with it.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/runtime_value.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::request {

class JsonSlotReader {
 public:
  /// For `rules`' inputs (the reader keeps the compiled rules it reads for alive).
  explicit JsonSlotReader(const RuleSet& rules);

  /// Reads `line` into slots(), one per input of the rule set in its order (null: not given,
  /// the default applies). True when the line is plain: an object whose keys are distinct
  /// input names without escapes, each value a string of printable ASCII without escapes (at
  /// most evaluate::kMaxInputStringBytes long), true, false, null or an integer that fits in
  /// 64 bits. Then inputs_from_json_line would give the same inputs, and evaluating the slots
  /// gives the same answer as evaluating those inputs by name. False for any other line.
  /// The slots' strings are views of `line`.
  [[nodiscard]] bool read(std::string_view line);

  [[nodiscard]] std::span<const detail::RValue> slots() const noexcept { return slots_; }
  /// Whether the slots are those of `rules` (false after a hot reload replaced them).
  [[nodiscard]] bool reads_for(const RuleSet& rules) const noexcept;

 private:
  [[nodiscard]] int slot_of(std::string_view key) noexcept;

  RuleSet rules_;
  std::vector<std::string_view> names_;  // the inputs' names, by slot
  std::vector<detail::RValue> slots_;
  std::size_t next_ = 0;  // where slot_of() starts looking
  bool usable_ = true;  // at most 64 inputs (a bit each marks the keys seen)
};

}  // namespace snnplan::request
