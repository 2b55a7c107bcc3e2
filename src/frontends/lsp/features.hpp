#pragma once
// What the server answers about one document, as the protocol's JSON: diagnostics, hover,
// definition and references (navigation.cpp), completion (completion.cpp), code actions and
// code lenses (actions.cpp). Each takes the document as analysed at its last change.

#include <nlohmann/json.hpp>
#include <string>

#include "frontends/lsp/document.hpp"
#include "frontends/lsp/roots.hpp"

namespace snnplan::lsp {

using Json = nlohmann::json;

Json to_json(const Range& range);
Json to_json(const Position& position);
/// The range of `extent` in the document's text.
Range range_of(const Document& document, Extent extent);
/// The range a diagnostic marks: the name (or other token) at its location, at least one
/// character when the line has one there.
Range diagnostic_range(const Document& document, const Diagnostic& diagnostic);
/// The text a diagnostic's message suggests instead ("did you mean 'X'?"); empty when none.
std::string suggestion_of(const Diagnostic& diagnostic);

/// The params of textDocument/publishDiagnostics for `uri`.
Json diagnostics_params(const Document& document, const std::string& uri);

/// What hover shows for `kind` `name` (Markdown), also the documentation of its completion.
std::string describe(const Document& document, NameKind kind, const std::string& name);
/// Hover at byte `at`: a Hover object, or null when there is nothing there to describe.
Json hover(const Document& document, std::size_t at);
/// Locations of the definition of the name at `at` (an empty array when none); a `uses:` file
/// is its file's start, when that file is inside the rule roots.
Json definition(const Document& document, const std::string& uri, std::size_t at,
                const RuleRoots& roots);
/// Every place the name at `at` is written (its definition first when asked).
Json references(const Document& document, const std::string& uri, std::size_t at,
                bool with_definition);

/// A CompletionList for byte `at`.
Json completion(const Document& document, std::size_t at);

/// Code actions for the diagnostics that touch `range`.
Json code_actions(const Document& document, const std::string& uri, const Range& range);
/// The code lenses: the decision for input.yaml (or input.json) beside the rule file, and each
/// step of its trace at the rule or table it concerns. `roots` bounds where that file is read.
Json code_lenses(const Document& document, const RuleRoots& roots);

}  // namespace snnplan::lsp
