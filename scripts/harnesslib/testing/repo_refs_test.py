"""Nothing in the repository refers to files outside it (../shared, absolute checkout paths), to paths that
left it (scripts/examples/, the run records of benchmarks/h100|h200|devvm/ and docs/evidence/,
benchmarks/RESULTS.md: docs/performance.md holds the current figures), or to an issue of this project by
number (product text names what it means, not where it was decided; an upstream issue is written
owner/repo#N). Recorded data (scripts/fixtures/) keeps the paths of the machine that recorded it and is not
checked. Usage: python3 -m harnesslib.testing.repo_refs_test [-v]"""

import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
RECORDED = ("scripts/fixtures/",)
FORBIDDEN = re.compile(
    r"\.\./shared|/work/(main|wt)\b|scripts/examples|docs/evidence|benchmarks/(h100|h200|devvm)/"
    r"|RESULTS\.md|\b[Ii]ssues? [0-9]+|\bseed 0[0-9]{2}\b|\b[Ss]ession [0-9]+|\bthis session\b"
)


def offending_lines(root):
    files = subprocess.run(
        ["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    found = []
    for f in files:
        if not f or f.startswith(RECORDED) or f == "scripts/harnesslib/testing/repo_refs_test.py":
            continue
        try:
            with open(os.path.join(root, f), encoding="utf-8") as src:
                for n, line in enumerate(src, 1):
                    if FORBIDDEN.search(line):
                        found.append("%s:%d: %s" % (f, n, line.strip()))
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
    return found


class RepoRefs(unittest.TestCase):
    def test_no_reference_outside_the_repository(self):
        if subprocess.run(["git", "-C", ROOT, "rev-parse"], capture_output=True).returncode != 0:
            raise unittest.SkipTest("not a git checkout")
        self.assertEqual(offending_lines(ROOT), [])

    def test_the_pattern_catches_them(self):
        for bad in (
            "See `../shared/DESIGN.md`",
            "/work/main/build/bin",
            "scripts/examples/h100/README.md",
            "docs/evidence/h100/README.md",
            "benchmarks/h100/issue27/run.sh",
            "benchmarks/RESULTS.md",
            "(issue 27, 2026-11-25)",
            "Issue 19 item 3",
            "issues 24 and 25",
            "seed 000's class",
            "seed 002's",
            "session 4",
            "before this session",
        ):
            self.assertTrue(FORBIDDEN.search(bad), bad)
        for good in (
            "docs/performance.md",
            "halide/Halide#8497",
            "benchmarks/thresholds.json",
            "an issue tracker",
            "seed 1 + input position",
            "start_new_session=True",
            "sessionId",
        ):
            self.assertFalse(FORBIDDEN.search(good), good)


if __name__ == "__main__":
    unittest.main()
