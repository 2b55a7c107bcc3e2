#include "language/operations.hpp"

#include <fmt/format.h>
#include <locale.h>

#include <clocale>
#include <cmath>
#include <cstring>
#include <cwctype>
#include <vector>

#include "language/messages.hpp"

namespace snnplan::language {

using Kind = RValue::Kind;
using syntax::Op;

void rule_failure(std::string message) {
  throw EvaluationFailure{EvaluationErrorKind::rule_error, std::move(message)};
}

void type_failure(const SourceLocation& at, std::string message) {
  throw EvaluationFailure{EvaluationErrorKind::rule_error,
                          messages::runtime_type(to_string(at), message), true};
}

int compare(const RValue& a, const RValue& b) {
  if (a.kind == Kind::integer && b.kind == Kind::integer) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  const bool numeric_a = a.kind == Kind::integer || a.kind == Kind::floating;
  const bool numeric_b = b.kind == Kind::integer || b.kind == Kind::floating;
  if (numeric_a && numeric_b) {
    int c = 0;
    if (a.kind == Kind::integer)
      c = detail::compare_int_float(a.i, b.f);
    else if (b.kind == Kind::integer)
      c = -detail::compare_int_float(b.i, a.f);
    else
      c = a.f < b.f ? -1 : a.f > b.f ? 1 : a.f == b.f ? 0 : kUnordered;
    return c == kUnordered || c == -kUnordered ? kUnordered : c;
  }
  if (a.kind == Kind::string && b.kind == Kind::string) {
    const int c = a.s().compare(b.s());
    return c < 0 ? -1 : c == 0 ? 0 : 1;
  }
  return kIncomparable;
}

int compare_or_fail(const RValue& a, const RValue& b, const SourceLocation& at, const char* op) {
  const int c = compare(a, b);
  if (c == kIncomparable)
    type_failure(at, messages::incomparable(op, detail::kind_name(a), detail::kind_name(b)));
  return c;
}

void not_a_condition(const RValue& v, const SourceLocation& at) {
  type_failure(at, messages::type_mismatch("a condition", "bool", detail::kind_name(v)));
}

RValue negate(const RValue& v, const SourceLocation& at) {
  if (v.kind == Kind::integer) {
    // -(-2^127) does not fit: an intermediate result can reach the bottom of the range.
    Wide r = 0;
    if (__builtin_sub_overflow(Wide{0}, v.i, &r))
      rule_failure(messages::integer_overflow(messages::negation(detail::wide_to_string(v.i))));
    return RValue::of_int(r);
  }
  if (v.kind == Kind::floating) return RValue::of_float(-v.f);
  type_failure(at, messages::type_mismatch("the operand of unary '-'", "int or float",
                                           detail::kind_name(v)));
}

double true_quotient(Wide a, Wide b) {
  // Integers that are doubles exactly divide correctly rounded in one IEEE division, as
  // Python's int / int does; larger ones (beyond 2^53, rare in a rule) through long double.
  if (detail::exact_as_double(a) && detail::exact_as_double(b))
    return detail::to_double(a) / detail::to_double(b);
  const auto x = static_cast<double>(a);
  const auto y = static_cast<double>(b);
  // A value near the 128-bit bound rounds to 2^127, which does not convert back.
  constexpr double kRange = 0x1p127;
  const bool convertible = std::fabs(x) < kRange && std::fabs(y) < kRange;
  if (convertible && static_cast<Wide>(x) == a && static_cast<Wide>(y) == b) return x / y;
  return static_cast<double>(static_cast<long double>(a) / static_cast<long double>(b));
}

double float_floor_quotient(double x, double y) {
  // Python's float // float: the quotient of x minus its remainder, so that the remainder
  // (which takes the divisor's sign) and the quotient agree; then rounded to a whole number.
  double mod = std::fmod(x, y);
  double div = (x - mod) / y;
  if (mod != 0) {
    if ((y < 0) != (mod < 0)) div -= 1.0;
  }
  if (div == 0) return std::copysign(0.0, x / y);
  double floor_div = std::floor(div);
  if (div - floor_div > 0.5) floor_div += 1.0;
  return floor_div;
}

RValue arithmetic(Op op, const RValue& a, const RValue& b, const SourceLocation& at,
                  ValueStore& store) {
  const char* symbol = syntax::spelling(op);
  if (op == Op::true_divide && a.kind == Kind::integer && b.kind == Kind::integer) {
    if (b.i == 0) rule_failure(messages::runtime_type(to_string(at), messages::division_by_zero()));
    return RValue::of_float(true_quotient(a.i, b.i));
  }
  if (a.kind == Kind::integer && b.kind == Kind::integer) {
    Wide r = 0;
    switch (integer_arithmetic(op == Op::floor_divide ? Op::divide : op, a.i, b.i, r)) {
      case IntegerStatus::ok:
        return RValue::of_int(r);
      case IntegerStatus::division_by_zero:
        rule_failure(messages::runtime_type(to_string(at), messages::division_by_zero()));
      case IntegerStatus::overflow:
        rule_failure(messages::integer_overflow(fmt::format("{} {} {}", detail::wide_to_string(a.i),
                                                            symbol, detail::wide_to_string(b.i))));
    }
  }
  const bool numeric = (a.kind == Kind::integer || a.kind == Kind::floating) &&
                       (b.kind == Kind::integer || b.kind == Kind::floating);
  if (numeric) {
    const double x = a.kind == Kind::integer ? detail::to_double(a.i) : a.f;
    const double y = b.kind == Kind::integer ? detail::to_double(b.i) : b.f;
    switch (op) {
      case Op::add:
        return RValue::of_float(x + y);
      case Op::subtract:
        return RValue::of_float(x - y);
      case Op::multiply:
        return RValue::of_float(x * y);
      case Op::divide:
      case Op::true_divide:
        if (y == 0)
          rule_failure(messages::runtime_type(to_string(at), messages::division_by_zero()));
        return RValue::of_float(x / y);
      case Op::floor_divide:
        if (y == 0)
          rule_failure(messages::runtime_type(to_string(at), messages::division_by_zero()));
        return RValue::of_float(float_floor_quotient(x, y));
      case Op::modulo: {
        if (y == 0)
          rule_failure(messages::runtime_type(to_string(at), messages::division_by_zero()));
        double m = std::fmod(x, y);
        if (m != 0 && ((m < 0) != (y < 0))) m += y;
        if (m == 0) m = std::copysign(0.0, y);  // as Python: -4.0 % 2.0 is 0.0, 4.0 % -2.0 is -0.0
        return RValue::of_float(m);
      }
      default:
        break;
    }
  }
  if (op == Op::add && a.kind == Kind::string && b.kind == Kind::string) {
    std::string joined;
    joined.reserve(a.text.size + b.text.size);
    joined += a.s();
    joined += b.s();
    return store.string(joined);
  }
  if (op == Op::add && a.kind == Kind::list && b.kind == Kind::list) {
    RValue* items = store.values(a.items.size + b.items.size);
    std::uninitialized_copy_n(a.items.data, a.items.size, items);
    std::uninitialized_copy_n(b.items.data, b.items.size, items + a.items.size);
    return RValue::of_items({items, a.items.size + b.items.size});
  }
  type_failure(at, messages::operand_kinds(symbol, detail::kind_name(a), detail::kind_name(b)));
}

// Python's str.lower() for the characters towlower knows (ASCII always; all of Unicode's
// simple case mappings where the C.UTF-8 locale exists).
std::string lower(std::string_view s) {
  bool ascii = true;
  for (unsigned char c : s) ascii = ascii && c < 0x80;
  std::string out;
  out.reserve(s.size());
  if (ascii) {
    for (char c : s) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
  }
  static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  // Decode to code points (invalid bytes are kept as they are, marked with the high bit).
  constexpr char32_t kRawByte = 0x80000000;
  std::vector<char32_t> points;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    bool ok = c < 0x80 || (c >= 0xC0 && i + n <= s.size());
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      ok = (b & 0xC0) == 0x80;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (!ok) {
      points.push_back(kRawByte | c);
      ++i;
      continue;
    }
    points.push_back(cp);
    i += n;
  }
  auto cased = [&](std::size_t k) {
    return k < points.size() && !(points[k] & kRawByte) && utf8 &&
           iswalpha_l(static_cast<wint_t>(points[k]), utf8);
  };
  auto put = [&out](char32_t lc) {
    if (lc < 0x80)
      out += static_cast<char>(lc);
    else if (lc < 0x800) {
      out += static_cast<char>(0xC0 | (lc >> 6));
      out += static_cast<char>(0x80 | (lc & 0x3F));
    } else if (lc < 0x10000) {
      out += static_cast<char>(0xE0 | (lc >> 12));
      out += static_cast<char>(0x80 | ((lc >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (lc & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (lc >> 18));
      out += static_cast<char>(0x80 | ((lc >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((lc >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (lc & 0x3F));
    }
  };
  for (std::size_t k = 0; k < points.size(); ++k) {
    const char32_t cp = points[k];
    if (cp & kRawByte)
      out += static_cast<char>(cp & 0xFF);
    else if (cp < 0x80)
      out += (cp >= 'A' && cp <= 'Z') ? static_cast<char>(cp - 'A' + 'a') : static_cast<char>(cp);
    else if (cp == 0x130)
      out += "i\xCC\x87";  // İ: Python's full mapping, "i" + combining dot above
    else if (cp == 0x3A3)
      put(k > 0 && cased(k - 1) && !cased(k + 1) ? 0x3C2 : 0x3C3);  // final sigma
    else
      put(utf8 ? static_cast<char32_t>(towlower_l(static_cast<wint_t>(cp), utf8)) : cp);
  }
  return out;
}

// Python's str.lower() applied to a string value: the value itself when nothing changes (the
// common case, no copy), else the lowered text kept in `store`.
RValue lowered(const RValue& v, ValueStore& store) {
  // Eight bytes at a time: a byte is non-ASCII when its high bit is set, and an ASCII
  // uppercase letter when adding (0x80 - 'A') sets the high bit and adding (0x80 - 'Z' - 1)
  // does not.
  const std::string_view s = v.s();
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  auto unchanged_word = [](std::uint64_t word) {
    const std::uint64_t ascii7 = word & (kOnes * 0x7F);
    const std::uint64_t upper = (ascii7 + kOnes * (0x80 - 'A')) & ~(ascii7 + kOnes * (0x80 - 'Z' - 1));
    return ((word | upper) & (kOnes * 0x80)) == 0;
  };
  bool unchanged = true;
  std::size_t k = 0;
  std::uint64_t word = 0;
  for (; k + 8 <= s.size() && unchanged; k += 8) {
    std::memcpy(&word, s.data() + k, 8);
    unchanged = unchanged_word(word);
  }
  if (unchanged && k < s.size()) {
    // The tail as one word of fixed-size loads (a memcpy of a variable length is a library
    // call): the last eight bytes; for four to seven, two overlapping halves; for one to
    // three, each byte in one of three places, the rest of the word zero bytes (which are
    // neither uppercase nor non-ASCII). A byte read twice is only tested twice.
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    if (n >= 8) {
      std::memcpy(&word, p + n - 8, 8);
    } else if (n >= 4) {
      std::uint32_t head = 0;
      std::uint32_t tail = 0;
      std::memcpy(&head, p, 4);
      std::memcpy(&tail, p + n - 4, 4);
      word = head | (std::uint64_t{tail} << 32);
    } else {
      word = p[0] | (std::uint64_t{p[n / 2]} << 8) | (std::uint64_t{p[n - 1]} << 16);
    }
    unchanged = unchanged_word(word);
  }
  if (unchanged) return v;
  return store.string(lower(v.s()));
}

}  // namespace snnplan::language
