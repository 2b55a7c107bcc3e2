#include "cli/batch.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>

#include "core/messages.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "cli/rule_files.hpp"

namespace snnplan::cli {

ExitCode with_batch_input(const std::string& batch, std::istream& in,
                          const std::function<ExitCode(std::istream& lines, const std::string& source_name)>& run) {
  if (batch == "-") return run(in, kStdinName);
  std::error_code ignored;
  if (std::filesystem::is_directory(batch, ignored)) throw UsageError{messages::cannot_open_batch(batch, "it is a directory")};
  std::ifstream file(batch);
  if (!file) throw UsageError{messages::cannot_open_batch(batch)};
  return run(file, batch);
}

void fail_line(EvaluationErrorKind kind, const std::string& message, std::size_t line_number, const std::string& source_name,
               std::ostream& err, ExitCode& worst, const std::function<void(const std::string& line)>& emit) {
  worst = worse(worst, exit_code_of(kind));
  nlohmann::ordered_json error_line = {{"error", message}};
  // A bad line is reported where operators look (stderr) and marked in the output, so both
  // streams stay line-for-line with the input.
  const bool bad_input = kind == EvaluationErrorKind::bad_input;
  if (bad_input) error_line["line"] = line_number;
  emit(render::json_line(error_line));
  if (bad_input) err << fmt::format("{}:{}: error: {}\n", source_name, line_number, message);
}

namespace {

ExitCode batch_loop(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet* fixed, LiveRuleSet* live,
                    const std::string& source_name) {
  ExitCode worst = ExitCode::ok;
  std::string line;
  std::string buffer;
  std::size_t line_number = 0;
  auto flush_if_large = [&] {
    if (buffer.size() >= (1u << 16)) {
      out << buffer;
      buffer.clear();
    }
  };
  auto next_line = [&]() -> bool {
    // Before a read that may block, hand over what is done: a launcher talking to us
    // through a pipe waits for each answer.
    if (in.rdbuf()->in_avail() <= 0 && !buffer.empty()) {
      out << buffer;
      out.flush();
      buffer.clear();
    }
    return static_cast<bool>(std::getline(in, line));
  };
  std::shared_ptr<const RuleSet> snapshot;
  Evaluation evaluation;  // reused: the loop allocates nothing per line for the fields
  while (next_line()) {
    ++line_number;
    if (live) {
      live->reload_if_changed();
      snapshot = live->current();
    }
    const RuleSet& rules = live ? *snapshot : *fixed;
    auto parsed = request::inputs_from_json_line(line, rules);
    std::string message;
    EvaluationErrorKind kind = EvaluationErrorKind::bad_input;
    if (auto* inputs = std::get_if<Inputs>(&parsed)) {
      if (rules.evaluate(*inputs, evaluation)) {
        render::append_json_line(buffer, evaluation);
        buffer += '\n';
        flush_if_large();
        continue;
      }
      kind = evaluation.error().kind;
      message = evaluation.error().message;
    } else {
      message = std::get<std::string>(parsed);
    }
    fail_line(kind, message, line_number, source_name, err, worst, [&](const std::string& text) {
      buffer += text;
      buffer += '\n';
    });
    flush_if_large();
  }
  out << buffer;
  out.flush();
  return worst;
}

}  // namespace

ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules,
                   const std::string& source_name) {
  return batch_loop(in, out, err, &rules, nullptr, source_name);
}

ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, LiveRuleSet& rules,
                   const std::string& source_name) {
  return batch_loop(in, out, err, nullptr, &rules, source_name);
}

}  // namespace snnplan::cli
