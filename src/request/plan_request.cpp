#include "request/plan_request.hpp"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/messages.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"

namespace snnplan::request {

const std::vector<std::string>& plan_request_keys() {
  static const std::vector<std::string> keys = {
      "objective", "topology", "world_size", "backend",       "batch_size", "model_family",
      "mode",      "features", "tp_roots",   "tp_candidates", "notes"};
  return keys;
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

std::variant<PlanRequest, std::string> plan_request_from_json_line(const std::string& line) {
  if (std::string problem = line_problem(line); !problem.empty()) return problem;
  // The callback tracks the keys of each open object so a repeated key is refused rather
  // than silently replacing the first (a topology given as {"dp": 4, "dp": 2}).
  std::vector<std::set<std::string>> open;
  std::optional<std::string> repeated;
  json::parser_callback_t track = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start)
      open.emplace_back();
    else if (event == json::parse_event_t::object_end && !open.empty())
      open.pop_back();
    else if (event == json::parse_event_t::key && !open.empty() &&
             !open.back().insert(parsed.get<std::string>()).second && !repeated)
      repeated = parsed.get<std::string>();
    return true;
  };
  json parsed;
  try {
    parsed = json::parse(line, track);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e400
    return not_json(e.what());
  }
  if (repeated) return messages::batch_duplicate_key(*repeated);
  if (!parsed.is_object()) return messages::batch_line_not_object(kind(parsed));
  try {
    JsonFields fields(parsed);
    return read_plan_request(fields);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

PlannedLine plan_json_line(const std::string& line, const RuleSet& rules) {
  auto request = plan_request_from_json_line(line);
  if (auto* message = std::get_if<std::string>(&request))
    return {PlannedLine::Kind::bad_input, std::move(*message)};
  const PlanRequest& r = std::get<PlanRequest>(request);
  try {
    return {PlannedLine::Kind::ok, render::json_line(render::to_json(plan(
                                       r.objective, r.topology, r.batch_size, r.options, rules)))};
  } catch (const RuleError& e) {
    return {PlannedLine::Kind::rule_error, e.what()};
  } catch (const InputError& e) {
    return {PlannedLine::Kind::bad_input, e.what()};
  }
}

}  // namespace snnplan::request
