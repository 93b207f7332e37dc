// SHA-256 (FIPS 180-4), self-contained: portable C++, and the x86 SHA extensions where the CPU has them
// (goldens, inputs and outputs of every run are hashed: a 1920x1080 case's 16-48 MB took a third of its
// child's time with the portable rounds).
#include "base/sha256.h"

#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace harness {

namespace {

const uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

inline uint32_t rotr(uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

// Processes one 64-byte block into the state h.
void compress(uint32_t h[8], const unsigned char *block) {
    uint32_t w[64];
    for (int t = 0; t < 16; t++) {
        w[t] = uint32_t(block[4 * t]) << 24 | uint32_t(block[4 * t + 1]) << 16 | uint32_t(block[4 * t + 2]) << 8 |
               uint32_t(block[4 * t + 3]);
    }
    for (int t = 16; t < 64; t++) {
        const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 64; t++) {
        const uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        const uint32_t ch = (e & f) ^ (~e & g);
        const uint32_t t1 = k + s1 + ch + kRound[t] + w[t];
        const uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        const uint32_t t2 = s0 + maj;
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
}

void compress_portable(uint32_t h[8], const unsigned char *data, size_t blocks) {
    for (size_t i = 0; i < blocks; i++)
        compress(h, data + 64 * i);
}

#if defined(__x86_64__)
// The same rounds with the SHA extensions: the state as two vectors, A B E F and C D G H (A, C in the top
// lane, as sha256rnds2 takes them), each sha256rnds2 two rounds, sha256msg1/2 the message schedule.
__attribute__((target("sha,sse4.1,ssse3"))) void compress_sha_ni(uint32_t h[8], const unsigned char *data,
                                                                 size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    const __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i *>(h));      // a b c d, lane 0 first
    const __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i *>(h + 4));  // e f g h
    const __m128i badc = _mm_shuffle_epi32(abcd, 0xB1);
    const __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);
    __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);     // f e b a
    __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);  // h g d c
    for (size_t b = 0; b < blocks; b++, data += 64) {
        const __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i w[4];
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(data + 16 * i)), byte_swap);
        for (int g = 0; g < 16; g++) {  // rounds 4g .. 4g + 3
            if (g >= 4) {               // W[4g .. 4g + 3] from the previous 16 words; w[g % 4] held W[4g - 16 ..]
                __m128i t = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
                w[g & 3] = _mm_sha256msg2_epu32(t, w[(g + 3) & 3]);
            }
            __m128i k = _mm_add_epi32(w[g & 3], _mm_loadu_si128(reinterpret_cast<const __m128i *>(kRound + 4 * g)));
            // Two rounds give the new A B E F; the old one is the new C D G H. Twice, so the names fit again.
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, k);
            k = _mm_shuffle_epi32(k, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, k);
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    const __m128i abef_r = _mm_shuffle_epi32(abef, 0x1B);  // a b e f
    const __m128i ghcd = _mm_shuffle_epi32(cdgh, 0xB1);    // g h c d
    _mm_storeu_si128(reinterpret_cast<__m128i *>(h), _mm_blend_epi16(abef_r, ghcd, 0xF0));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(h + 4), _mm_alignr_epi8(ghcd, abef_r, 8));
}

bool cpu_has_sha_ni() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3)) return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 29)) != 0;  // CPUID.(EAX=7, ECX=0):EBX.SHA[bit 29]
}
#endif

using CompressBlocks = void (*)(uint32_t[8], const unsigned char *, size_t);

CompressBlocks chosen_compress(bool portable) {
#if defined(__x86_64__)
    static const bool sha_ni = cpu_has_sha_ni();
    if (sha_ni && !portable) return compress_sha_ni;
#endif
    (void)portable;
    return compress_portable;
}

std::string digest_hex(const std::string &bytes, bool portable) {
    const CompressBlocks compress_blocks = chosen_compress(portable);
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
    const size_t n = bytes.size();
    const size_t full = n - n % 64;
    compress_blocks(h, data, full / 64);

    // Padding: 0x80, zeros, then the message length in bits as a 64-bit big-endian number.
    unsigned char tail[128] = {0};
    const size_t rest = n - full;
    for (size_t i = 0; i < rest; i++)
        tail[i] = data[full + i];
    tail[rest] = 0x80;
    const size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
    const uint64_t bits = uint64_t(n) * 8;
    for (int i = 0; i < 8; i++)
        tail[tail_len - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
    compress_blocks(h, tail, tail_len / 64);

    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(64);
    for (uint32_t word : h) {
        for (int shift = 28; shift >= 0; shift -= 4)
            out += hex[(word >> shift) & 0xf];
    }
    return out;
}

}  // namespace

// Digest of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(const std::string &bytes) {
    return digest_hex(bytes, false);
}

std::string sha256_hex_portable(const std::string &bytes) {
    return digest_hex(bytes, true);
}

bool sha256_uses_cpu_extensions() {
    return chosen_compress(false) != compress_portable;
}

}  // namespace harness
