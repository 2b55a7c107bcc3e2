#include "analyse/partition.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "analyse/domains.hpp"
#include "analyse/shapes.hpp"
#include "analyse/messages.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::analyse {
namespace {

constexpr const char* kOmitted = "(omitted)";  // the input is not given: its default applies
constexpr const char* kGiven = "(given)";      // given, with a value no condition reads
// Boxes (a set of classes per coordinate) of one description compared pairwise for merging, at
// most.
constexpr std::size_t kMaxHullBoxes = 256;
constexpr const char* kPrefixes =
    "prefixes:";  // a string none of the constants: the prefixes it has

// The term as the rule language would write it, names for inputs.
std::string term_text(const Term& t, const Model& m, bool nested = false) {
  switch (t.kind) {
    case Term::Kind::constant:
      return detail::wide_to_string(t.c);
    case Term::Kind::var:
      return m.inputs[static_cast<std::size_t>(t.var)].name;
    case Term::Kind::operation:
      break;
  }
  const std::string right = t.b ? term_text(*t.b, m, true) : detail::wide_to_string(t.c);
  std::string text =
      term_text(*t.a, m, true) + " " + std::string(syntax::spelling(t.op)) + " " + right;
  return nested ? "(" + text + ")" : text;
}

}  // namespace

Partition::Partition(std::span<const detail::CompiledRules* const> files,
                     const std::vector<FixedInput>& fixed)
    : space_(files, SpaceRequest{Gather::decision_conditions, fixed, {}}),
      undecided_(space_.undecided()) {
  const Model& model = space_.model();
  const Space& space = space_.space();
  // Leaving an input out differs from giving a value where the files' defaults differ.
  for (std::size_t k = 0; k < files[0]->inputs.size(); ++k) {
    const std::optional<RValue>& mine = files[0]->inputs[k].default_value;
    bool differs = false;
    for (const detail::CompiledRules* other : files.subspan(1)) {
      const auto it = other->input_slots.find(files[0]->inputs[k].name);
      if (it == other->input_slots.end()) continue;
      const std::optional<RValue>& theirs =
          other->inputs[static_cast<std::size_t>(it->second)].default_value;
      if (mine.has_value() != theirs.has_value() || (mine && !values_equal(*mine, *theirs)))
        differs = true;
    }
    if (differs && std::none_of(fixed.begin(), fixed.end(), [&](const FixedInput& held) {
          return held.name == files[0]->inputs[k].name;
        }))
      defaults_differ_.push_back(static_cast<int>(k));
  }
  if (defaults_differ_.size() > kMaxOmitted) {
    undecided_.push_back(Issue{SourceLocation{model.rules.file_name, 0, 0},
                               messages::diff_too_many_defaults(kMaxOmitted)});
    defaults_differ_.resize(kMaxOmitted);
  }

  for (int v : space.finite)
    coordinates_.push_back(Coordinate{Coordinate::Kind::input, v, nullptr});
  for (const Component& comp : space.comps) {
    for (const Atom* atom : comp.atoms)
      coordinates_.push_back(Coordinate{Coordinate::Kind::atom, -1, atom});
    for (int v : comp.vars) coordinates_.push_back(Coordinate{Coordinate::Kind::state, v, nullptr});
  }
  for (int v : defaults_differ_)
    if (std::find(space.vars.begin(), space.vars.end(), v) == space.vars.end())
      coordinates_.push_back(Coordinate{Coordinate::Kind::input, v, nullptr});  // given or not
}

Partition::~Partition() = default;

Walk Partition::for_each_point(const std::function<bool(const Point&)>& visit,
                               std::string& why) const {
  const std::size_t inputs = space_.model().inputs.size();
  std::unique_ptr<bool[]> omitted(new bool[inputs]());
  return space_.enumerate(
      [&](const std::vector<RValue>& values) {
        for (unsigned mask = 0; mask < (1u << defaults_differ_.size()); ++mask) {
          for (std::size_t k = 0; k < defaults_differ_.size(); ++k)
            omitted[static_cast<std::size_t>(defaults_differ_[k])] = (mask >> k) & 1u;
          if (!visit(Point{values, {omitted.get(), inputs}})) return false;
        }
        return true;
      },
      why);
}

std::string Partition::label(const Coordinate& c, const Point& p) const {
  const std::span<const RValue> point = p.values;
  switch (c.kind) {
    case Coordinate::Kind::atom: {
      Wide g = 0;
      bool saw_null = false;
      if (!eval_term(*c.atom->term, point, g, saw_null)) return saw_null ? "n" : "!";
      return g < 0 ? "<" : g == 0 ? "=" : ">";
    }
    case Coordinate::Kind::state: {
      const auto v = static_cast<std::size_t>(c.input);
      if (p.omitted[v]) return kOmitted;
      return point[v].kind == RValue::Kind::null ? "None" : kGiven;
    }
    case Coordinate::Kind::input:
      break;
  }
  if (p.omitted[static_cast<std::size_t>(c.input)]) return kOmitted;
  const std::vector<int>& enumerated = space_.space().vars;
  if (std::find(enumerated.begin(), enumerated.end(), c.input) == enumerated.end()) return kGiven;
  const InputDomain& in = model().inputs[static_cast<std::size_t>(c.input)];
  const RValue& value = point[static_cast<std::size_t>(c.input)];
  if (value.kind != RValue::Kind::string || in.has_one_of) return detail::repr(value);
  const std::string text(value.s());
  if (in.constants.count(text)) return detail::repr(value);
  // Any other string: its class is the set of tested prefixes it starts with.
  std::string prefixes = kPrefixes;
  for (const std::string& prefix : in.prefixes)
    if (text.starts_with(prefix)) prefixes += prefix + '\x1f';
  return prefixes;
}

Cell Partition::cell_of(const Point& point) const {
  Cell key;
  for (const Coordinate& c : coordinates_) key.push_back(label(c, point));
  return key;
}

std::string Partition::condition(const Coordinate& c, const std::set<std::string>& classes) const {
  std::vector<std::string> alternatives;
  auto joined = [](const std::vector<std::string>& parts, const char* with) {
    std::string out;
    for (const std::string& part : parts) out += (out.empty() ? "" : with) + part;
    return out;
  };
  if (c.kind == Coordinate::Kind::atom) {
    // The signs of left - right: <, = and > as one comparison where they can be.
    std::string signs;
    for (const char* sign : {"<", "=", ">"})
      if (classes.count(sign)) signs += sign;
    static const std::map<std::string, std::string> kOperators = {
        {"<", "<"}, {"=", "=="}, {">", ">"}, {"<=", "<="}, {"=>", ">="}, {"<>", "!="}};
    const Term& t = *c.atom->term;
    if (const auto op = kOperators.find(signs); op != kOperators.end()) {
      if (t.kind == Term::Kind::operation && t.op == syntax::Op::subtract)
        alternatives.push_back(term_text(*t.a, model()) + " " + op->second + " " +
                               (t.b ? term_text(*t.b, model()) : detail::wide_to_string(t.c)));
      else
        alternatives.push_back(term_text(t, model()) + " " + op->second + " 0");
    }
    if (classes.count("n") || classes.count("!"))
      alternatives.push_back(messages::diff_condition_not_computable(term_text(t, model())));
    return alternatives.size() == 1 ? alternatives[0] : "(" + joined(alternatives, " || ") + ")";
  }
  const InputDomain& in = model().inputs[static_cast<std::size_t>(c.input)];
  std::vector<std::string> values;
  for (const std::string& cls : classes) {
    if (cls == kOmitted) {
      alternatives.push_back(in.name + " omitted");
    } else if (cls == kGiven) {
      alternatives.push_back(in.name + " given");
    } else if (cls.starts_with(kPrefixes)) {
      std::set<std::string> has;
      for (std::size_t begin = std::string_view(kPrefixes).size(); begin < cls.size();) {
        const std::size_t end = cls.find('\x1f', begin);
        has.insert(cls.substr(begin, end - begin));
        begin = end + 1;
      }
      std::vector<std::string> parts;
      for (const std::string& prefix : in.prefixes)
        parts.push_back(std::string(has.count(prefix) ? "" : "!") + "starts_with(" + in.name +
                        ", '" + prefix + "')");
      if (!in.constants.empty()) {
        std::vector<std::string> quoted;
        for (const std::string& k : in.constants) quoted.push_back("'" + k + "'");
        parts.push_back(in.name + " not in (" + joined(quoted, ", ") + ")");
      }
      alternatives.push_back(parts.empty() ? in.name + " given" : joined(parts, " && "));
    } else {
      values.push_back(cls == "None" ? "null" : cls);
    }
  }
  if (values.size() == 1) alternatives.insert(alternatives.begin(), in.name + " == " + values[0]);
  if (values.size() > 1)
    alternatives.insert(alternatives.begin(), in.name + " in (" + joined(values, ", ") + ")");
  if (c.kind == Coordinate::Kind::state)  // an int input: given (any value the atoms allow)
    std::erase(alternatives, in.name + " given");
  if (alternatives.empty()) return "";
  return alternatives.size() == 1 ? alternatives[0] : "(" + joined(alternatives, " || ") + ")";
}

std::string Partition::describe(const std::vector<Cell>& cells) const {
  // A box: per coordinate, a set of its classes; the cells it holds are their product.
  using Classes = std::vector<std::set<std::string>>;
  // Every cell of the domain, to know which classes a coordinate has given the others.
  if (!all_cells_) {
    all_cells_.emplace();
    std::string why;
    for_each_point(
        [&](const Point& point) {
          all_cells_->insert(cell_of(point));
          return true;
        },
        why);
  }
  const std::set<Cell>& all = *all_cells_;
  // Union: two boxes equal but in one coordinate are one, with both classes there (exact).
  std::set<Classes> current;
  for (const Cell& key : cells) {
    Classes c;
    for (const std::string& label : key) c.push_back({label});
    current.insert(std::move(c));
  }
  auto merge = [&] {
    for (bool merged = true; merged;) {
      merged = false;
      for (std::size_t k = 0; k < coordinates_.size(); ++k) {
        std::map<Classes, std::set<std::string>> by_rest;
        for (Classes c : current) {
          std::set<std::string> mine = std::move(c[k]);
          c[k].clear();
          by_rest[c].insert(mine.begin(), mine.end());
        }
        if (by_rest.size() == current.size()) continue;
        merged = true;
        current.clear();
        for (const auto& [others, classes] : by_rest) {
          Classes box = others;
          box[k] = classes;
          current.insert(std::move(box));
        }
      }
    }
  };
  merge();
  // Show a coordinate only where it narrows the box: a condition every cell of the domain
  // that meets the conditions still shown meets anyway is left out (checked in turn, so two
  // conditions that imply each other are not both left out).
  auto shown_of = [&](const Classes& box) {
    std::vector<bool> shown(coordinates_.size(), true);
    auto meets = [&](const Cell& cell, std::size_t except) {
      for (std::size_t j = 0; j < coordinates_.size(); ++j)
        if (j != except && shown[j] && !box[j].count(cell[j])) return false;
      return true;
    };
    for (std::size_t k = 0; k < coordinates_.size(); ++k)
      shown[k] = std::any_of(all.begin(), all.end(), [&](const Cell& cell) {
        return meets(cell, k) && !box[k].count(cell[k]);
      });
    return shown;
  };
  // Two boxes whose hull (the classes of both, per coordinate) holds no cell of the domain
  // outside the boxes are one: the hull. ("world_size == 2" and "2 < world_size < 4" are
  // "2 <= world_size < 4" although they also differ in world_size % 2.) Tried for pairs that
  // differ in a few coordinates, while the boxes are few enough to compare.
  auto contains = [](const Classes& box, const Cell& cell) {
    for (std::size_t k = 0; k < cell.size(); ++k)
      if (!box[k].count(cell[k])) return false;
    return true;
  };
  for (bool merged = true; merged && current.size() <= kMaxHullBoxes;) {
    merged = false;
    const std::vector<Classes> list(current.begin(), current.end());
    for (std::size_t i = 0; i < list.size() && !merged; ++i)
      for (std::size_t j = i + 1; j < list.size() && !merged; ++j) {
        std::size_t differ = 0;
        Classes hull = list[i];
        for (std::size_t k = 0; k < hull.size(); ++k)
          if (hull[k] != list[j][k]) {
            ++differ;
            hull[k].insert(list[j][k].begin(), list[j][k].end());
          }
        if (differ > 3) continue;
        const bool exact = std::all_of(all.begin(), all.end(), [&](const Cell& cell) {
          return !contains(hull, cell) ||
                 std::any_of(list.begin(), list.end(),
                             [&](const Classes& r) { return contains(r, cell); });
        });
        if (!exact) continue;
        std::set<Classes> next = {hull};
        for (const Classes& r : list) {
          bool inside = true;
          for (std::size_t k = 0; k < r.size() && inside; ++k)
            inside = std::includes(hull[k].begin(), hull[k].end(), r[k].begin(), r[k].end());
          if (!inside) next.insert(r);
        }
        current = std::move(next);
        merged = true;
      }
  }
  std::vector<std::string> alternatives;
  for (const Classes& box : current) {
    const std::vector<bool> shown = shown_of(box);
    std::string conjunction;
    for (std::size_t k = 0; k < coordinates_.size(); ++k) {
      if (!shown[k]) continue;
      const std::string part = condition(coordinates_[k], box[k]);
      if (!part.empty()) conjunction += (conjunction.empty() ? "" : " && ") + part;
    }
    alternatives.push_back(conjunction.empty() ? "true" : conjunction);
  }
  std::sort(alternatives.begin(), alternatives.end());
  if (alternatives.size() == 1) return alternatives.front();
  std::string out;
  for (const std::string& a : alternatives) out += (out.empty() ? "(" : " || (") + a + ")";
  return out;
}

}  // namespace snnplan::analyse
