// HTML text: escaping of strings placed into an HTML page (private to the harness library; header-only).
#pragma once
#include <string>

namespace harness {

// `s` with & < > " ' replaced by entities, safe both as element text and as a quoted attribute value.
// Bytes are otherwise passed through (the page is UTF-8); NUL and other C0 controls except \t \n \r
// become U+FFFD so that a binary stderr tail cannot break the page.
inline std::string html_escape(const std::string &s) {
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (const char ch : s) {
        switch (ch) {
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
        case '\'':
            out += "&#39;";
            break;
        case '\t':
        case '\n':
        case '\r':
            out += ch;
            break;
        default:
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) {
                out += "\xEF\xBF\xBD";
            } else {
                out += ch;
            }
        }
    }
    return out;
}

// `<tag attrs>escaped text</tag>`: a one-element shorthand; `attrs` is inserted as given (escape its values).
inline std::string html_element(const std::string &tag, const std::string &attrs, const std::string &text) {
    return "<" + tag + (attrs.empty() ? "" : " " + attrs) + ">" + html_escape(text) + "</" + tag + ">";
}

}  // namespace harness
