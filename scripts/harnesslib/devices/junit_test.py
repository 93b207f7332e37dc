"""JUnit written by scripts/device-ctest for a device without ctest: well-formed whatever the logs hold (ESC,
NUL and other characters XML forbids), with outcomes and names kept.
Usage: python3 -m harnesslib.devices.junit_test [-v]
       python3 -m harnesslib.devices.junit_test --ctest CTEST --build DIR: ctest's own JUnit of build DIR names its suite
       (cmake/HarnessJUnitSuite.cmake), not "(empty)"."""

import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

from . import devicectest


class FallbackJunit(unittest.TestCase):
    def test_control_characters_in_logs_and_names(self):
        tests = [
            {"name": "blur3x3/cpu/small", "skip_return_code": 77, "will_fail": False},
            {"name": "sobel/opencl/odd\x1b[0m", "skip_return_code": 77, "will_fail": False},
            {"name": "sobel/cuda/small", "skip_return_code": 77, "will_fail": False},
        ]
        logs = [
            "\x1b[32mPASS\x1b[0m blur3x3/cpu/small\n",
            "FAIL \x00\x01\x7f bytes\x0c\x0b and \ufffe \ud800 tab\tok\n",
            "SKIP no CUDA\n",
        ]
        with tempfile.TemporaryDirectory() as t:
            os.makedirs(os.path.join(t, "logs"))
            with open(os.path.join(t, "fallback-results.tsv"), "w") as f:
                for i, rc in enumerate((0, 1, 77), 1):
                    f.write("%d\t%d\t1000000000\t1500000000\n" % (i, rc))
            for i, log in enumerate(logs, 1):
                with open(os.path.join(t, "logs", "%d.log" % i), "w", encoding="utf-8", errors="surrogatepass") as f:
                    f.write(log)
            devicectest.junit_from_fallback(tests, t)
            junit = os.path.join(t, "junit.xml")
            root = ET.parse(junit).getroot()  # raises on a file that is not well-formed
            cases = root.findall("testcase")
            self.assertEqual(
                [c.get("name") for c in cases],
                ["blur3x3/cpu/small", "sobel/opencl/odd[NON-XML-CHAR-0x1B][0m", "sobel/cuda/small"],
            )
            self.assertEqual([c.get("status") for c in cases], ["run", "fail", "notrun"])
            self.assertEqual(
                cases[0].find("system-out").text,
                "[NON-XML-CHAR-0x1B][32mPASS[NON-XML-CHAR-0x1B][0m blur3x3/cpu/small\n",
            )
            out = cases[1].find("system-out").text
            self.assertIn(
                "FAIL [NON-XML-CHAR-0x0][NON-XML-CHAR-0x1]\x7f bytes[NON-XML-CHAR-0xC][NON-XML-CHAR-0xB]", out
            )
            self.assertIn("tab\tok", out)
            self.assertEqual(root.get("failures"), "1")
            self.assertEqual(root.get("skipped"), "1")
            self.assertEqual([s for _, s, _, _ in devicectest.read_junit(junit)], ["Passed", "Failed", "Skipped"])

    def test_xml_safe_keeps_allowed_text(self):
        s = "tab\t nl\n cr\r é ü 漢 \U0001f600 <&>"
        self.assertEqual(devicectest.xml_safe(s), s)


def check_ctest_suite(ctest, build):
    """Runs one fast test of `build` through ctest --output-junit; returns a problem or None."""
    with tempfile.TemporaryDirectory() as t:
        junit = os.path.join(t, "junit.xml")
        r = subprocess.run(
            [ctest, "--test-dir", build, "-R", "^golden/verify$", "--output-junit", junit],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if r.returncode != 0 or not os.path.exists(junit):
            return "ctest failed (exit %d): %s" % (r.returncode, (r.stdout + r.stderr)[-2000:])
        root = ET.parse(junit).getroot()
        name, tests = root.get("name"), root.get("tests")
        print("junit_test: ctest JUnit suite name %r, %s test(s)" % (name, tests))
        if not name or name == "(empty)" or not name.startswith("aot-harness "):
            return "the JUnit suite is named %r; expected 'aot-harness <system> <build type>'" % name
        if tests != "1":
            return "expected 1 test in the JUnit file, got %s" % tests
    return None


if __name__ == "__main__":
    if "--ctest" in sys.argv:
        problem = check_ctest_suite(sys.argv[sys.argv.index("--ctest") + 1], sys.argv[sys.argv.index("--build") + 1])
        print("junit_test: %s" % (problem or "PASS"))
        sys.exit(1 if problem else 0)
    unittest.main()
