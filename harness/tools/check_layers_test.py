#!/usr/bin/env python3
"""The layer check can fail: a small tree of three layers passes, then each planted include breaks it
with its own message (upward, undeclared, without its folder, two folders including each other), as
do a layer naming one above it, a folder that is no layer and a public header without a source."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402

LAYERS = ["low=", "mid=low", "top=mid,low"]


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class CheckLayersTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        write(self.root, "src/low/a.h", "#pragma once\n#include <string>\n")
        write(self.root, "src/low/a.cpp", '#include "low/a.h"\n')
        write(self.root, "src/mid/b.h", '#pragma once\n#include "low/a.h"\n#include "HalideRuntime.h"\n')
        write(self.root, "src/mid/b.cpp", '#include "mid/b.h"\n#include "harness/pub.h"\n')
        write(self.root, "src/top/c.cpp", '#include "mid/b.h"\n#include "low/a.h"\n')
        write(self.root, "src/low/pub.cpp", '#include "harness/pub.h"\n')
        write(self.root, "include/harness/pub.h", "#pragma once\n")

    def tearDown(self):
        self.tmp.cleanup()

    def run_check(self, layers=LAYERS):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = check_layers.main(["--root", self.root, *layers])
        return rc, err.getvalue()

    def assert_fails(self, *expected, layers=LAYERS):
        rc, err = self.run_check(layers)
        self.assertEqual(rc, 1, err)
        for text in expected:
            self.assertIn(text, err)

    def test_clean_tree_passes(self):
        self.assertEqual(self.run_check(), (0, ""))

    def test_graph(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(check_layers.main(["--root", self.root, "--graph", *LAYERS]), 0)
        self.assertEqual(out.getvalue().split("\n")[0], "mid -> low (2)")

    def test_upward_include_fails(self):
        write(self.root, "src/low/a.cpp", '#include "low/a.h"\n#include "top/c.h"\n')
        self.assert_fails('src/low/a.cpp:2: includes "top/c.h" of layer top, above its own layer low')

    def test_upward_include_through_a_public_header_fails(self):
        write(self.root, "src/top/pub2.cpp", "\n")
        write(self.root, "include/harness/pub2.h", "#pragma once\n")
        write(self.root, "src/mid/b.cpp", '#include "harness/pub2.h"\n')
        self.assert_fails('src/mid/b.cpp:1: includes "harness/pub2.h" of layer top, above its own layer mid')

    def test_undeclared_lower_layer_fails(self):
        self.assert_fails(
            'src/top/c.cpp:2: includes "low/a.h" of layer low, which layer top does not name',
            layers=["low=", "mid=low", "top=mid"],
        )

    def test_include_without_folder_fails(self):
        write(self.root, "src/mid/b.cpp", '#include "a.h"\n')
        self.assert_fails('src/mid/b.cpp:1: includes "a.h" without its folder; write "low/a.h"')

    def test_folders_including_each_other_fail(self):
        write(self.root, "src/low/a.cpp", '#include "mid/b.h"\n')
        self.assert_fails("folders low and mid include each other", "above its own layer low")

    def test_layer_naming_a_higher_one_fails(self):
        self.assert_fails(
            "layer low names top, which is not a layer below it", layers=["low=top", "mid=low", "top=mid,low"]
        )

    def test_folder_that_is_no_layer_fails(self):
        write(self.root, "src/stray/d.cpp", "\n")
        self.assert_fails("stray: a folder that is no layer")

    def test_doc_table_in_order_passes_and_otherwise_fails(self):
        doc = os.path.join(self.root, "ARCH.md")
        table = "## Layers\n\n| layer | what | where |\n|---|---|---|\n| build | cmake | `cmake/` |\n%s\n## Next\n"
        write(
            self.root, "ARCH.md", table % "| low | a | `src/low/` |\n| mid | b | `src/mid/` |\n| top | c | `src/top/` |"
        )
        self.assertEqual(check_layers.main(["--root", self.root, "--doc", doc, *LAYERS]), 0)
        write(
            self.root, "ARCH.md", table % "| mid | b | `src/mid/` |\n| low | a | `src/low/` |\n| top | c | `src/top/` |"
        )
        rc, err = 0, io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = check_layers.main(["--root", self.root, "--doc", doc, *LAYERS])
        self.assertEqual(rc, 1)
        self.assertIn("the Layers table lists mid < low < top; the build has low < mid < top", err.getvalue())

    def test_public_header_without_source_fails(self):
        write(self.root, "include/harness/orphan.h", "#pragma once\n")
        self.assert_fails("orphan.h: a public header needs exactly one orphan.cpp")


if __name__ == "__main__":
    unittest.main()
