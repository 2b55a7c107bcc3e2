#pragma once
// `--batch FILE|-`, `--jobs N` and `--trace` of the commands that answer one request given by
// flags or many given as JSON Lines (`recommend`, `plan`, `plan-training`), and the refusals
// they share, so the three cannot word or order them differently.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "frontends/cli/batch.hpp"
#include "render/format.hpp"

namespace snnplan::cli {

struct BatchFlags {
  std::string batch;
  bool trace = false;
  unsigned jobs = 1;
  CLI::Option* batch_option = nullptr;
  CLI::Option* jobs_option = nullptr;

  /// Adds --batch ("JSON Lines file of {item}s, ...") and --jobs; --trace, whose meaning
  /// differs between the commands, is each command's own.
  void attach(CLI::App& command, std::string_view item);

  /// The --batch argument, when given.
  [[nodiscard]] std::optional<std::string> file() const;

  /// With --batch: no input flag (`first_input_flag`, the first one given, or nullptr) and JSON
  /// output (`format`, written `format_text`). Throws UsageError.
  void refuse_flags_with_batch(const char* first_input_flag, render::Format format,
                               const std::string& format_text) const;
  /// --jobs only with --batch, and standard input not read both as the rules (`rules_flag`) and
  /// as the batch. Throws UsageError.
  void refuse_jobs_and_stdin(const std::optional<std::string>& rules_flag) const;

  /// The options of the batch run: --trace and --jobs.
  [[nodiscard]] BatchOptions options() const;
};

}  // namespace snnplan::cli
