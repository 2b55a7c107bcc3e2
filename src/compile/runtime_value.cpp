#include "compile/runtime_value.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "load/syntax.hpp"

namespace snnplan::detail {

std::uint8_t kind_bit(const RValue& value) {
  switch (value.kind) {
    case RValue::Kind::null: return syntax::kNull;
    case RValue::Kind::boolean: return syntax::kBool;
    case RValue::Kind::integer: return syntax::kInt;
    case RValue::Kind::floating: return syntax::kFloat;
    case RValue::Kind::string: return syntax::kString;
    case RValue::Kind::list: return syntax::kList;
    case RValue::Kind::record: return syntax::kRecord;
  }
  return 0;
}

const char* kind_name(const RValue& value) {
  switch (value.kind) {
    case RValue::Kind::null: return "null";
    case RValue::Kind::boolean: return "bool";
    case RValue::Kind::integer: return "int";
    case RValue::Kind::floating: return "float";
    case RValue::Kind::string: return "string";
    case RValue::Kind::list: return "list";
    case RValue::Kind::record: return "record";
  }
  return "?";
}

RValue from_public(const Value& value) {
  if (value.is_bool()) return RValue::of_bool(value.as_bool());
  if (value.is_int()) return RValue::of_int(value.as_int());
  if (value.is_float()) return RValue::of_float(value.as_float());
  if (value.is_string()) return RValue::of_string(value.as_string());
  if (value.is_list()) {
    RValue::List items;
    items.reserve(value.as_list().size());
    for (const Value& item : value.as_list()) items.push_back(from_public(item));
    return RValue::of_list(std::move(items));
  }
  return RValue{};
}

bool fits_int64(Wide value) {
  return value >= std::numeric_limits<std::int64_t>::min() && value <= std::numeric_limits<std::int64_t>::max();
}

std::string wide_to_string(Wide value) {
  if (fits_int64(value)) return std::to_string(static_cast<std::int64_t>(value));
  const bool negative = value < 0;
  // Work on the magnitude as unsigned so the most negative value is handled too.
  UnsignedWide magnitude = negative ? -static_cast<UnsignedWide>(value) : static_cast<UnsignedWide>(value);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

std::string display(const RValue& value) {
  switch (value.kind) {
    case RValue::Kind::null: return "null";
    case RValue::Kind::boolean: return value.b ? "true" : "false";
    case RValue::Kind::integer: return wide_to_string(value.i);
    case RValue::Kind::floating: return fmt::format("{}", value.f);
    case RValue::Kind::string: return value.s;
    case RValue::Kind::list: {
      std::string out = "[";
      for (std::size_t k = 0; k < value.list->size(); ++k) {
        if (k) out += ", ";
        out += display((*value.list)[k]);
      }
      return out + "]";
    }
    case RValue::Kind::record: {
      std::string out = "{";
      for (std::size_t k = 0; k < value.record->values.size(); ++k) {
        if (k) out += ", ";
        out += (*value.record->names)[k] + ": " + display(value.record->values[k]);
      }
      return out + "}";
    }
  }
  return "";
}

int compare_int_float(Wide i, double f) {
  if (std::isnan(f)) return 2;
  constexpr double kTwo127 = 170141183460469231731687303715884105728.0;  // 2^127
  if (f >= kTwo127) return -1;
  if (f < -kTwo127) return 1;
  // |f| < 2^127, so its integer part fits Wide exactly; compare that, then the fraction.
  const double whole = std::floor(f);
  const auto w = static_cast<Wide>(whole);
  if (i < w) return -1;
  if (i > w) return 1;
  return f > whole ? -1 : 0;
}

bool values_equal(const RValue& a, const RValue& b) {
  using K = RValue::Kind;
  if (a.kind == K::integer && b.kind == K::floating) return compare_int_float(a.i, b.f) == 0;
  if (a.kind == K::floating && b.kind == K::integer) return compare_int_float(b.i, a.f) == 0;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::null: return true;
    case K::boolean: return a.b == b.b;
    case K::integer: return a.i == b.i;
    case K::floating: return a.f == b.f;
    case K::string: return a.s == b.s;
    case K::list: {
      if (a.list->size() != b.list->size()) return false;
      for (std::size_t k = 0; k < a.list->size(); ++k)
        if (!values_equal((*a.list)[k], (*b.list)[k])) return false;
      return true;
    }
    case K::record: {
      if (a.record == b.record) return true;
      if (*a.record->names != *b.record->names) return false;
      for (std::size_t k = 0; k < a.record->values.size(); ++k)
        if (!values_equal(a.record->values[k], b.record->values[k])) return false;
      return true;
    }
  }
  return false;
}

}  // namespace snnplan::detail
