// Node::level for a search's expressions: the deepest enumeration each node's value varies
// with. The evaluator computes a node of level -1 once per tier, as any fact, and the others for
// all of a tier's candidates at once (evaluate/search_columns.cpp). Derived from the compiled
// form (candidate_levels and the enumerations' slots), so that rules compiled from a file and
// rules read back from bytes carry the same levels without storing them.

#include <algorithm>

#include "compile/compiled_rules.hpp"

namespace snnplan::detail {
namespace {

class LevelMarker {
 public:
  LevelMarker(std::vector<int> slot_levels, std::size_t first_local_slot)
      : slot_levels_(std::move(slot_levels)), first_(first_local_slot) {}

  int mark(Node& n) {
    int level = n.kind == syntax::ExprKind::name ? of_slot(n.slot) : -1;
    for (Node& child : n.children) level = std::max(level, mark(child));
    n.level = static_cast<std::int16_t>(level);
    return level;
  }

 private:
  [[nodiscard]] int of_slot(int slot) const {
    if (slot < 0 || static_cast<std::size_t>(slot) < first_) return -1;
    const std::size_t k = static_cast<std::size_t>(slot) - first_;
    return k < slot_levels_.size() ? slot_levels_[k] : -1;
  }
  std::vector<int> slot_levels_;  // per local slot: an enumeration's index, a candidate value's level, or -1
  std::size_t first_;
};

// Which candidate values, enumerations and shared constraints read a tier's value.
class TierReaders {
 public:
  TierReaders(const CompiledSearch& search, const std::vector<Node>& local_values, std::size_t first_local_slot)
      : search_(search), locals_(local_values), first_(first_local_slot), state_(local_values.size(), kUnknown) {
    for (const CompiledTier& tier : search.tiers)
      for (const CompiledSlotValue& value : tier.values) state_.at(local(value.slot)) = kReads;
  }
  bool reads(const Node& n) {
    if (n.kind == syntax::ExprKind::name && n.slot >= 0 && static_cast<std::size_t>(n.slot) >= first_ &&
        local(n.slot) < state_.size() && slot_reads(n.slot))
      return true;
    for (const Node& child : n.children)
      if (reads(child)) return true;
    return false;
  }
  bool slot_reads(int slot) {
    std::uint8_t& state = state_.at(local(slot));
    if (state == kUnknown) {
      state = kNot;  // while computing: the checker refuses cycles
      const auto& slots = search_.candidate_slots;
      if (std::find(slots.begin(), slots.end(), slot) != slots.end() && reads(locals_.at(local(slot)))) state = kReads;
    }
    return state == kReads;
  }

 private:
  enum : std::uint8_t { kUnknown, kNot, kReads };
  [[nodiscard]] std::size_t local(int slot) const { return static_cast<std::size_t>(slot) - first_; }
  const CompiledSearch& search_;
  const std::vector<Node>& locals_;
  std::size_t first_;
  std::vector<std::uint8_t> state_;
};

void mark_tier_readers(CompiledSearch& search, const std::vector<Node>& local_values, std::size_t first_local_slot) {
  TierReaders readers(search, local_values, first_local_slot);
  search.candidate_reads_tier.clear();
  for (int slot : search.candidate_slots) search.candidate_reads_tier.push_back(readers.slot_reads(slot) ? 1 : 0);
  bool shared = true;
  for (const CompiledSlotValue& e : search.enumerations) shared = shared && !readers.reads(e.value);
  for (const CompiledConstraint& c : search.constraints) shared = shared && !readers.reads(c.holds);
  search.tiers_share_candidates = shared;
}

}  // namespace

void mark_candidate_levels(CompiledSearch& search, std::vector<Node>& local_values, std::size_t first_local_slot) {
  // Slots outside the search's locals (only bytes read back could hold them) are left
  // unmarked; the search's candidate_reads_tier then stays short, and the evaluator walks it.
  std::vector<int> levels(local_values.size(), -1);
  auto local = [&](int slot) { return static_cast<std::size_t>(slot) - first_local_slot; };
  auto is_local = [&](int slot) {
    return slot >= 0 && static_cast<std::size_t>(slot) >= first_local_slot && local(slot) < levels.size();
  };
  bool well_formed = search.candidate_levels.size() == search.candidate_slots.size();
  for (std::size_t k = 0; k < search.enumerations.size(); ++k) {
    well_formed = well_formed && is_local(search.enumerations[k].slot);
    if (is_local(search.enumerations[k].slot)) levels[local(search.enumerations[k].slot)] = static_cast<int>(k);
  }
  for (std::size_t k = 0; k < search.candidate_slots.size(); ++k) {
    well_formed = well_formed && is_local(search.candidate_slots[k]);
    if (is_local(search.candidate_slots[k]) && k < search.candidate_levels.size())
      levels[local(search.candidate_slots[k])] = search.candidate_levels[k];
  }
  for (const CompiledTier& tier : search.tiers)
    for (const CompiledSlotValue& value : tier.values) well_formed = well_formed && is_local(value.slot);
  search.candidate_reads_tier.clear();
  if (!well_formed) return;
  LevelMarker marker(std::move(levels), first_local_slot);
  for (CompiledSlotValue& e : search.enumerations) marker.mark(e.value);
  for (int slot : search.candidate_slots) marker.mark(local_values[local(slot)]);
  for (CompiledConstraint& c : search.constraints) marker.mark(c.holds);
  for (CompiledTier& tier : search.tiers) {
    for (CompiledSlotValue& value : tier.values) marker.mark(value.value);
    for (CompiledConstraint& c : tier.constraints) marker.mark(c.holds);
  }
  if (search.fits) marker.mark(search.fits->holds);
  marker.mark(search.minimize);
  mark_tier_readers(search, local_values, first_local_slot);
}

}  // namespace snnplan::detail
