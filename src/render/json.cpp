// JSON: the JSON values of records, plans, traces and diagnostics, and the json format's
// renderers (render/format.hpp).

#include "render/json.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <optional>
#include <type_traits>

#include "render/format.hpp"
#include "snnplan/json.hpp"

namespace snnplan::render {

nlohmann::ordered_json to_json(const Value& value) {
  if (value.is_null()) return nullptr;
  if (value.is_bool()) return value.as_bool();
  if (value.is_int()) return value.as_int();
  if (value.is_float()) return value.as_float();
  if (value.is_string()) return value.as_string();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Value& item : value.as_list()) list.push_back(to_json(item));
  return list;
}

nlohmann::ordered_json to_json(const Record& record) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < record.names().size(); ++k)
    out[record.names()[k]] = to_json(record.values()[k]);
  return out;
}

std::string json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string error_line(const std::string& message) {
  return json_line(nlohmann::ordered_json{{"error", message}});
}

namespace {

using json = nlohmann::ordered_json;

template <typename T>
json optional_array(const std::optional<std::vector<T>>& items) {
  if (!items) return nullptr;
  return json(*items);
}

template <typename T>
json optional_value(const std::optional<T>& v) {
  if (!v) return nullptr;
  return json(*v);
}

}  // namespace

json to_json(const Topology& topology) {
  json dims = json::object();
  for (const Topology::Dimension& d : topology.dims()) dims[d.name] = d.size;
  return json{{"world_size", topology.world_size()},
              {"dims", std::move(dims)},
              {"mesh_shape", topology.mesh_shape()}};
}

json to_json(const FeatureSet& features) {
  json out = json::object();
  for (const FeatureSet::Flag& flag : features.flags()) out[flag.name] = flag.value;
  return out;
}

json to_json(const Plan& p) {
  json out = json::object();
  out["mode"] = p.mode;
  out["objective"] = p.objective;
  out["topology"] = to_json(p.topology);
  out["model_family"] = p.model_family;
  out["backend"] = p.backend;
  out["batch_size"] = p.batch_size;
  out["optimizer_strategy"] = p.optimizer_strategy;
  out["memopt_level"] = p.memopt_level;
  out["rationale"] = p.rationale;
  out["notes"] = p.notes;
  out["tensor_parallel_roots"] = optional_array(p.tensor_parallel_roots);
  out["mesh_shape"] = optional_array(p.mesh_shape);
  out["tp_mesh_dim"] = p.tp_mesh_dim;
  out["dp_mesh_dim"] = optional_value(p.dp_mesh_dim);
  out["pp_microbatches"] = optional_value(p.pp_microbatches);
  out["pp_schedule"] = p.pp_schedule;
  out["pp_virtual_stages"] = p.pp_virtual_stages;
  out["pp_layout"] = optional_array(p.pp_layout);
  out["pp_delay_wgrad"] = p.pp_delay_wgrad;
  out["experimental_features"] = to_json(p.experimental_features);
  return out;
}

json to_json(const std::vector<TraceStep>& steps) {
  json out = json::array();
  for (const TraceStep& step : steps) {
    json j = {{"step", to_string(step.kind)}, {"depth", step.depth}};
    if (!step.table.empty()) j["table"] = step.table;
    if (!step.rule.empty()) j["rule"] = step.rule;
    if (step.location.known()) j["at"] = to_string(step.location);
    if (!step.detail.empty()) j["detail"] = step.detail;
    out.push_back(std::move(j));
  }
  return out;
}

// Indented by two, as the CLI prints one document.
std::string pretty(const json& value) {
  return value.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void add_rule_path(json& line, const std::vector<TraceStep>& steps) {
  line["rules"] = fired_rule_path(steps);
  line["trace"] = to_json(steps);
}

json to_json(const Diagnostic& d) {
  return json{
      {"file", d.location.file},           {"line", d.location.line}, {"column", d.location.column},
      {"severity", to_string(d.severity)}, {"code", d.code},          {"message", d.message}};
}

namespace json_format {

std::string recommendation(const Record& record) { return snnplan::to_json(record, JsonLayout::indented); }

std::string traced_recommendation(const Explanation& explanation) {
  json j = render::to_json(explanation.result.record());  // (ADL would find snnplan::to_json too)
  j["trace"] = to_json(explanation.steps);
  return pretty(j);
}

std::string explanation(const Explanation& explanation) {
  json j = {{"trace", to_json(explanation.steps)}};
  if (explanation.result.ok()) j["result"] = render::to_json(explanation.result.record());
  else j["error"] = explanation.result.error().message;
  return pretty(j);
}

std::string plan(const Plan& plan) {
  return pretty(to_json(plan));
}

std::string diagnostics(const std::vector<Diagnostic>& diagnostics,
                        const std::vector<SourceText>&) {
  json all = json::array();
  for (const Diagnostic& d : diagnostics) all.push_back(to_json(d));
  return json_line(all) + "\n";
}

std::string microbatches(std::int64_t count) {
  return json{{"pp_microbatches", count}}.dump() + "\n";
}

}  // namespace json_format

namespace {

// A string JSON needs no escapes for: printable ASCII without quote or backslash (0x7F, which
// nlohmann writes as it is, is left to its path too). A record's rationale lines are most of a
// JSON line's bytes, so sixteen bytes at a time where SSE2 is there (every x86-64; the last
// chunk overlaps the one before), else eight: the word test may flag a plain string as not
// plain, never the reverse, and a flagged string only takes the library's exact path.
#if defined(__SSE2__)
inline int unplain_bytes(__m128i v) {
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
  // Signed: bytes of 0x80 and more are negative, so below 0x20 too.
  return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                        _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del))));
}

bool is_plain(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  if (n >= 16) {
    for (std::size_t k = 0; k + 16 < n; k += 16)
      if (unplain_bytes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k))) != 0) return false;
    return unplain_bytes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16))) == 0;
  }
  if (n >= 8) {
    const __m128i head = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    const __m128i tail = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + n - 8));
    return (unplain_bytes(_mm_unpacklo_epi64(head, tail)) & 0xFFFF) == 0;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const auto c = static_cast<unsigned char>(p[k]);
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') return false;
  }
  return true;
}
#else
bool is_plain(std::string_view s) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
  auto has_zero_byte = [](std::uint64_t w) { return ((w - kOnes) & ~w & kHighs) != 0; };
  std::size_t k = 0;
  for (; k + 8 <= s.size(); k += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + k, 8);
    const bool control = ((w - kOnes * 0x20) & ~w & kHighs) != 0;  // a byte below 0x20
    const bool high = ((w | (w + kOnes)) & kHighs) != 0;           // a byte of 0x7F or more
    if (control || high || has_zero_byte(w ^ (kOnes * '"')) || has_zero_byte(w ^ (kOnes * '\\')))
      return false;
  }
  for (; k < s.size(); ++k) {
    const auto c = static_cast<unsigned char>(s[k]);
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') return false;
  }
  return true;
}
#endif

void append_json_string(std::string& out, std::string_view s) {
  if (is_plain(s)) {
    const std::size_t at = out.size();
    out.append(s.size() + 2, '"');
    std::memcpy(out.data() + at + 1, s.data(), s.size());
    return;
  }
  // Escapes, non-ASCII and invalid UTF-8: exactly as nlohmann's serializer writes them.
  out += json_line(nlohmann::ordered_json(std::string(s)));
}

// The line break and indentation before a member or item at `depth` in the indented layout,
// as nlohmann's dump(2) writes them: two spaces a level.
void append_break(std::string& out, int depth) {
  out += '\n';
  out.append(2 * static_cast<std::size_t>(depth), ' ');
}

// For a Value (a Record's field) or a ValueView (an Evaluation's): the same accessors. With
// `depth` -1 on one line (json_line()); with depth >= 0 indented at that level (pretty()).
template <typename V>
void append_json_value(std::string& out, const V& value, int depth = -1) {
  if (value.is_null()) {
    out.append("null", 4);
  } else if (value.is_bool()) {
    if (value.as_bool()) out.append("true", 4);
    else out.append("false", 5);
  } else if (value.is_int()) {
    const fmt::format_int digits(value.as_int());
    out.append(digits.data(), digits.size());
  } else if (value.is_float()) {
    // The JSON library's own float format: null for NaN and infinities, else its shortest
    // round-trip digits (the function its serializer calls, so the bytes are the same).
    const double x = value.as_float();
    if (!std::isfinite(x)) {
      out += "null";
      return;
    }
    std::array<char, 64> digits{};
    char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), x);
    out.append(digits.data(), static_cast<std::size_t>(end - digits.data()));
  } else if (value.is_string()) {
    append_json_string(out, value.as_string());
  } else {
    const auto& items = value.as_list();
    const bool indented = depth >= 0 && items.begin() != items.end();  // [] stays on its line
    out += '[';
    bool first = true;
    for (const auto& item : items) {
      if (!first) out += ',';
      first = false;
      if (indented) append_break(out, depth + 1);
      append_json_value(out, item, indented ? depth + 1 : -1);
    }
    if (indented) append_break(out, depth);
    out += ']';
  }
}

template <typename Names, typename Values>
void append_json_object(std::string& out, const Names& names, const Values& values,
                        int depth = -1) {
  const bool indented = depth >= 0 && names.size() > 0;  // {} stays on its line
  out += '{';
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k) out += ',';
    if (indented) append_break(out, depth + 1);
    append_json_string(out, names[k]);
    if (indented)
      out.append(": ", 2);
    else
      out += ':';
    append_json_value(out, values[k], indented ? depth + 1 : -1);
  }
  if (indented) append_break(out, depth);
  out += '}';
}

// The members of a JSON object under construction: `"name":` before each value.
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string& out) : out_(out) { out_ += '{'; }
  ObjectWriter(const ObjectWriter&) = delete;
  ObjectWriter& operator=(const ObjectWriter&) = delete;
  ~ObjectWriter() { out_ += '}'; }
  std::string& key(std::string_view name) {
    if (!first_) out_ += ',';
    first_ = false;
    append_json_string(out_, name);
    out_ += ':';
    return out_;
  }

 private:
  std::string& out_;
  bool first_ = true;
};

void append_json_int(std::string& out, std::int64_t v) {
  const fmt::format_int digits(v);
  out.append(digits.data(), digits.size());
}

template <typename T>
void append_json_items(std::string& out, const std::vector<T>& items) {
  out += '[';
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k) out += ',';
    if constexpr (std::is_same_v<T, std::string>) append_json_string(out, items[k]);
    else append_json_int(out, items[k]);
  }
  out += ']';
}

template <typename T>
void append_json_optional(std::string& out, const std::optional<T>& v) {
  if (!v) out += "null";
  else if constexpr (std::is_same_v<T, std::int64_t>) append_json_int(out, *v);
  else append_json_items(out, *v);
}

// Whether two of `items` have the same name (`name_of(item)`). The JSON library's object keeps
// such a name once (at its first place, with its last value, as ordered_json's operator[]
// does), which the direct writers do not: such an object takes the library's path.
template <typename Items, typename NameOf>
bool repeats_a_name(const Items& items, const NameOf& name_of) {
  for (std::size_t k = 1; k < items.size(); ++k)
    for (std::size_t j = 0; j < k; ++j)
      if (name_of(items[j]) == name_of(items[k])) return true;
  return false;
}

// An object of named values as to_json() builds it; false, writing nothing, when a name repeats.
template <typename Items, typename Append>
bool append_json_members(std::string& out, const Items& items, const Append& append) {
  const auto name_of = [](const auto& item) -> const std::string& { return item.name; };
  if (repeats_a_name(items, name_of)) return false;
  ObjectWriter object(out);
  for (const auto& item : items) append(object.key(item.name), item);
  return true;
}

}  // namespace

void append_json_line(std::string& out, const Plan& p) {
  const std::size_t start = out.size();
  bool direct = true;
  {
    ObjectWriter plan(out);
    append_json_string(plan.key("mode"), p.mode);
    append_json_string(plan.key("objective"), p.objective);
    {
      ObjectWriter topology(plan.key("topology"));
      append_json_int(topology.key("world_size"), p.topology.world_size());
      direct = append_json_members(topology.key("dims"), p.topology.dims(),
                                   [](std::string& o, const Topology::Dimension& d) { append_json_int(o, d.size); });
      append_json_items(topology.key("mesh_shape"), p.topology.mesh_shape());
    }
    append_json_string(plan.key("model_family"), p.model_family);
    append_json_string(plan.key("backend"), p.backend);
    append_json_int(plan.key("batch_size"), p.batch_size);
    append_json_string(plan.key("optimizer_strategy"), p.optimizer_strategy);
    append_json_int(plan.key("memopt_level"), p.memopt_level);
    append_json_items(plan.key("rationale"), p.rationale);
    append_json_items(plan.key("notes"), p.notes);
    append_json_optional(plan.key("tensor_parallel_roots"), p.tensor_parallel_roots);
    append_json_optional(plan.key("mesh_shape"), p.mesh_shape);
    append_json_int(plan.key("tp_mesh_dim"), p.tp_mesh_dim);
    append_json_optional(plan.key("dp_mesh_dim"), p.dp_mesh_dim);
    append_json_optional(plan.key("pp_microbatches"), p.pp_microbatches);
    append_json_string(plan.key("pp_schedule"), p.pp_schedule);
    append_json_int(plan.key("pp_virtual_stages"), p.pp_virtual_stages);
    append_json_optional(plan.key("pp_layout"), p.pp_layout);
    plan.key("pp_delay_wgrad") += p.pp_delay_wgrad ? "true" : "false";
    direct = append_json_members(plan.key("experimental_features"), p.experimental_features.flags(),
                                 [](std::string& o, const FeatureSet::Flag& f) { o += f.value ? "true" : "false"; }) &&
             direct;
  }
  if (direct) return;
  out.resize(start);
  out += json_line(to_json(p));
}

namespace {
// A Record built by hand may name a field twice (see repeats_a_name()).
bool repeats_a_field_name(const Record& record) {
  const auto itself = [](const std::string& name) -> const std::string& { return name; };
  return repeats_a_name(record.names(), itself);
}
}  // namespace

void append_json_line(std::string& out, const Record& record) {
  if (repeats_a_field_name(record))
    out += json_line(render::to_json(record));
  else
    append_json_object(out, record.names(), record.values());
}

void append_json_indented(std::string& out, const Record& record) {
  if (!repeats_a_field_name(record)) {
    append_json_object(out, record.names(), record.values(), 0);
    return;
  }
  const std::string text = pretty(render::to_json(record));
  out.append(text, 0, text.size() - 1);  // without pretty()'s newline
}

void append_json_line(std::string& out, const Evaluation& evaluation) {
  append_json_object(out, evaluation.names(), evaluation.values());
}

void append_error_line(std::string& out, std::string_view message, std::optional<std::size_t> line) {
  out += "{\"error\":";
  append_json_string(out, message);
  if (line) {
    out += ",\"line\":";
    const fmt::format_int digits(*line);
    out.append(digits.data(), digits.size());
  }
  out += '}';
}

RecordLineWriter::RecordLineWriter(std::span<const std::string> names) {
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::string key(k == 0 ? "{" : ",");
    append_json_string(key, names[k]);
    key += ':';
    keys_.push_back(std::move(key));
  }
}

void RecordLineWriter::append(std::string& out, std::span<const ValueView> values) {
  if (keys_.empty()) out += '{';
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    out += keys_[k];
    const ValueView& value = values[k];
    if (!value.is_float()) {
      append_json_value(out, value);
      continue;
    }
    // Most records repeat the same few floats: their digits are computed once.
    const double x = value.as_float();
    if (std::memcmp(&x, &last_float_, sizeof x) != 0 || last_float_text_.empty()) {
      last_float_text_.clear();
      append_json_value(last_float_text_, value);
      last_float_ = x;
    }
    out += last_float_text_;
  }
  out += '}';
}

}  // namespace snnplan::render

namespace snnplan {

std::string to_json(const Record& record, JsonLayout layout) {
  std::string text;
  if (layout == JsonLayout::indented) {
    render::append_json_indented(text, record);  // what pretty(render::to_json(record)) writes
    text += '\n';
  } else {
    render::append_json_line(text, record);
  }
  return text;
}

}  // namespace snnplan
