#pragma once
// The output formats, defined once. A row per format names the renderer it has for each kind
// of output (nullptr: the format does not render that output), so `--format` choices, their
// validation and the dispatch all come from this table.
//
// A new format (say `toml`) is: an enumerator and a row here, its renderers in a file of its
// own (render/toml.cpp, declared in a namespace below), and that file in CMake's source list.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyse/rule_diff.hpp"
#include "render/map.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/plan.hpp"
#include "snnplan/record.hpp"

namespace snnplan::render {

enum class Format { json, yaml, text, svg, html };

/// What is rendered; each `--format` flag chooses a format for one of these.
enum class Output {
  recommendation,         ///< a record (`recommend`)
  traced_recommendation,  ///< a record with the evaluation steps (`recommend --trace`)
  explanation,            ///< the steps and the result or error (`explain`)
  plan,                   ///< a distributed plan (`plan`)
  diagnostics,            ///< what `check` found, with source lines
  microbatches,           ///< a microbatch count (`microbatches`)
  diff,                   ///< the changed regions of two rule files (`diff`)
  map,                    ///< a decision map over two inputs (`map`)
};

// Each renderer ends its output with a newline.
using RecordRenderer = std::string (*)(const Record&);
using ExplanationRenderer = std::string (*)(const Explanation&);
using PlanRenderer = std::string (*)(const Plan&);
/// `sources`: the texts of the files the diagnostics name (a file without one is shown
/// without its source line).
using DiagnosticsRenderer = std::string (*)(const std::vector<Diagnostic>& diagnostics,
                                            const std::vector<SourceText>& sources);
using CountRenderer = std::string (*)(std::int64_t);
using DiffRenderer = std::string (*)(const analyse::RuleDiff&);
using MapRenderer = std::string (*)(const DecisionMap&);

struct FormatRow {
  Format format;
  std::string_view name;  ///< as `--format` spells it
  RecordRenderer recommendation = nullptr;
  ExplanationRenderer traced_recommendation = nullptr;  ///< precondition: the result is ok
  ExplanationRenderer explanation = nullptr;
  /// Whether the explanation shows a failed evaluation's error itself; when it does not, the
  /// front end reports the error beside it (the CLI: on stderr).
  bool explanation_shows_error = false;
  PlanRenderer plan = nullptr;
  DiagnosticsRenderer diagnostics = nullptr;
  CountRenderer microbatches = nullptr;
  DiffRenderer diff = nullptr;
  MapRenderer map = nullptr;
};

// The renderers of each format (render/json.cpp, render/yaml.cpp, render/text.cpp).
namespace json_format {
std::string recommendation(const Record& record);
std::string traced_recommendation(const Explanation& explanation);
std::string explanation(const Explanation& explanation);
std::string plan(const Plan& plan);
std::string diagnostics(const std::vector<Diagnostic>& diagnostics,
                        const std::vector<SourceText>& sources);
std::string microbatches(std::int64_t count);
std::string diff(const analyse::RuleDiff& diff);  // render/diff.cpp
std::string map(const DecisionMap& map);          // render/map.cpp
}  // namespace json_format
namespace yaml_format {
std::string recommendation(const Record& record);
std::string plan(const Plan& plan);
}  // namespace yaml_format
namespace text_format {
std::string recommendation(const Record& record);
std::string explanation(const Explanation& explanation);
std::string plan(const Plan& plan);
std::string diagnostics(const std::vector<Diagnostic>& diagnostics,
                        const std::vector<SourceText>& sources);
std::string microbatches(std::int64_t count);
std::string diff(const analyse::RuleDiff& diff);  // render/diff.cpp
}  // namespace text_format
namespace svg_format {
std::string map(const DecisionMap& map);  // render/map.cpp
}  // namespace svg_format
namespace html_format {
std::string map(const DecisionMap& map);  // render/map.cpp: the SVG with each cell's details
}  // namespace html_format

/// Every format, in the order choices are listed (after the output's default).
inline constexpr FormatRow kFormats[] = {
    {Format::json, "json", &json_format::recommendation, &json_format::traced_recommendation,
     &json_format::explanation, true, &json_format::plan, &json_format::diagnostics,
     &json_format::microbatches, &json_format::diff, &json_format::map},
    {Format::yaml, "yaml", &yaml_format::recommendation, nullptr, nullptr, false,
     &yaml_format::plan, nullptr, nullptr, nullptr, nullptr},
    {Format::text, "text", &text_format::recommendation, nullptr, &text_format::explanation, false,
     &text_format::plan, &text_format::diagnostics, &text_format::microbatches, &text_format::diff,
     nullptr},
    {Format::svg, "svg", nullptr, nullptr, nullptr, false, nullptr, nullptr, nullptr, nullptr,
     &svg_format::map},
    {Format::html, "html", nullptr, nullptr, nullptr, false, nullptr, nullptr, nullptr, nullptr,
     &html_format::map},
};

/// The format an output gets when none is chosen.
Format default_format(Output output);
/// The row of `format`.
const FormatRow& format_row(Format format);
/// Whether `format` renders `output`.
bool supports(Format format, Output output);
/// The names of the formats that render `output`: its default first, then table order.
std::vector<std::string> format_names(Output output);
/// "{text,json}": format_names() as the message and the CLI's help show them.
std::string format_choices(Output output);

/// The format called `name`, when it renders `output`. Throws std::invalid_argument with
/// messages::unknown_format ("xml not in {json,yaml,text}") otherwise: the one place a format
/// name is read.
Format parse_format(std::string_view name, Output output);

/// Renders `output` in `format`. Precondition: supports(format, output) (parse_format() gave
/// it); otherwise throws std::logic_error.
std::string render(const Record& record, Format format);
std::string render(const Plan& plan, Format format);
std::string render_traced(const Explanation& explanation, Format format);
std::string render_explanation(const Explanation& explanation, Format format);
std::string render_diagnostics(const std::vector<Diagnostic>& diagnostics,
                               const std::vector<SourceText>& sources, Format format);
std::string render_microbatches(std::int64_t count, Format format);
std::string render_diff(const analyse::RuleDiff& diff, Format format);
std::string render_map(const DecisionMap& map, Format format);

}  // namespace snnplan::render
