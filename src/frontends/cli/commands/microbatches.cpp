// `snnplan microbatches`: the pipeline microbatch count for a batch size and stage count.

#include "snnplan/microbatches.hpp"

#include <memory>
#include <ostream>
#include <variant>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "render/format.hpp"

namespace snnplan::cli {
namespace {

struct MicrobatchFlags {
  std::string batch_size;
  std::string num_stages;
  std::string format;
};

ExitCode microbatches(const MicrobatchFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::microbatches);
  auto result = pipeline_microbatches(parse_int("--batch-size", f.batch_size),
                                      parse_int("--num-stages", f.num_stages));
  if (auto* message = std::get_if<std::string>(&result))
    throw EvaluationFailed{{EvaluationErrorKind::rule_error, std::move(*message)}};
  io.out << render::render_microbatches(std::get<std::int64_t>(result), format);
  return ExitCode::ok;
}

}  // namespace

Command setup_microbatches(CLI::App& app) {
  return make_command<MicrobatchFlags>(
      app, "microbatches", "Pipeline microbatch count for a batch size and stage count.",
      [](CLI::App& command, MicrobatchFlags& f) {
        command.add_option("--batch-size", f.batch_size, "global batch size")
            ->required()
            ->type_name(placeholder("int"));
        command.add_option("--num-stages", f.num_stages, "number of logical pipeline stages")
            ->required()
            ->type_name(placeholder("int"));
        add_format_option(command, f.format, render::Output::microbatches);
      },
      &microbatches);
}

}  // namespace snnplan::cli
