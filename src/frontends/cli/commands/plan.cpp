// `snnplan plan`: the full distributed plan (rules/snn_plan.yaml) for one input given by
// flags, or for each line of a JSON Lines file (--batch). The request is read by
// request::read_plan_request, as the C API and the Python module read theirs.

#include <array>
#include <memory>
#include <ostream>
#include <set>

#include "frontends/cli/batch.hpp"
#include "frontends/cli/batch_flags.hpp"
#include "frontends/cli/command.hpp"
#include "snnplan/decision_log.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/cli/messages.hpp"
#include "render/format.hpp"
#include "request/plan_request.hpp"

namespace snnplan::cli {
namespace {

struct PlanFlags {
  // The flags' values, by row of request::kPlanKeys; --feature and --note repeat.
  std::array<std::string, request::kPlanKeys.size()> values;
  std::vector<std::string> features;
  std::vector<std::string> notes;
  std::vector<CLI::Option*> input_options;  // by row; refused together with --batch
  std::string rules;
  std::vector<std::string> rule_roots;
  std::string format;
  BatchFlags batch;
  CLI::Option* rules_option = nullptr;
};

std::size_t row_of(std::string_view key) {
  return static_cast<std::size_t>(&request::plan_key(key) - request::kPlanKeys.data());
}

// The request as flags. Bad values throw UsageError (a bad topology or feature name:
// InputError) naming the flag.
class FlagFields final : public request::PlanFields {
 public:
  explicit FlagFields(const PlanFlags& f) : f_(f) {
    for (const char* key : {"objective", "topology", "batch_size"})
      if (!given(key)) throw UsageError{messages::plan_flag_required(request::plan_key(key).flag)};
    // The command line reports the first bad flag in its own order (options, then the
    // sizes, then objective and topology), so every option is read once here.
    for (const char* key : {"backend", "model_family", "mode"}) (void)text(key);
    if (given("tp_candidates")) (void)flag("tp_candidates");
    if (given("tp_roots")) (void)texts("tp_roots");
    (void)features();
    (void)texts("notes");
    if (given("world_size")) (void)integer("world_size");
    (void)integer("batch_size");
  }

  bool given(std::string_view key) override { return f_.input_options[row_of(key)]->count() > 0; }
  std::string text(std::string_view key) override {
    return given(key) ? parse_string(flag_of(key), value(key)) : std::string();
  }
  std::vector<std::string> texts(std::string_view key) override {
    std::vector<std::string> out;
    if (key == "notes") {
      for (const std::string& note : f_.notes) out.push_back(parse_string("--note", note));
      return out;
    }
    const std::string& roots = value("tp_roots");  // comma-separated
    for (std::size_t begin = 0; !roots.empty() && begin <= roots.size();) {
      const std::size_t comma = std::min(roots.find(',', begin), roots.size());
      out.push_back(parse_string("--tp-roots", roots.substr(begin, comma - begin)));
      if (out.back().empty()) throw UsageError{messages::flag_empty_item("--tp-roots", roots)};
      begin = comma + 1;
    }
    return out;
  }
  std::int64_t integer(std::string_view key) override {
    return parse_int(flag_of(key), value(key));
  }
  bool flag(std::string_view key) override { return parse_yes_no(flag_of(key), value(key)); }
  TopologyMapping topology() override {
    return Topology::parse_mapping(parse_string("--topology", value("topology")));
  }
  Value world_size() override {
    return given("world_size") ? Value(integer("world_size")) : Value();
  }
  FeatureFlags features() override {
    FeatureFlags out;
    std::set<std::string> seen;
    for (const std::string& assignment : f_.features) {
      const auto eq = assignment.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError{messages::feature_assignment(assignment)};
      const std::string name = assignment.substr(0, eq);
      if (!seen.insert(name).second) throw UsageError{messages::feature_given_twice(name)};
      out.emplace_back(name, parse_bool("--feature " + name, assignment.substr(eq + 1)));
    }
    return out;
  }

 private:
  static std::string flag_of(std::string_view key) { return std::string(request::plan_key(key).flag); }
  const std::string& value(std::string_view key) const { return f_.values[row_of(key)]; }

  const PlanFlags& f_;
};

ExitCode plan_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules,
                    const std::string& source_name, const BatchOptions& options) {
  const bool traced = options.traced;
  const AnswerLine answer = [&rules, traced](const std::string& line,
                                             std::string& output) -> LineOutcome {
        request::PlannedLine planned = request::plan_json_line(line, rules, traced);
        if (planned.kind == request::PlannedLine::Kind::ok) {
          output += planned.text;
          return {};
        }
        const auto kind = planned.kind == request::PlannedLine::Kind::rule_error
                              ? EvaluationErrorKind::rule_error
                              : EvaluationErrorKind::bad_input;
        return {false, kind, std::move(planned.text), std::move(planned.steps)};
  };
  // A plan line keeps no state between lines: every worker answers with the same function.
  return run_batch_lines(in, out, err, source_name, [&answer] { return answer; }, options);
}

ExitCode plan_command(const PlanFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::plan);
  const std::optional<std::string> batch = f.batch.file();
  std::string first_flag;  // the first input flag given
  for (const CLI::Option* option : f.input_options)
    if (option->count() && first_flag.empty()) first_flag = option->get_name();
  f.batch.refuse_flags_with_batch(first_flag.empty() ? nullptr : first_flag.c_str(), format, f.format);
  if (f.batch.trace && !batch) throw UsageError{messages::trace_needs_batch("plan")};
  f.batch.refuse_jobs_and_stdin(given_value(f.rules_option, f.rules));
  // Flags are checked before the rules are loaded, as for recommend.
  std::optional<request::PlanRequest> request;
  if (!batch) {
    FlagFields fields(f);
    request = request::read_plan_request(fields);
  }
  // SNNPLAN_DECISION_LOG: every plan recorded, as the plan rules answered it.
  const RuleSet rules = with_environment_log(
      load_plan_rules(given_value(f.rules_option, f.rules), io.in, LoadOptions{.rule_roots = f.rule_roots}));
  if (batch) {
    return with_batch_input(*batch, io.in, [&](std::istream& lines, const std::string& source_name) {
      return plan_batch(lines, io.out, io.err, rules, source_name, f.batch.options());
    });
  }
  io.out << render::render(
      plan(request->objective, request->topology, request->batch_size, request->options, rules),
      format);
  return ExitCode::ok;
}

}  // namespace

Command setup_plan(CLI::App& app) {
  return make_command<PlanFlags>(
      app, "plan",
      "The full distributed plan (mode, mesh, optimizer) for a topology (flags) or many (--batch).",
      [](CLI::App& command, PlanFlags& f) {
        for (const request::PlanKey& k : request::kPlanKeys) {
          const std::size_t row = row_of(k.key);
          CLI::Option* option =
              k.key == "features" ? command.add_option(std::string(k.flag), f.features, std::string(k.help))
              : k.key == "notes"  ? command.add_option(std::string(k.flag), f.notes, std::string(k.help))
                                  : command.add_option(std::string(k.flag), f.values[row], std::string(k.help));
          f.input_options.push_back(option->type_name(std::string(k.placeholder)));
        }
        f.rules_option = add_rules_option(
            command, f.rules, "plan rule file (default: the built-in rules/snn_plan.yaml)");
        add_rules_root_option(command, f.rule_roots);
        add_format_option(command, f.format, render::Output::plan);
        f.batch.attach(command, "input");
        command.add_flag("--trace", f.batch.trace,
                         "with --batch: each line also gets \"rules\" (the fired table/rule path) "
                         "and the evaluation steps");
      },
      &plan_command);
}

}  // namespace snnplan::cli
