#pragma once
// The value type of compiled constants and of evaluation.
//
// An RValue is 32 bytes and trivially copyable: strings and lists are views of storage owned
// elsewhere -- a compiled rule set's ValueStore (constants), the caller's Inputs (input
// strings), or the evaluation's own ValueStore (anything computed). Copying a value is a
// memcpy, and a whole evaluation usually allocates nothing on the heap until it builds the
// public Record.
//
// Integers are 128 bits wide so that any sum or product of two 64-bit inputs is exact
// (`world_size * 2` with world_size = 2^62+1 compares correctly); anything beyond 128 bits is
// an overflow error, never a wrap.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory_resource>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "snnplan/value.hpp"
#include "snnplan/value_view.hpp"

namespace snnplan::detail {

__extension__ typedef __int128 Wide;
__extension__ typedef unsigned __int128 UnsignedWide;

struct RecordValue;

struct RValue {
  enum class Kind : std::uint8_t { null, boolean, integer, floating, string, list, record };
  struct Text {
    const char* data;
    std::size_t size;
  };
  struct Items {
    const RValue* data;
    std::size_t size;
  };

  Kind kind = Kind::null;
  union {
    bool b;
    Wide i = 0;
    double f;
    Text text;
    Items items;
    const RecordValue* record;
  };

  [[nodiscard]] std::string_view s() const noexcept { return {text.data, text.size}; }
  [[nodiscard]] std::span<const RValue> list() const noexcept { return {items.data, items.size}; }

  static RValue of_bool(bool v) { RValue r; r.kind = Kind::boolean; r.b = v; return r; }
  static RValue of_int(Wide v) { RValue r; r.kind = Kind::integer; r.i = v; return r; }
  static RValue of_float(double v) { RValue r; r.kind = Kind::floating; r.f = v; return r; }
  /// A view: `v` must outlive the value (use ValueStore::string to keep a copy).
  static RValue of_view(std::string_view v) {
    RValue r;
    r.kind = Kind::string;
    r.text = {v.data(), v.size()};
    return r;
  }
  static RValue of_items(std::span<const RValue> v) {
    RValue r;
    r.kind = Kind::list;
    r.items = {v.data(), v.size()};
    return r;
  }
};
static_assert(std::is_trivially_copyable_v<RValue>);

/// The record another rule set returned (a `let` with `call`): field names and values.
struct RecordValue {
  const std::vector<std::string>* names;  // owned by the callee's compiled rules
  std::span<const RValue> values;
};

/// Owns the text and list storage RValues point to: a bump allocator over a caller's buffer
/// (one evaluation: a buffer on its stack or in a reused Evaluation) and then chunks of its
/// own. Nothing is freed before reset() or destruction, so values stay valid; everything it
/// holds is trivially destructible. Allocation is a pointer bump, inline; pmr containers use
/// it through the memory_resource interface.
class ValueStore final : public std::pmr::memory_resource {
 public:
  /// Storage on the heap (a compiled rule set's constants).
  ValueStore() = default;
  /// Storage in `buffer` first, then the heap.
  ValueStore(void* buffer, std::size_t size)
      : initial_(static_cast<std::byte*>(buffer)), initial_size_(size), next_(initial_), end_(initial_ + size) {}
  ValueStore(const ValueStore&) = delete;
  ValueStore& operator=(const ValueStore&) = delete;
  ~ValueStore() override;

  [[nodiscard]] void* allocate_bytes(std::size_t size, std::size_t alignment) {
    const auto at = (reinterpret_cast<std::uintptr_t>(next_) + alignment - 1) & ~(alignment - 1);
    if (next_ != nullptr && at <= reinterpret_cast<std::uintptr_t>(end_) &&
        size <= static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(end_) - at)) {
      next_ = reinterpret_cast<std::byte*>(at + size);
      return reinterpret_cast<void*>(at);
    }
    return grow(size, alignment);
  }

  /// Returns [used_end, end) of the last allocation, which ended at `end`, to the store.
  void give_back(const void* end, void* used_end) noexcept {
    if (end == next_) next_ = static_cast<std::byte*>(used_end);
  }

  [[nodiscard]] std::string_view keep(std::string_view text);
  [[nodiscard]] RValue string(std::string_view text) { return RValue::of_view(keep(text)); }
  [[nodiscard]] RValue list(std::span<const RValue> items);
  /// A copy of `value` whose text and items (at every depth) live in this store.
  [[nodiscard]] RValue copy(const RValue& value);
  /// Uninitialised room for `count` values (filled by the caller).
  [[nodiscard]] RValue* values(std::size_t count) {
    if (count > std::numeric_limits<std::size_t>::max() / sizeof(RValue) / 2) throw std::bad_alloc();
    return static_cast<RValue*>(allocate_bytes(count * sizeof(RValue), alignof(RValue)));
  }
  [[nodiscard]] const RecordValue* record(const std::vector<std::string>* names, std::span<const RValue> values);
  [[nodiscard]] std::pmr::memory_resource* resource() noexcept { return this; }
  /// Forgets everything stored (every view of it dangles). The buffer and the first chunks,
  /// up to kRetainedBytes, stay, so a store reused for evaluations of similar size stops
  /// allocating, while one huge evaluation does not pin its memory for the store's life
  /// (recommend() keeps a store per thread).
  void reset() noexcept;
  /// Bytes of heap chunks the store holds (in use or kept by reset()).
  [[nodiscard]] std::size_t chunk_bytes() const noexcept;

  static constexpr std::size_t kRetainedBytes = std::size_t{512} * 1024;

 private:
  void* grow(std::size_t size, std::size_t alignment);
  void* do_allocate(std::size_t size, std::size_t alignment) override { return allocate_bytes(size, alignment); }
  void do_deallocate(void*, std::size_t, std::size_t) override {}
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  struct Chunk {
    std::byte* data;
    std::size_t size;
  };
  std::byte* initial_ = nullptr;
  std::size_t initial_size_ = 0;
  std::byte* next_ = nullptr;
  std::byte* end_ = nullptr;
  std::vector<Chunk> chunks_;
  std::size_t chunks_in_use_ = 0;
};

/// Bit of syntax::KindSet for a value's kind (syntax::kNull = 1, kBool = 2, ... in the order
/// of RValue::Kind; checked in runtime_value.cpp).
inline std::uint8_t kind_bit(const RValue& value) { return static_cast<std::uint8_t>(1u << static_cast<unsigned>(value.kind)); }
const char* kind_name(const RValue& value);

/// from_public() of a list: its items converted into `store`.
RValue list_from_public(const Value::List& list, ValueStore& store);
static_assert(std::is_same_v<std::variant_alternative_t<1, Value::Storage>, bool> &&
              std::is_same_v<std::variant_alternative_t<2, Value::Storage>, std::int64_t> &&
              std::is_same_v<std::variant_alternative_t<3, Value::Storage>, double> &&
              std::is_same_v<std::variant_alternative_t<4, Value::Storage>, std::string> &&
              std::is_same_v<std::variant_alternative_t<5, Value::Storage>, Value::List>,
              "from_public() switches on Value::Storage's alternatives by index");
/// A view of `value`: strings point into `value` (which must outlive the result), lists are
/// built in `store`. Scalars inline (every input of a call is converted).
inline RValue from_public(const Value& value, ValueStore& store) {
  const Value::Storage& v = value.storage();
  switch (v.index()) {
    case 1:
      return RValue::of_bool(*std::get_if<bool>(&v));
    case 2:
      return RValue::of_int(*std::get_if<std::int64_t>(&v));
    case 3:
      return RValue::of_float(*std::get_if<double>(&v));
    case 4:
      return RValue::of_view(*std::get_if<std::string>(&v));
    case 5:
      return list_from_public(*std::get_if<Value::List>(&v), store);
    default:
      return RValue{};
  }
}
/// The inverse, for values that hold no record and whose integers fit 64 bits: the points
/// the analyses sample (their integers lie in int64's range by construction). A record
/// becomes null; evaluation results go through the evaluator's checked conversion instead.
Value to_public(const RValue& value);
inline bool fits_int64(Wide value) {
  return value >= std::numeric_limits<std::int64_t>::min() && value <= std::numeric_limits<std::int64_t>::max();
}
std::string wide_to_string(Wide value);
/// Python-like text for `{name}` placeholders: strings raw, lists "[2, 4]".
std::string display(const RValue& value);
/// display() with strings quoted, as explanations and witnesses show values: 'memory' == 'speed'.
std::string repr(const RValue& value);
/// display() appended to `out` (std::string or std::pmr::string).
template <typename String>
void append_display(String& out, const RValue& value);
/// The double nearest `i`, as static_cast<double>(i): one instruction for an integer that fits
/// 64 bits (every integer a rule computes, nearly), where the 128-bit conversion is a call
/// into the compiler's runtime library.
inline double to_double(Wide i) {
  return fits_int64(i) ? static_cast<double>(static_cast<std::int64_t>(i)) : static_cast<double>(i);
}
/// Whether `i` is a double exactly (|i| <= 2^53): then arithmetic on it as a double is exact.
inline bool exact_as_double(Wide i) {
  constexpr Wide kTwo53 = Wide{1} << 53;
  return i >= -kTwo53 && i <= kTwo53;
}
/// Exact comparison of an integer with a float, as Python does it (no rounding of the
/// integer to a double): negative, zero or positive. NaN compares unordered (returns 2).
int compare_int_float_wide(Wide i, double f);
inline int compare_int_float(Wide i, double f) {
  if (exact_as_double(i) && f == f) {  // the integer is a double exactly: one comparison
    const auto x = static_cast<double>(static_cast<std::int64_t>(i));
    return x < f ? -1 : x > f ? 1 : 0;
  }
  return compare_int_float_wide(i, f);
}

/// `value` as the views API returns it when it is a scalar with a view of its own (null, bool,
/// an integer that fits 64 bits, float, string: a view of `value`'s text); false, with `out`
/// untouched, for lists, records and wider integers. The one scalar conversion: the compiler's
/// default views and the evaluator's field views both use it.
inline bool scalar_view(const RValue& value, ValueView& out) noexcept {
  switch (value.kind) {
    case RValue::Kind::null:
      out = ValueView();
      return true;
    case RValue::Kind::boolean:
      out = ValueView::of_bool(value.b);
      return true;
    case RValue::Kind::floating:
      out = ValueView::of_float(value.f);
      return true;
    case RValue::Kind::string:
      out = ValueView::of_string(value.s());
      return true;
    case RValue::Kind::integer:
      if (!fits_int64(value.i)) return false;
      out = ValueView::of_int(static_cast<std::int64_t>(value.i));
      return true;
    default:
      return false;
  }
}

/// Whether two strings have the same bytes. Inline for the short strings that names and
/// enumerated values are (up to 16 bytes: two overlapping words from each end, no call);
/// memcmp beyond.
inline bool same_text(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
  auto word = [](const char* p, auto zero) {
    decltype(zero) w;
    std::memcpy(&w, p, sizeof w);
    return w;
  };
  if (n >= 8)
    return word(a.data(), std::uint64_t{}) == word(b.data(), std::uint64_t{}) &&
           word(a.data() + n - 8, std::uint64_t{}) == word(b.data() + n - 8, std::uint64_t{});
  if (n >= 4)
    return word(a.data(), std::uint32_t{}) == word(b.data(), std::uint32_t{}) &&
           word(a.data() + n - 4, std::uint32_t{}) == word(b.data() + n - 4, std::uint32_t{});
  for (std::size_t k = 0; k < n; ++k)
    if (a[k] != b[k]) return false;
  return true;
}

/// Copies the first and last sizeof(Word) bytes of `in` (n of them, sizeof(Word) <= n <=
/// 2 * sizeof(Word)) to `out`: every byte, the middle ones possibly twice.
template <typename Word>
inline void copy_ends(char* out, const char* in, std::size_t n) noexcept {
  Word first, last;
  std::memcpy(&first, in, sizeof first);
  std::memcpy(&last, in + n - sizeof last, sizeof last);
  std::memcpy(out, &first, sizeof first);
  std::memcpy(out + n - sizeof last, &last, sizeof last);
}

/// Copies `text` to `out`, which has room for it. Inline for short texts, as same_text()
/// compares them; memcpy beyond 16 bytes.
inline void copy_text(char* out, std::string_view text) noexcept {
  const std::size_t n = text.size();
  const char* in = text.data();
  if (n > 16)
    std::memcpy(out, in, n);
  else if (n >= 8)
    copy_ends<std::uint64_t>(out, in, n);
  else if (n >= 4)
    copy_ends<std::uint32_t>(out, in, n);
  else
    for (std::size_t k = 0; k < n; ++k) out[k] = in[k];
}

/// Equality used by `==`, `eq` and `one_of`: ints and floats compare numerically; values of
/// different kinds are unequal.
bool values_equal_slow(const RValue& a, const RValue& b);
inline bool values_equal(const RValue& a, const RValue& b) {
  // The common cases inline: two strings, two integers, two booleans, and values of different
  // kinds (a fact against null), which are equal only as an integer and a float.
  if (a.kind == b.kind) {
    if (a.kind == RValue::Kind::string) return same_text(a.s(), b.s());
    if (a.kind == RValue::Kind::integer) return a.i == b.i;
    if (a.kind == RValue::Kind::boolean) return a.b == b.b;
  } else if (a.kind != RValue::Kind::floating && b.kind != RValue::Kind::floating) {
    return false;
  }
  return values_equal_slow(a, b);
}

}  // namespace snnplan::detail
