#pragma once
// Every text the workbench server (`snnplan serve`) writes itself -- its start line, its
// refusals and the page's status lines that come from the server -- in one place, so the
// wording stays consistent and the tests can assert it exactly. Diagnostics, explanations and
// diffs keep the texts of the stages that produce them: the page shows what `snnplan check`,
// `explain` and `diff` print.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "usecases/map.hpp"

namespace snnplan::serve::messages {

/// The first line on standard output (DESIGN.md, "Servers"): launchers read the URL from it.
inline std::string serving(std::string_view file, std::string_view url) {
  return fmt::format("serving {} at {}", file, url);
}
inline std::string token_notice() {
  return "remote access: every request must carry the token shown in the URL (?token=...)";
}
inline std::string remote_needs_flag(std::string_view host) {
  return fmt::format(
      "--host {} would let other machines edit the rule file; give --allow-remote as well",
      host);
}
inline std::string cannot_listen(std::string_view host, int port) {
  return fmt::format("cannot listen on {}:{} (in use, or not an address of this machine)", host,
                     port);
}
// The statically linked CLI runs the dynamic one for `serve` (frontends/serve/server_exec.cpp).
inline std::string cannot_run_server(std::string_view path, std::string_view why) {
  return fmt::format("cannot run the workbench server {}: {}", path, why);
}
inline std::string cannot_read_file(std::string_view path, std::string_view why) {
  return fmt::format("cannot read {}: {}", path, why);
}

// ---- refusals of requests (the "error" member of a JSON reply) ---------------------------------
inline std::string body_too_large(std::size_t limit) {
  return fmt::format("the request body is larger than the limit of {} bytes", limit);
}
inline std::string multipart_body() {
  return "the request body is a multipart form: send the JSON itself as the body (Content-Type: application/json)";
}
inline std::string bad_token() {
  return "this server needs the token it printed at start: add ?token=... to the request";
}
inline std::string not_json(std::string_view why) {
  return fmt::format("the request body is not JSON: {}", why);
}
inline std::string missing_member(std::string_view name, std::string_view kind) {
  return fmt::format("the request needs \"{}\", {}", name, kind);
}
inline std::string not_found(std::string_view path) {
  return fmt::format("no endpoint {} (docs/serve.md lists them)", path);
}
inline std::string internal_error(std::string_view what) {
  return fmt::format("the server could not answer: {}", what);
}

// ---- what an answer built on other text says ----------------------------------------------------
inline std::string text_does_not_load() {
  return "the edited text does not load (see the diagnostics); showing the last text that did";
}
inline std::string nothing_loaded_yet() {
  return "no version of the rule file has loaded yet: fix the errors first";
}
inline std::string disk_version_does_not_load() {
  return "the version on disk does not load, so there is nothing to compare the edit with";
}
inline std::string no_tests() { return "no test files: start the server with --tests FILE"; }
inline std::string unknown_axis(std::string_view name) {
  return fmt::format("'{}' is not an input of the rule file", name);
}
/// A map axis usecases::map_axis refuses, with at most `limit` values.
inline std::string axis_refused(const usecases::AxisProblem& p, std::size_t limit) {
  using Kind = usecases::AxisProblem::Kind;
  switch (p.kind) {
    case Kind::unknown_input: return unknown_axis(p.name);
    case Kind::needs_values:
      return fmt::format(
          "the axis '{}' has no values of its own (not a bool, no one_of): give them as "
          "\"values\"",
          p.name);
    case Kind::empty_list: return fmt::format("the axis '{}' lists no \"values\"", p.name);
    case Kind::range_needs_int:
      return fmt::format("the axis '{}' is a {} input: give its \"values\", not a range", p.name,
                         p.type);
    case Kind::step_below_one:
      return fmt::format("the axis '{}': the step must be at least 1, got {}", p.name, p.step);
    case Kind::empty_range:
      return fmt::format("the axis '{}': \"to\" is below \"from\", so it has no values", p.name);
    case Kind::too_many_values: return fmt::format("the axis '{}' has more than {} values", p.name, limit);
    case Kind::bad_value: return p.message;
  }
  return p.message;
}
inline std::string same_axis(std::string_view name) {
  return fmt::format("both axes are '{}': choose two different inputs", name);
}
inline std::string map_input_required(std::string_view name) {
  return fmt::format("the map needs a value for the required input '{}'", name);
}

// ---- save ----------------------------------------------------------------------------------------
inline std::string saved(std::string_view path) { return fmt::format("saved {}", path); }
inline std::string save_has_errors(std::size_t errors) {
  return fmt::format("not saved: the text has {} error{}; fix {} first", errors,
                     errors == 1 ? "" : "s", errors == 1 ? "it" : "them");
}
inline std::string save_changed_on_disk(std::string_view path) {
  return fmt::format(
      "not saved: {} changed on disk since it was loaded; the diff shows what the version on "
      "disk answers against your text -- reload to start from it",
      path);
}
inline std::string save_failed(std::string_view path, std::string_view why) {
  return fmt::format("not saved: cannot write {}: {}", path, why);
}

}  // namespace snnplan::serve::messages
