// NumPy .npy encoding/decoding and the atomic file helpers (see npy.h).
//
// Format: "\x93NUMPY", major, minor, header length (uint16 LE for 1.0, uint32 LE for 2.0), then a
// Python dict literal {'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), } padded with spaces
// and a final '\n' so the data starts at a multiple of 64 bytes. Data: C order, little-endian.
// float16 is numpy's '<f2'. bfloat16 has no numpy dtype: it is written as the structured dtype
// [('bfloat16', '<u2')], its bits under a field that names the type, which numpy loads as it is
// (a['bfloat16'] holds the bits; (bits.astype('<u4') << 16).view('<f4') gives the values) and which no
// other array is read as.
#include "values/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "values/element_type.h"
#include "base/error.h"
#include "base/files.h"

namespace harness {

namespace {

const char kMagic[] = "\x93NUMPY";
const size_t kMagicLen = 6;
const char kFixHint[] =
    "re-bless with `aot-harness bless` or re-save it with numpy.save as a little-endian C-order array";

[[noreturn]] void fail(const std::string &what, const std::string &problem) {
    throw Error(what + ": " + problem + "; " + kFixHint);
}

const char kBfloat16Descr[] = "[('bfloat16', '<u2')]";

// The header's descr value as Python writes it: a quoted string, or bfloat16's structured list.
std::string descr_literal(halide_type_t t) {
    if (t.code == halide_type_bfloat && t.bits == 16 && t.lanes == 1) return kBfloat16Descr;
    if (const ElementType *e = find_element_type(t)) return std::string("'") + (t.bits <= 8 ? "|" : "<") + e->npy + "'";
    throw Error("cannot write .npy: unsupported element type " + describe_type(t));
}

bool host_is_little_endian() {
    const uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

// A minimal parser for the Python dict literal of an .npy header.
class HeaderParser {
public:
    HeaderParser(const std::string &text, const std::string &what) : s_(text), what_(what) {}

    void parse(std::string *descr, bool *fortran, std::vector<uint64_t> *shape) {
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
                    *descr = structured_descr();
                } else if (peek() != '\'' && peek() != '"') {
                    bad("a descr that is neither a string nor a list is not supported");
                } else {
                    *descr = string_literal();
                }
                have_descr = true;
            } else if (key == "fortran_order") {
                *fortran = boolean();
                have_fortran = true;
            } else if (key == "shape") {
                *shape = tuple();
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
    [[noreturn]] void bad(const std::string &problem) { fail(what_, "malformed .npy header: " + problem); }
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
    // [('name', 'descr')], the one structured form the harness writes (bfloat16); returned as
    // "[name:descr]" so that type_of_descr can name what it does not support.
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
    const std::string &what_;
    size_t pos_ = 0;
};

halide_type_t type_of_descr(const std::string &descr, const std::string &what) {
    if (descr == "[bfloat16:<u2]") return halide_type_t(halide_type_bfloat, 16, 1);
    if (descr.size() < 2 || descr[0] == '[') {
        fail(what, "unsupported dtype '" + descr + "' (supported: " + supported_element_types() +
                       "; bfloat16 as [('bfloat16', '<u2')])");
    }
    const char order = descr[0];
    const std::string kind_size =
        (order == '<' || order == '>' || order == '|' || order == '=') ? descr.substr(1) : descr;
    for (const auto &d : element_types()) {
        if (kind_size != d.npy || d.type.code == halide_type_bfloat) continue;
        const bool multi_byte = d.type.bits > 8;
        if (multi_byte && order == '>') fail(what, "big-endian dtype '" + descr + "' is not supported");
        if (multi_byte && order == '=' && !host_is_little_endian())
            fail(what, "native-endian dtype on a big-endian host");
        if (multi_byte && order != '<' && order != '=') fail(what, "dtype '" + descr + "' has no byte order");
        return d.type;
    }
    fail(what, "unsupported dtype '" + descr + "' (supported: " + supported_element_types() +
                   "; bfloat16 as [('bfloat16', '<u2')])");
}

}  // namespace

std::string npy_encode(const Array &a) {
    std::string header = "{'descr': " + descr_literal(a.type) + ", 'fortran_order': False, 'shape': (";
    for (size_t k = a.shape.size(); k-- > 0;) {  // C order: outermost first
        header += std::to_string(a.shape[k]) + (k > 0 ? ", " : "");
    }
    header += a.shape.size() == 1 ? ",), }" : "), }";  // "(5,)" like Python
    // numpy leaves room to grow the first extent in place (GROWTH_AXIS_MAX_DIGITS = 21).
    if (!a.shape.empty()) header += std::string(21 - std::to_string(a.shape.back()).size(), ' ');
    // Pad with spaces and a final '\n' so the data starts at a multiple of 64 (numpy's _wrap_header).
    const size_t prefix = kMagicLen + 2 + 2;
    const size_t pad = 64 - (prefix + header.size() + 1) % 64;
    header += std::string(pad, ' ') + "\n";
    if (header.size() > 65535) throw Error("cannot write .npy: header too long for shape " + shape_string(a.shape));
    const size_t expected = a.elements() * a.element_bytes();
    if (a.bytes.size() != expected) {
        throw Error("cannot write .npy: array has " + std::to_string(a.bytes.size()) + " bytes but its shape " +
                    shape_string(a.shape) + " needs " + std::to_string(expected));
    }

    std::string out(kMagic, kMagicLen);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    out.append(reinterpret_cast<const char *>(a.bytes.data()), a.bytes.size());
    return out;
}

Array npy_decode(const std::string &bytes, const std::string &what) {
    if (bytes.size() < kMagicLen || bytes.compare(0, kMagicLen, kMagic, kMagicLen) != 0) {
        fail(what, "not an .npy file (bad magic)");
    }
    if (bytes.size() < kMagicLen + 2) fail(what, "truncated header (no version)");
    const int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    if ((major != 1 && major != 2) || minor != 0) {
        fail(what, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                       " (supported: 1.0, 2.0)");
    }
    const size_t len_bytes = major == 1 ? 2 : 4;
    const size_t header_start = kMagicLen + 2 + len_bytes;
    if (bytes.size() < header_start) fail(what, "truncated header (no header length)");
    size_t header_len = 0;
    for (size_t k = 0; k < len_bytes; k++)
        header_len |= size_t(static_cast<unsigned char>(bytes[8 + k])) << (8 * k);
    if (bytes.size() - header_start < header_len) {
        fail(what, "truncated header (needs " + std::to_string(header_len) + " bytes, file has " +
                       std::to_string(bytes.size() - header_start) + ")");
    }

    std::string descr;
    bool fortran = false;
    std::vector<uint64_t> c_shape;
    const std::string header_text = bytes.substr(header_start, header_len);
    HeaderParser(header_text, what).parse(&descr, &fortran, &c_shape);
    const halide_type_t type = type_of_descr(descr, what);
    if (fortran) fail(what, "fortran_order True is not supported (save a C-order array)");

    Array a;
    a.type = type;
    size_t count = 1;
    bool overflow = false;
    for (size_t k = c_shape.size(); k-- > 0;) {
        if (c_shape[k] > uint64_t(INT_MAX)) fail(what, "shape extent " + std::to_string(c_shape[k]) + " is too large");
        a.shape.push_back(int(c_shape[k]));
        if (c_shape[k] != 0 && count > SIZE_MAX / 8 / c_shape[k]) overflow = true;
        count *= size_t(c_shape[k]);
    }
    const size_t data_len = bytes.size() - header_start - header_len;
    if (overflow) fail(what, "shape " + shape_string(a.shape) + " is too large");
    const size_t expected = count * a.element_bytes();
    if (data_len < expected) {
        fail(what, "truncated data (" + std::to_string(data_len) + " bytes, shape " + shape_string(a.shape) +
                       " needs " + std::to_string(expected) + ")");
    }
    if (data_len > expected) {
        fail(what, "data size mismatch (" + std::to_string(data_len) + " bytes, shape " + shape_string(a.shape) +
                       " needs " + std::to_string(expected) + ")");
    }
    const auto *data = reinterpret_cast<const uint8_t *>(bytes.data()) + header_start + header_len;
    a.bytes.assign(data, data + expected);
    return a;
}

Array npy_load(const std::string &path) {
    return npy_decode(read_file(path), path);
}

void npy_save(const std::string &path, const Array &a) {
    write_file_atomic(path, npy_encode(a));
}

}  // namespace harness
