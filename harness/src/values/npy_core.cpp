// The verdict core's .npy format (harness/verdict_core.h): the preamble and header dict read and written,
// descr to element type. Format: "\x93NUMPY", major, minor, header length (uint16 LE for 1.0, uint32 LE for
// 2.0), then a Python dict literal {'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), } padded with
// spaces and a final '\n' so the data starts at a multiple of 64 bytes. Data: C order, little-endian.
// float16 is numpy's '<f2'. bfloat16 has no numpy dtype: it is written as the structured dtype
// [('bfloat16', '<u2')], its bits under a field that names the type, which numpy loads as it is.
#include "harness/verdict_core.h"

namespace harness::core {

namespace {

const char kMagic[] = "\x93NUMPY";
const size_t kMagicLen = 6;

// A minimal parser of the Python dict literal of an .npy header.
class HeaderParser {
public:
    explicit HeaderParser(const std::string &text) : s_(text) {}

    void parse(NpyHeader *h) {
        bool have_descr = false, have_fortran = false, have_shape = false;
        expect('{');
        while (true) {
            skip_ws();
            if (peek() == '}') break;
            const std::string key = string_literal();
            expect(':');
            if (key == "descr") {
                skip_ws();
                if (peek() == '[') {
                    h->descr = structured_descr();
                } else if (peek() != '\'' && peek() != '"') {
                    bad("a descr that is neither a string nor a list is not supported");
                } else {
                    h->descr = string_literal();
                }
                have_descr = true;
            } else if (key == "fortran_order") {
                h->fortran_order = boolean();
                have_fortran = true;
            } else if (key == "shape") {
                h->c_shape = tuple();
                have_shape = true;
            } else {
                bad("unexpected header key '" + key + "'");
            }
            skip_ws();
            if (peek() == ',') {
                pos_++;
            } else if (peek() != '}') {
                bad("expected ',' or '}' in the header");
            }
        }
        pos_++;
        skip_ws();
        if (pos_ != s_.size()) bad("unexpected text after the header dict");
        if (!have_descr) bad("header has no 'descr'");
        if (!have_fortran) bad("header has no 'fortran_order'");
        if (!have_shape) bad("header has no 'shape'");
    }

private:
    [[noreturn]] static void bad(const std::string &problem) { throw FormatError("malformed .npy header: " + problem); }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void skip_ws() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
            pos_++;
    }
    void expect(char c) {
        skip_ws();
        if (peek() != c) bad(std::string("expected '") + c + "'");
        pos_++;
    }
    std::string string_literal() {
        skip_ws();
        const char quote = peek();
        if (quote != '\'' && quote != '"') bad("expected a quoted string");
        const size_t end = s_.find(quote, pos_ + 1);
        if (end == std::string::npos) bad("unterminated string");
        std::string out = s_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return out;
    }
    bool boolean() {
        skip_ws();
        if (s_.compare(pos_, 4, "True") == 0) {
            pos_ += 4;
            return true;
        }
        if (s_.compare(pos_, 5, "False") == 0) {
            pos_ += 5;
            return false;
        }
        bad("fortran_order must be True or False");
    }
    // [('name', 'descr')], the one structured form the harness writes (bfloat16); returned as "[name:descr]"
    // so that npy_type can name what it does not support.
    std::string structured_descr() {
        expect('[');
        expect('(');
        const std::string name = string_literal();
        expect(',');
        const std::string inner = string_literal();
        expect(')');
        skip_ws();
        if (peek() == ',') pos_++;
        skip_ws();
        if (peek() != ']') bad("a structured descr with more than one field is not supported");
        pos_++;
        return "[" + name + ":" + inner + "]";
    }
    std::vector<uint64_t> tuple() {
        std::vector<uint64_t> dims;
        expect('(');
        while (true) {
            skip_ws();
            if (peek() == ')') break;
            if (peek() < '0' || peek() > '9') bad("shape must be a tuple of non-negative integers");
            uint64_t v = 0;
            while (peek() >= '0' && peek() <= '9') {
                if (v > (UINT64_MAX - 9) / 10) bad("shape extent too large");
                v = v * 10 + uint64_t(peek() - '0');
                pos_++;
            }
            if (peek() == 'L') pos_++;  // Python 2 long literal
            dims.push_back(v);
            skip_ws();
            if (peek() == ',') {
                pos_++;
            } else if (peek() != ')') {
                bad("expected ',' or ')' in shape");
            }
        }
        pos_++;
        return dims;
    }

    const std::string &s_;
    size_t pos_ = 0;
};

}  // namespace

NpyHeader parse_npy_header(const std::string &bytes) {
    if (bytes.size() < kMagicLen || bytes.compare(0, kMagicLen, kMagic, kMagicLen) != 0)
        throw FormatError("not an .npy file (bad magic)");
    if (bytes.size() < kMagicLen + 2) throw FormatError("truncated header (no version)");
    const int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    if ((major != 1 && major != 2) || minor != 0) {
        throw FormatError("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                          " (supported: 1.0, 2.0)");
    }
    const size_t len_bytes = major == 1 ? 2 : 4;
    const size_t header_start = kMagicLen + 2 + len_bytes;
    if (bytes.size() < header_start) throw FormatError("truncated header (no header length)");
    size_t header_len = 0;
    for (size_t k = 0; k < len_bytes; k++)
        header_len |= size_t(static_cast<unsigned char>(bytes[8 + k])) << (8 * k);
    if (bytes.size() - header_start < header_len) {
        throw FormatError("truncated header (needs " + std::to_string(header_len) + " bytes, file has " +
                          std::to_string(bytes.size() - header_start) + ")");
    }
    NpyHeader h;
    HeaderParser(bytes.substr(header_start, header_len)).parse(&h);
    h.data_offset = header_start + header_len;
    return h;
}

ElemType npy_type(const std::string &descr) {
    if (descr == "[bfloat16:<u2]") return {BFloat, 16};
    const char order = descr.empty() ? ' ' : descr[0];
    const std::string kind_size =
        (order == '<' || order == '>' || order == '|' || order == '=') ? descr.substr(1) : descr;
    ElemType t;
    if (kind_size == "b1") {
        t = {UInt, 1};
    } else if (kind_size.size() == 2 && (kind_size[0] == 'i' || kind_size[0] == 'u' || kind_size[0] == 'f')) {
        const int bytes = kind_size[1] - '0';
        const bool ok = kind_size[0] == 'f' ? (bytes == 2 || bytes == 4 || bytes == 8) :
                                              (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
        if (!ok) throw FormatError("unsupported dtype '" + descr + "'");
        t = {kind_size[0] == 'i' ? Int : kind_size[0] == 'u' ? UInt : Float, bytes * 8};
    } else {
        throw FormatError("unsupported dtype '" + descr + "'");
    }
    const uint16_t one = 1;
    const bool little = *reinterpret_cast<const uint8_t *>(&one) == 1;
    if (t.bits > 8 && order == '>') throw FormatError("big-endian dtype '" + descr + "' is not supported");
    if (t.bits > 8 && order == '=' && !little) throw FormatError("native-endian dtype on a big-endian host");
    if (t.bits > 8 && order != '<' && order != '=') throw FormatError("dtype '" + descr + "' has no byte order");
    return t;
}

std::string npy_descr_literal(ElemType t) {
    if (t.code == BFloat && t.bits == 16) return "[('bfloat16', '<u2')]";
    const bool known = t.bits == 1 ?
                           t.code == UInt :
                           (t.code == Float ? (t.bits == 16 || t.bits == 32 || t.bits == 64) :
                                              (t.code == Int || t.code == UInt) &&
                                                  (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64));
    if (!known) throw FormatError("unsupported element type");
    const char kind = t.bits == 1 ? 'b' : t.code == Float ? 'f' : t.code == Int ? 'i' : 'u';
    return std::string("'") + (t.bits <= 8 ? "|" : "<") + kind + std::to_string((t.bits + 7) / 8) + "'";
}

std::string npy_preamble(ElemType t, const std::vector<int> &shape) {
    std::string header = "{'descr': " + npy_descr_literal(t) + ", 'fortran_order': False, 'shape': (";
    for (size_t k = shape.size(); k-- > 0;)  // C order: outermost first
        header += std::to_string(shape[k]) + (k > 0 ? ", " : "");
    header += shape.size() == 1 ? ",), }" : "), }";  // "(5,)" like Python
    // numpy leaves room to grow the first extent in place (GROWTH_AXIS_MAX_DIGITS = 21).
    if (!shape.empty()) header += std::string(21 - std::to_string(shape.back()).size(), ' ');
    // Pad with spaces and a final '\n' so the data starts at a multiple of 64 (numpy's _wrap_header).
    const size_t prefix = kMagicLen + 2 + 2;
    header += std::string(64 - (prefix + header.size() + 1) % 64, ' ') + "\n";
    if (header.size() > 65535) throw FormatError("header too long for the shape");
    std::string out(kMagic, kMagicLen);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header;
}

}  // namespace harness::core
