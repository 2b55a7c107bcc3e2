#include "request/json_inputs.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "request/messages.hpp"

namespace snnplan::request {

const char* json_kind(nlohmann::json::value_t type) {
  switch (type) {
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::number_float: return "a float";
    default: return "a number";
  }
}

std::string line_problem(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return messages::batch_empty_line();
  // nlohmann's lexer takes a NUL byte for the end of the input, so "{...}\0anything" would
  // parse as the object alone.
  if (const auto nul = line.find('\0'); nul != std::string::npos) return messages::batch_nul_byte(nul + 1);
  return {};
}

std::string not_json(std::string what) {
  if (auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos) what.erase(0, close + 2);
  return messages::batch_not_json(what);
}

namespace {

std::string declared_type(const RuleSet& rules, const std::string& key) {
  for (const InputInfo& info : rules.inputs())
    if (info.name == key) return info.type;
  return "";
}

}  // namespace

std::variant<Inputs, std::string> inputs_from_json(const nlohmann::json& object, const RuleSet& rules) {
  if (!object.is_object()) return messages::batch_line_not_object(json_kind(object.type()));
  Inputs inputs;
  inputs.reserve(object.size());
  for (const auto& [key, value] : object.items()) {
    switch (value.type()) {
      case nlohmann::json::value_t::string: inputs.emplace_back(key, value.get<std::string>()); break;
      case nlohmann::json::value_t::boolean: inputs.emplace_back(key, value.get<bool>()); break;
      case nlohmann::json::value_t::null: inputs.emplace_back(key, Value()); break;
      case nlohmann::json::value_t::number_integer: inputs.emplace_back(key, value.get<std::int64_t>()); break;
      case nlohmann::json::value_t::number_unsigned: {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          return messages::integer_input_too_large(key, std::to_string(u));
        inputs.emplace_back(key, static_cast<std::int64_t>(u));
        break;
      }
      case nlohmann::json::value_t::number_float:
        if (declared_type(rules, key) == "int") {
          // JSON numbers beyond 64 bits arrive here as floats, so say both things.
          return messages::integer_input_range(key, value.dump());
        }
        inputs.emplace_back(key, value.get<double>());
        break;
      case nlohmann::json::value_t::array: {
        Value::List items;
        for (const auto& item : value) {
          if (item.is_array() || item.is_object())
            return messages::batch_value_kind(key, messages::array_holding(item.is_array() ? "an array" : "an object"));
          auto one = inputs_from_json(nlohmann::json::object({{key, item}}), rules);
          if (auto* failure = std::get_if<std::string>(&one)) return std::move(*failure);
          items.push_back(std::move(std::get<Inputs>(one).front().second));
        }
        inputs.emplace_back(key, Value(std::move(items)));
        break;
      }
      default:
        return messages::batch_value_kind(key, json_kind(value.type()));
    }
  }
  return inputs;
}

namespace {

// One top-level member of the line, as the SAX events gave it.
struct Member {
  std::string key;
  nlohmann::json::value_t type = nlohmann::json::value_t::null;
  Value value;              // strings, booleans, null, integers
  std::uint64_t unsigned_value = 0;
  double float_value = 0;
  Value::List items;                      // an array of scalars (for list inputs)
  std::optional<std::string> item_error;  // why an item of the array cannot be a value
};

// Builds the line's members straight from nlohmann's SAX events -- no JSON tree -- and keeps
// the spelling of each top-level number that arrived as a float, so an integer too long for
// 64 bits is reported with the digits the user wrote, not 1e+20. Members come out in key
// order, as a JSON object holds them; a key repeated in any object is refused.
class MemberReader {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  bool null() { return scalar(nlohmann::json::value_t::null, Value()); }
  bool boolean(bool v) { return scalar(nlohmann::json::value_t::boolean, Value(v)); }
  bool number_integer(number_integer_t v) { return scalar(nlohmann::json::value_t::number_integer, Value(std::int64_t{v})); }
  bool number_unsigned(number_unsigned_t v) {
    if (in_member_array()) {
      if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        item_error(messages::integer_input_too_large(members_.back().key, std::to_string(v)));
      else members_.back().items.emplace_back(static_cast<std::int64_t>(v));
    }
    if (member_level()) {
      add(nlohmann::json::value_t::number_unsigned, Value());
      members_.back().unsigned_value = v;
    }
    return true;
  }
  bool number_float(number_float_t v, const string_t& spelling) {
    if (member_level()) spellings_[current_key()] = spelling;
    if (in_member_array()) {
      // An integer too long for 64 bits arrives as a float; say so with its digits.
      if (spelling.find_first_not_of("-0123456789") == std::string::npos)
        item_error(messages::integer_input_too_large(members_.back().key, spelling));
      else members_.back().items.emplace_back(v);
    }
    if (member_level()) {
      add(nlohmann::json::value_t::number_float, Value());
      members_.back().float_value = v;
    }
    return true;
  }
  bool string(string_t& v) { return scalar(nlohmann::json::value_t::string, Value(std::move(v))); }
  bool binary(binary_t&) { return scalar(nlohmann::json::value_t::binary, Value()); }
  bool start_object(std::size_t) {
    if (depth_ > 0) open_keys_.emplace_back();  // a top-level object's keys are its members'
    return open(nlohmann::json::value_t::object, true);
  }
  bool end_object() {
    if (depth_ > 1) open_keys_.pop_back();
    --objects_;
    --depth_;
    return true;
  }
  bool start_array(std::size_t) { return open(nlohmann::json::value_t::array, false); }
  bool end_array() {
    if (--depth_ == 1) member_array_ = false;
    return true;
  }
  bool key(string_t& name) {
    // A repeated key would silently replace the first value: remember the first repeat. Every
    // key of the top-level object has a member (added with its value), so those are checked
    // against the members; nested objects keep their own lists.
    if (depth_ == 1 && top_ == nlohmann::json::value_t::object) {
      const bool seen = std::any_of(members_.begin(), members_.end(), [&](const Member& m) { return m.key == name; });
      if (seen && !repeated_) repeated_ = name;
      key_ = std::move(name);
      return true;
    }
    auto& keys = open_keys_.back();
    if (std::find(keys.begin(), keys.end(), name) != keys.end()) {
      if (!repeated_) repeated_ = name;
    } else {
      keys.push_back(name);
    }
    if (objects_ == 1) key_ = name;
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    error_ = e.what();
    return false;
  }

  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const std::optional<std::string>& repeated_key() const { return repeated_; }
  [[nodiscard]] nlohmann::json::value_t top_type() const { return top_; }
  [[nodiscard]] const std::map<std::string, std::string>& spellings() const { return spellings_; }
  // Members in key order (as a JSON object holds them; keys are unique once repeated_key()
  // is empty).
  std::vector<Member*> members() {
    std::vector<Member*> order;
    order.reserve(members_.size());
    for (Member& m : members_) order.push_back(&m);
    std::sort(order.begin(), order.end(), [](const Member* a, const Member* b) { return a->key < b->key; });
    return order;
  }

 private:
  // The key of the top-level member being read: key_ until its value is added, then that
  // member's (values inside a member's array come after the add).
  [[nodiscard]] const std::string& current_key() const {
    return depth_ == 1 || members_.empty() ? key_ : members_.back().key;
  }
  // A value directly inside the top-level object (depth 1), not inside a nested value.
  [[nodiscard]] bool member_level() const { return depth_ == 1 && top_ == nlohmann::json::value_t::object; }
  // A value directly inside an array that is a member's value: an item of a list input.
  [[nodiscard]] bool in_member_array() const { return member_array_ && depth_ == 2; }
  void item_error(std::string message) {
    if (!members_.back().item_error) members_.back().item_error = std::move(message);
  }

  bool scalar(nlohmann::json::value_t type, Value v) {
    if (depth_ == 0) top_ = type;
    else if (member_level()) add(type, std::move(v));
    else if (in_member_array()) members_.back().items.push_back(std::move(v));
    return true;
  }
  bool open(nlohmann::json::value_t type, bool object) {
    if (depth_ == 0) {
      top_ = type;
    } else if (member_level()) {
      add(type, Value());
      member_array_ = !object;
    } else if (in_member_array()) {
      item_error(messages::batch_value_kind(members_.back().key, messages::array_holding(object ? "an object" : "an array")));
    }
    ++depth_;
    if (object) ++objects_;
    return true;
  }
  // The member for the last key (each top-level key has exactly one value, so its key text
  // can move into the member).
  void add(nlohmann::json::value_t type, Value v) {
    if (members_.empty()) members_.reserve(16);
    Member& m = members_.emplace_back();
    m.key = std::move(key_);
    m.type = type;
    m.value = std::move(v);
  }

  int depth_ = 0;    // objects and arrays
  int objects_ = 0;  // objects only
  bool member_array_ = false;  // the open array at depth 2 is a member's value
  nlohmann::json::value_t top_ = nlohmann::json::value_t::discarded;
  std::string key_;
  std::string error_;
  std::vector<Member> members_;
  std::map<std::string, std::string> spellings_;
  std::vector<std::vector<std::string>> open_keys_;  // keys seen in each open object
  std::optional<std::string> repeated_;
};

}  // namespace

std::variant<Inputs, std::string> inputs_from_json_line(const std::string& line, const RuleSet& rules) {
  if (std::string problem = line_problem(line); !problem.empty()) return problem;
  MemberReader reader;
  // parse_error and out_of_range (a number like 1e400) both arrive at reader.parse_error.
  if (!nlohmann::json::sax_parse(line, &reader)) return not_json(reader.error());
  if (reader.repeated_key()) return messages::batch_duplicate_key(*reader.repeated_key());
  for (const auto& [key, spelling] : reader.spellings()) {
    const bool integer = spelling.find_first_not_of("-0123456789") == std::string::npos;
    if (integer && declared_type(rules, key) == "int") return messages::integer_input_too_large(key, spelling);
  }
  if (reader.top_type() != nlohmann::json::value_t::object)
    return messages::batch_line_not_object(json_kind(reader.top_type()));
  Inputs inputs;
  for (Member* member : reader.members()) {
    Member& m = *member;
    switch (m.type) {
      case nlohmann::json::value_t::string:
      case nlohmann::json::value_t::boolean:
      case nlohmann::json::value_t::null:
      case nlohmann::json::value_t::number_integer: inputs.emplace_back(std::move(m.key), std::move(m.value)); break;
      case nlohmann::json::value_t::number_unsigned:
        if (m.unsigned_value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          return messages::integer_input_too_large(m.key, std::to_string(m.unsigned_value));
        inputs.emplace_back(std::move(m.key), static_cast<std::int64_t>(m.unsigned_value));
        break;
      case nlohmann::json::value_t::number_float:
        if (declared_type(rules, m.key) == "int") {
          // JSON numbers beyond 64 bits arrive here as floats, so say both things.
          return messages::integer_input_range(m.key, nlohmann::json(m.float_value).dump());
        }
        inputs.emplace_back(std::move(m.key), m.float_value);
        break;
      case nlohmann::json::value_t::array:
        if (m.item_error) return std::move(*m.item_error);
        inputs.emplace_back(std::move(m.key), Value(std::move(m.items)));
        break;
      default:
        return messages::batch_value_kind(m.key, json_kind(m.type));
    }
  }
  return inputs;
}

}  // namespace snnplan::request
