#include "frontends/cli/input_flags.hpp"

#include <algorithm>
#include <map>
#include <ostream>

#include "frontends/cli/flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/cli/messages.hpp"
#include "core/messages.hpp"
#include "load/literals.hpp"
#include "request/request_lines.hpp"

namespace snnplan::cli {
namespace {

Value typed_value(const std::string& flag, const std::string& kind, const std::string& text) {
  if (kind.rfind("list[", 0) == 0) {  // comma-separated: a,b,c (empty text: an empty list)
    Value::List items;
    const std::string element = kind.substr(5, kind.size() - 6);
    std::size_t begin = 0;
    while (!text.empty() && begin <= text.size()) {
      const std::size_t comma = std::min(text.find(',', begin), text.size());
      items.push_back(typed_value(flag, element, text.substr(begin, comma - begin)));
      begin = comma + 1;
    }
    return Value(std::move(items));
  }
  if (kind == "int") return parse_int(flag, text);
  if (kind == "bool") return parse_bool(flag, text);
  if (kind == "float") {
    const DecimalFloat read = read_decimal_float(text);
    if (read.status == DecimalFloat::Status::out_of_range)
      throw UsageError{messages::flag_float_out_of_range(flag, text)};
    if (read.status != DecimalFloat::Status::ok)
      throw UsageError{messages::flag_not_number(flag, text)};
    return read.value;
  }
  return parse_string(flag, text);
}

}  // namespace

void add_assignments(const std::vector<std::string>& assignments, const RuleSet& rule_set,
                     Inputs& inputs, std::map<std::string, std::string>& given_by) {
  for (const std::string& assignment : assignments) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError{messages::input_assignment(assignment)};
    const std::string name = assignment.substr(0, eq);
    // The same input twice (--model and --input model=..., or --input twice) is refused:
    // silently keeping one of them would hide a mistake in a launcher's command line.
    if (auto [at, fresh] = given_by.emplace(name, "--input " + name + "=..."); !fresh)
      throw UsageError{messages::input_given_twice(name, at->second)};
    inputs.emplace_back(name,
                        input_value("--input " + name, rule_set, name, assignment.substr(eq + 1)));
  }
}

Value input_value(const std::string& flag, const RuleSet& rule_set, const std::string& name,
                  const std::string& text) {
  std::string kind;
  std::vector<std::string> declared;
  for (const InputInfo& info : rule_set.inputs()) {
    if (info.name == name) kind = info.type;
    declared.push_back(info.name);
  }
  if (kind.empty()) {
    // Not a typo of one of the built-in rules' inputs: probably meant for another rule file.
    const bool builtin = rule_set.same_rules(RuleSet::builtin());
    if (builtin && messages::closest_match(name, declared).empty())
      throw UsageError{messages::input_not_in_builtin_rules(name)};
    kind = "string";  // the evaluator refuses it, with a did-you-mean
  }
  return typed_value(flag, kind, text);
}

void InputFlags::attach(CLI::App& command, render::Output output) {
  for (auto& f : flags)
    f.option = command.add_option(std::string(f.input->flag), f.value, std::string(f.input->help))
                   ->type_name(placeholder(f.input->type));
  command
      .add_option("--input", extra_inputs,
                  "NAME=VALUE for inputs of custom rule files (repeatable)")
      ->type_name("NAME=VALUE");
  rules_option = add_rules_option(command, rules,
                                  "rule file (default: $SNNPLAN_RULES, else the built-in table)");
  add_rules_root_option(command, rule_roots);
  add_format_option(command, format, output);
  probe_option = command
                     .add_option("--probe-torch", probe_python,
                                 "availability inputs not given take what PyTorch offers, probed as "
                                 "the reference probes it with PYTHON (default: python3 on PATH)")
                     ->expected(0, 1)
                     ->type_name("[PYTHON]");
}

std::optional<TorchProbe> InputFlags::probe_torch(std::ostream& err) const {
  if (!probe_option->count()) return std::nullopt;
  TorchProbe probe = cli::probe_torch(probe_python);
  err << describe(probe) << '\n';
  return probe;
}

Inputs InputFlags::collect_probed(const RuleSet& rule_set, std::ostream& err) const {
  Inputs inputs = collect(rule_set);
  // All four given (or a rule file without them): nothing to probe, so a broken PyTorch cannot
  // fail the call, as in the Python drop-in.
  if (!needs_probe(rule_set, inputs)) return inputs;
  if (const std::optional<TorchProbe> probe = probe_torch(err)) request::add_fallbacks(rule_set, probed_inputs(*probe), inputs);
  return inputs;
}

std::optional<std::string> InputFlags::rules_flag() const {
  return given_value(rules_option, rules);
}

const char* InputFlags::first_given() const {
  for (const auto& f : flags)
    if (f.option->count()) return f.input->flag.data();  // a literal: NUL-terminated
  return extra_inputs.empty() ? nullptr : "--input";
}

Inputs InputFlags::collect(const RuleSet& rule_set) const {
  Inputs inputs;
  std::map<std::string, std::string> given_by;  // input name -> the flag that set it
  for (const auto& f : flags)
    if (f.option->count()) {
      const std::string name(f.input->name), flag(f.input->flag);
      inputs.emplace_back(name, typed_value(flag, std::string(f.input->type), f.value));
      given_by.emplace(name, flag);
    }
  add_assignments(extra_inputs, rule_set, inputs, given_by);
  return inputs;
}

}  // namespace snnplan::cli
