#pragma once
// `snnplan lsp`: a Language Server Protocol server for rule files, over a pair of streams.
//
// The message loop (run()) is the whole of its control flow: read one framed message, handle
// it to the end (a request gets its response, a change its diagnostics), write what it
// produced, read the next. One thread, no queue: a rule file is analysed in milliseconds
// (bench/lsp_bench.cpp), so a client never waits on an earlier message for long, and every
// request is answered in the order it came. Nothing but protocol messages goes to `out`.

#include <iosfwd>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "frontends/lsp/document.hpp"
#include "frontends/lsp/roots.hpp"

namespace snnplan::lsp {

struct ServerOptions {
  /// Directories the server may read besides the client's workspace folders (--rules-root).
  std::vector<std::string> rule_roots;
};

class Server {
 public:
  Server(std::ostream& out, ServerOptions options);

  /// Handles one message's body (JSON text), writing its response and notifications.
  /// Returns false once the client sent `exit`.
  bool handle(const std::string& body);
  /// Answers a frame the transport could not read (a parse error with a null id).
  void refuse_frame(const std::string& why);
  /// 0 when `exit` followed `shutdown`, else 1 (the protocol's rule).
  [[nodiscard]] int exit_code() const { return shut_down_ ? 0 : 1; }

  /// The document open under `uri`, or nullptr (for tests and the benchmark).
  [[nodiscard]] const Document* document(const std::string& uri) const;

 private:
  using Json = nlohmann::json;
  struct Open {
    std::unique_ptr<Document> document;
    Json version;
  };

  void dispatch(const std::string& method, const Json& params, const Json* id);
  Json request(const std::string& method, const Json& params);
  void notification(const std::string& method, const Json& params);

  Json initialize(const Json& params);
  void did_open(const Json& params);
  void did_change(const Json& params);
  void did_close(const Json& params);
  void files_changed(const std::vector<std::string>& paths);
  void analyse(const std::string& uri, std::string text, Json version);
  void publish(const std::string& uri);
  void register_watchers();

  // The open rule file a request names, after the checks every request makes.
  const Document& requested(const Json& params);
  std::string path_in_roots(const std::string& uri) const;

  void send(const Json& message);
  void respond(const Json& id, Json result);
  void fail(const Json& id, int code, const std::string& message);

  std::ostream& out_;
  ServerOptions options_;
  RuleRoots roots_;
  bool initialized_ = false;
  bool shut_down_ = false;
  bool watch_files_ = false;
  int next_request_ = 0;
  std::map<std::string, Open> open_;
};

/// The message loop over `in` and `out` until `exit` or the end of `in`. Returns the exit code.
int run(std::istream& in, std::ostream& out, ServerOptions options);

}  // namespace snnplan::lsp
