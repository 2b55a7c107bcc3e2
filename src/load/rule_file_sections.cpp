// The sections of a rule file, each read into the syntax tree: the top level, inputs, uses,
// let, record, tables and their rules (when, set, because, next, fallback, allow), ensure.

#include "core/diagnostic_codes.hpp"
#include "load/loader.hpp"
#include "snnplan/version.hpp"

namespace snnplan::load::internal {

void Loader::read_top(const yaml::Node& root) {
  check_keys(root, Section::rule_file, "the rule file");
  auto& f = result_.file;
  const yaml::Node version = root["snnplan"];
  result_.is_rule_file = static_cast<bool>(version);
  if (!version) {
    error(SourceLocation{file(), 1, 1}, "missing-key",
          messages::missing_key("snnplan", fmt::format("the rule file (the format version, {} or {})",
                                                       oldest_rule_format_version, rule_format_version)));
  } else {
    const bool plain = version.IsScalar() && version.Tag() != "!";
    auto v = plain ? literal_of(version) : std::nullopt;
    if (version.IsScalar() && version.Tag() == "!") {
      error(content_at(version), "unsupported-version", messages::version_not_a_number(version.Scalar()));
    } else if (plain && !v) {
      // literal_of has reported the number out of range at the same place; one error is enough.
    } else if (!v || !v->is_int() || v->as_int() < oldest_rule_format_version ||
               v->as_int() > rule_format_version) {
      error(content_at(version), "unsupported-version",
            messages::unsupported_version(version.IsScalar() ? version.Scalar() : "(not a number)",
                                          oldest_rule_format_version, rule_format_version));
    } else {
      f.version = {v->as_int(), at(version)};
      division_ = v->as_int() >= 2 ? Division::python : Division::version_1;
    }
  }
  if (auto n = root["description"]; n && !n.IsScalar()) {
    error(at(n), "wrong-kind", messages::expected_kind("description", "a string"));
  }
  if (auto n = root["uses"]) read_uses(n);
  if (auto n = root["inputs"]) read_inputs(n);
  else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("inputs", "the rule file"));
  if (auto n = root["let"]) read_lets(n);
  if (auto n = root["record"]) read_record(n);
  else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("record", "the rule file"));
  if (auto n = root["rationale_header"]) f.rationale_header = template_of(n, "rationale_header");
  if (auto n = root["start"]) f.start = string_of(n, "start");
  else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("start", "the rule file"));
  if (auto n = root["tables"]) read_tables(n);
  else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("tables", "the rule file"));
  if (auto n = root["ensure"]) read_ensure(n);
}

void Loader::read_inputs(const yaml::Node& node) {
  if (!expect_map(node, "inputs")) return;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    syntax::InputDecl input;
    input.name = key_of(kv.first);
    const yaml::Node& spec = kv.second;
    const What where("input", kv.first.Scalar());
    if (!expect_map(spec, where)) continue;
    check_keys(spec, Section::input, where);
    if (auto t = read_type(spec, where, false)) input.type = *t;
    else continue;
    if (auto d = spec["default"]) input.default_value = value_of(d, "default");
    if (auto l = spec["lower"]) input.lower = bool_of(l, "lower").value_or(false);
    if (auto o = spec["one_of"]) {
      if (expect_sequence(o, "one_of")) {
        syntax::Located<std::vector<Value>> options{{}, at(o)};
        for (const auto& item : o.items()) {
          if (!item.IsScalar()) {
            error(at(item), "wrong-kind", messages::expected_kind("one_of entries", "scalars"));
            continue;
          }
          if (auto v = literal_of(item)) options.value.push_back(std::move(*v));
        }
        input.one_of = std::move(options);
      }
    }
    if (auto e = spec["error"]) input.error = template_of(e, "error");
    if (auto d = spec["description"]) input.description = string_of(d, "description");
    input.allow = read_allowance(spec, where);
    result_.file.inputs.push_back(std::move(input));
  }
}

std::optional<syntax::Located<syntax::TypeSpec>> Loader::read_type(const yaml::Node& spec, const What& where, bool allow_rationale) {
  const yaml::Node t = spec["type"];
  if (!t) {
    error(at(spec), "missing-key", messages::missing_key("type", where.text()));
    return std::nullopt;
  }
  auto name = string_of(t, "type");
  if (!name) return std::nullopt;
  auto parsed = syntax::parse_type(name->value);
  if (!parsed || (parsed->is_rationale && !allow_rationale)) {
    error(name->location, "unknown-type", messages::unknown_type(name->value));
    return std::nullopt;
  }
  return syntax::Located<syntax::TypeSpec>{*parsed, name->location};
}

void Loader::read_uses(const yaml::Node& node) {
  if (!expect_map(node, "uses")) return;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    if (auto file = string_of(kv.second, What("uses", kv.first.Scalar())))
      result_.file.uses.push_back(syntax::Use{key_of(kv.first), *file});
  }
}

void Loader::read_lets(const yaml::Node& node) {
  if (!expect_map(node, "let")) return;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    if (kv.second.IsMap() && kv.second["search"]) {  // a value a candidate search chooses
      const What where("let", kv.first.Scalar());
      check_keys(kv.second, Section::let_search, where);
      if (auto search = read_search(kv.second["search"], What("search", kv.first.Scalar()))) {
        syntax::LetDecl let{key_of(kv.first), Expr{}, std::nullopt, std::move(search)};
        let.expr.location = let.search->location;
        result_.file.lets.push_back(std::move(let));
      }
      continue;
    }
    if (kv.second.IsMap()) {  // a call of another rule set
      const What where("let", kv.first.Scalar());
      check_keys(kv.second, Section::let_call, where);
      const yaml::Node target = kv.second["call"];
      if (!target) {
        error(at(kv.second), "missing-key", messages::missing_key("call", where.text()));
        continue;
      }
      auto rules = string_of(target, "call");
      if (!rules) continue;
      syntax::LetDecl let{key_of(kv.first), Expr{}, syntax::Call{*rules, {}}, nullptr};
      let.expr.location = rules->location;
      if (auto w = kv.second["with"]) let.call->with = read_assignments(w, "with");
      result_.file.lets.push_back(std::move(let));
      continue;
    }
    auto e = value_of(kv.second, What("let", kv.first.Scalar()), /*expression_by_default=*/true);
    if (e) result_.file.lets.push_back(syntax::LetDecl{key_of(kv.first), std::move(*e), std::nullopt, nullptr});
  }
}

void Loader::read_record(const yaml::Node& node) {
  if (!expect_map(node, "record")) return;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    syntax::FieldDecl field;
    field.name = key_of(kv.first);
    const What where("record field", kv.first.Scalar());
    if (!expect_map(kv.second, where)) continue;
    check_keys(kv.second, Section::record_field, where);
    auto t = read_type(kv.second, where, true);
    if (!t) continue;
    field.type = *t;
    if (auto d = kv.second["default"]) field.default_value = value_of(d, "default");
    if (auto i = kv.second["init"]) field.init = value_of(i, "init");
    result_.file.fields.push_back(std::move(field));
  }
}

void Loader::read_tables(const yaml::Node& node) {
  if (!expect_map(node, "tables")) return;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    syntax::Table table;
    table.name = key_of(kv.first);
    const What where("table", kv.first.Scalar());
    // A table is its list of rules, or a mapping that adds `allow` and `reason` to them.
    yaml::Node rules = kv.second;
    if (kv.second.IsMap()) {
      check_keys(kv.second, Section::table, where);
      rules = kv.second["rules"];
      if (!rules) {
        error(at(kv.second), "wrong-kind",
              messages::expected_kind(where.text(), "a list of rules, or a mapping with rules"));
        continue;
      }
      table.allow = read_allowance(kv.second, where);
    }
    if (!expect_sequence(rules, kv.second.IsMap() ? What("rules") : where)) continue;
    for (const auto& rule_node : rules.items()) {
      if (auto rule = read_rule(rule_node)) table.rules.push_back(std::move(*rule));
    }
    result_.file.tables.push_back(std::move(table));
  }
}

std::optional<syntax::Rule> Loader::read_rule(const yaml::Node& node) {
  if (!expect_map(node, "a rule")) return std::nullopt;
  syntax::Rule rule;
  rule.location = at(node);
  const yaml::Node name = node["name"];
  if (!name) {
    error(at(node), "missing-key", messages::missing_key("name", "a rule"));
    return std::nullopt;
  }
  auto n = string_of(name, "a rule's name");
  if (!n) return std::nullopt;
  rule.name = *n;
  const What where("rule", name.Scalar());
  check_keys(node, Section::rule, where);
  if (auto w = node["when"]) read_when(w, rule.when);
  if (auto s = node["set"]) rule.set = read_assignments(s, "set");
  if (auto b = node["because"]) {
    if (b.IsSequence()) {
      for (const auto& line : b.items())
        if (auto t = template_of(line, "because")) rule.because.push_back(std::move(*t));
    } else if (auto t = template_of(b, "because")) {
      rule.because.push_back(std::move(*t));
    }
  }
  if (auto e = node["error"]) rule.error = template_of(e, "error");
  if (auto x = node["next"]) rule.next = string_of(x, "next");
  if (auto fb = node["fallback"]) rule.fallback = read_fallback(fb);
  rule.allow = read_allowance(node, where);
  const int outcomes = (node["error"] ? 1 : 0) + (node["next"] ? 1 : 0) + (node["fallback"] ? 1 : 0);
  if (outcomes > 1) error(at(node), "conflicting-actions", messages::conflicting_actions(rule.name.value));
  if (outcomes == 0 && !node["set"] && !node["because"]) {
    error(rule.name.location, "empty-rule", messages::rule_needs_outcome(rule.name.value));
  }
  return rule;
}

void Loader::read_ensure(const yaml::Node& node) {
  if (!expect_sequence(node, "ensure")) return;
  for (const auto& item : node.items()) {
    if (!expect_map(item, "an invariant")) continue;
    syntax::Invariant invariant;
    invariant.location = at(item);
    const yaml::Node name = item["name"];
    if (!name) {
      error(at(item), "missing-key", messages::missing_key("name", "an invariant"));
      continue;
    }
    auto n = string_of(name, "an invariant's name");
    if (!n) continue;
    invariant.name = *n;
    const What where("invariant", name.Scalar());
    check_keys(item, Section::invariant, where);
    if (auto w = item["when"]) read_when(w, invariant.when);
    const yaml::Node require = item["require"];
    const yaml::Node message = item["message"];
    if (!require) error(at(item), "missing-key", messages::missing_key("require", where.text()));
    if (!message) error(at(item), "missing-key", messages::missing_key("message", where.text()));
    if (!require || !message) continue;
    auto r = value_of(require, "require", /*expression_by_default=*/true);
    auto m = template_of(message, "message");
    if (!r || !m) continue;
    invariant.require = std::move(*r);
    invariant.message = std::move(*m);
    result_.file.invariants.push_back(std::move(invariant));
  }
}

void Loader::read_when(const yaml::Node& node, std::vector<syntax::Matcher>& when) {
  if (!expect_map(node, "when")) return;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    syntax::Located<std::string> fact = key_of(kv.first);
    const yaml::Node& m = kv.second;
    if (m.IsMap()) {
      check_duplicates(m);
      for (const auto& op_kv : m.entries()) {
        const std::string& op = op_kv.first.Scalar();
        const language::MatcherInfo* info = language::find_matcher(op);
        if (!info) {
          std::vector<std::string> names;
          for (const auto& known : language::matchers()) names.push_back(known.name);
          const language::MatcherInfo* meant = language::matcher_meant_by(op);
          error(at(op_kv.first), "unknown-key",
                messages::unknown_match_op(
                    op, meant ? std::string(meant->name) : messages::closest_match(op, names)));
          continue;
        }
        if (info->operand == language::OperandShape::list &&
            (!op_kv.second.IsSequence() || (info->list_items != 0 && op_kv.second.items().size() != info->list_items))) {
          error(at(op_kv.second), "wrong-kind", messages::expected_kind(op, messages::a_list_of(info->list_items)));
          continue;
        }
        if (auto operand = value_of(op_kv.second, op)) {
          when.push_back(
              syntax::Matcher{fact, info->op, std::move(*operand), written(op_kv.second)});
        }
      }
    } else if (m.IsSequence()) {
      if (auto operand = value_of(m, "one_of"))
        when.push_back(
            syntax::Matcher{fact, syntax::MatchOp::one_of, std::move(*operand), written(m)});
    } else if (auto operand = value_of(m, "a matcher")) {
      when.push_back(syntax::Matcher{fact, syntax::MatchOp::eq, std::move(*operand), written(m)});
    }
  }
}

// A value as the operator wrote it: "= world_size * 2" -> "world_size * 2", [a, b] -> "[a, b]".
std::string Loader::written(const yaml::Node& node) {
  if (node.IsSequence()) {
    std::string out = "[";
    bool first = true;
    for (const auto& item : node.items()) {
      out += (first ? "" : ", ") + written(item);
      first = false;
    }
    return out + "]";
  }
  if (!node.IsScalar()) return "null";
  std::string s = node.Scalar();
  if (!s.empty() && s[0] == '=') s.erase(0, s.find_first_not_of(' ', 1) == std::string::npos ? s.size() : s.find_first_not_of(' ', 1));
  return s;
}

std::vector<syntax::Assignment> Loader::read_assignments(const yaml::Node& node, const What& what) {
  std::vector<syntax::Assignment> out;
  if (!expect_map(node, what)) return out;
  check_duplicates(node);
  for (const auto& kv : node.entries()) {
    if (auto v = value_of(kv.second, What("", kv.first.Scalar()))) {
      out.push_back(syntax::Assignment{key_of(kv.first), std::move(*v)});
    }
  }
  return out;
}

// `allow: [code, ...]` and `reason:` of a rule or table mapping: known codes of warnings or
// notes, and a reason (an accepted finding should say why it is accepted).
std::optional<syntax::Allowance> Loader::read_allowance(const yaml::Node& node, const What& where) {
  const yaml::Node allow = node["allow"];
  const yaml::Node reason = node["reason"];
  if (!allow && !reason) return std::nullopt;
  if (!allow) {
    error(at(reason), "missing-key",
          messages::missing_key("allow", fmt::format("{}, which has a reason", where.text())));
    return std::nullopt;
  }
  syntax::Allowance out;
  if (expect_sequence(allow, "allow")) {
    for (const auto& item : allow.items()) {
      auto code = string_of(item, "allow entries");
      if (!code) continue;
      const detail::DiagnosticCodeInfo* row = detail::find_diagnostic_code(code->value);
      if (row == nullptr) {
        error(code->location, "unknown-code",
              messages::unknown_code(
                  code->value,
                  messages::closest_match(code->value, detail::diagnostic_code_names())));
      } else if (row->severity == Severity::error) {
        error(code->location, "allow-error", messages::allow_error(code->value));
      } else {
        out.codes.push_back(std::move(*code));
      }
    }
  }
  if (!reason) {
    error(at(allow), "missing-key",
          messages::missing_key("reason", fmt::format("{}, which has allow", where.text())));
    return std::nullopt;
  }
  if (auto r = string_of(reason, "reason")) out.reason = std::move(*r);
  return out;
}

std::optional<syntax::Fallback> Loader::read_fallback(const yaml::Node& node) {
  if (!expect_map(node, "fallback")) return std::nullopt;
  check_keys(node, Section::fallback, "fallback");
  syntax::Fallback fb;
  fb.location = at(node);
  const yaml::Node table = node["table"];
  if (!table) {
    error(at(node), "missing-key", messages::missing_key("table", "fallback"));
    return std::nullopt;
  }
  auto t = string_of(table, "fallback table");
  if (!t) return std::nullopt;
  fb.table = *t;
  if (auto w = node["with"]) fb.with = read_assignments(w, "with");
  if (auto k = node["keep"]) {
    if (expect_sequence(k, "keep")) {
      for (const auto& item : k.items())
        if (auto s = string_of(item, "keep entries")) fb.keep.push_back(*s);
    }
  }
  return fb;
}

}  // namespace snnplan::load::internal
