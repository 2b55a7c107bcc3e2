// Replays saved fuzz inputs through the fuzz targets without libFuzzer, in any build:
//   snnplan_fuzz_replay TARGET PATH...   (each PATH a file, or a folder read recursively)
// A crash or broken invariant aborts (the ctest test then fails); otherwise it prints how
// many inputs ran. TARGET is one of the names in targets.cpp (rule_file, expression, ...).

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "targets.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TARGET PATH...\n", argv[0]);
    return 2;
  }
  const std::string name = argv[1];
  const auto& all = snnplan::fuzz::targets();
  const auto target = std::find_if(all.begin(), all.end(), [&](const auto& t) { return t.name == name; });
  if (target == all.end()) {
    std::fprintf(stderr, "unknown fuzz target '%s'\n", name.c_str());
    return 2;
  }
  std::vector<fs::path> files;
  for (int k = 2; k < argc; ++k) {
    const fs::path path = argv[k];
    if (fs::is_directory(path)) {
      for (const auto& entry : fs::recursive_directory_iterator(path))
        if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
    } else if (fs::is_regular_file(path)) {
      files.push_back(path);
    } else {
      std::fprintf(stderr, "no such file or folder: %s\n", path.c_str());
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "%s: %s\n", name.c_str(), file.c_str());
    target->run(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  std::printf("%s: %zu inputs replayed without a crash\n", name.c_str(), files.size());
  return 0;
}
