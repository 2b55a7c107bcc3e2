#include "analyse/search.hpp"

#include <algorithm>
#include <map>

#include "analyse/messages.hpp"

namespace snnplan::analyse {
namespace {

using Samples = std::vector<std::vector<RValue>>;  // per sample: a value per component var

enum class Sweep : std::uint8_t { ok, too_large, failed };

class Sampler {
 public:
  Sampler(const Model& m, std::vector<RValue>& pt) : m_(m), pt_(pt) {}

  // Values of one int input next to the thresholds of `atoms` (which involve only it).
  std::optional<std::set<Wide>> values_of(int x, const std::vector<const Atom*>& atoms) {
    std::set<Wide> out;
    std::string why;
    if (!one(x, atoms, out, why)) return std::nullopt;
    return out;
  }

  // Representative values of a component's inputs, given the other inputs in `pt`.
  std::optional<Samples> component(const Component& c, std::string& why) {
    std::vector<int> nullable;
    for (int v : c.vars)
      if (m_.inputs[static_cast<std::size_t>(v)].null_possible) nullable.push_back(v);
    Samples out;
    for (unsigned mask = 0; mask < (1u << nullable.size()); ++mask) {
      std::vector<int> active;
      for (int v : c.vars) {
        bool is_null = false;
        for (std::size_t k = 0; k < nullable.size(); ++k)
          if (nullable[k] == v && (mask & (1u << k))) is_null = true;
        if (is_null)
          pt_[static_cast<std::size_t>(v)] = RValue{};
        else
          active.push_back(v);
      }
      std::vector<const Atom*> atoms;
      for (const Atom* a : c.atoms)
        if (std::all_of(a->sampled.begin(), a->sampled.end(), [&](int v) {
              return std::find(active.begin(), active.end(), v) != active.end();
            }))
          atoms.push_back(a);
      auto emit = [&](const std::vector<std::pair<int, Wide>>& values) {
        std::vector<RValue> sample;
        for (int v : c.vars) {
          RValue value;
          for (const auto& [var, x] : values)
            if (var == v) value = RValue::of_int(x);
          sample.push_back(value);
        }
        out.push_back(std::move(sample));
      };
      if (active.empty()) {
        emit({});
      } else if (active.size() == 1) {
        std::set<Wide> xs;
        if (!one(active[0], atoms, xs, why)) return std::nullopt;
        for (Wide x : xs) emit({{active[0], x}});
      } else {
        std::set<std::pair<Wide, Wide>> xys;
        Sweep s = two(active[0], active[1], atoms, xys, why);
        if (s == Sweep::too_large) {
          xys.clear();
          s = two(active[1], active[0], atoms, xys, why);
          if (s == Sweep::ok) {
            std::set<std::pair<Wide, Wide>> swapped;
            for (const auto& [x, y] : xys) swapped.emplace(y, x);
            xys = std::move(swapped);
          }
        }
        if (s != Sweep::ok) return std::nullopt;
        for (const auto& [x, y] : xys) emit({{active[0], x}, {active[1], y}});
      }
    }
    return out;
  }

 private:
  // g(atom) with the component's inputs set as given. `skip` when a parameter is null (the
  // atom is then decided by enumeration); false on overflow.
  bool at(const Atom& a, int x, Wide xv, int y, Wide yv, Wide& out, bool& skip, std::string& why) {
    pt_[static_cast<std::size_t>(x)] = RValue::of_int(xv);
    if (y >= 0) pt_[static_cast<std::size_t>(y)] = RValue::of_int(yv);
    bool saw_null = false;
    if (eval_term(*a.term, pt_, out, saw_null)) return true;
    if (saw_null) {
      skip = true;
      return true;
    }
    why = messages::analysis_overflow();
    return false;
  }

  static Wide period(const std::vector<const Atom*>& atoms, int v, bool& ok) {
    Wide p = 1;
    for (const Atom* a : atoms) {
      if (std::find(a->sampled.begin(), a->sampled.end(), v) == a->sampled.end()) continue;
      p = lcm_capped(p, a->period, kMaxPeriod);
      if (p == 0) {
        ok = false;
        return 1;
      }
    }
    return p;
  }

  // One int input: per residue class mod P every atom is affine in k (x = r + kP); take the
  // points next to each threshold and the ends of the domain.
  bool one(int x, const std::vector<const Atom*>& atoms, std::set<Wide>& out, std::string& why) {
    bool ok = true;
    const Wide P = period(atoms, x, ok);
    if (!ok) {
      why = messages::analysis_residues(quote_list({m_.inputs[static_cast<std::size_t>(x)].name}),
                                        detail::wide_to_string(kMaxPeriod));
      return false;
    }
    for (Wide r = 0; r < P; ++r) {
      const Wide kmin = ceil_div(kLo - r, P), kmax = floor_div(kHi - r, P);
      std::set<Wide> ks = {kmin, kmax};
      for (const Atom* a : atoms) {
        Wide g0 = 0, g1 = 0, g2 = 0;
        bool skip = false;
        if (!at(*a, x, r, -1, 0, g0, skip, why) || !at(*a, x, r + P, -1, 0, g1, skip, why) ||
            !at(*a, x, r + 2 * P, -1, 0, g2, skip, why))
          return false;
        if (skip) continue;
        const Wide s = g1 - g0;
        if (g2 - g1 != s) {
          why = messages::analysis_not_affine();
          return false;
        }
        if (s == 0) continue;
        const Wide t = floor_div(-g0, s);
        for (Wide d = -1; d <= 2; ++d)
          if (t + d >= kmin && t + d <= kmax) ks.insert(t + d);
      }
      for (Wide k : ks) out.insert(r + k * P);
    }
    return true;
  }

  // Two int inputs related by atoms: x outer, y inner (see the comment at the top).
  Sweep two(int x, int y, const std::vector<const Atom*>& atoms,
            std::set<std::pair<Wide, Wide>>& out, std::string& why) {
    bool ok = true;
    const Wide Px = period(atoms, x, ok);
    const Wide Py = period(atoms, y, ok);
    if (!ok) {
      why = messages::analysis_residues(quote_list({m_.inputs[static_cast<std::size_t>(x)].name,
                                                    m_.inputs[static_cast<std::size_t>(y)].name}),
                                        detail::wide_to_string(kMaxPeriod));
      return Sweep::failed;
    }
    struct Line {
      Wide G, sx, sy;
    };
    for (Wide ry = 0; ry < Py; ++ry) {
      const Wide kmin = ceil_div(kLo - ry, Py), kmax = floor_div(kHi - ry, Py);
      for (Wide rx = 0; rx < Px; ++rx) {
        std::vector<Line> ys, xs;  // atoms with a threshold in y; atoms depending on x only
        Wide L = 1;
        for (const Atom* a : atoms) {
          Wide g = 0, gx = 0, gy = 0, gxy = 0, gxx = 0, gyy = 0;
          bool skip = false;
          if (!at(*a, x, rx, y, ry, g, skip, why) || !at(*a, x, rx + Px, y, ry, gx, skip, why) ||
              !at(*a, x, rx, y, ry + Py, gy, skip, why) ||
              !at(*a, x, rx + Px, y, ry + Py, gxy, skip, why) ||
              !at(*a, x, rx + 2 * Px, y, ry, gxx, skip, why) ||
              !at(*a, x, rx, y, ry + 2 * Py, gyy, skip, why))
            return Sweep::failed;
          if (skip) continue;
          const Line line{g, gx - g, gy - g};
          if (gxy != g + line.sx + line.sy || gxx - gx != line.sx || gyy - gy != line.sy) {
            why = messages::analysis_not_affine();
            return Sweep::failed;
          }
          if (line.sy != 0) {
            ys.push_back(line);
            L = lcm_capped(L, line.sy, kMaxPeriod);
            if (L == 0) {
              why = messages::analysis_coefficients(m_.inputs[static_cast<std::size_t>(x)].name,
                                                    m_.inputs[static_cast<std::size_t>(y)].name);
              return Sweep::too_large;
            }
          } else if (line.sx != 0) {
            xs.push_back(line);
          }
        }
        // x = rx + (L j + rho) Px: for each rho the thresholds of y are floor(..) - j c_a.
        for (Wide rho = 0; rho < L; ++rho) {
          const Wide base = rx + rho * Px, step = L * Px;
          const Wide jmin = ceil_div(kLo - base, step), jmax = floor_div(kHi - base, step);
          std::set<Wide> js = {jmin, jmax};
          auto add = [&](Wide j0) {
            for (Wide d = -1; d <= 2; ++d)
              if (j0 + d >= jmin && j0 + d <= jmax) js.insert(j0 + d);
          };
          for (const Line& l : xs) add(floor_div(-(l.G + rho * l.sx), L * l.sx));
          std::vector<std::pair<Wide, Wide>> F;  // (A_a, c_a): floor threshold A_a - j c_a
          for (const Line& l : ys)
            F.emplace_back(floor_div(-(l.G + rho * l.sx), l.sy), L * l.sx / l.sy);
          for (const auto& [A, c] : F) {
            if (c == 0) continue;
            for (Wide bound : {kmin, kmax})
              for (Wide d = -2; d <= 2; ++d) add(floor_div(A - bound - d, c));
          }
          for (std::size_t a = 0; a < F.size(); ++a)
            for (std::size_t b = a + 1; b < F.size(); ++b) {
              const Wide dc = F[a].second - F[b].second;
              if (dc == 0) continue;
              for (Wide d = -2; d <= 2; ++d) add(floor_div(F[a].first - F[b].first - d, dc));
            }
          for (Wide j : js) {
            const Wide xv = base + j * step;
            std::set<Wide> ks = {kmin, kmax};
            for (const auto& [A, c] : F) {
              Wide jc = 0, t = 0;
              if (__builtin_mul_overflow(j, c, &jc) || __builtin_sub_overflow(A, jc, &t)) {
                why = messages::analysis_overflow();
                return Sweep::failed;
              }
              for (Wide d = -1; d <= 2; ++d)
                if (t + d >= kmin && t + d <= kmax) ks.insert(t + d);
            }
            for (Wide k : ks) out.emplace(xv, ry + k * Py);
          }
        }
      }
    }
    return Sweep::ok;
  }

  const Model& m_;
  std::vector<RValue>& pt_;
};

}  // namespace

Walk enumerate(const Model& m, const Space& space,
               const std::function<bool(const std::vector<RValue>&)>& visit, std::string& why) {
  std::vector<RValue> pt = m.placeholders();
  std::size_t finite_count = 1;
  for (int v : space.finite) {
    finite_count *= std::max<std::size_t>(1, m.inputs[static_cast<std::size_t>(v)].reps.size());
    if (finite_count > kMaxPoints) return Walk::too_many;
  }
  std::vector<std::map<std::string, Samples>> cache(space.comps.size());
  std::size_t count = 0;
  Walk status = Walk::done;
  Sampler sampler(m, pt);

  std::function<bool(std::size_t)> comps_from;
  std::vector<const Samples*> chosen(space.comps.size());
  comps_from = [&](std::size_t c) -> bool {
    if (c == space.comps.size()) {
      if (!visit(pt)) {
        status = Walk::stopped;
        return false;
      }
      return true;
    }
    const Component& comp = space.comps[c];
    for (const std::vector<RValue>& sample : *chosen[c]) {
      for (std::size_t k = 0; k < comp.vars.size(); ++k)
        pt[static_cast<std::size_t>(comp.vars[k])] = sample[k];
      if (!comps_from(c + 1)) return false;
    }
    return true;
  };

  std::function<bool(std::size_t)> finite_from = [&](std::size_t i) -> bool {
    if (i == space.finite.size()) {
      std::size_t product = 1;
      for (std::size_t c = 0; c < space.comps.size(); ++c) {
        std::string key;
        for (int p : space.comps[c].params)
          key += detail::repr(pt[static_cast<std::size_t>(p)]) + "\x1f";
        auto it = cache[c].find(key);
        if (it == cache[c].end()) {
          std::optional<Samples> samples = sampler.component(space.comps[c], why);
          if (!samples) {
            status = Walk::failed;
            return false;
          }
          it = cache[c].emplace(key, std::move(*samples)).first;
        }
        chosen[c] = &it->second;
        product *= std::max<std::size_t>(1, it->second.size());
        if (product > kMaxPoints) break;
      }
      if (count + product > kMaxPoints) {
        status = Walk::too_many;
        return false;
      }
      count += product;
      return comps_from(0);
    }
    const int v = space.finite[i];
    const InputDomain& in = m.inputs[static_cast<std::size_t>(v)];
    if (in.reps.empty()) return finite_from(i + 1);
    for (const RValue& rep : in.reps) {
      pt[static_cast<std::size_t>(v)] = rep;
      if (!finite_from(i + 1)) return false;
    }
    return true;
  };
  finite_from(0);
  return status;
}

Space make_space(const Model& model, const Facts& facts, const SourceLocation& where) {
  Space space;
  for (int v : facts.deps) {
    space.vars.push_back(v);
    if (!model.inputs[static_cast<std::size_t>(v)].sampled) space.finite.push_back(v);
  }
  // Union-find over the sampled inputs related by two-input atoms.
  std::map<int, int> parent;
  std::function<int(int)> root = [&](int v) {
    auto it = parent.find(v);
    if (it == parent.end() || it->second == v) return v;
    return it->second = root(it->second);
  };
  for (int v : facts.deps)
    if (model.inputs[static_cast<std::size_t>(v)].sampled) parent[v] = v;
  for (const auto& [key, atom] : facts.atoms)
    if (atom.sampled.size() == 2) parent[root(atom.sampled[0])] = root(atom.sampled[1]);
  std::map<int, std::vector<int>> groups;
  for (const auto& [v, p] : parent) groups[root(v)].push_back(v);
  for (auto& [r, vars] : groups) {
    std::vector<std::vector<int>> comps;
    if (vars.size() > 2) {
      std::vector<std::string> names;
      for (int v : vars) names.push_back(model.inputs[static_cast<std::size_t>(v)].name);
      SourceLocation at = where;
      for (const auto& [key, atom] : facts.atoms)
        if (atom.sampled.size() == 2 && std::count(vars.begin(), vars.end(), atom.sampled[0])) {
          at = atom.location;
          break;
        }
      space.issues.push_back(Issue{at, messages::analysis_chain(quote_list(names))});
      for (int v : vars) comps.push_back({v});
    } else {
      comps.push_back(vars);
    }
    for (std::vector<int>& vs : comps) {
      Component c;
      c.vars = vs;
      std::set<int> params;
      for (const auto& [key, atom] : facts.atoms) {
        if (atom.sampled.empty()) continue;
        const bool inside = std::all_of(atom.sampled.begin(), atom.sampled.end(), [&](int v) {
          return std::count(vs.begin(), vs.end(), v) > 0;
        });
        if (!inside) continue;
        c.atoms.push_back(&atom);
        params.insert(atom.params.begin(), atom.params.end());
      }
      c.params.assign(params.begin(), params.end());
      space.comps.push_back(std::move(c));
    }
  }
  for (int v : facts.deps)
    if (const auto& issue = model.inputs[static_cast<std::size_t>(v)].issue)
      space.issues.push_back(*issue);
  return space;
}

std::optional<std::set<Wide>> sample_one_input(const Model& m, int input,
                                               const std::vector<const Atom*>& atoms) {
  std::vector<RValue> pt = m.placeholders();
  return Sampler(m, pt).values_of(input, atoms);
}

}  // namespace snnplan::analyse
