#pragma once
// XML (and HTML) text, for the renderers and reports that write it.

#include <string>
#include <string_view>

namespace snnplan::render {

/// Text as XML character data or an attribute value: & < > " escaped, line breaks and tabs as
/// character references (kept in attributes), other control characters as U+FFFD (XML 1.0
/// cannot hold them).
std::string xml_escaped(std::string_view text);

}  // namespace snnplan::render
