// The box analysis (boxes.hpp): the geometry of boxes, the first-hit refinement, and the
// scan of one table for `check`. The diff's cells are in box_diff.cpp.

#include "analyse/boxes.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>

#include "analyse/terms.hpp"
#include "language/matchers.hpp"
#include "language/operations.hpp"

namespace snnplan::analyse {
namespace {

using Bound = std::int64_t;
constexpr Bound kMin = std::numeric_limits<Bound>::min();
constexpr Bound kMax = std::numeric_limits<Bound>::max();
constexpr std::uint64_t kAll = ~std::uint64_t{0};
constexpr std::size_t kMaxReps = 64;  // a finite input's representatives fit a mask

// Narrows `span` to the ints `op` holds for against `c` (false: not an interval).
bool narrow(Span& span, language::MatchOp op, Wide c) {
  Wide lo = span.lo, hi = span.hi;
  switch (op) {
    case language::MatchOp::eq:
      lo = std::max(lo, c);
      hi = std::min(hi, c);
      break;
    case language::MatchOp::lt:
      hi = std::min(hi, c - 1);
      break;
    case language::MatchOp::le:
      hi = std::min(hi, c);
      break;
    case language::MatchOp::gt:
      lo = std::max(lo, c + 1);
      break;
    case language::MatchOp::ge:
      lo = std::max(lo, c);
      break;
    default:
      return false;
  }
  if (lo > hi || lo > Wide{kMax} || hi < Wide{kMin}) {  // empty: no int64 satisfies it
    span.lo = 1;
    span.hi = 0;
    return true;
  }
  span.lo = static_cast<Bound>(lo);
  span.hi = static_cast<Bound>(hi);
  return true;
}

}  // namespace

// ---- the space -----------------------------------------------------------------------------

bool BoxSpace::read(const detail::CompiledRules& file, const detail::CompiledRule& rule) {
  for (const detail::CompiledMatcher& matcher : rule.when) {
    if (matcher.slot < 0 || static_cast<std::size_t>(matcher.slot) >= file.inputs.size())
      return false;  // a let, not an input
    const auto it =
        m_.rules.input_slots.find(file.inputs[static_cast<std::size_t>(matcher.slot)].name);
    if (it == m_.rules.input_slots.end()) return false;
    const InputDomain& in = m_.inputs[static_cast<std::size_t>(it->second)];
    const bool integer = in.sampled && !in.null_possible && (in.kinds & ~detail::kNull) == detail::kInt;
    const bool finite = !in.sampled && !in.reps.empty() && in.reps.size() <= kMaxReps &&
                        in.prefixes.empty();
    if (in.list || in.issue || (!integer && !finite)) return false;
    dim_[static_cast<std::size_t>(it->second)] = 0;
  }
  return true;
}

void BoxSpace::finish() {
  inputs_.clear();
  rep_score_.clear();
  for (std::size_t k = 0; k < dim_.size(); ++k) {
    if (dim_[k] < 0) continue;
    dim_[k] = static_cast<int>(inputs_.size());
    inputs_.push_back(static_cast<int>(k));
    std::vector<Wide> scores;
    std::vector<RValue> pt = m_.placeholders();
    for (const RValue& rep : m_.inputs[k].reps) {
      pt[k] = rep;
      scores.push_back(m_.niceness({static_cast<int>(k)}, pt));
    }
    rep_score_.push_back(std::move(scores));
  }
}

std::optional<Box> BoxSpace::box(const detail::CompiledRules& file,
                                 const detail::CompiledRule& rule) const {
  Box out = domain();
  for (const detail::CompiledMatcher& matcher : rule.when) {
    if (matcher.operand.kind != syntax::ExprKind::literal || !matcher.info) return std::nullopt;
    const int input = m_.rules.input_slots.at(file.inputs[static_cast<std::size_t>(matcher.slot)].name);
    const auto d = static_cast<std::size_t>(dim_[static_cast<std::size_t>(input)]);
    const InputDomain& in = m_.inputs[static_cast<std::size_t>(input)];
    const RValue& operand = matcher.operand.constant;
    if (in.sampled) {
      if (operand.kind != RValue::Kind::integer || !narrow(out[d], matcher.info->op, operand.i))
        return std::nullopt;
      continue;
    }
    // A string input's representatives are its equality classes only.
    const bool strings = !in.has_one_of && (in.kinds & detail::kString);
    if (strings && !matcher.info->by_equality) return std::nullopt;
    std::uint64_t mask = 0;
    for (std::size_t k = 0; k < in.reps.size(); ++k) {
      try {
        if (language::decide(*matcher.info, in.reps[k], operand, matcher.location))
          mask |= std::uint64_t{1} << k;
      } catch (const language::EvaluationFailure&) {
        return std::nullopt;  // the evaluation would stop here: not a box
      }
    }
    out[d].mask &= mask;
  }
  return out;
}

Box BoxSpace::domain() const {
  Box out;
  for (int input : inputs_) {
    const InputDomain& in = m_.inputs[static_cast<std::size_t>(input)];
    if (in.sampled)
      out.push_back(Span{kMin, kMax, kAll});
    else
      out.push_back(Span{0, 0, in.reps.size() == kMaxReps ? kAll : (std::uint64_t{1} << in.reps.size()) - 1});
  }
  return out;
}

bool BoxSpace::is_empty(const Box& box) {
  return std::any_of(box.begin(), box.end(), [](const Span& s) { return s.lo > s.hi || !s.mask; });
}

bool BoxSpace::disjoint(const Box& a, const Box& b) {
  for (std::size_t d = 0; d < a.size(); ++d)
    if (std::max(a[d].lo, b[d].lo) > std::min(a[d].hi, b[d].hi) || !(a[d].mask & b[d].mask))
      return true;
  return false;
}

bool BoxSpace::covers(const Box& outer, const Box& inner) {
  for (std::size_t d = 0; d < outer.size(); ++d)
    if (inner[d].lo < outer[d].lo || inner[d].hi > outer[d].hi || (inner[d].mask & ~outer[d].mask))
      return false;
  return true;
}

Box BoxSpace::intersection(const Box& a, const Box& b) {
  Box out = a;
  for (std::size_t d = 0; d < a.size(); ++d)
    out[d] = Span{std::max(a[d].lo, b[d].lo), std::min(a[d].hi, b[d].hi), a[d].mask & b[d].mask};
  return out;
}

namespace {

// Whether `rule` narrows `cell` on coordinate d.
bool narrows(const Span& c, const Span& r) {
  return c.lo < r.lo || c.hi > r.hi || (c.mask & ~r.mask);
}

// The parts of `cell` outside `rule` on coordinate d (the other coordinates as in `cell`):
// the representatives it leaves out, the ints below it, the ints above it.
void outside(const Box& cell, const Box& rule, std::size_t d, std::vector<Box>& out) {
  const Span& c = cell[d];
  const Span& r = rule[d];
  if (c.mask & ~r.mask) {
    out.push_back(cell);
    out.back()[d].mask = c.mask & ~r.mask;
  }
  if (c.lo < r.lo) {  // r.lo > c.lo >= kMin: r.lo - 1 does not wrap
    out.push_back(cell);
    out.back()[d].hi = r.lo - 1;
  }
  if (c.hi > r.hi) {
    out.push_back(cell);
    out.back()[d].lo = r.hi + 1;
  }
}

Span inside(const Span& c, const Span& r) {
  return Span{std::max(c.lo, r.lo), std::min(c.hi, r.hi), c.mask & r.mask};
}

}  // namespace

std::vector<Box> BoxSpace::split(const Box& cell, const Box& rule) {
  for (std::size_t d = 0; d < cell.size(); ++d) {
    if (!narrows(cell[d], rule[d])) continue;
    std::vector<Box> parts(1, cell);
    parts[0][d] = inside(cell[d], rule[d]);
    outside(cell, rule, d, parts);
    return parts;
  }
  return {cell};
}

void BoxSpace::subtract(const Box& piece, const Box& cut, std::vector<Box>& out) {
  Box rest = piece;
  for (std::size_t d = 0; d < rest.size(); ++d) {
    if (!narrows(rest[d], cut[d])) continue;
    outside(rest, cut, d, out);
    rest[d] = inside(rest[d], cut[d]);
  }
}

double BoxSpace::volume(const Box& box) {
  double out = 1;  // an int coordinate's mask is all ones, a finite one's interval [0, 0]
  for (const Span& s : box)
    out *= (static_cast<double>(s.hi) - static_cast<double>(s.lo) + 1) *
           (s.mask == kAll ? 1 : std::popcount(s.mask));
  return out;
}

std::vector<RValue> BoxSpace::nicest(const Box& cell, Wide& score, Box* at) const {
  std::vector<RValue> pt = m_.placeholders();
  if (at) *at = cell;
  for (std::size_t d = 0; d < inputs_.size(); ++d) {
    const auto input = static_cast<std::size_t>(inputs_[d]);
    const Span& s = cell[d];
    if (m_.inputs[input].sampled) {
      const Bound v = s.lo > 0 ? s.lo : s.hi < 0 ? s.hi : 0;
      pt[input] = RValue::of_int(v);
      if (at) (*at)[d].lo = (*at)[d].hi = v;
      continue;
    }
    std::size_t best = kMaxReps;
    for (std::size_t k = 0; k < m_.inputs[input].reps.size(); ++k)
      if ((s.mask >> k & 1) && (best == kMaxReps || rep_score_[d][k] < rep_score_[d][best])) best = k;
    if (best == kMaxReps) continue;  // an empty cell: never asked
    pt[input] = m_.inputs[input].reps[best];
    if (at) (*at)[d].mask = std::uint64_t{1} << best;
  }
  score = m_.niceness(inputs_, pt);
  return pt;
}

Wide BoxSpace::score(const Box& cell) const {
  Wide out = 0;
  for (std::size_t d = 0; d < inputs_.size(); ++d) {
    const Span& s = cell[d];
    if (m_.inputs[static_cast<std::size_t>(inputs_[d])].sampled) {
      out += s.lo > 0 ? Wide{s.lo} : s.hi < 0 ? -Wide{s.hi} : 0;
      continue;
    }
    Wide best = 0;
    bool any = false;
    for (std::size_t k = 0; k < rep_score_[d].size(); ++k)
      if ((s.mask >> k & 1) && (!any || rep_score_[d][k] < best)) {
        best = rep_score_[d][k];
        any = true;
      }
    out += best;
  }
  return out;
}

std::vector<std::string> BoxSpace::key(const Box& cell) const {
  std::vector<std::string> out;
  for (const Span& s : cell)
    out.push_back(std::to_string(s.lo) + ".." + std::to_string(s.hi) + "/" + std::to_string(s.mask));
  return out;
}

Box BoxSpace::from_key(const std::vector<std::string>& key) const {
  Box out;
  for (const std::string& label : key) {
    const std::size_t dots = label.find(".."), slash = label.find('/');
    out.push_back(Span{std::stoll(label.substr(0, dots)),
                       std::stoll(label.substr(dots + 2, slash - dots - 2)),
                       std::stoull(label.substr(slash + 1))});
  }
  return out;
}

std::string BoxSpace::condition(std::size_t d, const Span& span) const {
  const InputDomain& in = m_.inputs[static_cast<std::size_t>(inputs_[d])];
  if (in.sampled) {
    if (span.lo == kMin && span.hi == kMax) return "";
    if (span.lo == span.hi) return in.name + " == " + std::to_string(span.lo);
    if (span.lo == kMin) return in.name + " <= " + std::to_string(span.hi);
    if (span.hi == kMax) return in.name + " >= " + std::to_string(span.lo);
    return in.name + " >= " + std::to_string(span.lo) + " && " + in.name +
           " <= " + std::to_string(span.hi);
  }
  if (span.mask == domain()[d].mask) return "";
  std::vector<std::string> values;
  bool others = false;  // the representative of every string no rule names
  for (std::size_t k = 0; k < in.reps.size(); ++k) {
    if (!(span.mask >> k & 1)) continue;
    const RValue& rep = in.reps[k];
    if (rep.kind == RValue::Kind::string && !in.constants.count(std::string(rep.s()))) {
      others = true;
      continue;
    }
    const std::string text = detail::repr(rep);
    values.push_back(text == "None" ? "null" : text);
  }
  auto joined = [](const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
    return out;
  };
  std::vector<std::string> alternatives;
  if (values.size() == 1) alternatives.push_back(in.name + " == " + values[0]);
  if (values.size() > 1) alternatives.push_back(in.name + " in (" + joined(values) + ")");
  if (others) {
    std::vector<std::string> quoted;
    for (const std::string& c : in.constants) quoted.push_back("'" + c + "'");
    alternatives.push_back(in.name + " not in (" + joined(quoted) + ")");
  }
  return alternatives.size() == 1 ? alternatives[0]
                                  : "(" + alternatives[0] + " || " + alternatives[1] + ")";
}

std::string BoxSpace::describe(std::vector<Box> cells) const {
  // Merge cells that differ on one coordinate only and meet there, until none do.
  for (bool merged = true; merged && cells.size() > 1;) {
    merged = false;
    for (std::size_t d = 0; d < inputs_.size(); ++d) {
      std::map<std::vector<std::int64_t>, std::vector<std::size_t>> rows;  // by the others
      for (std::size_t c = 0; c < cells.size(); ++c) {
        std::vector<std::int64_t> rest;
        for (std::size_t e = 0; e < inputs_.size(); ++e)
          if (e != d)
            rest.insert(rest.end(), {cells[c][e].lo, cells[c][e].hi,
                                     static_cast<std::int64_t>(cells[c][e].mask)});
        rows[rest].push_back(c);
      }
      std::vector<Box> out;
      for (auto& [rest, row] : rows) {
        std::sort(row.begin(), row.end(), [&](std::size_t a, std::size_t b) {
          return cells[a][d].lo < cells[b][d].lo;
        });
        out.push_back(cells[row[0]]);
        for (std::size_t i = 1; i < row.size(); ++i) {
          Span& last = out.back()[d];
          const Span& next = cells[row[i]][d];
          if (m_.inputs[static_cast<std::size_t>(inputs_[d])].sampled) {
            if (last.hi == kMax || last.hi + 1 != next.lo) {
              out.push_back(cells[row[i]]);
              continue;
            }
            last.hi = next.hi;
          } else {
            last.mask |= next.mask;
          }
          merged = true;
        }
      }
      cells = std::move(out);
    }
  }
  std::string out;
  for (const Box& cell : cells) {
    std::string conjunction;
    for (std::size_t d = 0; d < cell.size(); ++d) {
      const std::string part = condition(d, cell[d]);
      if (!part.empty()) conjunction += (conjunction.empty() ? "" : " && ") + part;
    }
    if (conjunction.empty()) return "true";
    out += (out.empty() ? "" : " || ") + conjunction;
  }
  return out.empty() ? "false" : out;
}

std::string BoxSpace::describe(const Box& within, const std::vector<Box>& less) const {
  std::string out = describe(std::vector<Box>{within});
  if (out == "true") out.clear();
  for (const Box& cut : less) {
    const Box part = intersection(cut, within);
    std::string conjunction;
    for (std::size_t d = 0; d < part.size(); ++d) {
      const Span& s = part[d];
      if (s.lo == within[d].lo && s.hi == within[d].hi && s.mask == within[d].mask) continue;
      // The bound within does not imply, alone: "x <= 7" rather than "x >= 0 && x <= 7".
      Span shown = s;
      if (s.lo == within[d].lo) shown.lo = domain()[d].lo;
      if (s.hi == within[d].hi) shown.hi = domain()[d].hi;
      const std::string part_text = condition(d, shown);
      if (!part_text.empty()) conjunction += (conjunction.empty() ? "" : " && ") + part_text;
    }
    if (conjunction.empty()) return "false";  // a cut covers it all (never asked)
    out += (out.empty() ? "!(" : " && !(") + conjunction + ")";
  }
  return out;
}

// ---- the refinement ------------------------------------------------------------------------

std::size_t Refinement::child(std::size_t from, int table, int rule) {
  auto [it, fresh] = children_.try_emplace(std::make_tuple(from, table, rule), steps_.size());
  if (fresh) steps_.push_back(Step{from, table, rule});
  return it->second;
}

bool Refinement::run(const Box& root, std::size_t start_rules,
                     const std::function<void(const Box&, std::span<const std::size_t>)>& visit,
                     std::size_t& budget) {
  using Candidates = std::shared_ptr<const std::vector<int>>;
  // Where one chain is: in `table`, trying `candidates` from `from` (the rules not known to
  // miss the cell), after path step `path`.
  struct Cursor {
    int table = -1;
    Candidates candidates;
    std::size_t from = 0, path = 0;
    int depth = 0;
  };
  std::vector<std::vector<Candidates>> every(chains_.size());  // per chain, per table
  for (std::size_t c = 0; c < chains_.size(); ++c)
    for (const std::vector<Box>& rules : chains_[c].tables) {
      std::vector<int> all(rules.size());
      for (std::size_t k = 0; k < all.size(); ++k) all[k] = static_cast<int>(k);
      every[c].push_back(std::make_shared<const std::vector<int>>(std::move(all)));
    }
  struct Item {
    Box cell;
    std::vector<Cursor> cursors;
    bool together = false;  // two chains, with the same rules fired so far
  };
  std::vector<Item> stack(1);
  stack[0].cell = root;
  stack[0].together = chains_.size() == 2 && !chains_[0].same_as.empty() && !chains_[1].same_as.empty();
  for (std::size_t c = 0; c < chains_.size(); ++c) {
    const int start = chains_[c].start;
    Candidates first = every[c][static_cast<std::size_t>(start)];
    if (c == 0 && start_rules < first->size())
      first = std::make_shared<const std::vector<int>>(first->begin(),
                                                       first->begin() + static_cast<long>(start_rules));
    stack[0].cursors.push_back(Cursor{start, first, 0, 0, 0});
  }
  std::vector<std::size_t> paths(chains_.size());
  // The rules of `cur`'s candidates that meet `cell`, as positions.
  auto meeting = [&](std::size_t c, const Cursor& cur, const Box& cell) {
    std::vector<int> out;
    const std::vector<Box>& boxes = chains_[c].tables[static_cast<std::size_t>(cur.table)];
    for (std::size_t i = cur.from; i < cur.candidates->size(); ++i)
      if (!BoxSpace::disjoint(boxes[static_cast<std::size_t>((*cur.candidates)[i])], cell))
        out.push_back((*cur.candidates)[i]);
    return out;
  };
  while (!stack.empty()) {
    Item item = std::move(stack.back());
    stack.pop_back();
    bool split = false;
    // Two chains together (neither has fired a rule the other has not): where both try
    // rules that do the same from here on, or a rule both try before any they differ in
    // covers the cell, they give the same answer. Otherwise the cell is split by the first
    // rule they differ in (its parts outside may be unchanged), then by the rules before it.
    while (item.together) {
      const std::vector<int> ra = meeting(0, item.cursors[0], item.cell);
      const std::vector<int> rb = meeting(1, item.cursors[1], item.cell);
      const auto& same_a = chains_[0].same_as[static_cast<std::size_t>(item.cursors[0].table)];
      const auto& same_b = chains_[1].same_as[static_cast<std::size_t>(item.cursors[1].table)];
      const auto& boxes_a = chains_[0].tables[static_cast<std::size_t>(item.cursors[0].table)];
      const auto& boxes_b = chains_[1].tables[static_cast<std::size_t>(item.cursors[1].table)];
      std::size_t common = 0;  // the rules both try first, alike
      while (common < ra.size() && common < rb.size() &&
             same_a[static_cast<std::size_t>(ra[common])] == same_b[static_cast<std::size_t>(rb[common])])
        ++common;
      if (common == ra.size() && common == rb.size()) break;  // unchanged
      bool covered = false;
      for (std::size_t i = 0; i < common && !covered; ++i)
        covered = BoxSpace::covers(boxes_a[static_cast<std::size_t>(ra[i])], item.cell);
      if (covered) break;  // unchanged: the first hit is among the rules alike
      // What to split by: the first rule they differ in (chain 0's, else chain 1's) where it
      // does not cover the cell, else the first rule alike.
      int by = -1;
      const Box* box = nullptr;
      if (common < ra.size() && !BoxSpace::covers(boxes_a[static_cast<std::size_t>(ra[common])], item.cell)) {
        by = 0;
        box = &boxes_a[static_cast<std::size_t>(ra[common])];
      } else if (common < rb.size() &&
                 !BoxSpace::covers(boxes_b[static_cast<std::size_t>(rb[common])], item.cell)) {
        by = 1;
        box = &boxes_b[static_cast<std::size_t>(rb[common])];
      } else if (common > 0) {
        by = 2;  // both
        box = &boxes_a[static_cast<std::size_t>(ra[0])];
      }
      if (by < 0) {  // each chain's first rule covers the cell (or none meets it): they part
        item.together = false;
        break;
      }
      const auto rest_a = std::make_shared<const std::vector<int>>(ra);
      const auto rest_b = std::make_shared<const std::vector<int>>(rb);
      std::vector<Box> parts = BoxSpace::split(item.cell, *box);
      for (std::size_t p = parts.size(); p-- > 0;) {
        Item part{std::move(parts[p]), item.cursors, true};
        part.cursors[0].candidates = rest_a;
        part.cursors[1].candidates = rest_b;
        part.cursors[0].from = part.cursors[1].from = 0;
        stack.push_back(std::move(part));
      }
      split = true;
      break;
    }
    if (item.together && !split) {  // unchanged
      if (budget == 0) return false;
      --budget;
      continue;
    }
    for (std::size_t c = 0; c < chains_.size() && !split; ++c) {
      Cursor& cur = item.cursors[c];
      while (cur.table >= 0) {
        const std::vector<Box>& boxes = chains_[c].tables[static_cast<std::size_t>(cur.table)];
        const std::vector<int>& cand = *cur.candidates;
        std::size_t i = cur.from;
        while (i < cand.size() && BoxSpace::disjoint(boxes[static_cast<std::size_t>(cand[i])], item.cell)) ++i;
        if (i == cand.size()) {  // no rule of the table matches here
          cur.path = child(cur.path, cur.table, -1);
          cur.table = -1;
          break;
        }
        const int rule = cand[i];
        const Box& box = boxes[static_cast<std::size_t>(rule)];
        if (BoxSpace::covers(box, item.cell)) {  // it fires on the whole cell: later rules do not matter
          cur.path = child(cur.path, cur.table, rule);
          cur.table = chains_[c].then[static_cast<std::size_t>(cur.table)][static_cast<std::size_t>(rule)];
          if (cur.table >= 0) {
            if (++cur.depth > detail::kMaxCallDepth) return false;
            cur.candidates = every[c][static_cast<std::size_t>(cur.table)];
            cur.from = 0;
          }
          continue;
        }
        // It meets part of the cell: split there; the later rules that miss the cell are
        // left out for every part, and `rule` too for the parts outside it.
        auto rest = std::make_shared<std::vector<int>>();
        rest->push_back(rule);
        for (std::size_t j = i + 1; j < cand.size(); ++j)
          if (!BoxSpace::disjoint(boxes[static_cast<std::size_t>(cand[j])], item.cell))
            rest->push_back(cand[j]);
        std::vector<Box> parts = BoxSpace::split(item.cell, box);
        for (std::size_t p = parts.size(); p-- > 0;) {
          Item part{std::move(parts[p]), item.cursors};
          part.cursors[c].candidates = rest;
          part.cursors[c].from = p == 0 ? 0 : 1;
          stack.push_back(std::move(part));
        }
        split = true;
        break;
      }
    }
    if (split) continue;
    if (budget == 0) return false;
    --budget;
    for (std::size_t c = 0; c < chains_.size(); ++c) paths[c] = item.cursors[c].path;
    visit(item.cell, paths);
  }
  return true;
}

// ---- the scan of one table -----------------------------------------------------------------

Cover find_uncovered(const std::vector<Box>& boxes, std::vector<int> candidates, const Box& root,
                     const BoxSpace* space, Box* found, std::size_t& budget) {
  using Candidates = std::shared_ptr<const std::vector<int>>;
  struct Item {
    Wide score = 0;
    Box cell;
    Candidates candidates;
  };
  auto later = [](const Item& a, const Item& b) { return a.score > b.score; };
  std::vector<Item> items;
  auto push = [&](Box cell, const Candidates& c) {
    Wide score = 0;
    if (space) (void)space->nicest(cell, score);
    items.push_back(Item{score, std::move(cell), c});
    if (space) std::push_heap(items.begin(), items.end(), later);
  };
  push(root, std::make_shared<const std::vector<int>>(std::move(candidates)));
  while (!items.empty()) {
    if (space) std::pop_heap(items.begin(), items.end(), later);
    Item item = std::move(items.back());
    items.pop_back();
    if (budget == 0) return Cover::too_many;
    --budget;
    auto meeting = std::make_shared<std::vector<int>>();
    bool covered = false;
    for (int r : *item.candidates) {
      const Box& box = boxes[static_cast<std::size_t>(r)];
      if (BoxSpace::disjoint(box, item.cell)) continue;
      if (BoxSpace::covers(box, item.cell)) {
        covered = true;
        break;
      }
      meeting->push_back(r);
    }
    if (covered) continue;
    if (meeting->empty()) {
      if (found) *found = item.cell;
      return Cover::uncovered;
    }
    const Candidates rest = meeting;
    for (Box& part : BoxSpace::split(item.cell, boxes[static_cast<std::size_t>(rest->front())]))
      push(std::move(part), rest);
  }
  return Cover::covered;
}

std::optional<TableScan> box_scan(const Model& m, int t, bool overlaps) {
  const TableModel& table = m.tables[static_cast<std::size_t>(t)];
  const std::size_t n = table.active;
  BoxSpace space(m);
  for (std::size_t k = 0; k < n; ++k)
    if (!space.read(m.rules, *table.rules[k].rule)) return std::nullopt;
  space.finish();
  Refinement::Chain chain;
  chain.tables.emplace_back();
  chain.then.emplace_back(n, -1);
  for (std::size_t k = 0; k < n; ++k) {
    std::optional<Box> box = space.box(m.rules, *table.rules[k].rule);
    if (!box) return std::nullopt;
    chain.tables[0].push_back(std::move(*box));
  }
  const std::vector<Box> boxes = chain.tables[0];
  TableScan scan(n);
  scan.vars = space.inputs();
  std::size_t budget = kMaxCells;
  // A rule fires where no earlier rule matches.
  for (std::size_t k = 0; k < n; ++k) {
    scan.matched[k] = !BoxSpace::is_empty(boxes[k]);
    if (!scan.matched[k]) continue;
    std::vector<int> earlier;
    for (std::size_t e = 0; e < k; ++e)
      if (!BoxSpace::disjoint(boxes[e], boxes[k])) earlier.push_back(static_cast<int>(e));
    const Cover cover = find_uncovered(boxes, std::move(earlier), boxes[k], nullptr, nullptr, budget);
    if (cover == Cover::too_many) return std::nullopt;
    scan.fired[k] = cover == Cover::uncovered;
  }
  // The nicest input no rule matches.
  std::vector<int> all(n);
  for (std::size_t k = 0; k < n; ++k) all[k] = static_cast<int>(k);
  Box gap;
  const Cover cover = find_uncovered(boxes, all, space.domain(), &space, &gap, budget);
  if (cover == Cover::too_many) return std::nullopt;
  if (cover == Cover::uncovered) {
    scan.uncovered = true;
    Wide score = 0;
    scan.gap = space.nicest(gap, score);
  }
  // Where a rule that never fires matches, the rules that fire first.
  Refinement refinement({std::move(chain)});
  for (std::size_t k = 0; k < n; ++k) {
    if (scan.fired[k] || !scan.matched[k]) continue;
    if (!refinement.run(
            boxes[k], k,
            [&](const Box&, std::span<const std::size_t> paths) {
              const int first = refinement.step(paths[0]).rule;
              if (first >= 0) scan.by[k].insert(static_cast<std::size_t>(first));
            },
            budget))
      return std::nullopt;
  }
  if (!overlaps) return scan;
  for (std::size_t k = 0; k < n; ++k) {
    if (!scan.fired[k]) continue;
    Wide best = 0;
    for (std::size_t e = 0; e < k; ++e) {
      if (BoxSpace::disjoint(boxes[e], boxes[k])) continue;
      scan.overlapped[k].insert(e);
      Wide score = 0;
      Box at;
      std::vector<RValue> pt = space.nicest(BoxSpace::intersection(boxes[e], boxes[k]), score, &at);
      if (scan.overlap[k] && score >= best) continue;
      scan.overlap[k] = std::move(pt);
      best = score;
      for (std::size_t f = 0; f <= e; ++f)  // the rule that fires first there
        if (BoxSpace::covers(boxes[f], at)) {
          scan.overlap_first[k] = f;
          break;
        }
    }
  }
  return scan;
}

}  // namespace snnplan::analyse
