#pragma once
// Test support shared by the CLI and plan tests: run the CLI in-process, and temporary files.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "frontends/cli/app.hpp"

namespace snnplan::testing {

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

/// Runs `snnplan ARGS...` with `stdin_text` on standard input; returns the exit code and output.
inline CliRun run_cli(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  std::vector<const char*> argv{"snnplan"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::istringstream in(stdin_text);
  std::ostringstream out;
  std::ostringstream err;
  CliRun run;
  run.code = snnplan::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

/// The whole text of a file ("" when it cannot be read).
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A file in a per-process temporary directory, removed at the end of the test.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      : path_(std::filesystem::temp_directory_path() / ("snnplan_test_" + std::to_string(::getpid())) / name) {
    std::filesystem::create_directories(path_.parent_path());
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    std::filesystem::remove(path_.parent_path(), ignored);  // only succeeds once empty
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace snnplan::testing
