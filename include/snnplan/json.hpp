#pragma once
/// \file
/// Records as JSON text, byte for byte as the `snnplan` CLI prints them, for front ends that
/// pass results on as JSON (a launcher's log, a web service).

#include <string>

#include "snnplan/record.hpp"

namespace snnplan {

enum class JsonLayout {
  indented,  ///< as `snnplan recommend --format json` prints it: indented by two, with a newline
  line,      ///< as `snnplan recommend --batch` writes each record: one line, no newline
};

/// The record as a JSON object, fields in declaration order (None -> null, tuples -> arrays;
/// invalid UTF-8 in strings is replaced by U+FFFD rather than refused).
std::string to_json(const Record& record, JsonLayout layout = JsonLayout::indented);

}  // namespace snnplan
