// `snnplan map` output (render/map.hpp): the grid as JSON, as an SVG picture, and as one
// self-contained HTML page with the SVG and the details of each cell.

#include "render/map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "render/messages.hpp"
#include "render/format.hpp"
#include "render/json.hpp"
#include "render/xml.hpp"

namespace snnplan::render {
namespace {

using json = nlohmann::ordered_json;

// Colours of the legend entries in order of first appearance (distinguishable, also in
// grey-scale print order); errors and unchanged cells have their own.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#17becf",
                                    "#8c564b", "#bcbd22", "#1f3b73", "#a0cbe8", "#ffbe7d"};
constexpr const char* kErrorColour = "#4d4d4d";
constexpr const char* kUnchangedColour = "#eeeeee";
// A legend longer than this ends with "... and N more".
constexpr std::size_t kMaxLegend = 24;

std::string compact(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json answer_json(const MapAnswer& a, bool with_rules_on_error) {
  json j = json::object();
  if (a.record) {
    j["rules"] = a.rules;
    j["record"] = to_json(*a.record);
  } else {
    if (with_rules_on_error) j["rules"] = a.rules;
    j["error"] = a.error.value_or("");
  }
  return j;
}

// A cell as JSON: {"rules", "record"} | {"error"}; for a diff {"changed", "old", "new"}.
json outcome_json(const MapOutcome& o, bool diff, bool with_rules_on_error) {
  if (!diff) return answer_json(o.answer, with_rules_on_error);
  return json{{"changed", o.previous.has_value()},
              {"old", answer_json(o.previous ? *o.previous : o.answer, with_rules_on_error)},
              {"new", answer_json(o.answer, with_rules_on_error)}};
}

json axis_json(const MapAxis& axis) {
  json values = json::array();
  for (const Value& v : axis.values) values.push_back(to_json(v));
  return json{{"name", axis.name}, {"values", std::move(values)}};
}

struct Legend {
  std::vector<std::string> keys;  // in order of first appearance
  std::map<std::string, std::string> colour;
};

Legend legend_of(const DecisionMap& m) {
  Legend legend;
  std::size_t next = 0;
  std::vector<bool> seen(m.outcomes.size(), false);
  for (std::uint32_t id : m.cells) {
    if (seen[id]) continue;
    seen[id] = true;
    const MapOutcome& o = m.outcomes[id];
    if (legend.colour.count(o.colour_key)) continue;
    legend.keys.push_back(o.colour_key);
    if (m.diff && !o.previous)
      legend.colour[o.colour_key] = kUnchangedColour;
    else if (!m.diff && o.answer.error)
      legend.colour[o.colour_key] = kErrorColour;
    else
      legend.colour[o.colour_key] = kPalette[next++ % std::size(kPalette)];
  }
  return legend;
}

struct Geometry {
  std::size_t nx = 0, ny = 0;
  double cell = 1;
  double left = 90, top = 50;
  double plot_w = 0, plot_h = 0;
  double width = 0, height = 0;
};

Geometry geometry_of(const DecisionMap& m, std::size_t legend_rows) {
  Geometry g;
  g.nx = m.x.values.size();
  g.ny = m.y.values.size();
  // About 768 pixels for the larger side: 12 per cell at 64 cells, 1.5 at 512.
  g.cell = std::clamp(768.0 / static_cast<double>(std::max(g.nx, g.ny)), 1.0, 24.0);
  g.plot_w = g.cell * static_cast<double>(g.nx);
  g.plot_h = g.cell * static_cast<double>(g.ny);
  g.width = g.left + g.plot_w + 40 + 380;
  g.height = std::max(g.top + g.plot_h + 70, g.top + 24.0 * static_cast<double>(legend_rows) + 40);
  return g;
}

std::string value_text(const Value& v) {
  return v.is_string() ? v.as_string() : compact(to_json(v));
}

// Indices of up to about 8 evenly spread tick positions, first and last included.
std::vector<std::size_t> ticks(std::size_t n) {
  std::vector<std::size_t> out;
  if (n == 0) return out;
  const std::size_t step = std::max<std::size_t>(1, (n + 7) / 8);
  for (std::size_t k = 0; k < n; k += step) out.push_back(k);
  if (out.back() != n - 1) {
    if (n - 1 - out.back() < step / 2 && out.size() > 1) out.pop_back();
    out.push_back(n - 1);
  }
  return out;
}

std::string svg_of(const DecisionMap& m) {
  const Legend legend = legend_of(m);
  const std::size_t legend_rows = std::min(legend.keys.size(), kMaxLegend) + 1;
  const Geometry g = geometry_of(m, legend_rows + 2);
  auto X = [&](std::size_t x) { return g.left + g.cell * static_cast<double>(x); };
  // Row y is drawn with larger values up, as a plot's y axis.
  auto Y = [&](std::size_t y) { return g.top + g.cell * static_cast<double>(g.ny - 1 - y); };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 "
      "0 "
      "{0:.0f} {1:.0f}\" font-family=\"sans-serif\" font-size=\"13\" id=\"decision-map\">\n",
      g.width, g.height);
  out += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", g.width,
                     g.height);
  std::string title = m.diff ? "cells whose outcome changes, coloured by " + m.color_by
                             : "coloured by " + m.color_by;
  for (const auto& [name, value] : m.fixed) title += ", " + name + "=" + value_text(value);
  out += fmt::format("<text x=\"{:.0f}\" y=\"24\" font-size=\"15\">{}</text>\n", g.left,
                     xml_escaped(title));
  // Cells: each row's runs of one colour, and a run that the next row repeats exactly (same
  // columns, same colour) grows down into it: one rectangle per block, not per cell.
  out += "<g id=\"cells\" shape-rendering=\"crispEdges\">\n";
  struct Run {
    std::size_t from, to, rows;  // columns [from, to), rows below the top one
    std::size_t top;
    const std::string* key;
  };
  auto emit = [&](const Run& r) {
    out += fmt::format(
        "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\"/>\n",
        X(r.from), Y(r.top), g.cell * static_cast<double>(r.to - r.from),
        g.cell * static_cast<double>(r.rows), legend.colour.at(*r.key));
  };
  // From the top row (the largest y) down, so a block's rectangle starts at its top.
  std::vector<Run> open;
  for (std::size_t row = g.ny; row-- > 0;) {
    std::vector<Run> runs;
    for (std::size_t x = 0; x < g.nx;) {
      const std::string& key = m.outcomes[m.at(x, row)].colour_key;
      std::size_t end = x + 1;
      while (end < g.nx && m.outcomes[m.at(end, row)].colour_key == key) ++end;
      runs.push_back(Run{x, end, 1, row, &key});
      x = end;
    }
    // Both rows' runs are in column order: walk them together.
    std::size_t k = 0;
    for (Run& r : runs) {
      while (k < open.size() && open[k].from < r.from) ++k;
      if (k < open.size() && open[k].from == r.from && open[k].to == r.to &&
          *open[k].key == *r.key) {
        r.top = open[k].top;
        r.rows = open[k].rows + 1;
        open[k].key = nullptr;  // continued below
      }
    }
    for (const Run& o : open)
      if (o.key) emit(o);
    open = std::move(runs);
  }
  for (const Run& o : open) emit(o);
  out += "</g>\n";
  // Outlines between cells of different rule paths, vertical and horizontal runs merged.
  std::string path;
  for (std::size_t x = 0; x + 1 < g.nx; ++x)
    for (std::size_t y = 0; y < g.ny;) {
      auto differs = [&](std::size_t row) {
        return m.outcomes[m.at(x, row)].outline_key != m.outcomes[m.at(x + 1, row)].outline_key;
      };
      if (!differs(y)) {
        ++y;
        continue;
      }
      std::size_t end = y + 1;
      while (end < g.ny && differs(end)) ++end;
      path += fmt::format("M{:.2f} {:.2f}V{:.2f}", X(x + 1), Y(end - 1), Y(y) + g.cell);
      y = end;
    }
  for (std::size_t y = 0; y + 1 < g.ny; ++y)
    for (std::size_t x = 0; x < g.nx;) {
      auto differs = [&](std::size_t col) {
        return m.outcomes[m.at(col, y)].outline_key != m.outcomes[m.at(col, y + 1)].outline_key;
      };
      if (!differs(x)) {
        ++x;
        continue;
      }
      std::size_t end = x + 1;
      while (end < g.nx && differs(end)) ++end;
      path += fmt::format("M{:.2f} {:.2f}H{:.2f}", X(x), Y(y), X(end));
      x = end;
    }
  if (!path.empty())
    out += fmt::format(
        "<path id=\"outlines\" d=\"{}\" fill=\"none\" stroke=\"#000000\" "
        "stroke-width=\"{:.2f}\"/>\n",
        path, std::max(1.0, g.cell / 6));
  out += fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"none\" "
      "stroke=\"#000000\"/>\n",
      g.left, g.top, g.plot_w, g.plot_h);
  // Axes: ticks at cell centres, the input names.
  out += "<g id=\"axes\">\n";
  for (std::size_t x : ticks(g.nx))
    out += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n",
                       X(x) + g.cell / 2, g.top + g.plot_h + 18,
                       xml_escaped(value_text(m.x.values[x])));
  for (std::size_t y : ticks(g.ny))
    out += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
                       g.left - 6, Y(y) + g.cell / 2 + 4, xml_escaped(value_text(m.y.values[y])));
  out += fmt::format(
      "<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
      g.left + g.plot_w / 2, g.top + g.plot_h + 42, xml_escaped(m.x.name));
  out += fmt::format(
      "<text x=\"20\" y=\"{0:.2f}\" text-anchor=\"middle\" font-size=\"15\" transform=\"rotate(-90 "
      "20 {0:.2f})\">{1}</text>\n",
      g.top + g.plot_h / 2, xml_escaped(m.y.name));
  out += "</g>\n";
  // The legend.
  const double lx = g.left + g.plot_w + 30;
  out += "<g id=\"legend\">\n";
  out += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"15\">{}</text>\n", lx, g.top + 12,
                     xml_escaped(m.color_by));
  for (std::size_t k = 0; k < legend.keys.size() && k < kMaxLegend; ++k) {
    const double ly = g.top + 24 + 24.0 * static_cast<double>(k);
    out += fmt::format(
        "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"16\" height=\"16\" fill=\"{}\" "
        "stroke=\"#000000\"/>\n",
        lx, ly, legend.colour.at(legend.keys[k]));
    out += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\">{}</text>\n", lx + 24, ly + 13,
                       xml_escaped(legend.keys[k]));
  }
  if (legend.keys.size() > kMaxLegend)
    out += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\">{}</text>\n", lx,
                       g.top + 24 + 24.0 * static_cast<double>(kMaxLegend) + 13,
                       xml_escaped(messages::map_legend_more(legend.keys.size() - kMaxLegend)));
  out += "</g>\n</svg>\n";
  return out;
}

}  // namespace

namespace json_format {
std::string map(const DecisionMap& m) {
  // Each distinct outcome is written once as text and repeated per cell.
  std::vector<std::string> texts;
  texts.reserve(m.outcomes.size());
  for (const MapOutcome& o : m.outcomes) texts.push_back(compact(outcome_json(o, m.diff, false)));
  std::string out = "{\"x\":" + compact(axis_json(m.x)) + ",\"y\":" + compact(axis_json(m.y));
  if (!m.fixed.empty()) {
    json fixed = json::object();
    for (const auto& [name, value] : m.fixed) fixed[name] = to_json(value);
    out += ",\"inputs\":" + compact(fixed);
  }
  out += ",\"cells\":[";
  for (std::size_t y = 0; y < m.y.values.size(); ++y) {
    out += y ? ",\n[" : "\n[";
    for (std::size_t x = 0; x < m.x.values.size(); ++x) {
      if (x) out += ',';
      out += texts[m.at(x, y)];
    }
    out += ']';
  }
  return out + "]}\n";
}
}  // namespace json_format

namespace svg_format {
std::string map(const DecisionMap& m) {
  return svg_of(m);
}
}  // namespace svg_format

namespace html_format {
std::string map(const DecisionMap& m) {
  const Legend legend = legend_of(m);
  const Geometry g = geometry_of(m, std::min(legend.keys.size(), kMaxLegend) + 3);
  json outcomes = json::array();
  for (const MapOutcome& o : m.outcomes) outcomes.push_back(outcome_json(o, m.diff, true));
  json fixed = json::object();
  for (const auto& [name, value] : m.fixed) fixed[name] = to_json(value);
  const json data = {{"x", axis_json(m.x)},  {"y", axis_json(m.y)}, {"inputs", fixed},
                     {"outcomes", outcomes}, {"cells", m.cells},    {"left", g.left},
                     {"top", g.top},         {"cell", g.cell},      {"diff", m.diff}};
  // `</` cannot end the script early: JSON allows "\/" for "/".
  std::string data_text = compact(data);
  for (std::size_t at = 0; (at = data_text.find("</", at)) != std::string::npos; at += 3)
    data_text.replace(at, 2, "<\\/");
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>snnplan "
      "decision map</title>\n"
      "<style>\nbody{font-family:sans-serif;margin:16px;color:#222}\n"
      "#details{white-space:pre-wrap;font-family:monospace;font-size:12px;border:1px solid #bbb;"
      "padding:8px;max-width:1100px;min-height:6em}\n#decision-map{cursor:crosshair}\n</style>\n</"
      "head>\n<body>\n"
      "<h1 style=\"font-size:18px\">snnplan map: " +
      xml_escaped(m.y.name) + " &#215; " + xml_escaped(m.x.name) + "</h1>\n<div id=\"map\">\n";
  out += svg_of(m);
  out +=
      "</div>\n<p>Hover over a cell for its inputs, rule path and answer; click to keep it.</p>\n"
      "<div id=\"details\">(no cell selected)</div>\n<script>\nconst MAP = ";
  out += data_text;
  out +=
      ";\n"
      "(function () {\n"
      "  const svg = document.getElementById('decision-map');\n"
      "  const details = document.getElementById('details');\n"
      "  const nx = MAP.x.values.length, ny = MAP.y.values.length;\n"
      "  let pinned = false;\n"
      "  function cellAt(event) {\n"
      "    const p = svg.createSVGPoint(); p.x = event.clientX; p.y = event.clientY;\n"
      "    const q = p.matrixTransform(svg.getScreenCTM().inverse());\n"
      "    const x = Math.floor((q.x - MAP.left) / MAP.cell);\n"
      "    const y = ny - 1 - Math.floor((q.y - MAP.top) / MAP.cell);\n"
      "    return x >= 0 && x < nx && y >= 0 && y < ny ? [x, y] : null;\n"
      "  }\n"
      "  function show(cell) {\n"
      "    const [x, y] = cell;\n"
      "    const inputs = Object.assign({}, MAP.inputs);\n"
      "    inputs[MAP.x.name] = MAP.x.values[x]; inputs[MAP.y.name] = MAP.y.values[y];\n"
      "    const o = MAP.outcomes[MAP.cells[y * nx + x]];\n"
      "    const answer = MAP.diff ? o.new : o;\n"
      "    let text = 'inputs: ' + JSON.stringify(inputs) + '\\n';\n"
      "    if (MAP.diff) text += 'changed: ' + o.changed + '\\nold rules: ' + (o.old.rules || "
      "[]).join(', ') +\n"
      "        '\\nold: ' + JSON.stringify(o.old.record || {error: o.old.error}, null, 1) + "
      "'\\n';\n"
      "    text += 'rules: ' + (answer.rules || []).join(', ') + '\\n';\n"
      "    if (answer.error !== undefined) text += 'error: ' + answer.error + '\\n';\n"
      "    else {\n"
      "      const record = Object.assign({}, answer.record); const rationale = record.rationale; "
      "delete record.rationale;\n"
      "      text += 'record: ' + JSON.stringify(record, null, 1) + '\\n';\n"
      "      if (rationale) text += 'rationale:\\n  - ' + [].concat(rationale).join('\\n  - ') + "
      "'\\n';\n"
      "    }\n"
      "    details.textContent = text;\n"
      "  }\n"
      "  svg.addEventListener('mousemove', function (e) { if (!pinned) { const c = cellAt(e); if "
      "(c) show(c); } });\n"
      "  svg.addEventListener('click', function (e) { const c = cellAt(e); pinned = !!c && "
      "!pinned; if (c) show(c); });\n"
      "})();\n</script>\n</body>\n</html>\n";
  return out;
}
}  // namespace html_format

}  // namespace snnplan::render
