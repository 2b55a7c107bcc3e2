// The fuzz targets (see targets.hpp). Internal headers are used on purpose: the batch paths
// and the expression parser are not public API, but they are what hostile text reaches.

#include "targets.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <variant>

#include "api/rule_set_access.hpp"
#include "load/expression_parser.hpp"
#include "render/dot.hpp"
#include "render/render.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "request/json_slots.hpp"
#include "request/plan_request.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/plan.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::fuzz {
namespace {

// An invariant the library promises was broken: stop here so the input is kept.
[[noreturn]] void broken(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "snnplan fuzz: invariant broken: %s\n%.*s\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A record as one JSON line: the form results are compared in (NaN-safe, unlike Value's ==).
std::string rendered(const EvaluationResult& result) {
  if (!result.ok()) {
    return std::string(result.error().kind == EvaluationErrorKind::bad_input ? "bad input: "
                                                                             : "rule error: ") +
           result.error().message;
  }
  return render::json_line(render::to_json(result.record()));
}

// evaluate() and explain() must agree, never throw, and every record must render.
void evaluate_checked(const RuleSet& rules, const Inputs& inputs) {
  const EvaluationResult plain = rules.evaluate(inputs);
  const Explanation explained = rules.explain(inputs);
  const std::string a = rendered(plain);
  const std::string b = rendered(explained.result);
  if (a != b) broken("evaluate() and explain() disagree", a + "\n" + b);
  if (plain.ok()) {
    (void)render::render(plain.record(), render::Format::yaml);
    (void)render::render(plain.record(), render::Format::text);
  } else if (plain.error().message.empty()) {
    broken("an evaluation error without a message");
  }
}

// A value of the declared type for each input: `variant` picks ordinary or extreme values.
Value sample(const std::string& type, int variant) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  if (type.rfind("int", 0) == 0) {
    static const std::int64_t ints[] = {8, kMax, 0, kMin, -1};
    return Value(ints[variant % 5]);
  }
  if (type.rfind("float", 0) == 0) {
    static const double floats[] = {0.5, 1e308, -0.0, -1e-300, 3.0};
    return Value(floats[variant % 5]);
  }
  if (type.rfind("bool", 0) == 0) return Value(variant % 2 == 0);
  if (type.rfind("list[int]", 0) == 0) {
    switch (variant % 3) {
      case 0:
        return Value(Value::List{Value(4), Value(2)});
      case 1:
        return Value(Value::List{Value(kMax), Value(kMin)});
      default:
        return Value(Value::List{});
    }
  }
  if (type.rfind("list[string]", 0) == 0) {
    switch (variant % 3) {
      case 0:
        return Value(Value::List{Value("dp"), Value("tp")});
      case 1:
        return Value(Value::List{Value("")});
      default:
        return Value(Value::List{});
    }
  }
  static const char* strings[] = {"spikformer_8_384", "MEMORY", "", "\xc4\xb0\xce\xa3", "speed"};
  return Value(strings[variant % 5]);
}

void evaluate_samples(const RuleSet& rules) {
  evaluate_checked(rules, {});
  for (int variant = 0; variant < 4; ++variant) {
    Inputs inputs;
    for (const InputInfo& info : rules.inputs())
      inputs.emplace_back(info.name, sample(info.type, variant));
    evaluate_checked(rules, inputs);
  }
  // A value of a type no input has, and a name no input has.
  evaluate_checked(rules, {{"no_such_input", Value(1)}});
  if (!rules.inputs().empty()) {
    evaluate_checked(rules,
                     {{rules.inputs().front().name, Value(Value::List{Value(Value::List{})})}});
  }
}

// Loads `text`. Returns the rules, or nullptr after checking and rendering the diagnostics.
std::shared_ptr<RuleSet> load(const std::string& text, const LoadOptions& options = {}) {
  try {
    return std::make_shared<RuleSet>(RuleSet::from_string(text, "fuzz.yaml", options));
  } catch (const LoadError& e) {
    if (!has_errors(e.diagnostics())) broken("LoadError without an error diagnostic", e.what());
    for (const Diagnostic& d : e.diagnostics()) {
      if (d.message.empty() || d.code.empty())
        broken("a diagnostic without code or message", format(d));
      (void)format_with_source(d, text);
    }
    return nullptr;
  }
}

void plan_checked(const std::string& objective,
                  const std::variant<Topology, TopologyMapping>& topology, std::int64_t batch_size,
                  const PlanOptions& options) {
  try {
    const Plan p = plan(objective, topology, batch_size, options);
    (void)render::json_line(render::to_json(p));  // as the CLI prints it
    (void)render::render(p, render::Format::yaml);
    (void)render::render(p, render::Format::text);
  } catch (const RuleError&) {
  } catch (const InputError&) {
  }
}

// The YAML double-quoted form of `text`: every byte kept as it is except quote, backslash
// and control characters, which are escaped (\xNN of a byte below 0x80 is that byte).
std::string yaml_quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool printable_ascii(std::string_view text) {
  for (const char c : text)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

}  // namespace

int rule_file(const std::uint8_t* data, std::size_t size) {
  const std::string text = text_of(data, size);
  // With the table analysis, as `snnplan check` loads (it only adds warnings and notes).
  const auto rules = load(text, LoadOptions{.analyse_tables = true});
  if (!rules) return 0;
  for (const Diagnostic& d : rules->warnings()) (void)format_with_source(d, text);
  (void)render::to_dot(*rules);
  evaluate_samples(*rules);
  return 0;
}

int expression(const std::uint8_t* data, std::size_t size) {
  const std::string text = text_of(data, size);
  const SourceLocation start{"fuzz.yaml", 1, 1};
  const auto parsed = load::parse_expression(text, start);
  if (const auto* d = std::get_if<Diagnostic>(&parsed)) {
    if (d->message.empty() || d->code.empty()) broken("a parse error without a code or message");
    return 0;  // text the parser refuses is refused in a rule file too: nothing to evaluate
  }

  // The same text as a derived value, whose value every evaluation renders into the rationale.
  const std::string file = std::string(
                               "snnplan: 1\n"
                               "inputs:\n"
                               "  i: {type: int, default: 6}\n"
                               "  j: {type: int, default: -3}\n"
                               "  s: {type: string, default: Spikformer_8}\n"
                               "  b: {type: bool, default: true}\n"
                               "  f: {type: float, default: 0.5}\n"
                               "  li: {type: 'list[int]', default: [4, 2]}\n"
                               "  ls: {type: 'list[string]', default: [dp, tp]}\n"
                               "  n: {type: 'int?', default: null}\n"
                               "let:\n"
                               "  x: ") +
                           yaml_quoted(text) +
                           "\n"
                           "record:\n"
                           "  out: {type: rationale}\n"
                           "start: t\n"
                           "tables:\n"
                           "  t:\n"
                           "    - name: r\n"
                           "      because: 'x={x}'\n";
  const auto rules = load(file);
  if (!rules) {
    // Text the parser accepts must not be refused as an expression inside a rule file
    // (when it reaches the file unchanged: printable ASCII not starting with '=').
    if (printable_ascii(text) && (text.empty() || text[0] != '=')) {
      try {
        (void)RuleSet::from_string(file, "fuzz.yaml");
      } catch (const LoadError& e) {
        for (const Diagnostic& d : e.diagnostics())
          if (d.code == "expression-syntax" || d.code == "expression-too-long")
            broken("parse_expression accepts what the rule file loader refuses", format(d));
      }
    }
    return 0;
  }
  evaluate_checked(*rules, {});
  evaluate_checked(*rules, {{"i", Value(std::numeric_limits<std::int64_t>::max())},
                            {"j", Value(0)},
                            {"s", Value("")},
                            {"f", Value(std::numeric_limits<double>::infinity())},
                            {"li", Value(Value::List{})},
                            {"ls", Value(Value::List{Value("\xff")})},
                            {"n", Value(std::numeric_limits<std::int64_t>::min())}});
  evaluate_checked(*rules, {{"i", Value(std::numeric_limits<std::int64_t>::min())},
                            {"j", Value(-1)},
                            {"b", Value(false)},
                            {"f", Value(std::nan(""))},
                            {"n", Value(7)}});
  return 0;
}

int json_line(const std::uint8_t* data, std::size_t size) {
  const std::string line = text_of(data, size);
  // `snnplan recommend --batch`
  const RuleSet& rules = RuleSet::builtin();
  auto inputs = request::inputs_from_json_line(line, rules);
  if (auto* given = std::get_if<Inputs>(&inputs)) {
    evaluate_checked(rules, *given);
  } else if (std::get<std::string>(inputs).empty()) {
    broken("a refused JSON line without a message");
  }
  // The batch's fast reader takes a line only when the exact reader gives the same answer.
  static request::JsonSlotReader reader(rules);
  if (reader.read(line)) {
    const auto* given = std::get_if<Inputs>(&inputs);
    if (!given) broken("the fast reader takes a line the exact reader refuses", line);
    Evaluation by_slot, by_name;
    const bool ok = RuleSetAccess::evaluate_by_slot(rules, reader.slots(), by_slot);
    if (ok != rules.evaluate(*given, by_name)) broken("the fast reader's inputs evaluate differently", line);
    std::string fast, exact;
    if (ok) {
      render::append_json_line(fast, by_slot);
      render::append_json_line(exact, by_name);
    } else {
      fast = std::to_string(static_cast<int>(by_slot.error().kind)) + by_slot.error().message;
      exact = std::to_string(static_cast<int>(by_name.error().kind)) + by_name.error().message;
    }
    if (fast != exact) broken("the fast reader's answer differs from the exact reader's", fast + "\n" + exact);
  }
  // `snnplan plan --batch`
  auto request = request::plan_request_from_json_line(line);
  if (auto* r = std::get_if<request::PlanRequest>(&request)) {
    plan_checked(r->objective, r->topology, r->batch_size, r->options);
  } else if (std::get<std::string>(request).empty()) {
    broken("a refused plan line without a message");
  }
  return 0;
}

int topology(const std::uint8_t* data, std::size_t size) {
  const std::string text = text_of(data, size);
  std::optional<Topology> parsed;
  try {
    parsed = Topology::parse(text);
  } catch (const InputError& e) {
    if (std::string_view(e.what()).empty()) broken("a refused topology without a message");
  }
  // A topology beyond 64 bits is held with stand-in sizes and refused for a plan: nothing
  // below (which compares sizes) holds for it.
  if (parsed && !parsed->fits_64_bits()) {
    try {
      parsed->require_64_bits();
      broken("a topology beyond 64 bits passes require_64_bits()", text);
    } catch (const InputError& e) {
      if (std::string_view(e.what()).empty()) broken("a 64-bit refusal without a message");
    }
    return 0;
  }
  // A given world size must be checked the same way: only its own product is accepted.
  for (const std::int64_t world :
       {std::int64_t{8}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::max()}) {
    try {
      const Topology t = Topology::parse(text, world);
      if (!parsed || t != *parsed || t.world_size() != world)
        broken("parse with a world size accepts other text", text);
    } catch (const InputError&) {
      if (parsed && parsed->world_size() == world)
        broken("parse refuses the world size its sizes multiply to", text);
    }
  }
  if (!parsed) return 0;
  const Topology& t = *parsed;
  try {
    if (Topology::parse(t.to_string()) != t)
      broken("to_string() reads back as another topology", t.to_string());
    if (Topology::parse(text, t.world_size()) != t)
      broken("parse with its own world size differs", text);
  } catch (const InputError& e) {
    broken("to_string() does not read back", e.what());
  }
  if (t.mesh_shape().size() != t.dims().size() || t.ordered_dim_names().size() != t.dims().size())
    broken("mesh_shape() or ordered_dim_names() lose a dimension", t.to_string());
  (void)render::json_line(render::to_json(t));
  plan_checked("memory", t, 64, {});
  PlanOptions options;
  options.features = {{"allow_experimental_spikformer_tp", true}};
  options.model_family = "spikformer";
  plan_checked("capacity", t, std::numeric_limits<std::int64_t>::max(), options);
  return 0;
}

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {{"rule_file", &rule_file},
                                          {"expression", &expression},
                                          {"json_line", &json_line},
                                          {"topology", &topology}};
  return all;
}

}  // namespace snnplan::fuzz
