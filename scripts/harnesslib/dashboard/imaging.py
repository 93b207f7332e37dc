""".npy reading and PNG writing on numpy for golden / output / diff images, and the worst pixel of a diff.

Images are C-order arrays of shape (H, W), (H, W, C) with C in 1..4, or (C, H, W) with C in 1..4; integer or
float dtypes, scaled to 8 bits over the golden's range. A 1920x1080 triple takes well under 2 s (docs/performance.md).
"""

import zlib

import numpy as np


def read_npy(path):
    """The array of a .npy file (any byte order; no pickled objects); ValueError if it is not one."""
    try:
        a = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise ValueError("%s is not a readable .npy file (%s)" % (path, e))
    if a.dtype.names == ("bfloat16",) and a.dtype["bfloat16"] == np.dtype("<u2"):
        a = bfloat16_values(a)
    if a.dtype.kind not in "biuf":
        raise ValueError("%s: unsupported dtype %s" % (path, a.dtype))
    return a


def bfloat16_values(a):
    """The float32 values of a bfloat16 array as the harness stores it: the structured dtype
    [('bfloat16', '<u2')], the bits of each element (numpy has no bfloat16 dtype)."""
    return (a["bfloat16"].astype("<u4") << 16).view("<f4")


def as_hwc(a):
    """The image as (H, W, C) with C in 1..4; ValueError if the shape is not an image's."""
    if a.ndim == 2:
        return a[:, :, None]
    if a.ndim == 3 and a.shape[2] <= 4:
        return a
    if a.ndim == 3 and a.shape[0] <= 4:
        return np.moveaxis(a, 0, 2)
    raise ValueError("not an image shape: %s" % (a.shape,))


def to_rgb(img, lo=None, hi=None):
    """(H, W, 3) uint8 of an (H, W, C) image scaled from [lo, hi] (default its finite min/max) to 0..255;
    non-finite values are white."""
    if lo is None or hi is None:
        lo, hi = value_range(img)
    if img.dtype == np.uint8 and lo == 0 and hi == 255:
        v = img
    else:
        scale = 255.0 / (hi - lo) if hi > lo else 0.0
        f = img.astype(np.float32 if img.itemsize <= 2 else np.float64)
        v = np.clip(np.rint((f - lo) * scale), 0, 255)
        if img.dtype.kind == "f":
            v[~np.isfinite(f)] = 255
        v = v.astype(np.uint8)
    c = v.shape[2]
    if c == 1:
        return np.repeat(v, 3, axis=2)
    if c == 2:
        return np.concatenate([v, np.zeros(v.shape[:2] + (1,), np.uint8)], axis=2)
    return np.ascontiguousarray(v[:, :, :3])


def value_range(img):
    """(lo, hi) of the finite values of an image ((0, 1) when there are none); 8-bit images use 0..255, as
    the harness's own PNGs do."""
    if img.dtype == np.uint8:
        return 0.0, 255.0
    vals = img[np.isfinite(img)] if img.dtype.kind == "f" else img
    return (float(vals.min()), float(vals.max())) if vals.size else (0.0, 1.0)


def png_bytes(rgb):
    """PNG file contents of an (H, W, 3) uint8 array."""
    h, w = rgb.shape[:2]

    def chunk(tag, body):
        return len(body).to_bytes(4, "big") + tag + body + (zlib.crc32(tag + body) & 0xFFFFFFFF).to_bytes(4, "big")

    raw = np.zeros((h, 3 * w + 1), np.uint8)  # filter byte 0 (None) per row
    raw[:, 1:] = rgb.reshape(h, 3 * w)
    ihdr = w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes((8, 2, 0, 0, 0))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 1))
        + chunk(b"IEND", b"")
    )


def write_png(path, rgb):
    from .. import jsonio

    jsonio.write_atomic(path, png_bytes(rgb))


def abs_error(golden, output):
    """Per-pixel error (H, W): the largest |output - golden| over the channels; a NaN on one side only, or an
    infinite difference, counts as infinite; NaN on both sides as 0."""
    if golden.dtype.kind in "biu" and output.dtype.kind in "biu":
        wide = np.int32 if max(golden.itemsize, output.itemsize) <= 2 else np.float64
        return np.abs(output.astype(wide) - golden.astype(wide)).max(axis=2).astype(np.float64)
    g, o = golden.astype(np.float64), output.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(o - g)
    both_nan = np.isnan(g) & np.isnan(o)
    d = np.where(both_nan, 0.0, np.where(np.isnan(d), np.inf, d))
    return d.max(axis=2)


def diff_rgb(golden_rgb, err):
    """Diff image from the golden's RGB rendering: grey golden, mismatching pixels red (brighter = larger error)."""
    grey = (golden_rgb[:, :, 0] // 3 + 40).astype(np.uint8)
    out = np.repeat(grey[:, :, None], 3, axis=2)
    bad = err > 0
    if bad.any():
        finite = err[bad & np.isfinite(err)]
        emax = float(finite.max()) if finite.size else 1.0
        e = np.where(np.isfinite(err), np.clip(err / (emax or 1.0), 0, 1), 1.0)
        fade = (160 - np.rint(e * 160)).astype(np.uint8)
        out[bad] = np.stack([np.full(fade.shape, 255, np.uint8), fade, fade], axis=2)[bad]
    return out


def worst_pixel(err):
    """(x, y) of the largest error, or None when the images match."""
    if not (err > 0).any():
        return None
    y, x = np.unravel_index(int(np.argmax(err)), err.shape)
    return int(x), int(y)


def write_triplet(golden_npy, output_npy, prefix):
    """Writes prefix-golden.png, prefix-output.png, prefix-diff.png; returns their paths (ValueError if the
    arrays are not comparable images)."""
    g, o = read_npy(golden_npy), read_npy(output_npy)
    if g.shape != o.shape:
        raise ValueError("golden shape %s != output shape %s" % (g.shape, o.shape))
    g, o = as_hwc(g), as_hwc(o)
    lo, hi = value_range(g)
    paths = []
    g_rgb = to_rgb(g, lo, hi)
    for name, rgb in (("golden", g_rgb), ("output", to_rgb(o, lo, hi)), ("diff", diff_rgb(g_rgb, abs_error(g, o)))):
        p = "%s-%s.png" % (prefix, name)
        write_png(p, rgb)
        paths.append(p)
    return paths
