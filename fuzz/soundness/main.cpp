// snnplan_soundness: the long run of the soundness campaign (docs/soundness.md).
//   snnplan_soundness [--mutants N] [--seed S] [--random-points N] [--region-points N]
//                     [--max-mutations N] RULE_FILE...
// Prints the figures and each class of miss with its smallest example; exits 1 when there is
// a miss, 2 on a bad command line or a base file that does not load.

#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include "soundness/campaign.hpp"

namespace {

bool number(const char* text, std::uint64_t& out) {
  const std::string_view s(text);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace snnplan::soundness;
  Options options;
  std::vector<BaseFile> files;
  for (int k = 1; k < argc; ++k) {
    const std::string_view arg = argv[k];
    std::uint64_t value = 0;
    const bool has_value = k + 1 < argc && arg.starts_with("--");
    if (has_value && number(argv[k + 1], value)) {
      ++k;
      if (arg == "--mutants") options.mutants = value;
      else if (arg == "--seed") options.seed = value;
      else if (arg == "--random-points") options.random_points = value;
      else if (arg == "--region-points") options.max_region_points = value;
      else if (arg == "--max-mutations") options.max_mutations = static_cast<int>(value);
      else {
        std::cerr << "unknown option " << arg << '\n';
        return 2;
      }
      continue;
    }
    if (arg.starts_with("--")) {
      std::cerr << "option " << arg << " needs a number\n";
      return 2;
    }
    std::ifstream in(argv[k], std::ios::binary);
    if (!in) {
      std::cerr << "cannot read " << arg << '\n';
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    files.push_back(BaseFile{std::string(arg), text.str()});
  }
  try {
    const Figures figures = run_campaign(files, options);
    std::cout << report(figures);
    return figures.misses == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return 2;
  }
}
