// pipeline_microbatches: the reference's microbatch search, exactly and for huge inputs.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <variant>

#include "snnplan/microbatches.hpp"

namespace {

using Result = std::variant<std::int64_t, std::string>;

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t k2to40 = std::int64_t{1} << 40;
constexpr std::int64_t k2to62 = std::int64_t{1} << 62;

std::int64_t count_of(std::int64_t batch_size, std::int64_t num_stages) {
  const Result r = snnplan::pipeline_microbatches(batch_size, num_stages);
  REQUIRE_MESSAGE(std::holds_alternative<std::int64_t>(r),
                  (std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string()));
  return std::get<std::int64_t>(r);
}

std::string error_of(std::int64_t batch_size, std::int64_t num_stages) {
  const Result r = snnplan::pipeline_microbatches(batch_size, num_stages);
  REQUIRE(std::holds_alternative<std::string>(r));
  return std::get<std::string>(r);
}

}  // namespace

TEST_SUITE("microbatches") {
  TEST_CASE("every golden microbatch case matches the reference") {
    std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/golden/microbatches.jsonl");
    REQUIRE(in.good());
    std::string line;
    std::size_t checked = 0;
    std::size_t errors = 0;
    std::size_t line_number = 0;
    while (std::getline(in, line)) {
      ++line_number;
      if (line.empty()) continue;
      const auto row = nlohmann::json::parse(line);
      const auto batch_size = row.at("batch_size").get<std::int64_t>();
      const auto num_stages = row.at("num_stages").get<std::int64_t>();
      CAPTURE(line_number);
      CAPTURE(line);
      const Result got = snnplan::pipeline_microbatches(batch_size, num_stages);
      if (row.contains("error")) {
        ++errors;
        REQUIRE(std::holds_alternative<std::string>(got));
        CHECK(std::get<std::string>(got) == row.at("error").get<std::string>());
      } else {
        REQUIRE(std::holds_alternative<std::int64_t>(got));
        CHECK(std::get<std::int64_t>(got) == row.at("expected").get<std::int64_t>());
      }
      ++checked;
    }
    // 203 batch sizes x 63 stage counts, then 300 random pairs.
    CHECK(checked == 203 * 63 + 300);
    CHECK(errors > 0);
    CHECK(errors < checked);
  }

  TEST_CASE("the largest divisor of the batch size within the allowed range is chosen") {
    CHECK(count_of(64, 4) == 16);
    CHECK(count_of(64, 3) == 8);
    CHECK(count_of(12, 5) == 12);
    CHECK(count_of(7, 7) == 7);
    CHECK(count_of(100, 1) == 4);
    CHECK(count_of(9, 1) == 3);
  }

  TEST_CASE("non-positive sizes and a batch smaller than the stage count are refused with the reference messages") {
    CHECK(error_of(0, 4) == "batch_size must be positive, but got 0.");
    CHECK(error_of(-3, -1) == "batch_size must be positive, but got -3.");
    CHECK(error_of(kMin, 1) == "batch_size must be positive, but got -9223372036854775808.");
    CHECK(error_of(8, 0) == "num_stages must be positive, but got 0.");
    CHECK(error_of(8, kMin) == "num_stages must be positive, but got -9223372036854775808.");
    CHECK(error_of(3, 4) ==
          "batch_size (3) must be >= num_stages (4) for pipeline parallelism with the current microbatch splitting "
          "implementation.");
  }

  TEST_CASE("a batch size with no divisor in the range is refused with the range in the message") {
    CHECK(error_of(17, 4) ==
          "batch_size (17) must be divisible by at least one microbatch count in [4, 16] for pipeline parallelism.");
  }

  TEST_CASE("a huge power-of-two batch over 2^40 stages returns 2^42 at once") {
    // 2^42 divides 2^62 and is at most 4 * 2^40, and nothing larger is allowed.
    CHECK(count_of(k2to62, k2to40) == std::int64_t{1} << 42);
  }

  TEST_CASE("a batch of three times 2^40 over 2^40 stages uses the whole batch") {
    // 3 * 2^40 <= 4 * 2^40, so the batch size itself is the largest allowed divisor.
    CHECK(count_of(3 * k2to40, k2to40) == 3 * k2to40);
  }

  TEST_CASE("a product of two primes near the square root picks the larger prime") {
    // 999985999949 = 999983 * 1000003; with 999983 stages the range is [999983, 3999932].
    CHECK(count_of(999985999949, 999983) == 1000003);
  }

  TEST_CASE("a large prime batch with stages near its square root has no valid count") {
    CHECK(error_of(999999999989, 1000000) ==
          "batch_size (999999999989) must be divisible by at least one microbatch count in [1000000, 4000000] for "
          "pipeline parallelism.");
    CHECK(error_of(99999999999973, 9999999) ==
          "batch_size (99999999999973) must be divisible by at least one microbatch count in [9999999, 39999996] "
          "for pipeline parallelism.");
  }

  TEST_CASE("the extremes of the 64-bit range do not overflow four times the stage count") {
    CHECK(count_of(kMax, kMax) == kMax);
    CHECK(count_of(kMax, k2to62) == kMax);
    CHECK(count_of(kMax, kMax / 2) == kMax);
    // 2^63 - 1 = 7^2 * 73 * 127 * 337 * 92737 * 649657: none of 2, 3, 4 divides it.
    CHECK(count_of(kMax, 1) == 1);
    CHECK(count_of(kMax, 5) == 7);
    CHECK(error_of(kMax - 1, kMax) ==
          "batch_size (9223372036854775806) must be >= num_stages (9223372036854775807) for pipeline parallelism "
          "with the current microbatch splitting implementation.");
  }
}
