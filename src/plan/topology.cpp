// Topology and FeatureSet: the parts of a plan that are plain data checked in C++.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/messages.hpp"
#include "snnplan/plan.hpp"

namespace snnplan {
namespace {

// The dimensions a mesh lists first, in this order.
constexpr std::array<std::string_view, 4> kLeadingDims = {"dp", "tp", "pp", "vpp"};

// "dp=4 x tp=2" for messages.
std::string sizes_text(const std::vector<Topology::Dimension>& dims) {
  std::string out;
  for (const auto& d : dims) out += fmt::format("{}{}={}", out.empty() ? "" : " x ", d.name, d.size);
  return out;
}

// How a refused value reads in a message: 4.5, true, 'text' (a string), null, a list.
std::string shown(const Value& v) {
  if (v.is_null()) return "null";
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  if (v.is_int()) return std::to_string(v.as_int());
  if (v.is_float()) return fmt::format("{}", v.as_float());
  if (v.is_string()) return fmt::format("the string '{}'", v.as_string());
  return "a list";
}

// An integer, or a float with no fractional part within the 64-bit range; else nullopt.
std::optional<std::int64_t> whole_number(const Value& v) {
  if (v.is_int()) return v.as_int();
  if (!v.is_float()) return std::nullopt;
  const double d = v.as_float();
  // 2^63 is exactly representable; every double below it in magnitude converts safely.
  constexpr double kLimit = 9223372036854775808.0;
  if (!std::isfinite(d) || d != std::trunc(d) || d >= kLimit || d < -kLimit) return std::nullopt;
  return static_cast<std::int64_t>(d);
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

}  // namespace

Topology::Topology(std::vector<Dimension> dims, std::optional<std::int64_t> world_size) : dims_(std::move(dims)) {
  if (world_size && *world_size <= 0) throw InputError(messages::topology_world_size(std::to_string(*world_size)));
  if (dims_.empty()) throw InputError(messages::topology_no_dimensions());
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    if (dims_[k].name.empty()) throw InputError(messages::topology_empty_name(k + 1));
  }
  for (const Dimension& d : dims_) {
    if (d.size <= 0) throw InputError(messages::topology_size(d.name, std::to_string(d.size)));
  }
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    for (std::size_t j = 0; j < k; ++j)
      if (dims_[j].name == dims_[k].name) throw InputError(messages::topology_duplicate(dims_[k].name));
  }
  std::int64_t product = 1;
  for (const Dimension& d : dims_) {
    if (product > std::numeric_limits<std::int64_t>::max() / d.size) throw InputError(messages::topology_too_large(sizes_text(dims_)));
    product *= d.size;
  }
  if (world_size && *world_size != product) {
    throw InputError(messages::topology_product(sizes_text(dims_), std::to_string(product), *world_size));
  }
  world_size_ = product;
}

Topology Topology::from_values(const std::vector<std::pair<std::string, Value>>& dims, const Value& world_size) {
  // The checks run in the constructor's order, so each input gets the same first message
  // whichever way it arrives.
  std::optional<std::int64_t> world;
  if (!world_size.is_null()) {
    world = whole_number(world_size);  // a boolean is refused, though C++ and Python read true as 1
    if (!world) throw InputError(messages::topology_world_size(shown(world_size)));
    if (*world <= 0) throw InputError(messages::topology_world_size(std::to_string(*world)));
  }
  if (dims.empty()) throw InputError(messages::topology_no_dimensions());
  for (std::size_t k = 0; k < dims.size(); ++k)
    if (dims[k].first.empty()) throw InputError(messages::topology_empty_name(k + 1));
  std::vector<Dimension> typed;
  typed.reserve(dims.size());
  for (const auto& [name, size] : dims) {
    const auto n = whole_number(size);
    if (!n) throw InputError(messages::topology_size(name, shown(size)));
    typed.push_back(Dimension{name, *n});
  }
  return Topology(std::move(typed), world);
}

Topology Topology::parse(std::string_view text, std::optional<std::int64_t> world_size) {
  auto fail = [&](const std::string& why) { return InputError(messages::topology_syntax(text, why)); };
  std::vector<Dimension> dims;
  if (trim(text).empty()) throw InputError(messages::topology_no_dimensions());
  std::size_t begin = 0;
  for (std::size_t position = 1; begin <= text.size(); ++position) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view entry = trim(text.substr(begin, comma - begin));
    begin = comma + 1;
    if (entry.empty()) throw fail(messages::topology_entry_empty(position));
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos) throw fail(messages::topology_entry_no_equals(entry));
    const std::string_view name = trim(entry.substr(0, eq));
    const std::string_view size = trim(entry.substr(eq + 1));
    if (name.empty()) throw fail(messages::topology_entry_no_name(entry));
    if (size.empty()) throw fail(messages::topology_entry_no_size(name));
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(size.data(), size.data() + size.size(), value);
    if (ec == std::errc::result_out_of_range) throw fail(messages::topology_entry_too_large(name, size));
    if (ec != std::errc() || ptr != size.data() + size.size()) throw fail(messages::topology_entry_not_integer(name, size));
    for (const Dimension& d : dims)
      if (d.name == name) throw fail(messages::topology_entry_duplicate(name));
    dims.push_back(Dimension{std::string(name), value});
  }
  return Topology(std::move(dims), world_size);
}

std::vector<std::string> Topology::ordered_dim_names() const {
  std::vector<std::string> names;
  names.reserve(dims_.size());
  for (std::string_view leading : kLeadingDims)
    if (size_of(leading)) names.emplace_back(leading);
  for (const Dimension& d : dims_)
    if (std::find(kLeadingDims.begin(), kLeadingDims.end(), d.name) == kLeadingDims.end()) names.push_back(d.name);
  return names;
}

std::vector<std::int64_t> Topology::mesh_shape() const {
  std::vector<std::int64_t> shape;
  shape.reserve(dims_.size());
  for (const std::string& name : ordered_dim_names()) shape.push_back(*size_of(name));
  return shape;
}

std::optional<std::int64_t> Topology::size_of(std::string_view name) const noexcept {
  for (const Dimension& d : dims_)
    if (d.name == name) return d.size;
  return std::nullopt;
}

std::string Topology::to_string() const {
  std::string out;
  for (const Dimension& d : dims_) out += fmt::format("{}{}={}", out.empty() ? "" : ",", d.name, d.size);
  return out;
}

const std::vector<std::string>& FeatureSet::names() {
  static const std::vector<std::string> names = {"allow_experimental_conv_tp", "allow_experimental_spikformer_tp",
                                                 "allow_pipeline", "allow_zero_optimizer"};
  return names;
}

namespace {
template <typename Self>
auto& feature_flag(Self& self, std::string_view name) {
  if (name == "allow_experimental_conv_tp") return self.allow_experimental_conv_tp;
  if (name == "allow_experimental_spikformer_tp") return self.allow_experimental_spikformer_tp;
  if (name == "allow_pipeline") return self.allow_pipeline;
  if (name == "allow_zero_optimizer") return self.allow_zero_optimizer;
  throw InputError(messages::unknown_feature(name, messages::closest_match(name, FeatureSet::names())));
}
}  // namespace

bool FeatureSet::get(std::string_view name) const { return feature_flag(*this, name); }
void FeatureSet::set(std::string_view name, bool value) { feature_flag(*this, name) = value; }

}  // namespace snnplan
