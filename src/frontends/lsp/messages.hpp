#pragma once
// Every text the language server shows (hovers, code lenses, code actions, protocol errors),
// in one place, so wording stays consistent and the tests can assert it exactly. The
// diagnostics themselves keep the stages' texts (check/messages.hpp, ...): the server shows what
// `snnplan check` prints.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "language/syntax.hpp"

namespace snnplan::lsp::messages {

// ---- protocol errors (JSON-RPC 2.0 and LSP error codes) ----------------------------------------
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kServerNotInitialized = -32002;
inline constexpr int kRequestFailed = -32803;

inline std::string not_json(std::string_view why) {
  return fmt::format("the message is not JSON: {}", why);
}
inline std::string no_content_length() {
  return "the message header has no valid Content-Length";
}
inline std::string message_too_large(std::size_t limit) {
  return fmt::format("the message is larger than the limit of {} bytes", limit);
}
inline std::string not_a_request() {
  return "a JSON-RPC 2.0 message is an object with \"jsonrpc\": \"2.0\" and a string \"method\" "
         "(batches are not part of the Language Server Protocol)";
}
inline std::string unknown_method(std::string_view method) {
  return fmt::format("unknown method '{}'", method);
}
inline std::string bad_params(std::string_view method, std::string_view why) {
  return fmt::format("bad params for '{}': {}", method, why);
}
inline std::string not_initialized() {
  return "the server has not been initialized";
}
inline std::string after_shutdown() {
  return "the server is shutting down";
}
inline std::string outside_roots(std::string_view path) {
  return fmt::format("'{}' is outside the rule roots, which the server does not read", path);
}
inline std::string not_a_file_uri(std::string_view uri) {
  return fmt::format("'{}' is not a file: URI", uri);
}
inline std::string not_open(std::string_view uri) {
  return fmt::format("'{}' is not open", uri);
}
inline std::string bad_change(std::string_view why) {
  return fmt::format("a text change could not be applied ({}); the document is unchanged", why);
}
inline std::string document_ignored(std::string_view path) {
  return fmt::format("snnplan: '{}' is outside the rule roots; no diagnostics for it", path);
}

// ---- hover ------------------------------------------------------------------------------------
inline std::string hover_input(std::string_view name, std::string_view type) {
  return fmt::format("**input** `{}`: `{}`", name, type);
}
inline std::string hover_default(std::string_view value) {
  return fmt::format("default: `{}`", value);
}
inline std::string hover_required() {
  return "required (no default)";
}
inline std::string hover_allowed(std::string_view values) {
  return fmt::format("allowed values: {}", values);
}
inline std::string hover_lowered() {
  return "lower-cased before use";
}
inline std::string hover_let(std::string_view name) {
  return fmt::format("**derived value** `{}`", name);
}
inline std::string hover_let_call(std::string_view name, std::string_view rules) {
  return fmt::format("**derived value** `{}`: the record of rule set `{}`", name, rules);
}
inline std::string hover_search(std::string_view name) {
  return fmt::format("**derived value** `{}`: the candidate a search chooses, as a record", name);
}
inline std::string hover_search_for(std::string_view names) {
  return fmt::format("for: {}", names);
}
inline std::string hover_search_values(std::string_view names) {
  return fmt::format("values: {}", names);
}
inline std::string hover_search_tiers(std::string_view names) {
  return fmt::format("tiers: {}", names);
}
inline std::string hover_search_minimize(std::string_view key) {
  return fmt::format("minimize: `{}`", key);
}
inline std::string hover_enumeration(std::string_view name, std::string_view search, std::string_view values) {
  return fmt::format("**enumeration** `{}` of search `{}`: each item of `{}`", name, search, values);
}
inline std::string hover_candidate_value(std::string_view name, std::string_view search) {
  return fmt::format("**candidate value** `{}` of search `{}`", name, search);
}
inline std::string hover_tier_value(std::string_view name, std::string_view search) {
  return fmt::format("**tier value** `{}` of search `{}`", name, search);
}
inline std::string hover_failure_value(std::string_view name, std::string_view failure, std::string_view search) {
  return fmt::format("**value** `{}` of `{}` in search `{}`", name, failure, search);
}
// The aggregates of a search's none_fits (syntax::kSmallestAggregate and its siblings).
inline std::string hover_aggregate(std::string_view name) {
  if (name == syntax::kCountAggregate) return "**aggregate** `count()`: how many candidates were tested against `fits`";
  return fmt::format("**aggregate** `{0}(value)`: the {0} of a candidate value over the candidates "
                     "tested against `fits`", name);
}
inline std::string detail_search_name(std::string_view role, std::string_view search) {
  return fmt::format("{} of search '{}'", role, search);
}
inline std::string detail_aggregate() {
  return "aggregate of the candidates";
}
inline std::string detail_tier_name() {
  return "the candidate's tier";
}
inline std::string hover_field(std::string_view name, std::string_view type) {
  return fmt::format("**record field** `{}`: `{}`", name, type);
}
inline std::string hover_rule(std::string_view table, std::string_view rule) {
  return fmt::format("**rule** `{}/{}`", table, rule);
}
inline std::string hover_sets(std::string_view assignments) {
  return fmt::format("sets: {}", assignments);
}
inline std::string hover_sets_nothing() {
  return "sets nothing";
}
inline std::string hover_continues(std::string_view how, std::string_view table) {
  return fmt::format("continues with table `{}` ({})", table, how);
}
inline std::string hover_witness(std::string_view inputs) {
  return fmt::format("reached by: `{}`", inputs);
}
inline std::string hover_witness_defaults() {
  return "reached by: the inputs' defaults (any required inputs)";
}
inline std::string hover_never_reached() {
  return "never reached: no input fires this rule";
}
inline std::string hover_reach_unknown(std::string_view why) {
  return fmt::format("reachability unknown: {}", why);
}
inline std::string hover_reach_needs_clean_file() {
  return "reachability: shown once the file loads without errors";
}
inline std::string hover_table(std::string_view name, std::size_t rules) {
  return fmt::format("**table** `{}`: {} rule{}", name, rules, rules == 1 ? "" : "s");
}
inline std::string hover_callers(std::string_view callers) {
  return fmt::format("called by: {}", callers);
}
inline std::string hover_start_table() {
  return "the start table";
}
inline std::string hover_no_callers() {
  return "called by: nothing (never used)";
}
inline std::string caller(std::string_view table, std::string_view rule, std::string_view how) {
  return fmt::format("`{}/{}` ({})", table, rule, how);
}
inline std::string hover_use(std::string_view name, std::string_view file) {
  return fmt::format("**rule set** `{}`: `{}`", name, file);
}
inline std::string hover_matcher(std::string_view name, std::string_view summary) {
  return fmt::format("**matcher** `{}`: {}", name, summary);
}
inline std::string hover_builtin(std::string_view signature, std::string_view summary) {
  return fmt::format("**builtin** `{}`: {}", signature, summary);
}

// ---- completion details -------------------------------------------------------------------------
inline std::string detail_input(std::string_view type) {
  return fmt::format("input: {}", type);
}
inline std::string detail_let() {
  return "derived value";
}
inline std::string detail_field(std::string_view type) {
  return fmt::format("record field: {}", type);
}
inline std::string detail_table(std::size_t rules) {
  return fmt::format("table of {} rule{}", rules, rules == 1 ? "" : "s");
}
inline std::string detail_value_of(std::string_view input) {
  return fmt::format("a value of input '{}'", input);
}
inline std::string detail_matcher() {
  return "matcher";
}
inline std::string detail_builtin() {
  return "builtin";
}
inline std::string detail_key(std::string_view section) {
  return fmt::format("key of {}", section);
}
inline std::string detail_type() {
  return "type";
}

// ---- code actions -----------------------------------------------------------------------------
inline std::string replace_with(std::string_view name) {
  return fmt::format("Replace with '{}'", name);
}
inline std::string allow_here(std::string_view code, std::string_view where) {
  return fmt::format("Allow '{}' in {}", code, where);
}
inline std::string allowance_reason_placeholder() {
  return "TODO: say why this is accepted";
}

// ---- code lens --------------------------------------------------------------------------------
inline std::string lens_decision(std::string_view input_file, std::string_view record) {
  return fmt::format("{}: {}", input_file, record);
}
inline std::string lens_error(std::string_view input_file, std::string_view error) {
  return fmt::format("{}: error: {}", input_file, error);
}
inline std::string lens_unreadable_input(std::string_view input_file, std::string_view why) {
  return fmt::format("{}: cannot be used: {}", input_file, why);
}
inline std::string lens_step(std::size_t number, std::string_view what) {
  return fmt::format("step {}: {}", number, what);
}
inline std::string lens_fired(std::string_view detail) {
  return detail.empty() ? std::string("fired") : fmt::format("fired: {}", detail);
}
inline std::string lens_skipped(std::string_view detail) {
  return fmt::format("skipped: {}", detail);
}
inline std::string lens_entered(std::string_view table) {
  return fmt::format("entered table '{}'", table);
}
inline std::string lens_fallback(std::string_view detail) {
  return fmt::format("fallback: {}", detail);
}
inline std::string lens_inputs_not_mapping() {
  return "the file must hold a mapping of input names to values";
}

}  // namespace snnplan::lsp::messages
