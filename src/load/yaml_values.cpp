#include "load/yaml_values.hpp"

#include <optional>

#include "load/literals.hpp"
#include "load/yaml_document.hpp"

namespace snnplan::load {
namespace {

using Json = nlohmann::json;

// Throws YAML::Exception beyond 16 levels: the document keeps an alias as its anchored node,
// so an alias inside its own anchor would otherwise never end.
Json node_to_json(const yaml::Node& node, int depth) {
  if (depth > 16) throw YAML::Exception(node.Mark(), "nested too deeply");
  if (node.IsSequence()) {
    Json list = Json::array();
    for (const yaml::Node& item : node.items()) list.push_back(node_to_json(item, depth + 1));
    return list;
  }
  if (node.IsMap()) {
    Json object = Json::object();
    for (const yaml::Entry& entry : node.entries())
      object[entry.first.Scalar()] = node_to_json(entry.second, depth + 1);
    return object;
  }
  if (!node.IsScalar()) return nullptr;
  if (node.Tag() != "?") return node.Scalar();  // quoted: a string
  const auto literal = read_plain_scalar(node.Scalar());
  const Value* v = std::get_if<Value>(&literal);
  if (!v || v->is_string()) return node.Scalar();
  if (v->is_null()) return nullptr;
  if (v->is_bool()) return v->as_bool();
  if (v->is_int()) return v->as_int();
  if (v->is_float()) return v->as_float();
  return node.Scalar();
}

}  // namespace

std::variant<nlohmann::json, std::string> yaml_to_json(std::string_view text) {
  try {
    const yaml::Document document(text);
    return node_to_json(document.root(), 0);
  } catch (const YAML::Exception& e) {
    return std::string(e.what());
  }
}

}  // namespace snnplan::load
