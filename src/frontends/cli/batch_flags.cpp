#include "frontends/cli/batch_flags.hpp"

#include <fmt/format.h>

#include "frontends/cli/flags.hpp"
#include "frontends/cli/messages.hpp"

namespace snnplan::cli {

void BatchFlags::attach(CLI::App& command, std::string_view item) {
  batch_option =
      command
          .add_option("--batch", batch,
                      fmt::format("JSON Lines file of {0}s, or - for stdin; writes one JSON line per {0}", item))
          ->type_name(kFilePlaceholder);
  jobs_option = add_jobs_option(command, jobs);
}

std::optional<std::string> BatchFlags::file() const { return given_value(batch_option, batch); }

void BatchFlags::refuse_flags_with_batch(const char* first_input_flag, render::Format format,
                                         const std::string& format_text) const {
  if (!file()) return;
  if (first_input_flag) throw UsageError{messages::batch_with_flags(first_input_flag)};
  if (format != render::Format::json) throw UsageError{messages::batch_format(format_text)};
}

void BatchFlags::refuse_jobs_and_stdin(const std::optional<std::string>& rules_flag) const {
  const std::optional<std::string> given = file();
  if (jobs_option->count() && !given) throw UsageError{messages::jobs_needs_batch()};
  if (given && *given == "-" && rules_flag == "-")
    throw UsageError{messages::stdin_read_twice("--rules -", "--batch -")};
}

BatchOptions BatchFlags::options() const {
  BatchOptions out;
  out.traced = trace;
  out.jobs = jobs;
  return out;
}

}  // namespace snnplan::cli
