"""imaging.py: .npy reading, scaling, the diff image and the worst pixel, checked by decoding the PNGs it
writes. Usage: python3 -m harnesslib.dashboard.imaging_test [-v]; `--bench` times a 1920x1080 RGB triple instead."""

import os
import sys
import tempfile
import time
import unittest
import zlib

import numpy as np

from . import imaging


def decode_png(path):
    """(H, W, 3) uint8 of an 8-bit RGB, non-interlaced PNG whose rows all use filter 0 (what imaging writes)."""
    with open(path, "rb") as f:
        raw = f.read()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(raw):
        n = int.from_bytes(raw[pos : pos + 4], "big")
        tag, body = raw[pos + 4 : pos + 8], raw[pos + 8 : pos + 8 + n]
        if zlib.crc32(tag + body) & 0xFFFFFFFF != int.from_bytes(raw[pos + 8 + n : pos + 12 + n], "big"):
            raise AssertionError("bad CRC in %s chunk %s" % (path, tag))
        if tag == b"IHDR":
            w, h = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8:] == bytes((8, 2, 0, 0, 0)), body
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, 3 * w + 1)
    assert not rows[:, 0].any(), "a row uses a PNG filter other than 0"
    return rows[:, 1:].reshape(h, w, 3)


class Imaging(unittest.TestCase):
    def triplet(self, golden, output):
        with tempfile.TemporaryDirectory() as t:
            np.save(os.path.join(t, "g.npy"), golden)
            np.save(os.path.join(t, "o.npy"), output)
            paths = imaging.write_triplet(os.path.join(t, "g.npy"), os.path.join(t, "o.npy"), os.path.join(t, "x"))
            self.assertEqual([os.path.basename(p) for p in paths], ["x-golden.png", "x-output.png", "x-diff.png"])
            return [decode_png(p) for p in paths]

    def test_one_wrong_pixel_u8(self):
        g = (np.arange(30 * 40) % 251).astype(np.uint8).reshape(30, 40)
        o = g.copy()
        o[7, 11] = 255 - o[7, 11]
        gp, op, dp = self.triplet(g, o)
        self.assertEqual(gp.shape, (30, 40, 3))
        self.assertTrue((gp[:, :, 0] == g).all() and (gp[:, :, 2] == g).all())  # u8 0..255 maps 1:1 when full range
        self.assertEqual(int(op[7, 11, 0]), 255 - int(g[7, 11]))
        self.assertEqual(tuple(dp[7, 11]), (255, 0, 0))  # the worst error is pure red
        grey = dp.copy()
        grey[7, 11] = grey[0, 0]
        self.assertTrue((grey[:, :, 0] == grey[:, :, 1]).all(), "only the wrong pixel may be coloured")
        self.assertEqual(imaging.worst_pixel(imaging.abs_error(imaging.as_hwc(g), imaging.as_hwc(o))), (11, 7))

    def test_float_nan_and_scaling(self):
        g = np.linspace(-1, 1, 16 * 8, dtype=np.float32).reshape(8, 16)
        o = g.copy()
        o[2, 3] = np.nan
        o[5, 9] += 0.01
        o[6, 1] += 0.5
        gp, op, dp = self.triplet(g, o)
        self.assertEqual(int(gp[0, 0, 0]), 0)
        self.assertEqual(int(gp[7, 15, 0]), 255)
        self.assertEqual(tuple(op[2, 3]), (255, 255, 255))  # non-finite shows white
        self.assertEqual(tuple(dp[2, 3]), (255, 0, 0))  # NaN against a number: infinite error
        self.assertEqual(int(dp[5, 9, 0]), 255)
        self.assertEqual(tuple(dp[6, 1]), (255, 0, 0))  # the largest finite error
        self.assertGreater(int(dp[5, 9, 1]), 100)  # a small one is a paler red
        err = imaging.abs_error(imaging.as_hwc(g), imaging.as_hwc(o))
        self.assertEqual(imaging.worst_pixel(err), (3, 2))
        both = np.full((2, 2, 1), np.nan)
        self.assertIsNone(imaging.worst_pixel(imaging.abs_error(both, both)))

    def test_planar_and_interleaved_rgb(self):
        g = np.zeros((3, 4, 5), np.uint16)
        g[0], g[1], g[2] = 100, 200, 300
        gp, _, _ = self.triplet(g, g)
        self.assertEqual(gp.shape, (4, 5, 3))
        self.assertEqual(tuple(gp[0, 0]), (0, 128, 255))
        gi = np.moveaxis(g, 0, 2).copy()
        gpi, _, dpi = self.triplet(gi, gi)
        self.assertTrue((gpi == gp).all())
        self.assertTrue((dpi[:, :, 0] == dpi[:, :, 1]).all(), "no mismatch, no red")

    def test_float16_and_bfloat16(self):
        g = np.linspace(0, 1, 8 * 8, dtype=np.float32).reshape(8, 8)
        o = g.copy()
        o[3, 4] += 0.5
        gp16, _, dp16 = self.triplet(g.astype(np.float16), o.astype(np.float16))
        self.assertEqual((int(gp16[0, 0, 0]), int(gp16[7, 7, 0])), (0, 255))
        self.assertEqual(tuple(dp16[3, 4]), (255, 0, 0))
        # bfloat16 as the harness writes it: the bits (the top half of a float32) in a field named bfloat16.
        as_bf16 = lambda a: (a.view("<u4") >> 16).astype("<u2").view([("bfloat16", "<u2")])
        gpb, _, dpb = self.triplet(as_bf16(g), as_bf16(o))
        self.assertEqual((int(gpb[0, 0, 0]), int(gpb[7, 7, 0])), (0, 255))
        self.assertEqual(tuple(dpb[3, 4]), (255, 0, 0))
        with tempfile.TemporaryDirectory() as t:
            np.save(os.path.join(t, "b.npy"), as_bf16(np.array([1.0, -2.5, 0.1], np.float32)))
            v = imaging.read_npy(os.path.join(t, "b.npy"))
            self.assertEqual(v.dtype, np.float32)
            self.assertEqual(list(v[:2]), [1.0, -2.5])
            self.assertAlmostEqual(float(v[2]), 0.1, delta=0.001)  # truncated to 7 mantissa bits

    def test_bad_inputs(self):
        with self.assertRaises(ValueError):
            self.triplet(np.zeros((4, 4), np.uint8), np.zeros((4, 5), np.uint8))
        with self.assertRaises(ValueError):
            self.triplet(np.zeros((5, 5, 7), np.uint8), np.zeros((5, 5, 7), np.uint8))
        with tempfile.NamedTemporaryFile(suffix=".npy") as f:
            f.write(b"not an npy")
            f.flush()
            with self.assertRaises(ValueError):
                imaging.read_npy(f.name)


def bench():
    """Times write_triplet on a 1920x1080 RGB u8 triple (random pixels: the slowest to compress) and a
    1920x1080 float32 one; prints seconds."""
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as t:
        for name, g in (
            ("u8 rgb", rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)),
            ("f32 grey", rng.random((1080, 1920), dtype=np.float32)),
        ):
            o = g.copy()
            o[500, 700] = 0
            np.save(os.path.join(t, "g.npy"), g)
            np.save(os.path.join(t, "o.npy"), o)
            t0 = time.perf_counter()
            imaging.write_triplet(os.path.join(t, "g.npy"), os.path.join(t, "o.npy"), os.path.join(t, "x"))
            print("imaging: 1920x1080 %s golden/output/diff in %.3f s" % (name, time.perf_counter() - t0))


if __name__ == "__main__":
    if "--bench" in sys.argv:
        bench()
    else:
        unittest.main()
