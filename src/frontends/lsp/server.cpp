#include "frontends/lsp/server.hpp"

#include <filesystem>
#include <istream>
#include <ostream>

#include "frontends/lsp/features.hpp"
#include "frontends/lsp/messages.hpp"
#include "frontends/lsp/transport.hpp"
#include "snnplan/version.hpp"

namespace snnplan::lsp {
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// Params the method cannot use: answered with InvalidParams.
struct BadParams {
  std::string why;
};
// A request the server refuses for another reason (a file outside the roots, one not open).
struct Refused {
  int code;
  std::string why;
};

const Json& member(const Json& object, const char* key) {
  if (!object.is_object()) throw BadParams{"expected an object holding '" + std::string(key) + "'"};
  const auto found = object.find(key);
  if (found == object.end()) throw BadParams{"'" + std::string(key) + "' is missing"};
  return *found;
}

std::string string_member(const Json& object, const char* key) {
  const Json& value = member(object, key);
  if (!value.is_string()) throw BadParams{"'" + std::string(key) + "' must be a string"};
  return value.get<std::string>();
}

std::size_t count_member(const Json& object, const char* key) {
  const Json& value = member(object, key);
  if (!value.is_number_unsigned())
    throw BadParams{"'" + std::string(key) + "' must be a number from 0"};
  return value.get<std::size_t>();
}

Position position_of_json(const Json& p) {
  return Position{count_member(p, "line"), count_member(p, "character")};
}

Range range_of_json(const Json& r) {
  return Range{position_of_json(member(r, "start")), position_of_json(member(r, "end"))};
}

std::string uri_of(const Json& params) {
  return string_member(member(params, "textDocument"), "uri");
}

}  // namespace

Server::Server(std::ostream& out, ServerOptions options) : out_(out), options_(std::move(options)) {
  for (const std::string& root : options_.rule_roots) roots_.add(root);
}

const Document* Server::document(const std::string& uri) const {
  const auto found = open_.find(uri);
  return found == open_.end() || !found->second.document ? nullptr : found->second.document.get();
}

void Server::send(const Json& message) {
  // Rule files may hold bytes that are not UTF-8, and messages quote them.
  write_frame(out_, message.dump(-1, ' ', false, Json::error_handler_t::replace));
}

void Server::respond(const Json& id, Json result) {
  send(Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::fail(const Json& id, int code, const std::string& message) {
  send(Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void Server::refuse_frame(const std::string& why) {
  fail(nullptr, messages::kParseError, why);
}

bool Server::handle(const std::string& body) {
  const Json message = Json::parse(body, nullptr, false);
  if (message.is_discarded()) {
    std::string why;
    try {
      const Json unused = Json::parse(body);
    } catch (const Json::parse_error& e) {
      why = e.what();
    }
    fail(nullptr, messages::kParseError, messages::not_json(why));
    return true;
  }
  const bool valid_id =
      message.is_object() &&
      (!message.contains("id") || message["id"].is_string() || message["id"].is_number_integer());
  const Json id = valid_id && message.contains("id") ? message["id"] : Json(nullptr);
  if (!valid_id || message.value("jsonrpc", Json()) != "2.0") {
    fail(id, messages::kInvalidRequest, messages::not_a_request());
    return true;
  }
  if (!message.contains("method")) {
    // A response to one of the server's own requests (client/registerCapability): nothing
    // waits for it. Anything else without a method is not a message at all.
    if (!message.contains("id") || (!message.contains("result") && !message.contains("error")))
      fail(id, messages::kInvalidRequest, messages::not_a_request());
    return true;
  }
  if (!message["method"].is_string()) {
    fail(id, messages::kInvalidRequest, messages::not_a_request());
    return true;
  }
  const std::string method = message["method"].get<std::string>();
  if (method == "exit") return false;
  const Json params = message.value("params", Json::object());
  dispatch(method, params, message.contains("id") ? &id : nullptr);
  return true;
}

void Server::dispatch(const std::string& method, const Json& params, const Json* id) {
  if (!id) {
    // Notifications have no answer, not even an error: a bad one is dropped.
    if (!initialized_ || shut_down_) return;
    try {
      notification(method, params);
    } catch (const BadParams&) {
    } catch (const Refused&) {
    } catch (const std::exception&) {
    }
    return;
  }
  if (!initialized_ && method != "initialize")
    return fail(*id, messages::kServerNotInitialized, messages::not_initialized());
  if (shut_down_) return fail(*id, messages::kInvalidRequest, messages::after_shutdown());
  try {
    respond(*id, request(method, params));
  } catch (const BadParams& e) {
    fail(*id, messages::kInvalidParams, messages::bad_params(method, e.why));
  } catch (const Refused& e) {
    fail(*id, e.code, e.why);
  } catch (const Json::exception& e) {
    fail(*id, messages::kInvalidParams, messages::bad_params(method, e.what()));
  } catch (const std::exception& e) {
    fail(*id, messages::kRequestFailed, e.what());
  }
}

Json Server::request(const std::string& method, const Json& params) {
  if (method == "initialize") return initialize(params);
  if (method == "shutdown") {
    shut_down_ = true;
    return nullptr;
  }
  if (method == "textDocument/hover") {
    const Document& d = requested(params);
    return hover(d, offset_of(d.text(), position_of_json(member(params, "position"))));
  }
  if (method == "textDocument/definition") {
    const Document& d = requested(params);
    return definition(d, uri_of(params),
                      offset_of(d.text(), position_of_json(member(params, "position"))), roots_);
  }
  if (method == "textDocument/references") {
    const Document& d = requested(params);
    const Json context = params.value("context", Json::object());
    return references(d, uri_of(params),
                      offset_of(d.text(), position_of_json(member(params, "position"))),
                      context.is_object() && context.value("includeDeclaration", false));
  }
  if (method == "textDocument/completion") {
    const Document& d = requested(params);
    return completion(d, offset_of(d.text(), position_of_json(member(params, "position"))));
  }
  if (method == "textDocument/codeAction") {
    const Document& d = requested(params);
    return code_actions(d, uri_of(params), range_of_json(member(params, "range")));
  }
  if (method == "textDocument/codeLens") return code_lenses(requested(params), roots_);
  throw Refused{messages::kMethodNotFound, messages::unknown_method(method)};
}

void Server::notification(const std::string& method, const Json& params) {
  if (method == "initialized") return register_watchers();
  if (method == "textDocument/didOpen") return did_open(params);
  if (method == "textDocument/didChange") return did_change(params);
  if (method == "textDocument/didClose") return did_close(params);
  if (method == "textDocument/didSave") {
    // The saved text is what the files that use this one read from disk.
    if (const auto path = path_of_uri(uri_of(params)))
      files_changed({fs::path(*path).lexically_normal().string()});
    return;
  }
  if (method == "workspace/didChangeWatchedFiles") {
    std::vector<std::string> paths;
    for (const Json& change : member(params, "changes"))
      if (const auto path = path_of_uri(string_member(change, "uri")))
        paths.push_back(fs::path(*path).lexically_normal().string());
    return files_changed(paths);
  }
  // Anything else ($/cancelRequest, $/setTrace, ...) needs nothing from this server.
}

Json Server::initialize(const Json& params) {
  if (!params.is_object()) throw BadParams{"expected an object"};
  const auto add_root = [&](const Json& uri) {
    if (!uri.is_string()) return;
    if (const auto path = path_of_uri(uri.get<std::string>())) roots_.add(*path);
  };
  if (params.contains("workspaceFolders") && params["workspaceFolders"].is_array())
    for (const Json& folder : params["workspaceFolders"])
      if (folder.is_object() && folder.contains("uri")) add_root(folder["uri"]);
  if (params.contains("rootUri")) add_root(params["rootUri"]);
  if (roots_.empty() && params.contains("rootPath") && params["rootPath"].is_string())
    roots_.add(params["rootPath"].get<std::string>());
  if (roots_.empty()) roots_.add(fs::current_path().string());
  const Json capabilities = params.value("capabilities", Json::object());
  watch_files_ = capabilities.is_object() &&
                 capabilities.value(
                     "/workspace/didChangeWatchedFiles/dynamicRegistration"_json_pointer, false);
  initialized_ = true;
  return Json{{"capabilities",
               {{"textDocumentSync",
                 {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
                {"hoverProvider", true},
                {"definitionProvider", true},
                {"referencesProvider", true},
                {"completionProvider", {{"triggerCharacters", {":", " ", "{", "[", ",", "="}}}},
                {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
                {"codeLensProvider", {{"resolveProvider", false}}}}},
              {"serverInfo", {{"name", "snnplan"}, {"version", snnplan::version}}}};
}

void Server::register_watchers() {
  if (!watch_files_) return;
  send(Json{
      {"jsonrpc", "2.0"},
      {"id", "snnplan-" + std::to_string(++next_request_)},
      {"method", "client/registerCapability"},
      {"params",
       {{"registrations",
         {{{"id", "snnplan-rule-files"},
           {"method", "workspace/didChangeWatchedFiles"},
           {"registerOptions", {{"watchers", {{{"globPattern", "**/*.{yaml,yml,json}"}}}}}}}}}}}});
}

std::string Server::path_in_roots(const std::string& uri) const {
  const auto path = path_of_uri(uri);
  if (!path) throw Refused{messages::kInvalidParams, messages::not_a_file_uri(uri)};
  if (!roots_.contains(*path))
    throw Refused{messages::kInvalidParams, messages::outside_roots(*path)};
  return fs::path(*path).lexically_normal().string();
}

const Document& Server::requested(const Json& params) {
  const std::string uri = uri_of(params);
  path_in_roots(uri);
  const Document* d = document(uri);
  if (!d) throw Refused{messages::kInvalidParams, messages::not_open(uri)};
  return *d;
}

void Server::analyse(const std::string& uri, std::string text, Json version) {
  const std::string path = path_in_roots(uri);
  auto document =
      std::make_unique<Document>(path, std::move(text), roots_.directories(), this->document(uri));
  open_[uri] = Open{std::move(document), std::move(version)};
  publish(uri);
}

void Server::publish(const std::string& uri) {
  const Open& open = open_.at(uri);
  Json params = diagnostics_params(*open.document, uri);
  if (open.version.is_number_integer()) params["version"] = open.version;
  send(Json{{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", params}});
}

void Server::did_open(const Json& params) {
  const Json& item = member(params, "textDocument");
  const std::string uri = string_member(item, "uri");
  try {
    analyse(uri, string_member(item, "text"), item.value("version", Json()));
  } catch (const Refused& e) {
    send(Json{{"jsonrpc", "2.0"},
              {"method", "window/logMessage"},
              {"params", {{"type", 3}, {"message", e.why}}}});
    return;
  }
  files_changed({open_.at(uri).document->path()});
}

void Server::did_change(const Json& params) {
  const Json& item = member(params, "textDocument");
  const std::string uri = string_member(item, "uri");
  const auto found = open_.find(uri);
  if (found == open_.end()) return;
  std::string text = found->second.document->text();
  for (const Json& change : member(params, "contentChanges")) {
    const std::string replacement = string_member(change, "text");
    if (!change.contains("range")) {
      text = replacement;
      continue;
    }
    const Range range = range_of_json(change["range"]);
    const std::size_t begin = offset_of(text, range.start);
    const std::size_t end = offset_of(text, range.end);
    if (end < begin) {
      send(Json{
          {"jsonrpc", "2.0"},
          {"method", "window/logMessage"},
          {"params",
           {{"type", 1}, {"message", messages::bad_change("the range ends before it starts")}}}});
      return;
    }
    text = replaced(text, begin, end, replacement);
  }
  analyse(uri, std::move(text), item.value("version", Json()));
  files_changed({open_.at(uri).document->path()});
}

void Server::did_close(const Json& params) {
  const std::string uri = uri_of(params);
  if (open_.erase(uri) == 0) return;
  // A closed file's diagnostics go with it.
  send(Json{{"jsonrpc", "2.0"},
            {"method", "textDocument/publishDiagnostics"},
            {"params", {{"uri", uri}, {"diagnostics", Json::array()}}}});
}

void Server::files_changed(const std::vector<std::string>& paths) {
  // The open files that use a changed one are checked again, with its text from disk.
  for (auto& [uri, open] : open_) {
    const auto& used = open.document->used_paths();
    const bool affected = std::any_of(paths.begin(), paths.end(), [&](const std::string& p) {
      return std::find(used.begin(), used.end(), p) != used.end();
    });
    if (!affected) continue;
    open.document = std::make_unique<Document>(open.document->path(), open.document->text(),
                                               roots_.directories(), open.document.get());
    publish(uri);
  }
}

int run(std::istream& in, std::ostream& out, ServerOptions options) {
  Server server(out, std::move(options));
  for (;;) {
    Frame frame = read_frame(in);
    switch (frame.status) {
      case Frame::Status::end:
        return server.exit_code();
      case Frame::Status::bad_header:
        server.refuse_frame(messages::no_content_length());
        break;
      case Frame::Status::too_large:
        server.refuse_frame(messages::message_too_large(kMaxMessageBytes));
        break;
      case Frame::Status::message:
        if (!server.handle(frame.body)) return server.exit_code();
        break;
    }
  }
}

}  // namespace snnplan::lsp
