// Topology and FeatureSet: the parts of a plan that are plain data checked in C++, as
// upstream's SNNDistributedTopology (topology.py at the seed's commit) and
// DistributedFeatureSet check them.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <tuple>

#include "api/rule_set_access.hpp"
#include "plan/messages.hpp"
#include "language/python_repr.hpp"
#include "plan/exact_integer.hpp"
#include "snnplan/plan.hpp"

namespace snnplan {
namespace {

using plan_detail::ExactInteger;

// The dimensions a mesh lists first, in this order.
constexpr std::array<std::string_view, 4> kLeadingDims = {"dp", "tp", "pp", "vpp"};

PlanInputError type_error(const std::string& message) {
  return PlanInputError(message, PlanInputError::Python::type_error);
}
PlanInputError value_error(const std::string& message) {
  return PlanInputError(message, PlanInputError::Python::value_error);
}

// A whole-number size as upstream holds it: a Python int, exact at any size.
struct ExactDimension {
  std::string name;
  ExactInteger size;
};

// Python's repr() of a str, as upstream's messages print a dimension name.
std::string python_repr(std::string_view text) {
  std::string out;
  language::append_python_repr(out, detail::RValue::of_view(text));
  return out;
}

// The dims as upstream's message prints `dict(dims)`: {'dp': 4, 'tp': 2}.
std::string dict_repr(const std::vector<ExactDimension>& dims) {
  std::string out = "{";
  for (const ExactDimension& d : dims)
    out += fmt::format("{}{}: {}", out.size() > 1 ? ", " : "", python_repr(d.name),
                       d.size.to_string());
  return out + "}";
}

// The name of a value's Python type, as upstream's TypeErrors print `type(x).__name__`.
const char* python_type_name(const Value& v) {
  if (v.is_null()) return "NoneType";
  if (v.is_bool()) return "bool";
  if (v.is_int()) return "int";
  if (v.is_float()) return "float";
  if (v.is_string()) return "str";
  return "list";
}

// from_mapping's reading of one size or world size: an int, or a float with is_integer()
// (so not inf or nan); else the Python type name for the TypeError.
std::optional<ExactInteger> whole_number(const Value& v) {
  if (v.is_bool()) return std::nullopt;
  if (v.is_int()) return ExactInteger(v.as_int());
  if (v.is_float() && std::isfinite(v.as_float()) && v.as_float() == std::trunc(v.as_float()))
    return ExactInteger::of_whole_double(v.as_float());
  return std::nullopt;
}

// A size as the plan rules read it: the size itself when it fits in 64 bits, else the
// largest int64 of the same parity (see Topology::fits_64_bits()).
std::int64_t size_or_stand_in(const ExactInteger& size) {
  if (const std::optional<std::int64_t> fits = size.to_int64()) return *fits;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();  // odd
  return size.is_odd() ? kMax : kMax - 1;
}

struct CheckedTopology {
  std::vector<Topology::Dimension> dims;
  std::int64_t world_size = 0;
  std::string beyond_64_bits;
};

// SNNDistributedTopology.__post_init__, in its order, on exact sizes; `world_size` is the
// product when the caller gave none (as from_mapping computes it).
CheckedTopology checked(const std::vector<ExactDimension>& dims,
                        const std::optional<ExactInteger>& world_size) {
  ExactInteger product(1);
  for (const ExactDimension& d : dims) product = product * d.size;
  const ExactInteger world = world_size ? *world_size : product;
  if (!world.is_positive()) throw value_error(messages::topology_world_size(world.to_string()));
  if (dims.empty()) throw value_error(messages::topology_no_dimensions());
  for (const ExactDimension& d : dims) {
    if (d.name.empty()) throw value_error(messages::topology_empty_name());
    if (!d.size.is_positive())
      throw value_error(messages::topology_size(d.name, d.size.to_string()));
  }
  if (product != world)
    throw value_error(
        messages::topology_product(dict_repr(dims), product.to_string(), world.to_string()));
  CheckedTopology out;
  out.dims.reserve(dims.size());
  for (const ExactDimension& d : dims) {
    // A Python dict holds each key once; a name given twice here has no upstream meaning.
    for (const Topology::Dimension& seen : out.dims)
      if (seen.name == d.name) throw value_error(messages::topology_duplicate(d.name));
    out.dims.push_back(Topology::Dimension{d.name, size_or_stand_in(d.size)});
  }
  out.world_size = size_or_stand_in(world);
  // Every size is at most the world size, so once it fits they all do.
  if (!world.to_int64())
    out.beyond_64_bits = messages::topology_too_large(dict_repr(dims), world.to_string());
  return out;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

}  // namespace

Topology::Topology(std::vector<Dimension> dims, std::optional<std::int64_t> world_size) {
  std::vector<ExactDimension> exact;
  exact.reserve(dims.size());
  for (Dimension& d : dims)
    exact.push_back(ExactDimension{std::move(d.name), ExactInteger(d.size)});
  std::optional<ExactInteger> world;
  if (world_size) world = ExactInteger(*world_size);
  CheckedTopology c = checked(exact, world);
  dims_ = std::move(c.dims);
  world_size_ = c.world_size;
  beyond_64_bits_ = std::move(c.beyond_64_bits);
}

Topology Topology::from_mapping(const TopologyMapping& dims, const Value& world_size) {
  std::vector<ExactDimension> exact;
  exact.reserve(dims.size());
  for (const auto& [name, size] : dims) {
    std::optional<ExactInteger> n = whole_number(size);
    if (!n) throw type_error(messages::topology_size_type(name, python_type_name(size)));
    exact.push_back(ExactDimension{name, std::move(*n)});
  }
  std::optional<ExactInteger> world;
  if (!world_size.is_null()) {
    world = whole_number(world_size);
    if (!world) throw type_error(messages::topology_world_size_type(python_type_name(world_size)));
  }
  CheckedTopology c = checked(exact, world);
  return Topology(std::move(c.dims), c.world_size, std::move(c.beyond_64_bits));
}

Topology Topology::from_fields(const TopologyMapping& dims, const Value& world_size) {
  if (!world_size.is_int())
    throw type_error(messages::topology_world_size_type(python_type_name(world_size)));
  const ExactInteger world(world_size.as_int());
  if (!world.is_positive()) throw value_error(messages::topology_world_size(world.to_string()));
  if (dims.empty()) throw value_error(messages::topology_no_dimensions());
  std::vector<ExactDimension> exact;
  exact.reserve(dims.size());
  for (const auto& [name, size] : dims) {  // the loop's order: name, then the size's type and sign
    if (name.empty()) throw value_error(messages::topology_empty_name());
    if (!size.is_int())
      throw type_error(messages::topology_size_type(name, python_type_name(size)));
    exact.push_back(ExactDimension{name, ExactInteger(size.as_int())});
    if (!exact.back().size.is_positive())
      throw value_error(messages::topology_size(name, exact.back().size.to_string()));
  }
  CheckedTopology c = checked(exact, world);
  return Topology(std::move(c.dims), c.world_size, std::move(c.beyond_64_bits));
}

Topology Topology::parse(std::string_view text, std::optional<std::int64_t> world_size) {
  return from_mapping(parse_mapping(text), world_size ? Value(*world_size) : Value());
}

TopologyMapping Topology::parse_mapping(std::string_view text) {
  auto fail = [&](const std::string& why) {
    return InputError(messages::topology_syntax(text, why));
  };
  TopologyMapping dims;
  if (trim(text).empty()) return dims;  // no dimensions: from_mapping refuses them
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
    if (ec == std::errc::result_out_of_range)
      throw fail(messages::topology_entry_too_large(name, size));
    if (ec != std::errc() || ptr != size.data() + size.size())
      throw fail(messages::topology_entry_not_integer(name, size));
    for (const auto& [seen, _] : dims)
      if (seen == name) throw fail(messages::topology_entry_duplicate(name));
    dims.emplace_back(std::string(name), Value(value));
  }
  return dims;
}

void Topology::require_64_bits() const {
  if (!beyond_64_bits_.empty()) throw value_error(beyond_64_bits_);
}

std::vector<std::string> Topology::ordered_dim_names() const {
  std::vector<std::string> names;
  names.reserve(dims_.size());
  for (std::string_view leading : kLeadingDims)
    if (size_of(leading)) names.emplace_back(leading);
  for (const Dimension& d : dims_)
    if (std::find(kLeadingDims.begin(), kLeadingDims.end(), d.name) == kLeadingDims.end())
      names.push_back(d.name);
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
  for (const Dimension& d : dims_)
    out += fmt::format("{}{}={}", out.empty() ? "" : ",", d.name, d.size);
  return out;
}

FeatureSet FeatureSet::declared_by(const RuleSet& plan_rules) {
  // The flags are the rules' bool inputs named allow_*, with their declared defaults.
  FeatureSet out;
  for (const detail::CompiledInput& input : RuleSetAccess::compiled(plan_rules).inputs) {
    if (!input.name.starts_with(FeatureSet::kPrefix) || input.type.kinds != syntax::kBool ||
        !input.default_value)
      continue;
    out.add(input.name, input.default_value->b);
  }
  return out;
}

FeatureSet FeatureSet::of(const RuleSet& plan_rules, const FeatureFlags& given) {
  FeatureSet out = declared_by(plan_rules);
  for (const auto& [name, value] : given) out.set(name, value);
  return out;
}

std::optional<bool> FeatureSet::get(std::string_view name) const noexcept {
  for (const Flag& flag : flags_)
    if (flag.name == name) return flag.value;
  return std::nullopt;
}

void FeatureSet::set(std::string_view name, bool value) {
  for (Flag& flag : flags_)
    if (flag.name == name) {
      flag.value = value;
      return;
    }
  throw type_error(messages::unknown_feature(name));
}

}  // namespace snnplan
