#include "cli/app.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "api/rule_set_access.hpp"
#include "cli/batch.hpp"
#include "cli/exit_code.hpp"
#include "cli/rule_tests.hpp"
#include "load/literals.hpp"
#include "render/dot.hpp"
#include "core/messages.hpp"
#include "plan/plan_io.hpp"
#include "render/render.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/live_rule_set.hpp"
#include "snnplan/microbatches.hpp"
#include "snnplan/plan.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/version.hpp"

namespace snnplan::cli {
namespace {

// Thrown by flag parsing helpers; run() maps it to exit code 2.
struct UsageError {
  std::string message;
};

// Strict UTF-8: no overlong forms, surrogates or code points beyond U+10FFFF.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = 0;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (c < 0x80) extra = 0;
    else if (c >= 0xC2 && c <= 0xDF) extra = 1;
    else if (c >= 0xE0 && c <= 0xEF) { extra = 2; if (c == 0xE0) low = 0xA0; if (c == 0xED) high = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { extra = 3; if (c == 0xF0) low = 0x90; if (c == 0xF4) high = 0x8F; }
    else return false;
    if (s.size() - i <= extra) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < low || b > high) : (b & 0xC0) != 0x80) return false;
    }
    i += extra + 1;
  }
  return true;
}

std::int64_t parse_int(const std::string& flag, const std::string& text) {
  std::int64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) throw UsageError{messages::flag_out_of_range(flag, text)};
  if (ec != std::errc() || ptr != last || text.empty()) throw UsageError{messages::flag_not_integer(flag, text)};
  return value;
}

bool parse_bool(const std::string& flag, const std::string& text) {
  std::string lowered;
  for (char c : text) lowered += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lowered == "true") return true;
  if (lowered == "false") return false;
  throw UsageError{messages::flag_not_bool(flag, text)};
}

std::string parse_string(const std::string& flag, const std::string& text) {
  if (!valid_utf8(text)) throw UsageError{messages::flag_not_utf8(flag)};
  return text;
}

// The value of an option when it was given on the command line, even as '' (so that
// `--rules "$UNSET"` is refused rather than silently meaning "the default").
std::optional<std::string> given_value(const CLI::Option* option, const std::string& value) {
  if (option == nullptr || option->count() == 0) return std::nullopt;
  return value;
}

// The rule file chosen by --rules, else SNNPLAN_RULES (empty counts as unset); nullopt: none.
std::optional<std::string> rules_path(const std::optional<std::string>& flag) {
  if (flag) return flag;
  if (const char* env = std::getenv("SNNPLAN_RULES"); env && *env) return std::string(env);
  return std::nullopt;
}

// Reads a rule file chosen by --rules, then SNNPLAN_RULES, else the built-in table.
// Prints every diagnostic (one line each) and returns nullopt when it cannot be used.
std::optional<RuleSet> load_rules(const std::optional<std::string>& path_flag, std::ostream& err) {
  const std::optional<std::string> path = rules_path(path_flag);
  try {
    if (!path) return RuleSet::builtin();
    return RuleSet::from_file(*path);
  } catch (const LoadError& e) {
    for (const Diagnostic& d : e.diagnostics()) err << format(d) << '\n';
    return std::nullopt;
  }
}

// A batch file named by --batch; a missing file or a directory is a usage error (reading a
// directory would otherwise look like an empty batch and succeed).
std::ifstream open_batch(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw UsageError{messages::cannot_open_batch(path, "it is a directory")};
  std::ifstream file(path);
  if (!file) throw UsageError{messages::cannot_open_batch(path)};
  return file;
}

render::Format parse_format(const std::string& text) {
  if (text == "json") return render::Format::json;
  if (text == "yaml") return render::Format::yaml;
  return render::Format::text;
}

// The input flags shared by `recommend` and `explain`.
struct InputFlags {
  // Flags named after the reference's parameters; each maps to the input of the same name.
  struct Flag {
    const char* flag;
    const char* input;
    const char* kind;  // "string", "int", "bool"
    const char* help;
    std::string value;
    CLI::Option* option = nullptr;
  };
  std::vector<Flag> flags = {
      {"--model", "model", "string", "model name, e.g. spikformer_8_384 or cifar10dvs_vgg", {}},
      {"--world-size", "world_size", "int", "number of ranks (GPUs)", {}},
      {"--prefer", "prefer", "string", "speed, memory or capacity (case-insensitive)", {}},
      {"--batch-size", "batch_size", "int", "global batch size", {}},
      {"--backend", "backend", "string", "compiler backend (default from the rules: inductor)", {}},
      {"--zero-redundancy-optimizer-available", "zero_redundancy_optimizer_available", "bool", "true|false (default from the rules: true)", {}},
      {"--pipelining-available", "pipelining_available", "bool", "true|false (default from the rules: true)", {}},
      {"--fsdp2-available", "fsdp2_available", "bool", "true|false (default from the rules: true)", {}},
      {"--tensor-parallel-available", "tensor_parallel_available", "bool", "true|false (default from the rules: true)", {}},
  };
  std::vector<std::string> extra_inputs;
  std::string rules;
  std::string format = "json";
  std::string batch;
  bool trace = false;
  bool watch = false;
  CLI::Option* rules_option = nullptr;
  CLI::Option* batch_option = nullptr;  // recommend only

  void attach(CLI::App* command) {
    for (auto& f : flags) f.option = command->add_option(f.flag, f.value, f.help);
    command->add_option("--input", extra_inputs, "NAME=VALUE for inputs of custom rule files (repeatable)");
    rules_option = command->add_option("--rules", rules, "rule file (default: $SNNPLAN_RULES, else the built-in table)");
  }

  std::optional<std::string> rules_flag() const { return given_value(rules_option, rules); }
  std::optional<std::string> batch_flag() const { return given_value(batch_option, batch); }

  bool any_given() const {
    for (const auto& f : flags)
      if (f.option->count()) return true;
    return !extra_inputs.empty();
  }

  Inputs collect(const RuleSet& rule_set) const;
};

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
    if (read.status == DecimalFloat::Status::out_of_range) throw UsageError{messages::flag_float_out_of_range(flag, text)};
    if (read.status != DecimalFloat::Status::ok) throw UsageError{messages::flag_not_number(flag, text)};
    return read.value;
  }
  return parse_string(flag, text);
}

Inputs InputFlags::collect(const RuleSet& rule_set) const {
  Inputs inputs;
  std::map<std::string, std::string> given_by;  // input name -> the flag that set it
  for (const auto& f : flags)
    if (f.option->count()) {
      inputs.emplace_back(f.input, typed_value(f.flag, f.kind, f.value));
      given_by.emplace(f.input, f.flag);
    }
  for (const std::string& assignment : extra_inputs) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError{messages::input_assignment(assignment)};
    const std::string name = assignment.substr(0, eq);
    // The same input twice (--model and --input model=..., or --input twice) is refused:
    // silently keeping one of them would hide a mistake in a launcher's command line.
    if (auto [at, fresh] = given_by.emplace(name, "--input " + name + "=..."); !fresh)
      throw UsageError{messages::input_given_twice(name, at->second)};
    std::string kind = "string";
    for (const InputInfo& info : rule_set.inputs())
      if (info.name == name) kind = info.type;
    inputs.emplace_back(name, typed_value("--input " + name, kind, assignment.substr(eq + 1)));
  }
  return inputs;
}

nlohmann::ordered_json trace_json(const std::vector<TraceStep>& steps) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const TraceStep& step : steps) {
    nlohmann::ordered_json j = {{"step", to_string(step.kind)}, {"depth", step.depth}};
    if (!step.table.empty()) j["table"] = step.table;
    if (!step.rule.empty()) j["rule"] = step.rule;
    if (step.location.known()) j["at"] = to_string(step.location);
    if (!step.detail.empty()) j["detail"] = step.detail;
    out.push_back(std::move(j));
  }
  return out;
}

std::string trace_text(const std::vector<TraceStep>& steps) {
  std::string out;
  std::string derived;
  for (const TraceStep& step : steps) {
    const std::string indent(static_cast<std::size_t>(step.depth) * 2, ' ');
    switch (step.kind) {
      case TraceStep::Kind::enter_table: out += fmt::format("{}table {}\n", indent, step.table); break;
      case TraceStep::Kind::rule_skipped:
        out += fmt::format("{}  - {}: skipped, {} ({})\n", indent, step.rule, step.detail, to_string(step.location));
        break;
      case TraceStep::Kind::rule_fired:
        out += fmt::format("{}  * {}: fired ({})\n", indent, step.rule, to_string(step.location));
        break;
      case TraceStep::Kind::fallback: out += fmt::format("{}    fallback {}\n", indent, step.detail); break;
      case TraceStep::Kind::derived_value: derived += fmt::format("  {}\n", step.detail); break;
      case TraceStep::Kind::error: out += fmt::format("error: {}\n", step.detail); break;
    }
  }
  if (!derived.empty()) out += "derived values:\n" + derived;
  return out;
}

ExitCode explain(const InputFlags& options, std::ostream& out, std::ostream& err) {
  std::optional<RuleSet> rules = load_rules(options.rules_flag(), err);
  if (!rules) return ExitCode::rules_unusable;
  const Explanation explanation = rules->explain(options.collect(*rules));
  const EvaluationResult& result = explanation.result;
  if (options.format == "json") {
    nlohmann::ordered_json j = {{"trace", trace_json(explanation.steps)}};
    if (result.ok()) j["result"] = render::to_json(result.record());
    else j["error"] = result.error().message;
    out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
  } else {
    out << trace_text(explanation.steps);
    if (result.ok()) out << "result:\n" << render::to_text(result.record());
  }
  if (result.ok()) return ExitCode::ok;
  if (options.format != "json") err << "error: " << result.error().message << '\n';
  return result.error().kind == EvaluationErrorKind::rule_error ? ExitCode::rule_error : ExitCode::bad_input;
}

ExitCode recommend(const InputFlags& options, std::istream& in, std::ostream& out, std::ostream& err) {
  const std::optional<std::string> batch = options.batch_flag();
  if (batch) {
    for (const auto& f : options.flags)
      if (f.option->count()) throw UsageError{messages::batch_with_flags(f.flag)};
    if (!options.extra_inputs.empty()) throw UsageError{messages::batch_with_flags("--input")};
    if (options.trace) throw UsageError{messages::batch_with_flags("--trace")};
    if (options.format != "json") throw UsageError{messages::batch_format(options.format)};
  }
  if (options.trace && options.format != "json") throw UsageError{messages::trace_format(options.format)};
  if (options.watch) {
    if (!batch) throw UsageError{messages::watch_needs_batch()};
    const std::optional<std::string> path = rules_path(options.rules_flag());
    if (!path) throw UsageError{messages::watch_needs_rules()};
    std::optional<LiveRuleSet> live;
    try {
      live.emplace(*path);
    } catch (const LoadError& e) {
      for (const Diagnostic& d : e.diagnostics()) err << format(d) << '\n';
      return ExitCode::rules_unusable;
    }
    live->on_rejected([&err](const std::vector<Diagnostic>& diagnostics) {
      err << "snnplan: rejected an edit of the rule file; the previous rules stay in use:\n";
      for (const Diagnostic& d : diagnostics) err << format(d) << '\n';
    });
    if (*batch == "-") return run_batch(in, out, err, *live, "<stdin>");
    std::ifstream file = open_batch(*batch);
    return run_batch(file, out, err, *live, *batch);
  }
  std::optional<RuleSet> rules = load_rules(options.rules_flag(), err);
  if (!rules) return ExitCode::rules_unusable;

  if (batch) {
    if (*batch == "-") return run_batch(in, out, err, *rules, "<stdin>");
    std::ifstream file = open_batch(*batch);
    return run_batch(file, out, err, *rules, *batch);
  }

  const Inputs inputs = options.collect(*rules);
  if (options.trace) {
    // JSON with the record's fields plus "trace" (the explain steps).
    const Explanation explanation = rules->explain(inputs);
    if (!explanation.result.ok()) {
      err << "error: " << explanation.result.error().message << '\n';
      return explanation.result.error().kind == EvaluationErrorKind::rule_error ? ExitCode::rule_error : ExitCode::bad_input;
    }
    nlohmann::ordered_json j = render::to_json(explanation.result.record());
    j["trace"] = trace_json(explanation.steps);
    out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
    return ExitCode::ok;
  }
  EvaluationResult result = rules->evaluate(inputs);
  if (!result.ok()) {
    err << "error: " << result.error().message << '\n';
    return result.error().kind == EvaluationErrorKind::rule_error ? ExitCode::rule_error : ExitCode::bad_input;
  }
  out << render::render(result.record(), parse_format(options.format));
  return ExitCode::ok;
}

ExitCode microbatches(const std::string& batch_size, const std::string& num_stages, const std::string& format,
                      std::ostream& out, std::ostream& err) {
  auto result = pipeline_microbatches(parse_int("--batch-size", batch_size), parse_int("--num-stages", num_stages));
  if (auto* message = std::get_if<std::string>(&result)) {
    err << "error: " << *message << '\n';
    return ExitCode::rule_error;
  }
  const auto count = std::get<std::int64_t>(result);
  if (format == "json") out << nlohmann::ordered_json{{"pp_microbatches", count}}.dump() << '\n';
  else out << count << '\n';
  return ExitCode::ok;
}

// The texts that diagnostics point into, by the file name they carry: the checked file or a
// file it uses, read from disk, else a built-in rule file (named "rules/NAME" when used).
class SourceTexts {
 public:
  std::string_view find(const std::string& file) {
    auto [it, fresh] = texts_.try_emplace(file);
    if (fresh) {
      if (std::ifstream in(file, std::ios::binary); in) {
        std::stringstream text;
        text << in.rdbuf();
        it->second = text.str();
      } else if (file.rfind("rules/", 0) == 0) {
        if (auto builtin = RuleSet::builtin_text(file.substr(6))) it->second = std::string(*builtin);
      }
    }
    return it->second;  // empty when there is no text: the diagnostic is shown without its line
  }

 private:
  std::map<std::string, std::string> texts_;
};

ExitCode check(const std::vector<std::string>& files, bool strict, const std::string& format, std::ostream& out) {
  bool failed = false;
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  SourceTexts sources;
  for (const std::string& path : files) {
    std::vector<Diagnostic> diagnostics;
    try {
      diagnostics = RuleSet::from_file(path, LoadOptions{.analyse_tables = true}).warnings();
    } catch (const LoadError& e) {
      diagnostics = e.diagnostics();
    }
    for (const Diagnostic& d : diagnostics) {
      failed = failed || d.severity == Severity::error || (strict && d.severity == Severity::warning);
      if (format == "json") {
        all.push_back({{"file", d.location.file},
                       {"line", d.location.line},
                       {"column", d.location.column},
                       {"severity", d.severity == Severity::error ? "error" : d.severity == Severity::warning ? "warning" : "note"},
                       {"code", d.code},
                       {"message", d.message}});
      } else {
        out << format_with_source(d, sources.find(d.location.file)) << '\n';
      }
    }
  }
  if (format == "json") out << render::json_line(all) << '\n';
  return failed ? ExitCode::rules_unusable : ExitCode::ok;
}

ExitCode test(const std::string& rules_file, const std::vector<std::string>& files, bool show_coverage,
              double min_coverage, std::ostream& out, std::ostream& err) {
  std::optional<RuleSet> rules = load_rules(rules_file, err);  // the file named, even '' (no fallback)
  if (!rules) return ExitCode::rules_unusable;
  std::vector<RuleTestCase> cases;
  std::vector<Diagnostic> problems;
  for (const std::string& path : files) {
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) throw UsageError{messages::cannot_read_tests(path, "it is a directory")};
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError{messages::cannot_read_tests(path, "no such file or not readable")};
    std::stringstream text;
    text << in.rdbuf();
    auto loaded = load_rule_tests(text.str(), path, problems);
    cases.insert(cases.end(), loaded.begin(), loaded.end());
  }
  if (!problems.empty()) {
    for (const Diagnostic& d : problems) err << format(d) << '\n';
    return ExitCode::bad_input;
  }
  const RuleTestReport report = run_rule_tests(*rules, cases);
  for (const std::string& failure : report.failures) out << failure << '\n';
  std::vector<std::string> uncovered;
  std::size_t width = 0;
  for (const auto& [rule, count] : report.coverage) {
    if (count == 0) uncovered.push_back(rule.first + "/" + rule.second);
    width = std::max(width, rule.first.size() + rule.second.size() + 1);
  }
  if (show_coverage) {
    out << "rule coverage:\n";
    for (const auto& [rule, count] : report.coverage)
      out << fmt::format("  {:<{}}  {} case{}\n", rule.first + "/" + rule.second, width, count, count == 1 ? "" : "s");
  }
  out << fmt::format("{} passed, {} failed; rule coverage {:.1f}% ({} of {} rules)\n", report.passed, report.failed,
                     report.coverage_percent(), report.coverage.size() - uncovered.size(), report.coverage.size());
  if (!uncovered.empty()) {
    out << "rules no test fired:";
    for (const std::string& name : uncovered) out << ' ' << name;
    out << '\n';
  }
  if (report.failed > 0) return ExitCode::rule_error;
  if (report.coverage_percent() + 1e-9 < min_coverage) {
    err << fmt::format("error: rule coverage {:.1f}% is below the minimum {}%\n", report.coverage_percent(), min_coverage);
    return ExitCode::rule_error;
  }
  return ExitCode::ok;
}

ExitCode graph(const std::optional<std::string>& rules_file, const std::string& only, std::ostream& out, std::ostream& err) {
  std::optional<RuleSet> rules = load_rules(rules_file, err);
  if (!rules) return ExitCode::rules_unusable;
  const render::GraphPart part = only == "tables" ? render::GraphPart::tables
                                 : only == "values" ? render::GraphPart::values : render::GraphPart::all;
  out << render::to_dot(RuleSetAccess::compiled(*rules), part);
  return ExitCode::ok;
}

// `snnplan plan`: the full distributed plan (rules/snn_plan.yaml) for one input given by
// flags, or for each line of a JSON Lines file (--batch).
struct PlanFlags {
  std::string objective, topology, world_size, batch_size, backend, model_family, mode, tp_roots, tp_candidates;
  std::vector<std::string> features;
  std::vector<std::string> notes;
  std::vector<CLI::Option*> input_options;  // refused together with --batch
  std::string rules;
  std::string format = "json";
  std::string batch;
  CLI::Option* rules_option = nullptr;
  CLI::Option* batch_option = nullptr;

  std::optional<std::string> rules_flag() const { return given_value(rules_option, rules); }
  std::optional<std::string> batch_flag() const { return given_value(batch_option, batch); }

  void attach(CLI::App* command) {
    auto input = [&](const char* flag, std::string& value, const char* help) {
      input_options.push_back(command->add_option(flag, value, help));
    };
    input("--objective", objective, "speed, memory or capacity (case-insensitive)");
    input("--topology", topology, "mesh dimensions and sizes, e.g. dp=4,tp=2");
    input("--world-size", world_size, "number of ranks (default: the product of the topology sizes)");
    input("--batch-size", batch_size, "global batch size");
    input("--model-family", model_family, "model family, e.g. cifar10dvs_vgg (default: generic)");
    input("--backend", backend, "compiler backend (default: inductor)");
    input("--mode", mode, "mode override: none, dp, tp, fsdp2 or fsdp2_tp (default: the recommended mode)");
    input("--tp-roots", tp_roots, "tensor-parallel root module names, comma-separated");
    input("--tp-candidates", tp_candidates, "yes|no: whether the model has tensor-parallel candidate layers (default: yes)");
    input_options.push_back(command->add_option("--feature", features, "NAME=true|false for a feature-set flag (repeatable)"));
    input_options.push_back(command->add_option("--note", notes, "analysis note to carry into the plan (repeatable)"));
    rules_option = command->add_option("--rules", rules, "plan rule file (default: the built-in rules/snn_plan.yaml)");
    command->add_option("--format", format, "output format")->check(CLI::IsMember({"json", "yaml", "text"}));
    batch_option = command->add_option("--batch", batch, "JSON Lines file of inputs, or - for stdin; writes one JSON line per input");
  }
};

// yes/no (and true/false), any case.
bool parse_yes_no(const std::string& flag, const std::string& text) {
  std::string lowered;
  for (char c : text) lowered += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lowered == "yes" || lowered == "true") return true;
  if (lowered == "no" || lowered == "false") return false;
  throw UsageError{messages::flag_not_yes_no(flag, text)};
}

// The plan rules chosen by --rules, else the built-in ones; diagnostics printed as load_rules does.
std::optional<RuleSet> load_plan_rules(const std::optional<std::string>& path, std::ostream& err) {
  try {
    if (!path) return plan_rules();
    return RuleSet::from_file(*path);
  } catch (const LoadError& e) {
    for (const Diagnostic& d : e.diagnostics()) err << format(d) << '\n';
    return std::nullopt;
  }
}

plan_io::Request plan_request(const PlanFlags& f) {
  auto given = [&](const char* flag) {
    for (const CLI::Option* option : f.input_options)
      if (option->check_lname(std::string(flag).substr(2))) return option->count() > 0;
    return false;
  };
  for (const char* flag : {"--objective", "--topology", "--batch-size"})
    if (!given(flag)) throw UsageError{messages::plan_flag_required(flag)};
  PlanOptions options;
  if (given("--backend")) options.backend = parse_string("--backend", f.backend);
  if (given("--model-family")) options.model_family = parse_string("--model-family", f.model_family);
  if (given("--mode")) options.mode = parse_string("--mode", f.mode);
  if (given("--tp-candidates")) options.tensor_parallel_candidates = parse_yes_no("--tp-candidates", f.tp_candidates);
  if (given("--tp-roots")) {
    std::vector<std::string> roots;
    for (std::size_t begin = 0; !f.tp_roots.empty() && begin <= f.tp_roots.size();) {
      const std::size_t comma = std::min(f.tp_roots.find(',', begin), f.tp_roots.size());
      roots.push_back(parse_string("--tp-roots", f.tp_roots.substr(begin, comma - begin)));
      if (roots.back().empty()) throw UsageError{messages::flag_empty_item("--tp-roots", f.tp_roots)};
      begin = comma + 1;
    }
    options.tensor_parallel_roots = std::move(roots);
  }
  std::set<std::string> features_given;
  for (const std::string& assignment : f.features) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError{messages::feature_assignment(assignment)};
    const std::string name = assignment.substr(0, eq);
    if (!features_given.insert(name).second) throw UsageError{messages::feature_given_twice(name)};
    try {
      options.features.set(name, parse_bool("--feature " + name, assignment.substr(eq + 1)));
    } catch (const InputError& e) {
      throw UsageError{e.what()};
    }
  }
  for (const std::string& note : f.notes) options.notes.push_back(parse_string("--note", note));
  std::optional<std::int64_t> world_size;
  if (given("--world-size")) world_size = parse_int("--world-size", f.world_size);
  const std::int64_t batch_size = parse_int("--batch-size", f.batch_size);
  try {
    return plan_io::Request{parse_string("--objective", f.objective), Topology::parse(parse_string("--topology", f.topology), world_size),
                            batch_size, std::move(options)};
  } catch (const InputError& e) {
    throw UsageError{e.what()};
  }
}

ExitCode plan_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules, const std::string& source_name) {
  ExitCode worst = ExitCode::ok;
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    auto request = plan_io::request_from_json_line(line);
    std::string message;
    if (auto* r = std::get_if<plan_io::Request>(&request)) {
      try {
        out << render::json_line(plan_io::to_json(plan(r->objective, r->topology, r->batch_size, r->options, rules))) << '\n';
        continue;
      } catch (const RuleError& e) {
        out << render::json_line({{"error", e.what()}}) << '\n';
        worst = worse(worst, ExitCode::rule_error);
        continue;
      } catch (const InputError& e) {
        message = e.what();
      }
    } else {
      message = std::get<std::string>(request);
    }
    // As in recommend --batch: a bad line is marked in the output and reported on stderr.
    out << render::json_line({{"error", message}, {"line", line_number}}) << '\n';
    err << fmt::format("{}:{}: error: {}\n", source_name, line_number, message);
    worst = worse(worst, ExitCode::bad_input);
  }
  out.flush();
  return worst;
}

ExitCode plan_command(const PlanFlags& f, std::istream& in, std::ostream& out, std::ostream& err) {
  const std::optional<std::string> batch = f.batch_flag();
  if (batch) {
    for (const CLI::Option* option : f.input_options)
      if (option->count()) throw UsageError{messages::batch_with_flags(option->get_name())};
    if (f.format != "json") throw UsageError{messages::batch_format(f.format)};
  }
  // Flags are checked before the rules are loaded, as for recommend.
  std::optional<plan_io::Request> request;
  if (!batch) request = plan_request(f);
  std::optional<RuleSet> rules = load_plan_rules(f.rules_flag(), err);
  if (!rules) return ExitCode::rules_unusable;
  if (batch) {
    if (*batch == "-") return plan_batch(in, out, err, *rules, "<stdin>");
    std::ifstream file = open_batch(*batch);
    return plan_batch(file, out, err, *rules, *batch);
  }
  try {
    const Plan result = plan(request->objective, request->topology, request->batch_size, request->options, *rules);
    if (f.format == "yaml") out << plan_io::to_yaml(result);
    else if (f.format == "text") out << plan_io::to_text(result);
    else out << plan_io::to_json(result).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
    return ExitCode::ok;
  } catch (const RuleError& e) {
    err << "error: " << e.what() << '\n';
    return ExitCode::rule_error;
  } catch (const InputError& e) {
    err << "error: " << e.what() << '\n';
    return ExitCode::bad_input;
  }
}

// CLI11 gives an option that expects a value the next argument, whatever it is, so
// `--model --backend x` would run with the model "--backend" and exit 0. A value that is the
// name of a flag of the same command means the value was forgotten: it is refused.
void refuse_flag_names_as_values(CLI::App& command) {
  auto names = std::make_shared<std::set<std::string>>();
  for (const CLI::App* app = &command; app != nullptr; app = app->get_parent())  // --version is the top level's
    for (const CLI::Option* option : app->get_options()) {
      for (const std::string& name : option->get_lnames()) names->insert("--" + name);
      for (const std::string& name : option->get_snames()) names->insert("-" + name);
    }
  const CLI::Validator not_a_flag(
      [names](std::string& value) -> std::string {
        return names->count(value) ? messages::flag_value_missing(value) : std::string();
      },
      "");
  for (CLI::Option* option : command.get_options())
    if (option->nonpositional() && option->get_type_size() > 0) option->check(not_a_flag);
}

}  // namespace

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  CLI::App app{"snnplan: choose a parallel training strategy for spiking neural networks from a YAML rule table."};
  app.set_version_flag("--version", std::string(snnplan::version));
  app.require_subcommand(1);

  InputFlags rec;
  CLI::App* recommend_cmd = app.add_subcommand("recommend", "Recommend a strategy for one input (flags) or many (--batch).");
  rec.attach(recommend_cmd);
  recommend_cmd->add_option("--format", rec.format, "output format")->check(CLI::IsMember({"json", "yaml", "text"}));
  rec.batch_option = recommend_cmd->add_option("--batch", rec.batch, "JSON Lines file of inputs, or - for stdin; writes one JSON line per input");
  recommend_cmd->add_flag("--trace", rec.trace, "add the evaluation steps (as `explain` shows them) to the JSON output");
  recommend_cmd->add_flag("--watch", rec.watch, "with --batch: re-read the rule file between lines when it or a file it uses changed");

  InputFlags why;
  why.format = "text";
  CLI::App* explain_cmd = app.add_subcommand("explain", "Show why an input gets its answer: tables, rules tried, fallbacks.");
  why.attach(explain_cmd);
  explain_cmd->add_option("--format", why.format, "output format")->check(CLI::IsMember({"text", "json"}));

  std::string batch_size;
  std::string num_stages;
  std::string mb_format = "text";
  CLI::App* micro_cmd = app.add_subcommand("microbatches", "Pipeline microbatch count for a batch size and stage count.");
  micro_cmd->add_option("--batch-size", batch_size, "global batch size")->required();
  micro_cmd->add_option("--num-stages", num_stages, "number of logical pipeline stages")->required();
  micro_cmd->add_option("--format", mb_format, "output format")->check(CLI::IsMember({"text", "json"}));

  std::vector<std::string> check_files;
  bool strict = false;
  std::string check_format = "text";
  CLI::App* check_cmd = app.add_subcommand("check", "Check rule files; report every problem with its position.");
  check_cmd->add_option("files", check_files, "rule files")->required();
  check_cmd->add_flag("--strict", strict, "treat warnings as failures");
  check_cmd->add_option("--format", check_format, "output format")->check(CLI::IsMember({"text", "json"}));

  std::string test_rules;
  std::vector<std::string> test_files;
  bool show_coverage = false;
  double min_coverage = 0;
  CLI::App* test_cmd = app.add_subcommand("test", "Run rule tests (YAML) and report rule coverage.");
  test_cmd->add_option("rules", test_rules, "rule file under test")->required();
  test_cmd->add_option("tests", test_files, "test files")->required();
  test_cmd->add_flag("--coverage", show_coverage, "print how often each rule fired");
  // A percentage from 0 to 100, read as every float flag is; CLI::Range would let "nan"
  // through (every comparison with NaN is false).
  const CLI::Validator percentage(
      [](std::string& text) -> std::string {
        const DecimalFloat read = read_decimal_float(text);
        if (read.status != DecimalFloat::Status::ok || !(read.value >= 0.0 && read.value <= 100.0))
          return messages::flag_not_percentage(text);
        return {};
      },
      "0-100");
  test_cmd->add_option("--min-coverage", min_coverage, "fail when fewer than this percentage of rules fired")->check(percentage);

  std::string graph_rules;
  std::string graph_only = "all";
  CLI::App* graph_cmd = app.add_subcommand("graph", "Print the table-call and derived-value graphs as Graphviz DOT.");
  CLI::Option* graph_rules_option =
      graph_cmd->add_option("--rules", graph_rules, "rule file (default: $SNNPLAN_RULES, else the built-in table)");
  graph_cmd->add_option("--only", graph_only, "which part to draw")->check(CLI::IsMember({"all", "tables", "values"}));

  PlanFlags plan_flags;
  CLI::App* plan_cmd = app.add_subcommand("plan", "The full distributed plan (mode, mesh, optimizer) for a topology (flags) or many (--batch).");
  plan_flags.attach(plan_cmd);

  // `snnplan recomend ...`: CLI11 would only say that a subcommand is required.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      err << "error: " << messages::unknown_subcommand(argv[1], messages::closest_match(argv[1], names))
          << "\nRun with --help for usage.\n";
      return as_int(ExitCode::bad_input);
    }
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_flag_names_as_values(*sub);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    CLI::App* target = &app;
    for (CLI::App* sub : app.get_subcommands()) target = sub;
    out << target->help();
    return as_int(ExitCode::ok);
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return as_int(ExitCode::ok);
  } catch (const CLI::CallForVersion&) {
    out << snnplan::version << '\n';
    return as_int(ExitCode::ok);
  } catch (const CLI::ParseError& e) {
    err << "error: " << e.what() << "\nRun with --help for usage.\n";
    return as_int(ExitCode::bad_input);
  }

  try {
    if (recommend_cmd->parsed()) return as_int(recommend(rec, in, out, err));
    if (explain_cmd->parsed()) return as_int(explain(why, out, err));
    if (micro_cmd->parsed()) return as_int(microbatches(batch_size, num_stages, mb_format, out, err));
    if (check_cmd->parsed()) return as_int(check(check_files, strict, check_format, out));
    if (test_cmd->parsed()) return as_int(test(test_rules, test_files, show_coverage, min_coverage, out, err));
    if (graph_cmd->parsed()) return as_int(graph(given_value(graph_rules_option, graph_rules), graph_only, out, err));
    if (plan_cmd->parsed()) return as_int(plan_command(plan_flags, in, out, err));
  } catch (const UsageError& e) {
    err << "error: " << e.message << '\n';
    return as_int(ExitCode::bad_input);
  }
  return as_int(ExitCode::bad_input);
}

}  // namespace snnplan::cli
