#include "request/json_slots.hpp"

#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <limits>

#include "api/rule_set_access.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::request {

namespace {

// JSON's whitespace, as nlohmann's lexer skips it.
inline const char* skip_space(const char* p, const char* end) noexcept {
  while (p != end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
  return p;
}

// The end of a plain string's text starting at `p` (just past its opening quote), at its
// closing quote; nullptr when the string is not plain: a control character, an escape or a
// byte beyond ASCII (whose UTF-8 the exact reader checks), or no closing quote.
inline const char* plain_string_end(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
  // Sixteen bytes at a time while they are there: the first quote, backslash, or byte below
  // 0x20 or above 0x7F (negative as signed bytes, so below 0x20 too) ends the scan.
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                      _mm_cmplt_epi8(v, space));
    if (const int mask = _mm_movemask_epi8(stop); mask != 0) {
      p += __builtin_ctz(static_cast<unsigned>(mask));
      return *p == '"' ? p : nullptr;
    }
  }
#endif
  for (; p != end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') return p;
    if (c < 0x20 || c >= 0x80 || c == '\\') return nullptr;
  }
  return nullptr;
}

// A JSON integer at `p` that fits in 64 bits: the end of its text with `value` set, or nullptr
// (a float, a leading zero, no digits, beyond 64 bits: all the exact reader's to word).
inline const char* plain_integer(const char* p, const char* end, std::int64_t& value) noexcept {
  const bool negative = *p == '-';
  if (negative) ++p;
  const char* digits = p;
  std::uint64_t magnitude = 0;
  while (p != end && *p >= '0' && *p <= '9') {
    if (p - digits == 19) return nullptr;  // 20 digits or more: beyond 64 bits
    magnitude = magnitude * 10 + static_cast<std::uint64_t>(*p - '0');
    ++p;
  }
  const auto length = p - digits;
  if (length == 0 || (length > 1 && *digits == '0')) return nullptr;
  if (p != end && (*p == '.' || *p == 'e' || *p == 'E')) return nullptr;
  // 19 digits do not overflow 64 unsigned bits; the sign decides the range.
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (magnitude > kMax + (negative ? 1 : 0)) return nullptr;
  value = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return p;
}

inline bool literal(const char*& p, const char* end, const char* word, std::size_t size) noexcept {
  if (static_cast<std::size_t>(end - p) < size || std::memcmp(p, word, size) != 0) return false;
  p += size;
  return true;
}

}  // namespace

JsonSlotReader::JsonSlotReader(const RuleSet& rules) : rules_(rules) {
  for (const detail::CompiledInput& input : RuleSetAccess::compiled(rules_).inputs)
    names_.emplace_back(input.name);
  slots_.resize(names_.size());
  usable_ = names_.size() <= 64;
}

bool JsonSlotReader::reads_for(const RuleSet& rules) const noexcept {
  return &RuleSetAccess::compiled(rules) == &RuleSetAccess::compiled(rules_);
}

int JsonSlotReader::slot_of(std::string_view key) noexcept {
  // Launchers write the keys in one order, mostly the rules': the search starts after the
  // slot of the key before.
  const std::size_t count = names_.size();
  for (std::size_t n = 0, k = next_; n < count; ++n, k = k + 1 == count ? 0 : k + 1) {
    const std::string_view name = names_[k];
    if (name.size() == key.size() && std::memcmp(name.data(), key.data(), key.size()) == 0) {
      next_ = k + 1 == count ? 0 : k + 1;
      return static_cast<int>(k);
    }
  }
  return -1;
}

bool JsonSlotReader::read(std::string_view line) {
  if (!usable_) return false;
  for (detail::RValue& slot : slots_) slot = detail::RValue{};
  std::uint64_t seen = 0;
  const char* p = line.data();
  const char* const end = p + line.size();
  p = skip_space(p, end);
  if (p == end || *p != '{') return false;
  p = skip_space(p + 1, end);
  if (p != end && *p == '}') return skip_space(p + 1, end) == end;
  for (;;) {
    if (p == end || *p != '"') return false;
    const char* key_end = plain_string_end(p + 1, end);
    if (!key_end) return false;
    const int slot = slot_of({p + 1, static_cast<std::size_t>(key_end - p - 1)});
    if (slot < 0 || (seen >> slot & 1u)) return false;  // unknown or repeated
    seen |= std::uint64_t{1} << slot;
    p = skip_space(key_end + 1, end);
    if (p == end || *p != ':') return false;
    p = skip_space(p + 1, end);
    if (p == end) return false;
    detail::RValue& value = slots_[static_cast<std::size_t>(slot)];
    switch (*p) {
      case '"': {
        const char* text_end = plain_string_end(p + 1, end);
        if (!text_end) return false;
        const auto size = static_cast<std::size_t>(text_end - p - 1);
        if (size > evaluate::kMaxInputStringBytes) return false;  // the evaluator words it
        value = detail::RValue::of_view({p + 1, size});
        p = text_end + 1;
        break;
      }
      case 't':
        if (!literal(p, end, "true", 4)) return false;
        value = detail::RValue::of_bool(true);
        break;
      case 'f':
        if (!literal(p, end, "false", 5)) return false;
        value = detail::RValue::of_bool(false);
        break;
      case 'n':  // null: not given, as the exact reader passes it on
        if (!literal(p, end, "null", 4)) return false;
        break;
      default: {
        std::int64_t number = 0;
        p = plain_integer(p, end, number);
        if (!p) return false;
        value = detail::RValue::of_int(number);
      }
    }
    p = skip_space(p, end);
    if (p == end) return false;
    if (*p == '}') return skip_space(p + 1, end) == end;
    if (*p != ',') return false;
    p = skip_space(p + 1, end);
  }
}

}  // namespace snnplan::request
