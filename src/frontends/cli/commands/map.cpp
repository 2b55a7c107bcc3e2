// `snnplan map --x NAME=SPEC --y NAME=SPEC`: the decision map, a grid over two inputs (the
// others fixed by --input or their defaults), as SVG, HTML or JSON; `--diff OLD NEW` maps the
// cells whose outcome changes. The axes and inputs are read from the flags here; what the rule
// files must declare is checked, and the cells are evaluated, by usecases/map.hpp.

#include <algorithm>
#include <map>
#include <optional>
#include <ostream>
#include <variant>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/input_flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/cli/messages.hpp"
#include "render/format.hpp"
#include "usecases/map.hpp"

namespace snnplan::cli {
namespace {

struct MapFlags {
  std::string x, y;
  std::vector<std::string> inputs;
  std::string rules;
  CLI::Option* rules_option = nullptr;
  std::vector<std::string> rule_roots;
  std::vector<std::string> diff;
  std::string color_by;  // empty: usecases::default_colour
  std::string format;
};

// NAME=A..B[:STEP] (an int input), NAME=V1,V2,... (any input), or NAME alone (a bool input:
// false, true; an input with one_of: its values). What the axis then holds is
// usecases::map_axis's.
render::MapAxis parse_axis(const std::string& flag, const std::string& spec, const RuleSet& rules) {
  const auto eq = spec.find('=');
  usecases::AxisRequest request;
  request.name = spec.substr(0, eq);
  const std::string values = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
  const std::string where = flag + " " + request.name;
  std::vector<std::string> listed;
  if (const auto dots = values.find(".."); dots != std::string::npos) {
    // The input's type is checked before the ends are read: "prefer=a..b" is refused as a
    // range of a string input, not as a bad integer.
    const InputInfo* input = rules.input(request.name);
    if (input && input->type == "int") {
      const auto colon = values.find(':', dots);
      request.range = usecases::AxisRequest::Range{
          .from = parse_int(where, values.substr(0, dots)),
          .to = parse_int(where, values.substr(dots + 2, colon == std::string::npos
                                                            ? std::string::npos
                                                            : colon - dots - 2)),
          .step = colon == std::string::npos ? 1 : parse_int(where, values.substr(colon + 1))};
    } else {
      request.range = usecases::AxisRequest::Range{};
    }
  } else if (eq != std::string::npos) {
    for (std::size_t begin = 0; begin <= values.size();) {
      const std::size_t comma = std::min(values.find(',', begin), values.size());
      listed.push_back(values.substr(begin, comma - begin));
      begin = comma + 1;
    }
    request.listed = listed.size();
  }
  auto axis = usecases::map_axis(
      request, rules, render::kMaxMapCells,
      [&](const InputInfo& input, std::size_t k) -> std::variant<Value, std::string> {
        return input_value(where, rules, input.name, listed[k]);
      });
  if (auto* made = std::get_if<render::MapAxis>(&axis)) return std::move(*made);
  const usecases::AxisProblem& p = std::get<usecases::AxisProblem>(axis);
  switch (p.kind) {
    using Kind = usecases::AxisProblem::Kind;
    case Kind::unknown_input:
      throw UsageError{messages::map_unknown_axis(flag, p.name, rules.file_name())};
    case Kind::needs_values:
    case Kind::empty_list:  // not from a flag: NAME= lists one (empty) value
      throw UsageError{messages::map_axis_needs_values(flag, p.name)};
    case Kind::range_needs_int: throw UsageError{messages::map_range_needs_int(where, p.type)};
    case Kind::step_below_one: throw UsageError{messages::map_range_step(where, p.step)};
    case Kind::empty_range: throw UsageError{messages::map_range_empty(where, values)};
    case Kind::too_many_values:
      throw UsageError{messages::map_too_many_cells(p.count, render::kMaxMapCells)};
    case Kind::bad_value: throw UsageError{p.message};
  }
  throw UsageError{p.message};  // not reached: every kind is worded above
}

ExitCode map_command(const MapFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::map);
  const bool diff = !f.diff.empty();
  if (diff && f.rules_option->count()) throw UsageError{messages::map_diff_with_rules()};
  const LoadOptions options{.rule_roots = f.rule_roots};
  std::vector<RuleSet> files;
  if (diff) {
    if (f.diff[0] == "-" && f.diff[1] == "-")
      throw UsageError{messages::stdin_read_twice("-", "-")};
    for (const std::string& path : f.diff) files.push_back(load_rule_file(path, io.in, options));
  } else {
    files.push_back(load_rules(given_value(f.rules_option, f.rules), io.in, options));
  }
  const RuleSet& rules = files.back();
  render::DecisionMap m;
  m.diff = diff;
  m.color_by = f.color_by.empty() ? usecases::default_colour(rules) : f.color_by;
  m.x = parse_axis("--x", f.x, rules);
  m.y = parse_axis("--y", f.y, rules);
  if (m.x.name == m.y.name) throw UsageError{messages::map_same_axis(m.x.name)};
  const std::size_t cells = m.x.values.size() * m.y.values.size();
  if (m.x.values.size() > render::kMaxMapCells || cells > render::kMaxMapCells)
    throw UsageError{messages::map_too_many_cells(
        static_cast<double>(m.x.values.size()) * static_cast<double>(m.y.values.size()),
        render::kMaxMapCells)};
  std::map<std::string, std::string> given_by = {{m.x.name, "--x"}, {m.y.name, "--y"}};
  add_assignments(f.inputs, rules, m.fixed, given_by);
  if (const std::optional<usecases::MapGap> gap = usecases::map_gap(m, files))
    throw UsageError{gap->kind == usecases::MapGap::Kind::undeclared_input
                         ? messages::map_unknown_axis("--input", gap->input, gap->file)
                         : messages::map_input_required(gap->input)};
  if (!usecases::can_colour_by(rules, m.color_by))
    throw UsageError{messages::map_unknown_field(m.color_by, rules.file_name())};

  usecases::evaluate_map(m, files);
  io.out << render::render_map(m, format);
  return ExitCode::ok;
}

}  // namespace

Command setup_map(CLI::App& app) {
  return make_command<MapFlags>(
      app, "map",
      "The decision map: what each combination of two inputs gets, as SVG, HTML or JSON.",
      [](CLI::App& command, MapFlags& f) {
        command
            .add_option("--x", f.x,
                        "NAME=A..B[:STEP], NAME=V1,V2,... or NAME alone (a bool, or an input with one_of): "
                        "the horizontal axis")
            ->required()
            ->type_name("AXIS");
        command.add_option("--y", f.y, "the vertical axis, as --x")->required()->type_name("AXIS");
        command
            .add_option("--input", f.inputs,
                        "NAME=VALUE for another input (repeatable; else its default)")
            ->type_name("NAME=VALUE");
        f.rules_option = add_rules_option(
            command, f.rules, "rule file (default: $SNNPLAN_RULES, else the built-in table)");
        add_rules_root_option(command, f.rule_roots);
        command
            .add_option("--diff", f.diff,
                        "OLD NEW: map the cells whose outcome changes between two rule files")
            ->expected(2)
            ->type_name("FILE");
        command
            .add_option("--color-by", f.color_by,
                        "mode, rule (the fired rule path), a record field, or FIELD,FIELD,... "
                        "(their values together); default: mode, else the record's first field")
            ->type_name("FIELD");
        add_format_option(command, f.format, render::Output::map);
      },
      &map_command);
}

}  // namespace snnplan::cli
