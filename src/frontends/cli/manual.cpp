#include "frontends/cli/manual.hpp"

#include <fmt/format.h>

#include "frontends/cli/exit_code.hpp"
#include "frontends/cli/flags.hpp"
#include "snnplan/version.hpp"

namespace snnplan::cli {
namespace {

// Text for roff: backslashes and hyphens escaped, a line never starting with a control
// character.
std::string roff(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string option_synopsis(const CLI::Option& option) {
  std::string names;
  for (const std::string& name : option.get_snames())
    names += (names.empty() ? "" : ", ") + ("\\fB\\-" + roff(name) + "\\fR");
  for (const std::string& name : option.get_lnames())
    names += (names.empty() ? "" : ", ") + ("\\fB\\-\\-" + roff(name) + "\\fR");
  if (!option.nonpositional()) names = "\\fI" + roff(option.get_name()) + "\\fR";
  if (takes_value(option) && option.nonpositional())
    names += " \\fI" + roff(placeholder_of(option)) + "\\fR";
  return names;
}

}  // namespace

std::string man_page(const CLI::App& app) {
  std::string out =
      fmt::format(".TH SNNPLAN 1 \"\" \"snnplan {}\" \"User Commands\"\n", snnplan::version);
  out += ".SH NAME\nsnnplan \\- " +
         roff(app.get_description().substr(app.get_description().find(':') + 2)) + "\n";
  out +=
      ".SH SYNOPSIS\n.B snnplan\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.br\n.B "
      "snnplan\n\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR\n";
  out += ".SH DESCRIPTION\n" + roff(app.get_description()) + "\n";
  out += fmt::format(
      ".PP\nRule files are YAML in rule format {}; without \\fB\\-\\-rules\\fR the table built "
      "into snnplan is used. "
      "Wherever a rule file is read, \\fB\\-\\fR reads it from standard input.\n",
      snnplan::rule_format_version);
  out += ".SH COMMANDS\n";
  for (const CLI::App* sub :
       app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    std::string usage = "snnplan " + sub->get_name();
    for (const CLI::Option* option : sub->get_options())
      if (!option->nonpositional())
        usage += " " + placeholder_of(*option) + (repeatable(*option) ? "..." : "");
    // A heading does not hyphenate: after each comma of a choice list ({recommend,explain,...})
    // the line may break (\:, a break point that prints nothing), or a long list overflows it.
    std::string heading = roff(usage);
    for (std::size_t at = heading.find(','); at != std::string::npos; at = heading.find(',', at + 3))
      heading.insert(at + 1, "\\:");
    out += ".SS \"" + heading + " [OPTIONS]\"\n" + roff(sub->get_description()) + "\n";
    for (const CLI::Option* option : sub->get_options()) {
      if (option->get_lnames() == std::vector<std::string>{"help"}) continue;
      out += ".TP\n" + option_synopsis(*option) + "\n" + roff(option->get_description()) + "\n";
    }
  }
  out += ".SH EXIT STATUS\n";
  for (const ExitCodeRow& row : kExitCodes)
    out += fmt::format(".TP\n.B {}\n{}\n", as_int(row.code), roff(row.meaning));
  out +=
      ".SH ENVIRONMENT\n.TP\n.B SNNPLAN_RULES\nthe rule file to use when \\fB\\-\\-rules\\fR is "
      "not given\n"
      ".TP\n.B SNNPLAN_NO_CACHE\nany value but empty and 0: neither read nor write the compiled-rules "
      "cache, as \\fB\\-\\-no\\-cache\\fR\n"
      ".TP\n.B XDG_CACHE_HOME\nwhere the compiled-rules cache lives (\\fI$XDG_CACHE_HOME/snnplan\\fR, "
      "else \\fI~/.cache/snnplan\\fR)\n";
  out +=
      ".SH FILES\n.TP\n.I share/snnplan/rules/\nthe default rule files, as built in\n"
      ".TP\n.I ~/.cache/snnplan/\nthe compiled form of rule files loaded with \\fB\\-\\-rules\\fR, named by "
      "a hash of their bytes, so that loading one again parses no YAML; safe to delete\n"
      ".TP\n.I share/snnplan/schema/\nJSON Schemas of rule files, rule-test files and records "
      "(\\fBsnnplan schema\\fR)\n";
  out +=
      ".SH SEE ALSO\n\\fBsnnplan help\\fR \\fICOMMAND\\fR, \\fBsnnplan completion\\fR "
      "\\fIbash|zsh|fish\\fR\n";
  return out;
}

}  // namespace snnplan::cli
