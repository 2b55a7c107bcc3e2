#pragma once
// A signed integer of any size, for the topology's checks: upstream's Python integers are
// unbounded, and its messages print products such as 36893488147419103232 exactly. Only what
// those checks need: construction from int64, uint64 and whole doubles, multiplication,
// comparison, parity and decimal text.

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace snnplan::plan_detail {

class ExactInteger {
 public:
  ExactInteger() = default;
  explicit ExactInteger(std::int64_t v) : negative_(v < 0) {
    // The magnitude of INT64_MIN does not fit in int64; in uint64 it does.
    set_magnitude(v < 0 ? ~static_cast<std::uint64_t>(v) + 1 : static_cast<std::uint64_t>(v));
  }
  static ExactInteger of_unsigned(std::uint64_t v) {
    ExactInteger out;
    out.set_magnitude(v);
    return out;
  }
  /// Precondition: `d` is finite and whole (Python's int(d) for a float with is_integer()).
  static ExactInteger of_whole_double(double d) {
    ExactInteger out;
    int exponent = 0;
    // d = mantissa * 2^exponent with 0.5 <= |mantissa| < 1: 53 significant bits, shifted.
    const double mantissa = std::frexp(std::fabs(d), &exponent);
    if (exponent <= 0) return out;  // |d| < 1 and whole: zero
    const auto bits = static_cast<std::uint64_t>(std::ldexp(mantissa, 53));
    out.set_magnitude(bits);
    if (exponent >= 53) {
      out.shift_left(exponent - 53);
    } else {
      out.set_magnitude(bits >> (53 - exponent));
    }
    out.negative_ = d < 0 && !out.limbs_.empty();
    return out;
  }

  [[nodiscard]] bool is_positive() const noexcept { return !negative_ && !limbs_.empty(); }
  [[nodiscard]] bool is_odd() const noexcept { return !limbs_.empty() && (limbs_[0] & 1U) != 0; }
  /// The value as int64, if it fits.
  [[nodiscard]] std::optional<std::int64_t> to_int64() const noexcept {
    if (limbs_.size() > 2) return std::nullopt;
    std::uint64_t magnitude = 0;
    for (std::size_t k = limbs_.size(); k-- > 0;) magnitude = (magnitude << 32) | limbs_[k];
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (!negative_) {
      if (magnitude > kMax) return std::nullopt;
      return static_cast<std::int64_t>(magnitude);
    }
    if (magnitude > kMax + 1) return std::nullopt;
    return static_cast<std::int64_t>(~magnitude + 1);
  }

  friend ExactInteger operator*(const ExactInteger& a, const ExactInteger& b) {
    ExactInteger out;
    if (a.limbs_.empty() || b.limbs_.empty()) return out;
    std::vector<std::uint32_t> product(a.limbs_.size() + b.limbs_.size(), 0);
    for (std::size_t i = 0; i < a.limbs_.size(); ++i) {
      std::uint64_t carry = 0;
      for (std::size_t j = 0; j < b.limbs_.size(); ++j) {
        const std::uint64_t t = std::uint64_t{a.limbs_[i]} * b.limbs_[j] + product[i + j] + carry;
        product[i + j] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
      product[i + b.limbs_.size()] = static_cast<std::uint32_t>(carry);
    }
    out.limbs_ = std::move(product);
    out.trim();
    out.negative_ = a.negative_ != b.negative_;
    return out;
  }
  friend bool operator==(const ExactInteger&, const ExactInteger&) = default;

  /// Decimal, with a leading '-' when negative (as Python's str(int)).
  [[nodiscard]] std::string to_string() const {
    if (limbs_.empty()) return "0";
    std::vector<std::uint32_t> rest = limbs_;
    std::string digits;
    while (!rest.empty()) {  // divide by 10^9, collecting nine digits at a time
      std::uint64_t remainder = 0;
      for (std::size_t k = rest.size(); k-- > 0;) {
        const std::uint64_t t = (remainder << 32) | rest[k];
        rest[k] = static_cast<std::uint32_t>(t / 1000000000U);
        remainder = t % 1000000000U;
      }
      while (!rest.empty() && rest.back() == 0) rest.pop_back();
      for (int d = 0; d < 9 && (remainder != 0 || !rest.empty()); ++d) {
        digits.push_back(static_cast<char>('0' + remainder % 10));
        remainder /= 10;
      }
    }
    if (negative_) digits.push_back('-');
    return {digits.rbegin(), digits.rend()};
  }

 private:
  void set_magnitude(std::uint64_t v) {
    limbs_ = {static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v >> 32)};
    trim();
  }
  void shift_left(int bits) {
    std::vector<std::uint32_t> shifted(static_cast<std::size_t>(bits / 32), 0);
    std::uint32_t carry = 0;
    const int within = bits % 32;
    for (std::uint32_t limb : limbs_) {
      shifted.push_back(within == 0 ? limb : (limb << within) | carry);
      carry = within == 0 ? 0 : limb >> (32 - within);
    }
    if (carry) shifted.push_back(carry);
    limbs_ = std::move(shifted);
    trim();
  }
  void trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
    if (limbs_.empty()) negative_ = false;
  }

  bool negative_ = false;
  std::vector<std::uint32_t> limbs_;  // magnitude, least significant first; empty: zero
};

}  // namespace snnplan::plan_detail
