#include "cli/batch.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <istream>
#include <optional>
#include <ostream>

#include "cli/interrupt.hpp"
#include "cli/lines.hpp"
#include "cli/output.hpp"
#include "api/rule_set_access.hpp"
#include "core/messages.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "request/json_slots.hpp"
#include "cli/rule_files.hpp"

namespace snnplan::cli {

ExitCode with_batch_input(
    const std::string& batch, std::istream& in,
    const std::function<ExitCode(std::istream& lines, const std::string& source_name)>& run) {
  if (batch == "-") return run(in, kStdinName);
  const int fd = ::open(batch.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw UsageError{messages::cannot_open_batch(batch, std::strerror(errno))};
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  FdReader reader(fd);
  // A directory opens, and would read as an empty batch that succeeds.
  if (reader.sgetc() == std::streambuf::traits_type::eof() && reader.error() == EISDIR)
    throw UsageError{messages::cannot_open_batch(batch, "it is a directory")};
  std::istream lines(&reader);
  return run(lines, batch);
}

ExitCode run_batch_lines(std::istream& in, std::ostream& out, std::ostream& err,
                         const std::string& source_name, const AnswerLine& answer, bool traced) {
  ExitCode worst = ExitCode::ok;
  std::string line;
  std::string buffer;  // whole output lines only: what a signal or a failed write leaves is whole
  std::size_t line_number = 0;
  std::size_t lines_out = 0;    // lines handed to `out`
  std::size_t lines_ready = 0;  // lines in `buffer`
  auto hand_over = [&] {
    out << buffer;
    out.flush();
    buffer.clear();
    if (!out) throw WriteFailed{write_failure_reason(out)};
    lines_out += lines_ready;
    lines_ready = 0;
  };
  auto fail = [&](EvaluationErrorKind kind, const std::string& message,
                  const std::vector<TraceStep>& steps) {
    worst = worse(worst, exit_code_of(kind));
    // A bad line is reported where operators look (stderr) and marked in the output, so both
    // streams stay line-for-line with the input.
    const bool bad_input = kind == EvaluationErrorKind::bad_input;
    if (traced) {
      nlohmann::ordered_json error_line = {{"error", message}};
      if (bad_input) error_line["line"] = line_number;
      render::add_rule_path(error_line, steps);
      buffer += render::json_line(error_line);
    } else {
      render::append_error_line(buffer, message, bad_input ? std::optional(line_number) : std::nullopt);
    }
    if (bad_input) err << fmt::format("{}:{}: error: {}\n", source_name, line_number, message);
  };
  std::streambuf& input = *in.rdbuf();
  for (;;) {
    // Before a read that may block, hand over what is done: a launcher talking to us
    // through a pipe waits for each answer.
    if (!buffer.empty() && input.in_avail() <= 0) hand_over();
    const LineRead read = read_line(input, line);
    if (read == LineRead::end || interrupt::pending()) break;
    ++line_number;
    if (read == LineRead::too_long) {
      fail(EvaluationErrorKind::bad_input, messages::batch_line_too_long(kMaxBatchLineBytes), {});
    } else {
      const std::size_t start = buffer.size();
      if (const LineOutcome outcome = answer(line, buffer); !outcome.ok) {
        buffer.resize(start);  // nothing half-written by a failed answer
        fail(outcome.kind, outcome.message, outcome.steps);
      }
    }
    buffer += '\n';
    ++lines_ready;
    if (buffer.size() >= (1u << 16)) hand_over();
    if (interrupt::pending()) break;
  }
  hand_over();
  if (const int signal = interrupt::pending()) throw Interrupted{signal, lines_out};
  return worst;
}

namespace {

// One recommendation per line into a reused Evaluation: nothing is allocated per line for
// the fields. A plain line (request/json_slots.hpp) is read straight into the input slots;
// any other goes through the exact reader, which words what is wrong with it. The record is
// written straight from the evaluation's views, field names escaped once per rule set. With `traced`
// the line is explained instead (the same evaluation, with its steps), and the record is
// followed by "rules" and "trace".
struct FastLines {
  explicit FastLines(const RuleSet& rules)
      : reader(rules), writer(*RuleSetAccess::compiled(rules).field_names) {}
  request::JsonSlotReader reader;
  render::RecordLineWriter writer;
};

LineOutcome recommend_line(const RuleSet& rules, FastLines& fast, Evaluation& evaluation,
                           const std::string& line, std::string& output, bool traced) {
  if (!traced && fast.reader.read(line)) {
    if (!RuleSetAccess::evaluate_by_slot(rules, fast.reader.slots(), evaluation))
      return {false, evaluation.error().kind, evaluation.error().message, {}};
    fast.writer.append(output, evaluation.values());
    return {};
  }
  auto parsed = request::inputs_from_json_line(line, rules);
  auto* inputs = std::get_if<Inputs>(&parsed);
  if (!inputs) return {false, EvaluationErrorKind::bad_input, std::get<std::string>(parsed), {}};
  if (traced) {
    Explanation explanation = rules.explain(*inputs);
    if (!explanation.result.ok())
      return {false, explanation.result.error().kind, explanation.result.error().message,
              std::move(explanation.steps)};
    nlohmann::ordered_json traced_line = render::to_json(explanation.result.record());
    render::add_rule_path(traced_line, explanation.steps);
    output += render::json_line(traced_line);
    return {};
  }
  if (!rules.evaluate(*inputs, evaluation))
    return {false, evaluation.error().kind, evaluation.error().message, {}};
  fast.writer.append(output, evaluation.values());
  return {};
}

}  // namespace

ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules,
                   const std::string& source_name, bool traced) {
  Evaluation evaluation;
  FastLines fast(rules);
  return run_batch_lines(
      in, out, err, source_name,
      [&](const std::string& line, std::string& output) {
        return recommend_line(rules, fast, evaluation, line, output, traced);
      },
      traced);
}

ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, LiveRuleSet& rules,
                   const std::string& source_name, bool traced) {
  Evaluation evaluation;
  std::shared_ptr<const RuleSet> snapshot = rules.current();
  std::optional<FastLines> fast;
  return run_batch_lines(
      in, out, err, source_name,
      [&](const std::string& line, std::string& output) {
        rules.reload_if_changed();
        snapshot = rules.current();  // kept while `evaluation`'s views of it are in use
        if (!fast || !fast->reader.reads_for(*snapshot)) fast.emplace(*snapshot);
        return recommend_line(*snapshot, *fast, evaluation, line, output, traced);
      },
      traced);
}

}  // namespace snnplan::cli
