#include "core/runtime_value.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <limits>
#include <new>
#include <stdexcept>

#include "core/messages.hpp"
#include "core/value_kinds.hpp"

namespace snnplan::detail {

std::string describe(KindSet kinds) {
  static const std::pair<Kind, const char*> names[] = {
      {kBool, "bool"}, {kInt, "int"}, {kFloat, "float"}, {kString, "string"}, {kList, "list"}, {kRecord, "record"}, {kNull, "null"}};
  if (kinds == kAny) return "any value";
  std::string out;
  for (auto [kind, name] : names) {
    if (!(kinds & kind)) continue;
    if (!out.empty()) out += " or ";
    out += name;
  }
  return out.empty() ? "nothing" : out;
}

// kind_bit() shifts by the kind's position: the two enumerations must keep the same order.
static_assert(kNull == 1 << static_cast<int>(RValue::Kind::null) &&
              kBool == 1 << static_cast<int>(RValue::Kind::boolean) &&
              kInt == 1 << static_cast<int>(RValue::Kind::integer) &&
              kFloat == 1 << static_cast<int>(RValue::Kind::floating) &&
              kString == 1 << static_cast<int>(RValue::Kind::string) &&
              kList == 1 << static_cast<int>(RValue::Kind::list) &&
              kRecord == 1 << static_cast<int>(RValue::Kind::record));

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

std::string_view ValueStore::keep(std::string_view text) {
  if (text.empty()) return {};
  auto* data = static_cast<char*>(allocate_bytes(text.size(), 1));
  std::memcpy(data, text.data(), text.size());
  return {data, text.size()};
}

ValueStore::~ValueStore() {
  for (const Chunk& chunk : chunks_) ::operator delete(chunk.data);
}

void* ValueStore::grow(std::size_t size, std::size_t alignment) {
  constexpr std::size_t kFirstChunk = 4096;
  if (size > std::numeric_limits<std::size_t>::max() / 2 - alignment) throw std::bad_alloc();
  const std::size_t need = size + alignment;
  // Chunks a reset left behind are taken again, in order, before new ones are made.
  while (chunks_in_use_ < chunks_.size()) {
    const Chunk chunk = chunks_[chunks_in_use_++];
    if (chunk.size >= need) {
      next_ = chunk.data;
      end_ = chunk.data + chunk.size;
      return allocate_bytes(size, alignment);
    }
  }
  const std::size_t previous = chunks_.empty() ? kFirstChunk / 2 : chunks_.back().size;
  const std::size_t chunk_size = std::max(need, previous * 2);
  chunks_.reserve(chunks_.size() + 1);  // first, so a failure here cannot leak the chunk
  auto* data = static_cast<std::byte*>(::operator new(chunk_size));
  chunks_.push_back(Chunk{data, chunk_size});
  chunks_in_use_ = chunks_.size();
  next_ = data;
  end_ = data + chunk_size;
  return allocate_bytes(size, alignment);
}

void ValueStore::reset() noexcept {
  next_ = initial_;
  end_ = initial_ + initial_size_;
  chunks_in_use_ = 0;
  // Chunks double in size, so the kept ones are the small early chunks every evaluation uses.
  std::size_t kept = 0;
  std::size_t keep = 0;
  while (keep < chunks_.size() && kept + chunks_[keep].size <= kRetainedBytes) kept += chunks_[keep++].size;
  for (std::size_t k = keep; k < chunks_.size(); ++k) ::operator delete(chunks_[k].data);
  chunks_.resize(keep);
}

std::size_t ValueStore::chunk_bytes() const noexcept {
  std::size_t total = 0;
  for (const Chunk& chunk : chunks_) total += chunk.size;
  return total;
}

RValue ValueStore::list(std::span<const RValue> items) {
  if (items.empty()) return RValue::of_items({});
  RValue* data = values(items.size());
  std::uninitialized_copy(items.begin(), items.end(), data);
  return RValue::of_items({data, items.size()});
}

RValue ValueStore::copy(const RValue& value) {
  if (value.kind == RValue::Kind::string) return string(value.s());
  if (value.kind == RValue::Kind::list) {
    RValue* items = values(value.items.size);
    for (std::size_t k = 0; k < value.items.size; ++k) new (items + k) RValue(copy(value.items.data[k]));
    return RValue::of_items({items, value.items.size});
  }
  if (value.kind == RValue::Kind::record) {
    RValue* fields = values(value.record->values.size());
    for (std::size_t k = 0; k < value.record->values.size(); ++k) new (fields + k) RValue(copy(value.record->values[k]));
    RValue out;
    out.kind = RValue::Kind::record;
    out.record = record(value.record->names, {fields, value.record->values.size()});
    return out;
  }
  return value;
}

const RecordValue* ValueStore::record(const std::vector<std::string>* names, std::span<const RValue> values) {
  void* room = allocate_bytes(sizeof(RecordValue), alignof(RecordValue));
  return new (room) RecordValue{names, values};
}

Value to_public(const RValue& value) {
  switch (value.kind) {
    case RValue::Kind::null:
    case RValue::Kind::record:
      return Value();
    case RValue::Kind::boolean:
      return Value(value.b);
    case RValue::Kind::integer:
      return Value(static_cast<std::int64_t>(value.i));
    case RValue::Kind::floating:
      return Value(value.f);
    case RValue::Kind::string:
      return Value(std::string(value.s()));
    case RValue::Kind::list: {
      Value::List items;
      items.reserve(value.items.size);
      for (const RValue& item : value.list()) items.push_back(to_public(item));
      return Value(std::move(items));
    }
  }
  return Value();
}

RValue list_from_public(const Value::List& list, ValueStore& store) {
  RValue* items = list.empty() ? nullptr : store.values(list.size());
  for (std::size_t k = 0; k < list.size(); ++k) new (items + k) RValue(from_public(list[k], store));
  return RValue::of_items({items, list.size()});
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

template <typename String>
void append_display(String& out, const RValue& value) {
  switch (value.kind) {
    case RValue::Kind::null: out += "null"; return;
    case RValue::Kind::boolean: out += value.b ? "true" : "false"; return;
    case RValue::Kind::integer:
      if (fits_int64(value.i)) {
        const fmt::format_int digits(static_cast<std::int64_t>(value.i));
        out.append(digits.data(), digits.size());
      } else {
        out += wide_to_string(value.i);
      }
      return;
    case RValue::Kind::floating: fmt::format_to(std::back_inserter(out), "{}", value.f); return;
    case RValue::Kind::string: out += value.s(); return;
    case RValue::Kind::list: {
      out += '[';
      bool first = true;
      for (const RValue& item : value.list()) {
        if (!first) out += ", ";
        first = false;
        append_display(out, item);
      }
      out += ']';
      return;
    }
    case RValue::Kind::record: {
      out += '{';
      for (std::size_t k = 0; k < value.record->values.size(); ++k) {
        if (k) out += ", ";
        out += (*value.record->names)[k];
        out += ": ";
        append_display(out, value.record->values[k]);
      }
      out += '}';
      return;
    }
  }
}

template void append_display(std::string&, const RValue&);
template void append_display(std::pmr::string&, const RValue&);

std::string display(const RValue& value) {
  std::string out;
  append_display(out, value);
  return out;
}

std::string repr(const RValue& v) {
  if (v.kind == RValue::Kind::string) {
    std::string out(1, '\'');
    out += v.s();
    out += '\'';
    return out;
  }
  if (v.kind == RValue::Kind::list) {
    std::string out = "[";
    for (std::size_t k = 0; k < v.items.size; ++k) out += (k ? ", " : "") + repr(v.items.data[k]);
    return out + "]";
  }
  return display(v);
}

int compare_int_float_wide(Wide i, double f) {
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

bool values_equal_slow(const RValue& a, const RValue& b) {
  using K = RValue::Kind;
  if (a.kind == K::integer && b.kind == K::floating) return compare_int_float(a.i, b.f) == 0;
  if (a.kind == K::floating && b.kind == K::integer) return compare_int_float(b.i, a.f) == 0;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::null: return true;
    case K::boolean: return a.b == b.b;
    case K::integer: return a.i == b.i;
    case K::floating: return a.f == b.f;
    case K::string: return same_text(a.s(), b.s());
    case K::list: {
      if (a.items.size != b.items.size) return false;
      for (std::size_t k = 0; k < a.items.size; ++k)
        if (!values_equal(a.items.data[k], b.items.data[k])) return false;
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

namespace snnplan {

void Value::throw_out_of_range(std::uint64_t value) {
  throw std::out_of_range(messages::value_int_out_of_range(value));
}

std::string to_display_string(const Value& value) {
  detail::ValueStore store;
  return detail::display(detail::from_public(value, store));
}

}  // namespace snnplan
