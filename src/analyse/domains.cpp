#include "analyse/domains.hpp"

#include <algorithm>
#include <functional>
#include <memory>

#include "analyse/messages.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::analyse {
namespace {

using namespace detail;  // the kind bits kInt, kString, ...

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}
bool is_ascii_lower(std::string_view s) {
  return is_ascii(s) &&
         std::none_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

}  // namespace

void Facts::add_issue(const Issue& issue) {
  for (const Issue& i : issues)
    if (i.what == issue.what && i.location.line == issue.location.line &&
        i.location.column == issue.location.column)
      return;
  issues.push_back(issue);
}

void Facts::merge(const Facts& o, bool with_issues) {
  deps.insert(o.deps.begin(), o.deps.end());
  atoms.insert(o.atoms.begin(), o.atoms.end());
  if (with_issues)
    for (const Issue& i : o.issues) add_issue(i);
}

std::string quote_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k) out += k + 1 == names.size() ? " and " : ", ";
    out += "'" + names[k] + "'";
  }
  return out;
}

Model::Model(const CompiledRules& compiled) : rules(compiled) {
  for (const CompiledInput& input : rules.inputs) {
    InputDomain in;
    in.name = input.name;
    in.location = input.location;
    in.kinds = input.type.kinds;
    in.lower = input.lower;
    if (!input.one_of.empty()) {
      in.has_one_of = true;
      for (const RValue& option : input.one_of) {
        const bool text = option.kind == RValue::Kind::string;
        // A lowered input never holds a string with upper-case letters.
        if (in.lower && text && is_ascii(option.s()) && !is_ascii_lower(option.s())) continue;
        if (in.lower && text && !is_ascii(option.s()))
          in.issue = Issue{input.one_of_location, messages::analysis_lowered_options(in.name)};
        in.options.push_back(option);
      }
    }
    in.default_null = input.default_value && input.default_value->kind == RValue::Kind::null;
    in.null_possible = in.default_null;
    in.sampled = !in.has_one_of && (in.kinds & kInt) && !(in.kinds & kFloat);
    in.list = !in.has_one_of && (in.kinds & ~kNull) == kList;
    in.item_kinds = input.type.element_kinds;
    inputs.push_back(std::move(in));
  }
  for (const CompiledTable& table : rules.tables) {
    TableModel t;
    t.table = &table;
    for (const CompiledRule& rule : table.rules) {
      RuleModel r;
      r.rule = &rule;
      r.next = rule.next;
      if (rule.fallback) r.fallback = rule.fallback->table;
      t.rules.push_back(std::move(r));
    }
    t.active = t.rules.size();
    for (std::size_t k = 0; k < table.rules.size(); ++k) {
      if (table.rules[k].when.empty()) {
        t.active = k + 1;
        t.has_catch_all = true;
        break;
      }
    }
    tables.push_back(std::move(t));
  }
  callers.resize(tables.size());
  for (std::size_t c = 0; c < tables.size(); ++c) {
    for (std::size_t k = 0; k < tables[c].active; ++k) {
      const RuleModel& r = tables[c].rules[k];
      if (r.next < 0 && r.fallback < 0) continue;
      Path path;
      path.caller = static_cast<int>(c);
      path.rule = static_cast<int>(k);
      path.fallback = r.fallback >= 0;
      callers[static_cast<std::size_t>(r.next >= 0 ? r.next : r.fallback)].push_back(
          std::move(path));
    }
  }
}

bool Model::valid_start(const std::vector<RValue>& pt) const {
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (pt[i].kind == RValue::Kind::null && !inputs[i].default_null) return false;
  return true;
}

std::string Model::describe_point(const std::vector<int>& vars,
                                  const std::vector<RValue>& pt) const {
  std::string out;
  for (int v : vars) {
    if (!out.empty()) out += ", ";
    out += inputs[static_cast<std::size_t>(v)].name + "=" +
           detail::repr(pt[static_cast<std::size_t>(v)]);
  }
  return out;
}

Wide Model::niceness(const std::vector<int>& vars, const std::vector<RValue>& pt) const {
  Wide score = 0;
  for (int v : vars) {
    const RValue& x = pt[static_cast<std::size_t>(v)];
    if (x.kind == RValue::Kind::integer)
      score += wide_abs(x.i);
    else if (x.kind == RValue::Kind::null)
      score += 1;
    else if (x.kind == RValue::Kind::list)
      score += static_cast<Wide>(x.items.size);
    else if (x.kind == RValue::Kind::string &&
             !inputs[static_cast<std::size_t>(v)].constants.count(std::string(x.s())))
      score += 1;
  }
  return score;
}

std::vector<RValue> Model::placeholders() const {
  std::vector<RValue> out;
  for (const InputDomain& in : inputs) out.push_back(in.placeholder);
  return out;
}

void resolve_overrides(Model& m, Shapes& shapes, evaluate::Probe& probe) {
  const std::vector<RValue> no_inputs(m.inputs.size());
  for (TableModel& table : m.tables) {
    for (RuleModel& r : table.rules) {
      if (!r.rule->fallback) continue;
      for (const auto& assignment : r.rule->fallback->with) {
        Override o;
        o.input = assignment.target;
        // A value that reads no input is a constant, whatever it calls: evaluated here once.
        if (shapes.expression(assignment.value).deps.empty()) {
          InputDomain& in = m.inputs[static_cast<std::size_t>(o.input)];
          probe.at(no_inputs);
          std::optional<RValue> v = probe.value(assignment.value);
          // A lowered input's non-ASCII strings are beyond the representatives (string_reps):
          // such a value is left unmodelled, as an expression is.
          if (v && in.lower && v->kind == RValue::Kind::string && !is_ascii(v->s())) {
            r.with.push_back(std::move(o));
            continue;
          }
          if (v) v = probe.normalised(o.input, *v);  // refused by the evaluator: the fallback fails
          if (v && in.has_one_of &&
              std::none_of(in.options.begin(), in.options.end(),
                           [&](const RValue& opt) { return values_equal(opt, *v); }))
            v.reset();  // refused by the input's allowed values
          if (!v) {
            o.possible = false;
          } else {
            o.value = m.strings.copy(*v);  // the probe's values last only until its next point
            if (o.value->kind == RValue::Kind::null) in.null_possible = true;
            if (o.value->kind == RValue::Kind::string)
              in.constants.insert(std::string(o.value->s()));
          }
        }
        r.with.push_back(std::move(o));
      }
    }
  }
}

namespace {

// Strings: the compared constants; for each prefix p one string starting with exactly the
// prefixes p starts with; one string matching nothing. Exact for eq/ne/one_of/starts_with.
void string_reps(Model& m, InputDomain& in) {
  std::set<std::string> constants, prefixes;
  for (const std::set<std::string>* from : {&in.constants, &in.prefixes}) {
    for (const std::string& c : *from) {
      if (in.lower && !is_ascii(c)) {
        in.issue = Issue{in.location, messages::analysis_lowered_constants(in.name)};
        continue;
      }
      if (!in.lower || is_ascii_lower(c)) (from == &in.constants ? constants : prefixes).insert(c);
    }
  }
  auto prefix_set = [&](const std::string& s) {
    std::vector<bool> hit;
    for (const std::string& p : prefixes) hit.push_back(s.starts_with(p));
    return hit;
  };
  std::vector<RValue> reps;
  auto add = [&](const std::string& s) { reps.push_back(m.strings.string(s)); };
  for (const std::string& c : constants) add(c);
  auto unused = [&](const std::string& s) { return !constants.count(s); };
  static const char* const suffixes[] = {"_x", "x", "_", "0", "~", "-x", "_y", "zz", "__x", "9"};
  for (const std::string& p : prefixes) {
    bool found = false;
    for (const char* z : suffixes) {
      const std::string s = p + z;
      if (unused(s) && prefix_set(s) == prefix_set(p)) {
        add(s);
        found = true;
        break;
      }
    }
    if (!found) in.issue = Issue{in.location, messages::analysis_no_representative(in.name)};
  }
  bool found = false;
  static const char* const others[] = {"other", "other_x", "x", "_", "zz", "~", "0", "-"};
  for (const char* o : others) {
    const std::string s = o;
    const std::vector<bool> hit = prefix_set(s);
    bool none = true;
    std::size_t k = 0;
    for (const std::string& p : prefixes) none = none && (hit[k++] == p.empty());
    if (unused(s) && none) {
      add(s);
      found = true;
      break;
    }
  }
  if (!found) in.issue = Issue{in.location, messages::analysis_no_representative(in.name)};
  in.reps.insert(in.reps.end(), reps.begin(), reps.end());
}

// A list input read by index_of(list, c), contains(list, c) and len(list), for constants c
// (the set C) and positions and lengths compared with constants (the largest N): every
// arrangement of distinct items of C (each subset in each order), with runs of 0 to N + 1
// items outside C before, between and after them (none when nothing is compared with a
// constant, but for one list holding only such an item). Each index_of and contains result,
// their order and every comparison of a position or the length with a constant then takes
// each combination of values it can have; positions past N are alike for those comparisons.
void list_reps(Model& m, InputDomain& in) {
  std::vector<RValue> items;
  if (in.item_kinds & kString)
    for (const std::string& c : in.constants) items.push_back(m.strings.string(c));
  if (in.item_kinds & (kInt | kFloat))
    for (Wide c : in.item_ints) items.push_back(RValue::of_int(c));
  RValue filler;
  if (in.item_kinds & kString) {
    static const char* const others[] = {"other", "other_x", "x", "_", "zz", "~", "0", "-"};
    for (const char* o : others)
      if (!in.constants.count(o)) {
        filler = m.strings.string(o);
        break;
      }
  } else if (in.item_kinds & (kInt | kFloat)) {
    Wide k = 0;
    while (in.item_ints.count(k)) ++k;
    filler = RValue::of_int(k);
  } else if (in.item_kinds & kBool) {
    filler = RValue::of_bool(false);
  }
  if (filler.kind == RValue::Kind::null) {
    in.issue = Issue{in.location, messages::analysis_list_input(in.name)};
    return;
  }
  Wide most = -1;  // the largest count compared with, capped
  for (Wide c : in.counts) most = std::max(most, c);
  if (items.size() > kMaxListItems || most > kMaxListCount) {
    in.issue = Issue{in.location, messages::analysis_list_input(in.name)};
    items.resize(std::min(items.size(), kMaxListItems));
    most = std::min(most, kMaxListCount);
  }
  std::size_t gap = most < 0 ? 0 : static_cast<std::size_t>(most) + 2;  // runs of 0..gap-1
  // sum over k of (arrangements of k items) * gap^(k + 1)
  auto count = [&]() {
    std::size_t total = 0, arrangements = 1, runs_count = std::max<std::size_t>(gap, 1);
    for (std::size_t k = 0; k <= items.size(); ++k) {
      total += arrangements * runs_count;
      arrangements *= items.size() - k;
      runs_count *= std::max<std::size_t>(gap, 1);
    }
    return total;
  };
  while (count() > kMaxListReps) {
    in.issue = Issue{in.location, messages::analysis_list_input(in.name)};
    if (gap > 0)
      --gap;
    else
      items.pop_back();
  }
  std::vector<RValue> chosen;  // the arrangement being built
  std::vector<bool> used(items.size());
  std::vector<std::size_t> runs;
  std::vector<RValue> reps;
  auto emit = [&]() {
    std::vector<RValue> list;
    for (std::size_t k = 0; k <= chosen.size(); ++k) {
      list.insert(list.end(), runs[k], filler);
      if (k < chosen.size()) list.push_back(chosen[k]);
    }
    RValue* stored = m.strings.values(list.size());
    std::uninitialized_copy(list.begin(), list.end(), stored);
    reps.push_back(RValue::of_items({stored, list.size()}));
  };
  std::function<void(std::size_t)> with_runs = [&](std::size_t k) {
    if (k == runs.size()) return emit();
    for (std::size_t r = 0; r < std::max<std::size_t>(gap, 1); ++r) {
      runs[k] = r;
      with_runs(k + 1);
    }
  };
  std::function<void()> arrange = [&]() {
    runs.assign(chosen.size() + 1, 0);
    with_runs(0);
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (used[k]) continue;
      used[k] = true;
      chosen.push_back(items[k]);
      arrange();
      chosen.pop_back();
      used[k] = false;
    }
  };
  arrange();
  if (gap == 0) {  // one list of an item outside C: as the empty list for these conditions
    chosen.clear();
    runs = {1};
    emit();
  }
  in.reps.insert(in.reps.end(), reps.begin(), reps.end());
}

}  // namespace

void finish_inputs(Model& m) {
  for (InputDomain& in : m.inputs) {
    if (in.has_one_of) {
      in.reps = in.options;
    } else {
      if (in.kinds & kBool) {
        in.reps.push_back(RValue::of_bool(false));
        in.reps.push_back(RValue::of_bool(true));
      }
      if (in.kinds & kString) string_reps(m, in);
      if (in.list && in.list_tested) list_reps(m, in);
      if (!in.reps.empty() && (in.kinds & kNull) && in.null_possible) in.reps.emplace_back();
    }
    // A placeholder, for when the input does not matter: valid at the start (not null).
    in.placeholder = RValue{};
    for (const RValue& rep : in.reps)
      if (rep.kind != RValue::Kind::null) {
        in.placeholder = rep;
        break;
      }
    if (in.placeholder.kind == RValue::Kind::null) {
      if (in.kinds & kInt)
        in.placeholder = RValue::of_int(0);
      else if (in.kinds & kFloat)
        in.placeholder = RValue::of_float(0);
      else if (in.kinds & kString)
        in.placeholder = m.strings.string("other");
      else if (in.kinds & kBool)
        in.placeholder = RValue::of_bool(false);
      else if (in.kinds & kList)
        in.placeholder = RValue::of_items({});
    }
  }
}

}  // namespace snnplan::analyse
