#include "rules_reference/tables.hpp"

#include <fmt/format.h>

#include "core/diagnostic_codes.hpp"
#include "language/builtins.hpp"
#include "language/matchers.hpp"
#include "rules_reference/code_examples.hpp"

namespace snnplan::rules_reference {

using language::BuiltinInfo;
using language::MatcherInfo;
using language::OperandShape;

std::string matcher_reference() {
  std::string out = "| matcher | operand | holds when |\n| --- | --- | --- |\n";
  for (const MatcherInfo& m : language::matchers()) {
    const std::string operand = m.operand == OperandShape::value ? "a value or `= expression`"
                                : m.list_items == 0
                                    ? "a list"
                                    : fmt::format("a list of {} items", m.list_items);
    out += fmt::format("| `{}` | {} | {} |\n", m.name, operand, m.summary);
  }
  return out;
}

std::string builtin_reference() {
  std::string out = "| builtin | what it returns |\n| --- | --- |\n";
  for (const BuiltinInfo& b : language::builtins())
    out += fmt::format("| `{}` | {} |\n", b.signature, b.summary);
  return out;
}

std::string diagnostic_code_reference() {
  std::string out = "| code | severity | what it means | example |\n| --- | --- | --- | --- |\n";
  for (const detail::DiagnosticCodeInfo& c : detail::diagnostic_codes()) {
    std::string example = diagnostic_code_example(c.code);
    // A '|' would end the cell.
    for (auto at = example.find('|'); at != std::string::npos; at = example.find('|', at + 2))
      example.replace(at, 1, "\\|");
    out +=
        fmt::format("| `{}` | {} | {} | {} |\n", c.code, to_string(c.severity), c.summary, example);
  }
  return out;
}

std::string with_generated_reference(std::string_view document) {
  std::string out(document);
  for (const auto& [name, table] :
       {std::pair{"matchers", matcher_reference()}, std::pair{"builtins", builtin_reference()},
        std::pair{"codes", diagnostic_code_reference()}}) {
    const std::string begin = fmt::format("<!-- {}:begin -->\n", name);
    const std::string end = fmt::format("<!-- {}:end -->", name);
    const auto from = out.find(begin);
    const auto to = from == std::string::npos ? std::string::npos : out.find(end, from);
    if (to == std::string::npos) continue;
    out.replace(from + begin.size(), to - from - begin.size(), table);
  }
  return out;
}

}  // namespace snnplan::rules_reference
