#include "frontends/lsp/transport.hpp"

#include <charconv>
#include <istream>
#include <ostream>
#include <string_view>

namespace snnplan::lsp {
namespace {

// One header line without its "\r\n" (a bare "\n" is accepted too); nullopt at the end of the
// stream.
std::optional<std::string> header_line(std::istream& in) {
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(a[k]) != lower(b[k])) return false;
  }
  return true;
}

}  // namespace

Frame read_frame(std::istream& in) {
  std::optional<std::size_t> length;
  bool bad = false;
  bool any_header = false;
  for (;;) {
    std::optional<std::string> line = header_line(in);
    if (!line) return Frame{};
    if (line->empty()) {
      if (!any_header) continue;  // stray blank lines between messages
      break;
    }
    any_header = true;
    const std::size_t colon = line->find(':');
    if (colon == std::string::npos) {
      bad = true;
      continue;
    }
    if (!equals_ignoring_case(std::string_view(*line).substr(0, colon), "content-length")) continue;
    std::string_view value = std::string_view(*line).substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    std::size_t n = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (error != std::errc() || end != value.data() + value.size() || value.empty())
      bad = true;
    else
      length = n;
  }
  if (bad || !length) return Frame{Frame::Status::bad_header, {}};
  if (*length > kMaxMessageBytes) {
    in.ignore(static_cast<std::streamsize>(*length));
    return Frame{in ? Frame::Status::too_large : Frame::Status::end, {}};
  }
  std::string body(*length, '\0');
  in.read(body.data(), static_cast<std::streamsize>(*length));
  if (static_cast<std::size_t>(in.gcount()) != *length) return Frame{};
  return Frame{Frame::Status::message, std::move(body)};
}

void write_frame(std::ostream& out, const std::string& body) {
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

}  // namespace snnplan::lsp
