// The cells of `snnplan diff` by the boxes (boxes.hpp): both files' chains of tables refined
// over the same cells, so that each file's fired rules are constant on a cell. A file is
// taken only when its answer is then constant on a cell too (no value or text that reads the
// inputs), so one evaluation per pair of paths decides every cell of that pair.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <string>

#include "analyse/boxes.hpp"
#include "core/runtime_value.hpp"

namespace snnplan::analyse {
namespace {

bool same_declaration(const detail::CompiledInput& a, const detail::CompiledInput& b) {
  if (a.type.kinds != b.type.kinds || a.lower != b.lower ||
      a.default_value.has_value() != b.default_value.has_value() ||
      a.one_of.size() != b.one_of.size())
    return false;
  if (a.default_value && !detail::values_equal(*a.default_value, *b.default_value)) return false;
  for (std::size_t k = 0; k < a.one_of.size(); ++k)
    if (!detail::values_equal(a.one_of[k], b.one_of[k])) return false;
  return true;
}

bool fixed(const detail::CompiledTemplate& t) {
  return !t.has_placeholders();
}

// Whether what `rule` does when it fires is the same at every input: constant values and
// texts, and no fallback that sets inputs.
bool constant_effect(const detail::CompiledRule& rule) {
  for (const detail::CompiledAssignment& a : rule.set)
    if (a.value.kind != syntax::ExprKind::literal) return false;
  if (!std::all_of(rule.because.begin(), rule.because.end(), fixed)) return false;
  if (rule.error && !fixed(*rule.error)) return false;
  return !rule.fallback || rule.fallback->with.empty();
}

// The rules of `table` that can fire: up to and including the first catch-all.
std::size_t active_rules(const detail::CompiledTable& table) {
  for (std::size_t k = 0; k < table.rules.size(); ++k)
    if (table.rules[k].when.empty()) return k + 1;
  return table.rules.size();
}

// Texts and values as keys, each part length-prefixed and values tagged with their kind:
// equal keys must mean equal answers, so no string may read as two fields (a value holding
// "',b='") and no int as a float (1 and 1.0 print alike).
void append_key(std::string& out, std::string_view part) {
  out += std::to_string(part.size());
  out += ':';
  out += part;
}

void append_key(std::string& out, const RValue& value) {
  out += static_cast<char>('0' + static_cast<int>(value.kind));
  switch (value.kind) {
    case RValue::Kind::null: return;
    case RValue::Kind::boolean: out += value.b ? 't' : 'f'; return;
    case RValue::Kind::integer: append_key(out, detail::wide_to_string(value.i)); return;
    case RValue::Kind::floating:
      append_key(out, std::to_string(std::bit_cast<std::uint64_t>(value.f)));
      return;
    case RValue::Kind::string: append_key(out, value.s()); return;
    case RValue::Kind::list:
      append_key(out, std::to_string(value.list().size()));
      for (const RValue& item : value.list()) append_key(out, item);
      return;
    case RValue::Kind::record: append_key(out, detail::repr(value)); return;  // not a literal
  }
}

std::string text(const detail::CompiledTemplate& t) {
  std::string out;
  for (const auto& piece : t.pieces) append_key(out, piece.text);
  return out;
}

// What `rule` of `file` does when it fires, as text: equal texts give equal answers (when the
// files make their records alike, same_records()).
std::string effect(const detail::CompiledRules& file, const detail::CompiledRule& r) {
  std::string what;
  for (const detail::CompiledAssignment& a : r.set) {
    append_key(what, file.fields[static_cast<std::size_t>(a.target)].name);
    append_key(what, a.value.constant);
  }
  for (const detail::CompiledTemplate& line : r.because) append_key(what, text(line));
  if (r.error) {
    what += 'e';  // items start with their length: no item reads as this mark
    append_key(what, text(*r.error));
  }
  return what;
}

std::string key(const RValue& value) {
  std::string out;
  append_key(out, value);
  return out;
}

// Whether two files make the same record of the same fired rules: the same fields, defaults
// and header. Only then can a rule do "the same" in both.
bool same_records(const detail::CompiledRules& a, const detail::CompiledRules& b) {
  if (a.fields.size() != b.fields.size() || a.rationale_field != b.rationale_field ||
      a.header.has_value() != b.header.has_value() || (a.header && text(*a.header) != text(*b.header)))
    return false;
  for (std::size_t k = 0; k < a.fields.size(); ++k) {
    const detail::CompiledField &x = a.fields[k], &y = b.fields[k];
    if (x.name != y.name || x.type.kinds != y.type.kinds ||
        key(x.default_value) != key(y.default_value) || x.init.has_value() != y.init.has_value() ||
        (x.init && key(x.init->constant) != key(y.init->constant)))
      return false;
  }
  return true;
}

// Ids of what rules do (the chains' same_as): equal across the files exactly when two rules
// have the same name, box and effect and go on to tables with the same rules.
class Sameness {
 public:
  Sameness(const BoxSpace& space, std::span<const detail::CompiledRules* const> files,
           const std::vector<Refinement::Chain>& chains)
      : space_(space), files_(files), chains_(chains), tables_(files.size()) {
    for (std::size_t f = 0; f < files.size(); ++f) tables_[f].resize(files[f]->tables.size(), -1);
  }

  std::vector<std::vector<int>> of(std::size_t f) {
    std::vector<std::vector<int>> out;
    for (std::size_t t = 0; t < files_[f]->tables.size(); ++t) {
      out.emplace_back();
      for (std::size_t k = 0; k < chains_[f].tables[t].size(); ++k) out.back().push_back(rule(f, t, k));
    }
    return out;
  }

 private:
  int id(const std::string& what) {
    return ids_.try_emplace(what, static_cast<int>(ids_.size())).first->second;
  }
  int rule(std::size_t f, std::size_t t, std::size_t k) {
    const detail::CompiledRules& file = *files_[f];
    const detail::CompiledRule& r = file.tables[t].rules[k];
    // Appended part by part (each self-delimiting), never `"text" + string`: gcc 12 at -O3
    // reports a false -Wrestrict overlap for that.
    std::string what;
    append_key(what, r.name);
    for (const std::string& label : space_.key(chains_[f].tables[t][k])) append_key(what, label);
    what += '|';
    what += effect(file, r);
    what += '|';
    if (r.fallback)
      for (bool keep : r.fallback->keep) what += keep ? 'k' : '-';
    const int then = chains_[f].then[t][k];
    what += r.next >= 0 ? "|next " : "|fallback ";
    what += then < 0 ? std::string("-") : std::to_string(table(f, static_cast<std::size_t>(then)));
    return id(what);
  }
  int table(std::size_t f, std::size_t t) {
    int& known = tables_[f][t];
    if (known >= 0) return known;
    std::string what = "table ";  // rules' keys start with a length, so no rule reads as a table
    append_key(what, files_[f]->tables[t].name);
    for (std::size_t k = 0; k < chains_[f].tables[t].size(); ++k) {
      what += ',';
      what += std::to_string(rule(f, t, k));
    }
    return known = id(what);  // tables form no cycle (refused at load)
  }

  const BoxSpace& space_;
  std::span<const detail::CompiledRules* const> files_;
  const std::vector<Refinement::Chain>& chains_;
  std::vector<std::vector<int>> tables_;  // per file, per table: its id, -1 until known
  std::map<std::string, int> ids_;
};

}  // namespace

std::unique_ptr<BoxDiff> BoxDiff::make(const Model& m,
                                       std::span<const detail::CompiledRules* const> files) {
  std::unique_ptr<BoxDiff> out(new BoxDiff(m));
  for (const detail::CompiledRules* file : files) {
    if (file->inputs.size() != m.rules.inputs.size() || !file->invariants.empty() ||
        (file->header && !fixed(*file->header)) || !file->used.empty())
      return nullptr;
    for (const detail::CompiledInput& in : file->inputs) {
      const auto it = m.rules.input_slots.find(in.name);
      if (it == m.rules.input_slots.end() ||
          !same_declaration(in, m.rules.inputs[static_cast<std::size_t>(it->second)]))
        return nullptr;
    }
    for (const detail::CompiledField& field : file->fields)
      if (field.init && field.init->kind != syntax::ExprKind::literal) return nullptr;
    for (const detail::CompiledTable& table : file->tables)
      for (std::size_t k = 0; k < active_rules(table); ++k)
        if (!constant_effect(table.rules[k]) || !out->space_.read(*file, table.rules[k]))
          return nullptr;
  }
  out->space_.finish();
  std::vector<Refinement::Chain> chains;
  for (const detail::CompiledRules* file : files) {
    Refinement::Chain chain;
    chain.start = file->start;
    for (const detail::CompiledTable& table : file->tables) {
      chain.tables.emplace_back();
      chain.then.emplace_back();
      for (std::size_t k = 0; k < active_rules(table); ++k) {
        const detail::CompiledRule& rule = table.rules[k];
        std::optional<Box> box = out->space_.box(*file, rule);
        if (!box) return nullptr;
        chain.tables.back().push_back(std::move(*box));
        chain.then.back().push_back(rule.error          ? -1
                                    : rule.next >= 0    ? rule.next
                                    : rule.fallback     ? rule.fallback->table
                                                        : -1);
      }
    }
    chains.push_back(std::move(chain));
    out->files_.push_back(file);
  }
  if (files.size() == 2 && same_records(*files[0], *files[1])) {
    Sameness sameness(out->space_, files, chains);
    for (std::size_t f = 0; f < files.size(); ++f) chains[f].same_as = sameness.of(f);
    std::map<std::string, int> ids;
    for (const detail::CompiledRules* file : files) {
      const detail::CompiledTable& start = file->tables[static_cast<std::size_t>(file->start)];
      std::vector<int>& of = out->effects_.emplace_back();
      for (std::size_t k = 0; k <= active_rules(start); ++k) {
        // The last: no rule matched, which the evaluator reports with the table's name.
        std::string what;
        if (k < active_rules(start)) {
          what = effect(*file, start.rules[k]);
        } else {
          what = "none ";  // no effect starts so: its items start with their length, or 'e'
          append_key(what, start.name);
        }
        of.push_back(ids.try_emplace(what, static_cast<int>(ids.size())).first->second);
      }
    }
  }
  out->refinement_.emplace(std::move(chains));
  return out;
}

bool BoxDiff::for_each_cell(
    const std::function<void(const Box&, std::size_t old_path, std::size_t new_path)>& visit) {
  std::size_t budget = kMaxCells;
  return refinement_->run(
      space_.domain(), SIZE_MAX,
      [&](const Box& box, std::span<const std::size_t> paths) { visit(box, paths[0], paths[1]); },
      budget);
}

std::optional<bool> BoxDiff::for_each_region(
    const std::function<void(BoxRegion&&, std::size_t old_path, std::size_t new_path)>& visit) {
  const std::vector<Refinement::Chain>& chains = refinement_->chains();
  if (chains.size() != 2 || effects_.size() != 2) return std::nullopt;
  for (const Refinement::Chain& chain : chains)
    for (int then : chain.then[static_cast<std::size_t>(chain.start)])
      if (then >= 0) return std::nullopt;
  const std::vector<Box>& a = chains[0].tables[static_cast<std::size_t>(chains[0].start)];
  const std::vector<Box>& b = chains[1].tables[static_cast<std::size_t>(chains[1].start)];
  const Box all = space_.domain();
  // Where an earlier rule of the other file has the same box, it covers the pair's
  // intersection: the twins (the rules an edit left alone) rule most pairs out at once.
  auto twins = [](const std::vector<Box>& of, const std::vector<Box>& in) {
    auto flat = [](const Box& box) {
      std::vector<std::int64_t> out;
      for (const Span& s : box) out.insert(out.end(), {s.lo, s.hi, static_cast<std::int64_t>(s.mask)});
      return out;
    };
    std::map<std::vector<std::int64_t>, std::size_t> first;
    for (std::size_t k = in.size(); k-- > 0;) first[flat(in[k])] = k;
    std::vector<std::size_t> out;
    for (const Box& box : of) {
      const auto it = first.find(flat(box));
      out.push_back(it == first.end() ? SIZE_MAX : it->second);
    }
    return out;
  };
  const std::vector<std::size_t> twin_a = twins(a, b), twin_b = twins(b, a);
  std::size_t budget = kMaxCells;
  // The pairs and the earlier rules scanned for each cost time without making pieces: they
  // are charged to a budget of their own, so two large tables an edit left few twins in give
  // up (and the cells or the grid decide) rather than take minutes.
  std::size_t tests = kMaxBoxTests;
  auto charge = [&tests](std::size_t n) {
    if (n > tests) return false;
    tests -= n;
    return true;
  };
  std::vector<std::pair<double, const Box*>> cuts;
  std::vector<Box> next;
  for (std::size_t i = 0; i <= a.size(); ++i) {
    const Box& box_a = i < a.size() ? a[i] : all;
    // Where old rule i matches, no new rule after its twin fires first (nor does none).
    const std::size_t last = i < a.size() ? std::min(twin_a[i], b.size()) : b.size();
    if (!charge(last + 1)) return false;
    for (std::size_t j = 0; j <= last; ++j) {
      if (effects_[0][i] == effects_[1][j] || (j < b.size() && twin_b[j] < i)) continue;
      const Box& box_b = j < b.size() ? b[j] : all;
      if (BoxSpace::disjoint(box_a, box_b)) continue;
      BoxRegion region;
      region.within = BoxSpace::intersection(box_a, box_b);
      // The earlier rules of either file that meet it; one that covers it leaves nothing. The
      // other file's rule at the same place, the likeliest (an edited row), is tried first.
      const std::size_t same = std::min(i, j);
      if ((i < j && same < b.size() && BoxSpace::covers(b[same], region.within)) ||
          (j < i && same < a.size() && BoxSpace::covers(a[same], region.within)))
        continue;
      cuts.clear();
      bool covered = false;
      std::size_t scanned = 0;
      for (const auto& [rules, before] : {std::pair{&a, i}, std::pair{&b, j}})
        for (std::size_t e = 0; e < before && !covered; ++e, ++scanned) {
          // A new rule whose twin is an earlier old rule is that rule's cut already.
          if (rules == &b && twin_b[e] < i) continue;
          const Box& cut = (*rules)[e];
          if (BoxSpace::disjoint(cut, region.within)) continue;
          covered = BoxSpace::covers(cut, region.within);
          cuts.emplace_back(0, &cut);
        }
      if (!charge(scanned)) return false;
      if (covered) continue;
      // The larger cuts first: they leave fewer and larger pieces for the rest to split.
      for (auto& [size, cut] : cuts) size = -BoxSpace::volume(BoxSpace::intersection(*cut, region.within));
      std::stable_sort(cuts.begin(), cuts.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; });
      std::vector<Box>& pieces = region.pieces;
      pieces.assign(1, region.within);
      // Pieces while they take fewer words than the cuts would (BoxRegion).
      const std::size_t limit = std::clamp(cuts.size(), kMinRegionPieces, kMaxRegionPieces);
      for (const auto& [size, cut] : cuts) {
        next.clear();
        for (const Box& piece : pieces) {
          if (BoxSpace::disjoint(*cut, piece)) {
            next.push_back(piece);
          } else if (!BoxSpace::covers(*cut, piece)) {
            const std::size_t had = next.size();
            BoxSpace::subtract(piece, *cut, next);
            if (next.size() - had > budget) return false;
            budget -= next.size() - had;
          }
        }
        pieces.swap(next);
        if (pieces.empty() || pieces.size() > limit) break;
      }
      if (pieces.size() > limit) {
        // Too many pieces to describe: the region is `within` less the cuts, and whether it
        // is empty (and its nicest point) a search that stops at its first point decides.
        for (const auto& [size, cut] : cuts) region.less.push_back(*cut);
        std::vector<int> candidates(region.less.size());
        for (std::size_t k = 0; k < candidates.size(); ++k) candidates[k] = static_cast<int>(k);
        pieces.assign(1, Box{});
        const Cover found = find_uncovered(region.less, std::move(candidates), region.within,
                                           &space_, &pieces[0], budget);
        if (found == Cover::too_many) return false;
        if (found == Cover::covered) pieces.clear();
      }
      if (pieces.empty()) continue;
      auto path = [&](int file, std::size_t rule, std::size_t rules) {
        const int table = chains[static_cast<std::size_t>(file)].start;
        return refinement_->child(0, table, rule < rules ? static_cast<int>(rule) : -1);
      };
      visit(std::move(region), path(0, i, a.size()), path(1, j, b.size()));
    }
  }
  return true;
}

std::vector<RValue> BoxDiff::point(const Box& cell) const {
  Wide score = 0;
  return space_.nicest(cell, score);
}

std::vector<std::string> BoxDiff::path_names(int file, std::size_t path) const {
  const detail::CompiledRules& rules = *files_[static_cast<std::size_t>(file)];
  std::vector<std::string> out;
  for (std::size_t at = path; at != 0; at = refinement_->step(at).parent) {
    const Refinement::Step& s = refinement_->step(at);
    if (s.rule < 0) continue;
    const detail::CompiledTable& table = rules.tables[static_cast<std::size_t>(s.table)];
    out.push_back(table.name + "/" + table.rules[static_cast<std::size_t>(s.rule)].name);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::string BoxDiff::describe(const std::vector<std::vector<std::string>>& keys) const {
  std::vector<Box> cells;
  for (const std::vector<std::string>& key : keys) cells.push_back(space_.from_key(key));
  return space_.describe(std::move(cells));
}

}  // namespace snnplan::analyse
