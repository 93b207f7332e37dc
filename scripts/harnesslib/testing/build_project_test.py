"""Tests of scripts/lib.sh's build_project, the set-up and build step of scripts/test and scripts/run: the default
preset builds while the second part of set-up (the tests' packages) installs beside it, and build_project waits
for both. Runs the real lib.sh in a scratch tree with a stand-in scripts/setup and cmake that record their calls.
Usage: python3 -m harnesslib.testing.build_project_test [-v]"""

import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

# The stand-in set-up: --for-build returns at once; the full one waits a moment (so that only a real wait sees
# its end), writes its line, and fails when asked to.
FAKE_SETUP = """#!/bin/sh
echo "setup $*" >> "$LOG"
if [ "${1:-}" = --for-build ]; then exit 0; fi
if [ "${1:-}" = --check ]; then [ -f "$TREE/all_installed" ]; exit $?; fi
sleep 1
echo "setup: installing Debian packages: pocl-opencl-icd"
if [ -f "$TREE/setup_fails" ]; then echo "E: dpkg was interrupted"; exit 100; fi
touch "$TREE/setup_done"
"""
# A user who is not root and whose sudo asks for a password.
FAKE_ID = """#!/bin/sh
[ "$1" = -u ] && echo 1000
"""
FAKE_SUDO = """#!/bin/sh
echo "sudo $*" >> "$LOG"
exit 1
"""
FAKE_CMAKE = """#!/bin/sh
echo "cmake $*" >> "$LOG"
case "$1" in --build) [ -f "$TREE/build_fails" ] && exit 1 ;; esac
exit 0
"""
DRIVER = """#!/bin/sh
set -eu
. "$(dirname "$0")/lib.sh"
build_project "$@"
"""


class BuildProject(unittest.TestCase):
    def setUp(self):
        self.tree = tempfile.mkdtemp(prefix="build_project_test.")
        self.addCleanup(shutil.rmtree, self.tree)
        os.makedirs(os.path.join(self.tree, "scripts"))
        os.makedirs(os.path.join(self.tree, "bin"))
        shutil.copy(os.path.join(ROOT, "scripts", "lib.sh"), os.path.join(self.tree, "scripts", "lib.sh"))
        for path, text in (
            ("scripts/setup", FAKE_SETUP),
            ("bin/cmake", FAKE_CMAKE),
            ("scripts/driver", DRIVER),
        ):
            full = os.path.join(self.tree, path)
            with open(full, "w") as f:
                f.write(text)
            os.chmod(full, 0o755)
        self.log = os.path.join(self.tree, "calls.log")

    def run_driver(self, *args, password_sudo=False):
        env = dict(os.environ, LOG=self.log, TREE=self.tree)
        env["PATH"] = os.path.join(self.tree, "bin") + os.pathsep + env["PATH"]
        if password_sudo:
            for name, text in (("id", FAKE_ID), ("sudo", FAKE_SUDO)):
                full = os.path.join(self.tree, "bin", name)
                with open(full, "w") as f:
                    f.write(text)
                os.chmod(full, 0o755)
        r = subprocess.run(
            ["sh", os.path.join(self.tree, "scripts", "driver"), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        with open(self.log) as f:
            calls = f.read().splitlines()
        return r, calls

    def test_builds_while_the_rest_installs_and_waits_for_it(self):
        r, calls = self.run_driver()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(calls[0], "setup --for-build")
        self.assertIn("setup ", calls)
        self.assertLess(calls.index("setup --for-build"), calls.index("cmake --preset default"))
        self.assertTrue(os.path.exists(os.path.join(self.tree, "setup_done")), "returned before set-up ended")
        self.assertIn("setup: installing Debian packages: pocl-opencl-icd", r.stdout)
        self.assertRegex(r.stdout, r"build \(default\): [0-9]+ s")

    def test_a_failed_setup_fails_the_build_step_with_its_log(self):
        open(os.path.join(self.tree, "setup_fails"), "w").close()
        r, _ = self.run_driver()
        self.assertEqual(r.returncode, 2)
        self.assertIn("E: dpkg was interrupted", r.stdout)
        self.assertIn("setup (the tests' packages, installed during the build) failed", r.stderr)

    def test_a_failed_build_still_waits_for_setup(self):
        open(os.path.join(self.tree, "build_fails"), "w").close()
        r, _ = self.run_driver()
        self.assertEqual(r.returncode, 2)
        self.assertIn("build of preset default failed", r.stderr)
        self.assertTrue(os.path.exists(os.path.join(self.tree, "setup_done")), "set-up left running")

    def test_nothing_left_to_install_starts_nothing_beside_the_build(self):
        open(os.path.join(self.tree, "all_installed"), "w").close()
        r, calls = self.run_driver()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("setup ", calls)
        self.assertIn("setup --check", calls)

    def test_a_sudo_that_asks_for_a_password_sets_up_before_the_build(self):
        r, calls = self.run_driver(password_sudo=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertLess(calls.index("setup "), calls.index("cmake --preset default"))

    def test_other_presets_set_everything_up_first(self):
        r, calls = self.run_driver("fuzz")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(calls[0], "setup ")
        self.assertNotIn("setup --for-build", calls)


if __name__ == "__main__":
    unittest.main()
