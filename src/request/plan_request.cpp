#include "request/plan_request.hpp"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/messages.hpp"
#include "evaluate/messages.hpp"
#include "plan/messages.hpp"
#include "request/messages.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"

namespace snnplan::request {

const std::vector<std::string>& plan_request_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const PlanKey& k : kPlanKeys) out.emplace_back(k.key);
    return out;
  }();
  return keys;
}

const PlanKey& plan_key(std::string_view key) {
  for (const PlanKey& k : kPlanKeys)
    if (k.key == key) return k;
  throw std::logic_error(messages::not_a_plan_key(key));
}

PlanRequest read_plan_request(PlanFields& in) {
  in.refuse_unknown_keys(plan_request_keys());
  std::string objective = in.text("objective");
  std::variant<Topology, TopologyMapping> topology = in.topology();
  if (Value world_size = in.world_size(); !world_size.is_null())
    topology = Topology::from_mapping(std::get<TopologyMapping>(topology), world_size);
  const std::int64_t batch_size = in.integer("batch_size");
  PlanOptions options;
  if (in.given("backend")) options.backend = in.text("backend");
  if (in.given("model_family")) options.model_family = in.text("model_family");
  if (in.given("mode")) options.mode = in.text("mode");
  if (in.given("features")) options.features = in.features();
  if (in.given("tp_roots")) options.tensor_parallel_roots = in.texts("tp_roots");
  if (in.given("tp_candidates")) options.tensor_parallel_candidates = in.flag("tp_candidates");
  if (in.given("notes")) options.notes = in.texts("notes");
  return PlanRequest{std::move(objective), std::move(topology), batch_size, std::move(options)};
}

namespace {

using json = nlohmann::ordered_json;

const char* kind(const json& v) {
  return json_kind(v.type());
}

// A topology size or world size as Topology::from_mapping reads it, which words the refusals
// (upstream's TypeErrors name the Python type). An integer beyond 64 bits, which JSON and
// Python allow, is read as the nearest double: exact for the powers of two and their small
// multiples that make such world sizes.
Value topology_number(const json& v) {
  switch (v.type()) {
    case json::value_t::number_integer:
      return v.get<std::int64_t>();
    case json::value_t::number_unsigned:
      if (v.get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return static_cast<double>(v.get<std::uint64_t>());
      return static_cast<std::int64_t>(v.get<std::uint64_t>());
    case json::value_t::number_float:
      return v.get<double>();
    case json::value_t::boolean:
      return v.get<bool>();
    case json::value_t::string:
      return v.get<std::string>();
    case json::value_t::null:
      return Value();
    default:  // an array (an object is refused by the caller): from_mapping names its type, list
      return Value(Value::List{});
  }
}

// A JSON line's object: refusals are InputErrors naming the key, as the error line shows them.
class JsonFields final : public PlanFields {
 public:
  explicit JsonFields(const json& object) : object_(object) {}

  void refuse_unknown_keys(const std::vector<std::string>& keys) override {
    for (const auto& [key, value] : object_.items())
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        throw InputError(messages::unknown_input(key, messages::closest_match(key, keys)));
  }
  bool given(std::string_view key) override { return find(key) != nullptr; }
  std::string text(std::string_view key) override {
    const json& v = required(key);
    if (!v.is_string()) throw InputError(messages::input_type(key, "a string", kind(v)));
    return v.get<std::string>();
  }
  std::vector<std::string> texts(std::string_view key) override {
    const json& v = required(key);
    if (!v.is_array()) throw InputError(messages::input_type(key, "an array of strings", kind(v)));
    std::vector<std::string> out;
    for (const json& item : v) {
      if (!item.is_string())
        throw InputError(
            messages::input_type(key, "an array of strings", messages::array_holding(kind(item))));
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  std::int64_t integer(std::string_view key) override {
    const json& v = required(key);
    if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<std::int64_t>();
    if (v.is_number_unsigned() &&
        v.get<std::uint64_t>() <=
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return static_cast<std::int64_t>(v.get<std::uint64_t>());
    if (v.is_number()) throw InputError(messages::integer_input_range(key, v.dump()));
    throw InputError(messages::input_type(key, "an integer", kind(v)));
  }
  bool flag(std::string_view key) override {
    const json& v = required(key);
    if (!v.is_boolean()) throw InputError(messages::input_type(key, "true or false", kind(v)));
    return v.get<bool>();
  }
  TopologyMapping topology() override {
    const json& dims = required("topology");
    if (!dims.is_object())
      throw InputError(messages::input_type(
          "topology", "an object of dimension sizes such as {\"dp\": 4, \"tp\": 2}", kind(dims)));
    TopologyMapping sizes;
    for (const auto& [name, size] : dims.items()) {
      // A Value holds no object, so this one TypeError comes before the objective's check.
      if (size.is_object())
        throw PlanInputError(messages::topology_size_type(name, "dict"),
                             PlanInputError::Python::type_error);
      sizes.emplace_back(name, topology_number(size));
    }
    return sizes;
  }
  Value world_size() override {
    const json* v = find("world_size");
    return v ? topology_number(*v) : Value();
  }
  FeatureFlags features() override {
    const json& v = required("features");
    if (!v.is_object())
      throw InputError(messages::input_type("features", "an object of feature flags", kind(v)));
    FeatureFlags out;
    for (const auto& [name, flag] : v.items()) {
      if (!flag.is_boolean()) throw InputError(messages::feature_not_bool(name, flag.dump()));
      out.emplace_back(name, flag.get<bool>());
    }
    return out;
  }

 private:
  // A key that is absent or null takes its default.
  const json* find(std::string_view key) const {
    auto it = object_.find(std::string(key));
    return it == object_.end() || it->is_null() ? nullptr : &*it;
  }
  const json& required(std::string_view key) const {
    const json* v = find(key);
    if (!v) throw InputError(messages::missing_input(key));
    return *v;
  }

  const json& object_;
};

}  // namespace

namespace {

// nlohmann's own tree builder (json::parse without a callback uses it), which also remembers
// the first key repeated in any object: the tree would silently keep one of the two values (a
// topology given as {"dp": 4, "dp": 2}). A parse error is kept, with json::parse's message,
// rather than thrown: a throw costs more than parsing a line.
class TreeWithRepeats : public nlohmann::detail::json_sax_dom_parser<json> {
  using Tree = nlohmann::detail::json_sax_dom_parser<json>;

 public:
  explicit TreeWithRepeats(json& tree_root) : Tree(tree_root) {}
  bool start_object(std::size_t size) {
    open_.emplace_back();
    return Tree::start_object(size);
  }
  bool end_object() {
    open_.pop_back();
    return Tree::end_object();
  }
  bool key(json::string_t& name) {
    std::vector<std::string>& keys = open_.back();
    if (std::find(keys.begin(), keys.end(), name) == keys.end()) keys.push_back(name);
    else if (!repeated) repeated = name;
    return Tree::key(name);
  }

  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    error = e.what();
    return false;
  }

  std::optional<std::string> repeated;
  std::string error;  // what the parse error says

 private:
  std::vector<std::vector<std::string>> open_;  // the keys of each open object
};

}  // namespace

std::variant<PlanRequest, std::string> plan_request_from_json_line(const std::string& line) {
  if (std::string problem = line_problem(line); !problem.empty()) return problem;
  json parsed;
  TreeWithRepeats tree(parsed);
  // parse_error and out_of_range (a number like 1e400) both arrive at tree.parse_error.
  if (!json::sax_parse(line, &tree)) return not_json(tree.error);
  if (tree.repeated) return messages::batch_duplicate_key(*tree.repeated);
  if (!parsed.is_object()) return messages::batch_line_not_object(kind(parsed));
  try {
    JsonFields fields(parsed);
    return read_plan_request(fields);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

PlannedLine plan_json_line(const std::string& line, const RuleSet& rules, bool traced) {
  auto request = plan_request_from_json_line(line);
  if (auto* message = std::get_if<std::string>(&request))
    return {PlannedLine::Kind::bad_input, std::move(*message), {}};
  const PlanRequest& r = std::get<PlanRequest>(request);
  std::vector<TraceStep> steps;
  try {
    // The steps of the evaluation plan() makes: the same rules and inputs. A topology that
    // plan() refuses before the rules run leaves them empty (the refusal follows below).
    if (traced) {
      try {
        const Topology topology = std::holds_alternative<Topology>(r.topology)
                                      ? std::get<Topology>(r.topology)
                                      : Topology::from_mapping(std::get<TopologyMapping>(r.topology));
        const FeatureSet features = FeatureSet::of(rules, r.options.features);
        steps = rules.explain(plan_inputs(r.objective, topology, r.batch_size, features, r.options)).steps;
      } catch (const InputError&) {
      }
    }
    const Plan planned = plan(r.objective, r.topology, r.batch_size, r.options, rules);
    std::string text;
    if (traced) {
      nlohmann::ordered_json traced_line = render::to_json(planned);
      render::add_rule_path(traced_line, steps);
      text = render::json_line(traced_line);
    } else {
      render::append_json_line(text, planned);  // the same bytes, without the JSON tree
    }
    return {PlannedLine::Kind::ok, std::move(text), std::move(steps)};
  } catch (const RuleError& e) {
    return {PlannedLine::Kind::rule_error, e.what(), std::move(steps)};
  } catch (const InputError& e) {
    return {PlannedLine::Kind::bad_input, e.what(), std::move(steps)};
  }
}

}  // namespace snnplan::request
