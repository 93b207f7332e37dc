"""Nothing in the repository refers to files outside it (../shared, absolute checkout paths) or to moved
paths (scripts/examples/ is docs/evidence/). Recorded data (scripts/fixtures/, docs/evidence/) keeps the
paths of the machine that recorded it and is not checked. Usage: python3 -m harnesslib.repo_refs_test [-v]"""
import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDED = ("scripts/fixtures/", "docs/evidence/")
FORBIDDEN = re.compile(r"\.\./shared|/work/(main|wt)\b|scripts/examples")


def offending_lines(root):
    files = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                           capture_output=True, text=True, check=True).stdout.split("\n")
    found = []
    for f in files:
        if not f or f.startswith(RECORDED) or f == "scripts/harnesslib/repo_refs_test.py":
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
        for bad in ("See `../shared/DESIGN.md`", "/work/main/build/bin", "scripts/examples/h100/README.md"):
            self.assertTrue(FORBIDDEN.search(bad), bad)
        self.assertFalse(FORBIDDEN.search("docs/evidence/h100/README.md"))


if __name__ == "__main__":
    unittest.main()
