// The format table's lookups: choices, parsing, and dispatch to a row's renderer.

#include "render/format.hpp"

#include <stdexcept>

#include "render/messages.hpp"

namespace snnplan::render {
namespace {

bool renders(const FormatRow& row, Output output) {
  switch (output) {
    case Output::recommendation:
      return row.recommendation != nullptr;
    case Output::traced_recommendation:
      return row.traced_recommendation != nullptr;
    case Output::explanation:
      return row.explanation != nullptr;
    case Output::plan:
      return row.plan != nullptr;
    case Output::diagnostics:
      return row.diagnostics != nullptr;
    case Output::microbatches:
      return row.microbatches != nullptr;
    case Output::diff:
      return row.diff != nullptr;
    case Output::map:
      return row.map != nullptr;
  }
  return false;
}

// The renderer a row has for an output, or logic_error when parse_format() was skipped.
template <typename Renderer>
Renderer renderer(Format format, Renderer FormatRow::*member, Output output) {
  const Renderer r = format_row(format).*member;
  if (r == nullptr)
    throw std::logic_error(
        messages::format_cannot_render(format_row(format).name, format_names(output)));
  return r;
}

}  // namespace

Format default_format(Output output) {
  switch (output) {
    case Output::recommendation:
    case Output::traced_recommendation:
    case Output::plan:
      return Format::json;
    case Output::explanation:
    case Output::diagnostics:
    case Output::microbatches:
    case Output::diff:
      return Format::text;
    case Output::map:
      return Format::svg;
  }
  return Format::json;
}

const FormatRow& format_row(Format format) {
  for (const FormatRow& row : kFormats)
    if (row.format == format) return row;
  throw std::logic_error(messages::format_without_row(static_cast<int>(format)));
}

bool supports(Format format, Output output) {
  return renders(format_row(format), output);
}

std::vector<std::string> format_names(Output output) {
  std::vector<std::string> names = {std::string(format_row(default_format(output)).name)};
  for (const FormatRow& row : kFormats)
    if (row.format != default_format(output) && renders(row, output)) names.emplace_back(row.name);
  return names;
}

std::string format_choices(Output output) {
  return messages::choice_set(format_names(output));
}

Format parse_format(std::string_view name, Output output) {
  for (const FormatRow& row : kFormats)
    if (row.name == name && renders(row, output)) return row.format;
  throw std::invalid_argument(messages::unknown_format(name, format_names(output)));
}

std::string render(const Record& record, Format format) {
  return renderer(format, &FormatRow::recommendation, Output::recommendation)(record);
}

std::string render(const Plan& plan, Format format) {
  return renderer(format, &FormatRow::plan, Output::plan)(plan);
}

std::string render_traced(const Explanation& explanation, Format format) {
  return renderer(format, &FormatRow::traced_recommendation,
                  Output::traced_recommendation)(explanation);
}

std::string render_explanation(const Explanation& explanation, Format format) {
  return renderer(format, &FormatRow::explanation, Output::explanation)(explanation);
}

std::string render_diagnostics(const std::vector<Diagnostic>& diagnostics,
                               const std::vector<SourceText>& sources, Format format) {
  return renderer(format, &FormatRow::diagnostics, Output::diagnostics)(diagnostics, sources);
}

std::string render_microbatches(std::int64_t count, Format format) {
  return renderer(format, &FormatRow::microbatches, Output::microbatches)(count);
}

std::string render_diff(const analyse::RuleDiff& diff, Format format) {
  return renderer(format, &FormatRow::diff, Output::diff)(diff);
}

std::string render_map(const DecisionMap& map, Format format) {
  return renderer(format, &FormatRow::map, Output::map)(map);
}

}  // namespace snnplan::render
