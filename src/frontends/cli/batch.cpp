#include "frontends/cli/batch.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <barrier>
#include <cerrno>
#include <cstring>
#include <exception>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <thread>
#include <utility>

#include "frontends/cli/interrupt.hpp"
#include "frontends/cli/lines.hpp"
#include "frontends/cli/output.hpp"
#include "frontends/cli/messages.hpp"
#include "render/json.hpp"
#include "frontends/cli/rule_files.hpp"

namespace snnplan::cli {

ExitCode with_batch_input(
    const std::string& batch, std::istream& in,
    const std::function<ExitCode(std::istream& lines, const std::string& source_name)>& run,
    std::string_view what) {
  if (batch == "-") return run(in, kStdinName);
  const int fd = ::open(batch.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw UsageError{messages::cannot_open_batch(batch, std::strerror(errno), what)};
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  FdReader reader(fd);
  // A directory opens, and would read as an empty batch that succeeds.
  if (reader.sgetc() == std::streambuf::traits_type::eof() && reader.error() == EISDIR)
    throw UsageError{messages::cannot_open_batch(batch, "it is a directory", what)};
  std::istream lines(&reader);
  return run(lines, batch);
}

namespace {

// Answers line `line_number` into `buffer`: its output line, or, when the rules refuse it or
// it is over the limit, its error line ({"error": message}, with "line" for a bad input, and
// "rules" and "trace" with --trace); without the newline. The caller reports a refusal.
LineOutcome answer_line(std::string& buffer, bool traced, std::size_t line_number, LineRead read,
                        const std::string& line, const AnswerLine& answer) {
  LineOutcome outcome;
  if (read == LineRead::too_long) {
    outcome = {false, EvaluationErrorKind::bad_input,
               messages::batch_line_too_long(kMaxBatchLineBytes), {}};
  } else {
    const std::size_t start = buffer.size();
    outcome = answer(line, buffer);
    if (outcome.ok) return outcome;
    buffer.resize(start);  // nothing half-written by a failed answer
  }
  request::append_refusal(buffer, outcome, line_number, traced);
  return outcome;
}

// What every batch loop shares: output in whole lines only (what a signal or a failed write
// leaves is whole), the error lines of refused inputs, and the worst outcome.
class BatchOutput {
 public:
  BatchOutput(std::ostream& out, std::ostream& err, const std::string& source_name)
      : out_(out), err_(err), source_name_(source_name) {}

  std::string& buffer() { return buffer_; }
  [[nodiscard]] bool holds_lines() const { return !buffer_.empty(); }

  // Writes the lines done so far; throws WriteFailed when `out` fails.
  void hand_over() {
    out_ << buffer_;
    out_.flush();
    buffer_.clear();
    complete_ = 0;
    if (!out_) throw WriteFailed{write_failure_reason(out_)};
    lines_out_ += lines_ready_;
    lines_ready_ = 0;
  }

  // The outcome of a refused line (its error line is in the output): a bad line is reported
  // where operators look (stderr) as well as marked in the output, so both streams stay
  // line-for-line with the input.
  void refused(std::size_t line_number, EvaluationErrorKind kind, const std::string& message) {
    worst_ = worse(worst_, exit_code_of(kind));
    if (kind == EvaluationErrorKind::bad_input)
      err_ << fmt::format("{}:{}: error: {}\n", source_name_, line_number, message);
  }

  // Ends the current line; hands over when enough is buffered.
  void end_line() {
    buffer_ += '\n';
    lines_done(1);
  }

  // `count` whole lines, each with its newline, appended to buffer() by the caller.
  void lines_done(std::size_t count) {
    lines_ready_ += count;
    complete_ = buffer_.size();
    if (buffer_.size() >= (1u << 16)) hand_over();
  }

  // When the run fails (an answer threw): the whole lines done so far still go out, without
  // any part of the line that failed; a write that fails too is left to the first failure.
  void salvage() noexcept {
    try {
      buffer_.resize(complete_);
      hand_over();
    } catch (...) {
    }
  }

  // The end of the run: what is left written, then Interrupted if a signal asked to stop.
  ExitCode finish() {
    hand_over();
    if (const int signal = interrupt::pending()) throw Interrupted{signal, lines_out_};
    return worst_;
  }

 private:
  std::ostream& out_;
  std::ostream& err_;
  const std::string& source_name_;
  ExitCode worst_ = ExitCode::ok;
  std::string buffer_;
  std::size_t complete_ = 0;     // bytes of buffer_ that are whole lines
  std::size_t lines_out_ = 0;    // lines handed to `out`
  std::size_t lines_ready_ = 0;  // lines in `buffer_`
};

ExitCode run_sequential(std::streambuf& input, BatchOutput& output, const MakeAnswer& make_answer,
                        const BatchOptions& options) {
  const AnswerLine answer = make_answer();
  std::string line;
  std::size_t line_number = 0;
  for (;;) {
    // Before a read that may block, hand over what is done: a launcher talking to us
    // through a pipe waits for each answer.
    if (output.holds_lines() && input.in_avail() <= 0) output.hand_over();
    const LineRead read = read_line(input, line);
    if (read == LineRead::end || interrupt::pending()) break;
    if (options.before_block) options.before_block();
    const LineOutcome outcome =
        answer_line(output.buffer(), options.traced, ++line_number, read, line, answer);
    if (!outcome.ok) output.refused(line_number, outcome.kind, outcome.message);
    output.end_line();
    if (interrupt::pending()) break;
  }
  return output.finish();
}

// --jobs N: blocks of lines answered by N threads (this one and N - 1 workers), each taking a
// contiguous share and writing its lines, error lines included, into its own buffer; this
// thread then hands the shares over in input order. The workers meet this thread at a barrier
// before and after each block. A worker that a signal stops leaves its share short, and the
// output ends there: what is written is still the input's first lines, whole.
class ParallelBatch {
 public:
  // A block holds at most this many lines, and stops growing past kBlockBytes of input.
  static constexpr std::size_t kBlockLines = 512;
  static constexpr std::size_t kBlockBytes = std::size_t{4} << 20;

  ParallelBatch(const MakeAnswer& make_answer, const BatchOptions& options)
      : traced_(options.traced), sync_(options.jobs) {
    const unsigned jobs = options.jobs;
    for (unsigned k = 0; k < jobs; ++k) answers_.push_back(make_answer());
    lines_.resize(kBlockLines);
    shares_.resize(jobs);
    try {
      for (unsigned k = 1; k < jobs; ++k) workers_.emplace_back([this, k] { work(k); });
    } catch (...) {
      // A thread could not start: the ones that did are released (the missing ones' places
      // at the barrier given up) before the failure goes on.
      stop_ = true;
      for (std::size_t k = workers_.size() + 1; k < jobs; ++k) sync_.arrive_and_drop();
      sync_.arrive_and_wait();
      for (std::thread& worker : workers_) worker.join();
      throw;
    }
  }
  ParallelBatch(const ParallelBatch&) = delete;
  ParallelBatch& operator=(const ParallelBatch&) = delete;
  ~ParallelBatch() {
    stop_ = true;  // the workers wait at the first barrier of a round: released to leave
    sync_.arrive_and_wait();
    for (std::thread& worker : workers_) worker.join();
  }

  ExitCode run(std::streambuf& input, BatchOutput& output, const BatchOptions& options) {
    for (;;) {
      if (output.holds_lines() && input.in_avail() <= 0) output.hand_over();
      const bool ended = read_block(input);
      if (count_ == 0) break;
      if (options.before_block) options.before_block();
      sync_.arrive_and_wait();  // the block is ready: every thread answers its share
      answer_share(0);
      sync_.arrive_and_wait();  // every share is done
      for (Share& share : shares_) {
        // The lines a share finished go out even when it then failed (an answer threw).
        output.buffer().append(share.output, 0, share.complete);
        for (const Refusal& refusal : share.refusals)
          output.refused(refusal.line_number, refusal.kind, refusal.message);
        output.lines_done(share.lines);
        if (share.failure) std::rethrow_exception(std::exchange(share.failure, nullptr));
        if (share.lines < share.end - share.begin) return output.finish();  // a signal
      }
      first_line_ += count_;
      release_long_lines();
      if (ended || interrupt::pending()) break;
    }
    return output.finish();
  }

 private:
  struct Line {
    std::string text;
    LineRead read = LineRead::line;
  };
  struct Refusal {
    std::size_t line_number;
    EvaluationErrorKind kind;
    std::string message;
  };
  // One thread's part of a block: lines [begin, end) of it, answered into `output`. On a
  // cache line of its own: each thread writes its share on every line.
  struct alignas(64) Share {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string output;
    std::size_t lines = 0;     // lines answered, each ended by a newline in `output`
    std::size_t complete = 0;  // bytes of `output` that are those lines
    std::vector<Refusal> refusals;
    std::exception_ptr failure;  // rethrown by the reading thread
  };

  // Reads up to a block of lines: as many as the input already holds after the first (a
  // read then would block), within the block's bounds. True at the end of the input.
  bool read_block(std::streambuf& input) {
    count_ = 0;
    std::size_t bytes = 0;
    while (count_ < kBlockLines && bytes < kBlockBytes) {
      if (count_ > 0 && input.in_avail() <= 0) return false;
      Line& line = lines_[count_];
      line.read = read_line(input, line.text);
      if (line.read == LineRead::end) return true;
      if (interrupt::pending()) return true;  // the line read is not answered
      // A line over the limit counts as the limit: read_line held that much of it.
      bytes += line.read == LineRead::too_long ? kMaxBatchLineBytes : line.text.size();
      ++count_;
    }
    return false;
  }

  // Long lines' storage given back after their block, so that what a block holds stays
  // bounded by kBlockBytes rather than by kBlockLines long lines over a run.
  void release_long_lines() {
    constexpr std::size_t kKeptBytes = 4096;
    for (std::size_t k = 0; k < count_; ++k)
      if (lines_[k].text.capacity() > kKeptBytes) std::string().swap(lines_[k].text);
    for (Share& share : shares_)
      if (share.output.capacity() > kBlockBytes) std::string().swap(share.output);
  }

  // Thread `k`'s share of the block: lines [k * count / jobs, (k + 1) * count / jobs).
  void answer_share(std::size_t k) {
    Share& share = shares_[k];
    const std::size_t jobs = shares_.size();
    share.begin = k * count_ / jobs;
    share.end = (k + 1) * count_ / jobs;
    share.output.clear();
    share.lines = 0;
    share.complete = 0;
    share.refusals.clear();
    try {
      for (std::size_t n = share.begin; n < share.end; ++n) {
        if (interrupt::pending()) return;
        answer(share, answers_[k], n);
        share.output += '\n';
        ++share.lines;
        share.complete = share.output.size();
      }
    } catch (...) {
      share.failure = std::current_exception();
    }
  }

  void answer(Share& share, const AnswerLine& answer, std::size_t n) {
    const std::size_t line_number = first_line_ + n + 1;
    LineOutcome outcome =
        answer_line(share.output, traced_, line_number, lines_[n].read, lines_[n].text, answer);
    if (!outcome.ok) share.refusals.push_back({line_number, outcome.kind, std::move(outcome.message)});
  }

  void work(std::size_t k) {
    for (;;) {
      sync_.arrive_and_wait();
      if (stop_) return;
      answer_share(k);
      sync_.arrive_and_wait();
    }
  }

  bool traced_;
  std::vector<AnswerLine> answers_;  // one per thread
  std::vector<Line> lines_;          // the block
  std::size_t count_ = 0;            // lines in the block
  std::size_t first_line_ = 0;       // lines before the block
  std::vector<Share> shares_;        // one per thread
  std::barrier<> sync_;
  bool stop_ = false;  // written by this thread between rounds, read after the barrier
  std::vector<std::thread> workers_;
};

}  // namespace

ExitCode run_batch_lines(std::istream& in, std::ostream& out, std::ostream& err,
                         const std::string& source_name, const MakeAnswer& make_answer,
                         const BatchOptions& options) {
  BatchOutput output(out, err, source_name);
  std::streambuf& input = *in.rdbuf();
  try {
    if (options.jobs <= 1) return run_sequential(input, output, make_answer, options);
    ParallelBatch batch(make_answer, options);
    return batch.run(input, output, options);
  } catch (const Interrupted&) {
    throw;  // its lines are out already, and counted
  } catch (...) {
    output.salvage();
    throw;
  }
}

namespace {

// The options of one worker's RequestLines: --trace, and --probe-torch's findings as the
// inputs a line takes when it leaves them out.
request::LineOptions line_options(const BatchOptions& options) {
  return {.traced = options.traced, .fallbacks = options.probed ? probed_inputs(*options.probed) : Inputs()};
}

}  // namespace

ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, const RuleSet& rules,
                   const std::string& source_name, const BatchOptions& options) {
  const request::LineOptions each = line_options(options);
  return run_batch_lines(
      in, out, err, source_name,
      [&rules, &each]() -> AnswerLine {
        auto lines = std::make_shared<request::RequestLines>(rules, each);
        return [lines](const std::string& line, std::string& output) { return lines->answer(line, output); };
      },
      options);
}

ExitCode run_batch(std::istream& in, std::ostream& out, std::ostream& err, LiveRuleSet& rules,
                   const std::string& source_name, BatchOptions options) {
  // The rules of the line (or block) being answered, re-read before it when the file changed.
  std::shared_ptr<const RuleSet> snapshot = rules.current();
  options.before_block = [&rules, &snapshot] {
    rules.reload_if_changed();
    snapshot = rules.current();
  };
  const request::LineOptions each = line_options(options);
  return run_batch_lines(
      in, out, err, source_name,
      [&snapshot, &each]() -> AnswerLine {
        // A worker's lines keep the rules they answer for alive (RequestLines holds them).
        auto lines = std::make_shared<std::optional<request::RequestLines>>();
        return [&snapshot, &each, lines](const std::string& line, std::string& output) {
          if (!*lines || !(*lines)->answers_for(*snapshot)) lines->emplace(*snapshot, each);
          return (*lines)->answer(line, output);
        };
      },
      options);
}

}  // namespace snnplan::cli
