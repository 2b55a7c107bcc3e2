#include "language/reference.hpp"

#include <fmt/format.h>

#include "language/builtins.hpp"
#include "language/matchers.hpp"

namespace snnplan::language {

std::string matcher_reference() {
  std::string out = "| matcher | operand | holds when |\n| --- | --- | --- |\n";
  for (const MatcherInfo& m : matchers()) {
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
  for (const BuiltinInfo& b : builtins())
    out += fmt::format("| `{}` | {} |\n", b.signature, b.summary);
  return out;
}

std::string with_generated_reference(std::string_view document) {
  std::string out(document);
  for (const auto& [name, table] :
       {std::pair{"matchers", matcher_reference()}, std::pair{"builtins", builtin_reference()}}) {
    const std::string begin = fmt::format("<!-- {}:begin -->\n", name);
    const std::string end = fmt::format("<!-- {}:end -->", name);
    const auto from = out.find(begin);
    const auto to = from == std::string::npos ? std::string::npos : out.find(end, from);
    if (to == std::string::npos) continue;
    out.replace(from + begin.size(), to - from - begin.size(), table);
  }
  return out;
}

}  // namespace snnplan::language
