#include "frontends/serve/server.hpp"

#include <httplib.h>

#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>

#include "frontends/serve/messages.hpp"

namespace snnplan::serve {
namespace {

using json = nlohmann::ordered_json;
constexpr const char* kJson = "application/json";

void reply(httplib::Response& res, const Reply& r) {
  res.status = r.status;
  res.set_content(r.body.dump(-1, ' ', false, json::error_handler_t::replace), kJson);
}

void refuse(httplib::Response& res, int status, const std::string& message) {
  reply(res, Reply{status, json{{"error", message}}});
}

// 128 random bits in hex: the secret a remote page must show (in the URL it was given).
std::string new_token() {
  std::random_device entropy;
  std::string token;
  for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", entropy());
  return token;
}

// The request's JSON body, with a string "text"; an error reply when it is not one.
std::optional<nlohmann::json> body_with_text(const std::string& raw, httplib::Response& res) {
  nlohmann::json body;
  try {
    body = nlohmann::json::parse(raw);
  } catch (const nlohmann::json::exception& e) {
    refuse(res, 400, messages::not_json(e.what()));
    return std::nullopt;
  }
  if (!body.is_object() || !body.contains("text") || !body["text"].is_string()) {
    refuse(res, 400, messages::missing_member("text", "the rule file's text as a string"));
    return std::nullopt;
  }
  return body;
}

nlohmann::json member(const nlohmann::json& body, const char* name) {
  return body.contains(name) ? body[name] : nlohmann::json();
}

// Every endpoint that takes the edited text: read the body, parse it, then let `answer` reply.
// The body is read as it came, whatever its Content-Type says: `curl -d` labels it a form, and
// the HTTP library would parse a form body into parameters and refuse one over 8 KiB (a rule
// file of any size). The payload limit (kMaxRequestBytes) still holds while reading.
template <typename Answer>
httplib::Server::HandlerWithContentReader with_text(Answer answer) {
  return [answer](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& read) {
    if (req.is_multipart_form_data()) {  // the library reads those only as files
      refuse(res, 400, messages::multipart_body());
      return;
    }
    std::string raw;
    if (!read([&raw](const char* data, std::size_t size) {
          raw.append(data, size);
          return true;
        }))
      return;  // the status the library set (413 past the limit); the error handler writes it
    if (const auto body = body_with_text(raw, res))
      reply(res, answer(body->at("text").template get<std::string>(), *body));
  };
}

void add_routes(httplib::Server& server, Workbench& bench) {
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(kWorkbenchPage), "text/html; charset=utf-8");
  });
  server.Get("/api/file", [&bench](const httplib::Request&, httplib::Response& res) {
    reply(res, bench.file());
  });
  server.Post("/api/check", with_text([&bench](const std::string& text, const nlohmann::json&) {
                return bench.check(text);
              }));
  server.Post("/api/decide", with_text([&bench](const std::string& text, const nlohmann::json& b) {
                return bench.decide(text, member(b, "inputs"));
              }));
  server.Post("/api/diff", with_text([&bench](const std::string& text, const nlohmann::json& b) {
                return bench.diff(text, member(b, "inputs"));
              }));
  server.Post("/api/map", with_text([&bench](const std::string& text, const nlohmann::json& b) {
                return bench.map(text, b);
              }));
  server.Post("/api/tests", with_text([&bench](const std::string& text, const nlohmann::json& b) {
                const nlohmann::json mutate = member(b, "mutate");
                return bench.tests(text, mutate.is_boolean() && mutate.get<bool>());
              }));
  server.Post("/api/save", with_text([&bench](const std::string& text, const nlohmann::json& b) {
                const nlohmann::json base = member(b, "base_sha256");
                return bench.save(text, base.is_string() ? base.get<std::string>() : "");
              }));
}

}  // namespace

bool is_loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "::1" || host == "localhost";
}

void serve(const ServerOptions& options, std::ostream& out,
           const std::function<bool()>& stop_requested) {
  if (!is_loopback(options.host) && !options.allow_remote)
    throw std::invalid_argument(messages::remote_needs_flag(options.host));
  Workbench bench(options.workbench);
  const std::string token = is_loopback(options.host) ? "" : new_token();

  httplib::Server server;
  server.set_payload_max_length(kMaxRequestBytes);
  server.set_pre_routing_handler([&token](const httplib::Request& req, httplib::Response& res) {
    if (token.empty() || req.get_param_value("token") == token ||
        req.get_header_value("X-Snnplan-Token") == token)
      return httplib::Server::HandlerResponse::Unhandled;
    refuse(res, 403, messages::bad_token());
    return httplib::Server::HandlerResponse::Handled;
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413) refuse(res, 413, messages::body_too_large(kMaxRequestBytes));
    else if (res.status == 404) refuse(res, 404, messages::not_found(req.path));
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr thrown) {
        try {
          std::rethrow_exception(thrown);
        } catch (const std::exception& e) {
          refuse(res, 500, messages::internal_error(e.what()));
        } catch (...) {
          refuse(res, 500, messages::internal_error("unknown exception"));
        }
      });
  add_routes(server, bench);

  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
    if (port < 0) throw std::runtime_error(messages::cannot_listen(options.host, 0));
  } else if (!server.bind_to_port(options.host, port)) {
    throw std::runtime_error(messages::cannot_listen(options.host, port));
  }
  const bool ipv6 = options.host.find(':') != std::string::npos;
  std::string url = fmt::format("http://{}:{}/", ipv6 ? "[" + options.host + "]" : options.host, port);
  if (!token.empty()) url += "?token=" + token;
  out << messages::serving(options.workbench.path, url) << '\n';
  if (!token.empty()) out << messages::token_notice() << '\n';
  out.flush();

  std::thread listener([&server] { server.listen_after_bind(); });
  while (!stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  server.stop();
  listener.join();
}

}  // namespace snnplan::serve
