// Checks that the hand-written baseline gives the engine's answers (RuleSet::builtin()) on the
// benchmark cases, 64-bit extremes and pseudo-random inputs. Exit 0 when all agree, 1 if not.
//   baseline_selfcheck [RANDOM_COUNT]   (default 500)

#include <cstdlib>
#include <iostream>
#include <string>

#include "parity_check.hpp"

int main(int argc, char** argv) {
  const int random_count = argc > 1 ? std::atoi(argv[1]) : 500;
  const auto cases = bench::parity_cases(random_count);
  const int bad = bench::count_mismatches(cases, std::cerr);
  std::cout << "baseline self-check: " << (cases.size() - static_cast<std::size_t>(bad)) << "/" << cases.size()
            << " inputs agree with the engine\n";
  return bad == 0 ? 0 : 1;
}
