// A let's `search` read into the syntax tree (syntax::Search): enumerations, per-candidate
// values, constraints, tiers, the fit test, the key of the choice and the two failures.

#include "load/loader.hpp"

namespace snnplan::load::internal {

// `name: expression` entries (a search's `for` and `let`, a tier's and a failure's `let`):
// expressions without '=', in the order written.
std::vector<syntax::LetDecl> Loader::read_named_expressions(const yaml::Node& node, const What& what) {
  std::vector<syntax::LetDecl> out;
  if (!expect_map(node, what)) return out;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    if (auto e = value_of(kv.second, What("", kv.first.Scalar()), /*expression_by_default=*/true))
      out.push_back(syntax::LetDecl{key_of(kv.first), std::move(*e), std::nullopt, nullptr});
  }
  return out;
}

std::optional<syntax::Constraint> Loader::read_constraint(const yaml::Node& node, const What& what,
                                                          bool named) {
  if (!expect_map(node, what)) return std::nullopt;
  syntax::Constraint constraint;
  const yaml::Node name = node["name"];
  if (name) {
    auto n = string_of(name, "a constraint's name");
    if (!n) return std::nullopt;
    constraint.name = *n;
  } else if (named) {
    error(at(node), "missing-key", messages::missing_key("name", what.text()));
    return std::nullopt;
  } else {
    constraint.name = {"fits", at(node)};
  }
  const What where = name ? What("constraint", name.Scalar()) : what;
  check_keys(node, Section::search_constraint, where);
  const yaml::Node holds = node["holds"];
  if (!holds) {
    error(at(node), "missing-key", messages::missing_key("holds", where.text()));
    return std::nullopt;
  }
  auto h = value_of(holds, "holds", /*expression_by_default=*/true);
  if (!h) return std::nullopt;
  constraint.holds = std::move(*h);
  if (auto m = node["message"]) {
    constraint.message = template_of(m, "message");
    if (!constraint.message) return std::nullopt;
  }
  return constraint;
}

std::vector<syntax::Constraint> Loader::read_constraints(const yaml::Node& node, const What& what) {
  std::vector<syntax::Constraint> out;
  if (!expect_sequence(node, what)) return out;
  for (const auto& item : node.items())
    if (auto c = read_constraint(item, "a constraint", /*named=*/true)) out.push_back(std::move(*c));
  return out;
}

std::optional<syntax::SearchFailure> Loader::read_search_failure(const yaml::Node& node, const What& what) {
  if (!expect_map(node, what)) return std::nullopt;
  check_keys(node, Section::search_failure, what);
  syntax::SearchFailure failure;
  failure.location = at(node);
  if (auto l = node["let"]) failure.lets = read_named_expressions(l, "let");
  const yaml::Node message = node["error"];
  if (!message) {
    error(at(node), "missing-key", messages::missing_key("error", what.text()));
    return std::nullopt;
  }
  auto t = template_of(message, "error");
  if (!t) return std::nullopt;
  failure.error = std::move(*t);
  return failure;
}

std::shared_ptr<const syntax::Search> Loader::read_search(const yaml::Node& node, const What& where) {
  if (!expect_map(node, where)) return nullptr;
  check_keys(node, Section::search, where);
  auto search = std::make_shared<syntax::Search>();
  search->location = at(node);
  if (auto f = node["for"]) {
    for (syntax::LetDecl& e : read_named_expressions(f, "for"))
      search->enumerations.push_back(syntax::Enumeration{std::move(e.name), std::move(e.expr)});
  } else {
    error(at(node), "missing-key", messages::missing_key("for", where.text()));
  }
  if (auto l = node["let"]) search->lets = read_named_expressions(l, "let");
  if (auto r = node["require"]) search->constraints = read_constraints(r, "require");
  if (auto t = node["tiers"]; t && expect_sequence(t, "tiers")) {
    for (const auto& item : t.items()) {
      if (!expect_map(item, "a tier")) continue;
      const yaml::Node name = item["name"];
      if (!name) {
        error(at(item), "missing-key", messages::missing_key("name", "a tier"));
        continue;
      }
      auto n = string_of(name, "a tier's name");
      if (!n) continue;
      syntax::Tier tier;
      tier.name = *n;
      check_keys(item, Section::search_tier, What("tier", name.Scalar()));
      if (auto l = item["let"]) tier.lets = read_named_expressions(l, "let");
      if (auto r = item["require"]) tier.constraints = read_constraints(r, "require");
      search->tiers.push_back(std::move(tier));
    }
  }
  if (auto f = node["fits"]) search->fits = read_constraint(f, "fits", /*named=*/false);
  if (auto m = node["minimize"]) {
    // `minimize: [pp, tp]` written as a YAML list is a key of expressions, as the quoted
    // "[pp, tp]" is: a list of the strings "pp" and "tp" would order no candidate before another.
    if (auto e = value_of(m, "minimize", /*expression_by_default=*/true, /*items_too=*/true))
      search->minimize = std::move(*e);
    for (const auto& kv : node.entries())
      if (kv.first.Scalar() == "minimize") search->minimize_key = at(kv.first);
  } else {
    error(at(node), "missing-key", messages::missing_key("minimize", where.text()));
  }
  if (auto n = node["none_valid"]) search->none_valid = read_search_failure(n, "none_valid");
  if (auto n = node["none_fits"]) search->none_fits = read_search_failure(n, "none_fits");
  return search;
}

}  // namespace snnplan::load::internal
