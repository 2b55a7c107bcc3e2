// XML text for the formats that write it (JUnit reports, SVG, HTML).

#include "render/xml.hpp"

namespace snnplan::render {

// Text as XML character data or an attribute value. Characters XML 1.0 cannot hold at all
// (control characters other than tab and line breaks) become U+FFFD.
std::string xml_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\n':
        out += "&#10;";
        break;  // kept in attributes, where a raw line break is a space
      case '\t':
        out += "&#9;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += "\xEF\xBF\xBD";
        else
          out += c;
    }
  }
  return out;
}

}  // namespace snnplan::render
