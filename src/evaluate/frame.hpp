#pragma once
// The state of one evaluation (private to evaluate/): the record under construction and the
// frame of facts by slot. Everything here is inline: the evaluator touches it on every rule.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "compile/compiled_rules.hpp"
#include "check/messages.hpp"
#include "language/operations.hpp"

namespace snnplan::evaluate::internal {

using detail::CompiledRules;
using detail::RValue;
using language::rule_failure;

// The record under construction: field values, and rationale lines as views (of the rule
// set's constant text, or of text rendered into the evaluation's store).
struct WorkingRecord {
  // The lines: the first few in the object itself, then in the store, grown by doubling (the
  // store frees nothing before its reset, so a grown array simply leaves the old one behind).
  // Not copyable: data_ may point into the object.
  class Lines {
   public:
    explicit Lines(detail::ValueStore& store) : store_(store) {}
    Lines(const Lines&) = delete;
    Lines& operator=(const Lines&) = delete;
    void push_back(std::string_view line) {
      if (size_ == capacity_) grow();
      data_[size_++] = line;
    }
    void append(const Lines& other) {
      for (std::string_view line : other) push_back(line);
    }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] std::string_view operator[](std::size_t k) const { return data_[k]; }
    [[nodiscard]] const std::string_view* begin() const { return data_; }
    [[nodiscard]] const std::string_view* end() const { return data_ + size_; }

   private:
    [[gnu::noinline]] void grow() {
      const std::size_t capacity = 2 * capacity_;
      auto* grown = static_cast<std::string_view*>(
          store_.allocate_bytes(capacity * sizeof(std::string_view), alignof(std::string_view)));
      std::uninitialized_copy(data_, data_ + size_, grown);
      data_ = grown;
      capacity_ = capacity;
    }
    // Most records have a header and a line or two of their rule's `because`.
    static constexpr std::size_t kInlineLines = 4;
    detail::ValueStore& store_;
    std::string_view inline_[kInlineLines];
    std::string_view* data_ = inline_;
    std::size_t size_ = 0;
    std::size_t capacity_ = kInlineLines;
  };

  explicit WorkingRecord(detail::ValueStore& store) : rationale(store) {}
  // A record of `count` fields holding `defaults` (one per field). Only the fields from 64 on
  // are copied: the first 64 are read from `defaults` until written (`written` tracks them),
  // so a record starts without copying what most evaluations never change.
  void start(const RValue* defaults, std::size_t count, detail::ValueStore& store) {
    defaults_ = defaults;
    count_ = count;
    written_ = 0;
    fields_ = store.values(count);
    if (count > 64)
      std::memcpy(static_cast<void*>(fields_ + 64), defaults + 64, (count - 64) * sizeof(RValue));
  }
  // Field k's new value; the views convert only fields written (and those past 64).
  void write(std::size_t k, const RValue& value) {
    fields_[k] = value;
    if (k < 64) written_ |= std::uint64_t{1} << k;
  }
  // Field k's value: written, or still its default.
  [[nodiscard]] const RValue& field(std::size_t k) const {
    return k >= 64 || (written_ >> k & 1) ? fields_[k] : defaults_[k];
  }
  // Bit k (k < 64): field k was written (the views convert only those).
  [[nodiscard]] std::uint64_t written() const { return written_; }
  // Every field, defaults filled in, as one array (a `call`'s record value holds it).
  RValue* all_fields() {
    for (std::size_t k = 0; k < count_ && k < 64; ++k)
      if (!(written_ >> k & 1)) fields_[k] = defaults_[k];
    return fields_;
  }
  Lines rationale;

 private:
  RValue* fields_ = nullptr;  // k < 64: meaningful only once written (or after all_fields())
  const RValue* defaults_ = nullptr;
  std::size_t count_ = 0;
  std::uint64_t written_ = 0;
};

// Facts of one evaluation by slot: inputs bound up front, `let` values computed on first use.
class Frame {
 public:
  /// `field_slots`: room for the record's fields too, for the invariants to read.
  Frame(const CompiledRules& rules, detail::ValueStore& store, bool field_slots)
      : Frame(rules, store, field_slots ? rules.frame_slots() : rules.slot_count()) {}

  void set_input(int slot, const RValue& value) {
    values_[slot] = value;
    state_[slot] = kReady;
  }
  // A frame with the same inputs and no derived values computed (for fallback, which checks
  // no invariants).
  Frame with_inputs_only(detail::ValueStore& store) const {
    Frame copy(*rules_, store, false);
    for (std::size_t k = 0; k < rules_->inputs.size(); ++k)
      copy.set_input(static_cast<int>(k), values_[k]);
    return copy;
  }

  /// The input slots, for a binder to write the inputs in place; inputs_bound() then marks
  /// the first `count` ready.
  RValue* input_values() { return values_; }
  void inputs_bound(std::size_t count) { fill_states(state_, kReady, count); }

  [[nodiscard]] bool ready(int slot) const { return state_[slot] == kReady; }
  /// The value in `slot` is computed again when next asked (a search's next candidate).
  void forget(int slot) { state_[slot] = kPending; }
  [[nodiscard]] const RValue& value(int slot) const { return values_[slot]; }

  // `compute(let_index)` produces a derived value the first time it is needed.
  template <typename Compute>
  const RValue& get(int slot, Compute&& compute) {
    if (state_[slot] == kReady) return values_[slot];
    // Derived values are computed on first use, after what they use (so in dependency
    // order); the checker refuses cycles, this guard only protects against misuse.
    if (state_[slot] == kComputing) rule_failure(messages::let_cycle(rules_->slot_name(slot)));
    Pending pending{state_[slot]};
    state_[slot] = kComputing;
    values_[slot] = compute(static_cast<std::size_t>(slot) - rules_->inputs.size());
    state_[slot] = kReady;
    return values_[slot];
  }
  // get() for a computation whose failure is a value: `compute(let_index, out)` returns false
  // and the slot stays pending (a search that finds nothing, settled by the rule that reads it).
  template <typename Compute>
  bool try_get(int slot, Compute&& compute) {
    if (state_[slot] == kReady) return true;
    if (state_[slot] == kComputing) rule_failure(messages::let_cycle(rules_->slot_name(slot)));
    Pending pending{state_[slot]};
    state_[slot] = kComputing;
    if (!compute(static_cast<std::size_t>(slot) - rules_->inputs.size(), values_[slot])) return false;
    state_[slot] = kReady;
    return true;
  }

 private:
  Frame(const CompiledRules& rules, detail::ValueStore& store, std::size_t slots)
      : rules_(&rules),
        values_(store.values(slots)),
        state_(static_cast<std::uint8_t*>(store.allocate_bytes(slots + 1, 1))) {
    // Only the states start known: a value is written (set_input, get) before it is read.
    fill_states(state_, kPending, slots);
  }

  enum : std::uint8_t { kPending, kComputing, kReady };
  // A failed computation may be asked again (rule-index fallback): until it completes, the
  // slot reverts to pending on the way out. A guard rather than catch-and-rethrow: a rethrow
  // would unwind the stack twice.
  struct Pending {
    std::uint8_t& state;
    ~Pending() {
      if (state == kComputing) state = kPending;
    }
  };

  // memset() without the library call for the few states a frame has (a dozen for the
  // built-in rules): 8 to 16 as two overlapping words.
  static void fill_states(std::uint8_t* states, std::uint8_t state, std::size_t count) {
    if (count < 8 || count > 16) {
      std::memset(states, state, count);
      return;
    }
    const std::uint64_t word = 0x0101010101010101ULL * state;
    std::memcpy(states, &word, sizeof word);
    std::memcpy(states + count - sizeof word, &word, sizeof word);
  }
  const CompiledRules* rules_;
  RValue* values_;
  std::uint8_t* state_;
};

}  // namespace snnplan::evaluate::internal
