#pragma once
// The decision map of `snnplan map`: a grid over two inputs, each cell one outcome of the
// rules (or, for `map --diff`, the outcomes of two rule files). Cells hold the index of a
// distinct outcome, so a 512 x 512 map keeps each distinct answer once. Rendered as JSON (the
// grid), SVG (cells coloured by a field, equal runs merged into one rectangle, regions that
// share a rule path outlined, a legend, axis labels) and HTML (one self-contained file: the
// SVG with the details of a cell on hover and click).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "snnplan/record.hpp"
#include "snnplan/value.hpp"

namespace snnplan::render {

/// The most cells a map may have (`snnplan map` refuses more, naming the limit): 1024 x 1024.
inline constexpr std::size_t kMaxMapCells = std::size_t{1} << 20;

struct MapAxis {
  std::string name;
  std::vector<Value> values;
};

/// One distinct answer: the fired rule path and the record or the error.
struct MapAnswer {
  std::vector<std::string> rules;
  std::optional<Record> record;
  std::optional<std::string> error;
};

/// What a cell shows: one answer, or for a diff the old and the new one.
struct MapOutcome {
  MapAnswer answer;                   // the answer (the new one for a diff)
  std::optional<MapAnswer> previous;  // a diff's old answer, when it differs; none: unchanged
  std::string colour_key;             // the legend entry the cell is coloured by
  std::string outline_key;            // cells with different keys are outlined apart
};

struct DecisionMap {
  MapAxis x, y;
  Inputs fixed;          // the other inputs given (shown with every cell)
  std::string color_by;  // "mode", "rule" or a field name
  bool diff = false;
  std::vector<MapOutcome> outcomes;
  std::vector<std::uint32_t> cells;  // row by row (y), x within a row: outcome indices
  [[nodiscard]] std::uint32_t at(std::size_t column, std::size_t row) const {
    return cells[row * x.values.size() + column];
  }
};

}  // namespace snnplan::render
