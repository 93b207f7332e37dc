"""Tiny .npy reader and PNG writer (standard library only) for golden / output / diff thumbnails.

Images are C-order arrays of shape (H, W), (H, W, C) with C in 1..4, or (C, H, W) with C in 1..4; integer or
float dtypes, scaled to 8 bits over the golden's range.
"""
import ast
import struct
import zlib

DTYPES = {"u1": "B", "i1": "b", "u2": "H", "i2": "h", "u4": "I", "i4": "i", "f4": "f", "f8": "d"}


def read_npy(path):
    """(shape, flat list of numbers) of a little-endian C-order .npy file; ValueError if unsupported."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:6] != b"\x93NUMPY":
        raise ValueError("%s is not a .npy file" % path)
    hlen = struct.unpack("<H", raw[8:10])[0] if raw[6] == 1 else struct.unpack("<I", raw[8:12])[0]
    start = 10 if raw[6] == 1 else 12
    header = ast.literal_eval(raw[start:start + hlen].decode("latin1"))
    descr, shape = header["descr"], tuple(header["shape"])
    if header.get("fortran_order") or descr[0] == ">" or descr[1:] not in DTYPES:
        raise ValueError("%s: unsupported dtype or order %s" % (path, descr))
    n = 1
    for s in shape:
        n *= s
    code = DTYPES[descr[1:]]
    values = struct.unpack_from("<%d%s" % (n, code), raw, start + hlen)
    return shape, list(values)


def to_rgb(shape, values, lo=None, hi=None):
    """(width, height, rows of RGB bytes) of an image array, scaled from [lo, hi] (default min/max) to 0..255."""
    if len(shape) == 2:
        h, w, c, planar = shape[0], shape[1], 1, False
    elif len(shape) == 3 and shape[2] <= 4:
        h, w, c, planar = shape[0], shape[1], shape[2], False
    elif len(shape) == 3 and shape[0] <= 4:
        h, w, c, planar = shape[1], shape[2], shape[0], True
    else:
        raise ValueError("not an image shape: %s" % (shape,))
    lo = min(values) if lo is None else lo
    hi = max(values) if hi is None else hi
    scale = 255.0 / (hi - lo) if hi > lo else 0.0
    rows = []
    for y in range(h):
        row = bytearray()
        for x in range(w):
            px = []
            for ch in range(min(c, 3)):
                v = values[(ch * h + y) * w + x] if planar else values[(y * w + x) * c + ch]
                px.append(max(0, min(255, int(round((v - lo) * scale)))))
            row += bytes(px * 3 if len(px) == 1 else (px + [0, 0])[:3])
        rows.append(bytes(row))
    return w, h, rows


def write_png(path, w, h, rows):
    """Writes 8-bit RGB rows (each 3*w bytes) as a PNG."""
    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + r for r in rows)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def diff_rows(shape, golden, output):
    """Diff image: grey golden, mismatching pixels red (brighter = larger error). Returns (w, h, rows)."""
    w, h, rows = to_rgb(shape, golden)
    err = [abs(a - b) for a, b in zip(golden, output)]
    emax = max(err) or 1
    _, _, erows = to_rgb(shape, err, 0, emax)
    out = []
    for r, e in zip(rows, erows):
        row = bytearray()
        for x in range(w):
            ev = max(e[3 * x:3 * x + 3])
            if ev:
                row += bytes((255, max(0, 160 - ev), max(0, 160 - ev)))
            else:
                g = r[3 * x] // 3 + 40
                row += bytes((g, g, g))
        out.append(bytes(row))
    return w, h, out


def write_triplet(golden_npy, output_npy, prefix):
    """Writes prefix-golden.png, prefix-output.png, prefix-diff.png; returns their paths (ValueError if the
    arrays are not comparable images)."""
    gs, gv = read_npy(golden_npy)
    os_, ov = read_npy(output_npy)
    if gs != os_:
        raise ValueError("golden shape %s != output shape %s" % (gs, os_))
    lo, hi = min(gv), max(gv)
    paths = []
    for name, rows in (("golden", to_rgb(gs, gv, lo, hi)), ("output", to_rgb(gs, ov, lo, hi)),
                       ("diff", diff_rows(gs, gv, ov))):
        p = "%s-%s.png" % (prefix, name)
        write_png(p, *rows)
        paths.append(p)
    return paths
