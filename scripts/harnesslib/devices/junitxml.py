"""JUnit XML for the Python tools: the one rule for the characters XML 1.0 forbids and the one reader.

The rule is ctest's (`ctest --output-junit`) and the harness's (`aot-harness run --junit`,
harness/src/report/junit.cpp): each forbidden character (C0 controls but tab, newline and carriage
return; lone surrogates; U+FFFE/U+FFFF) is written as [NON-XML-CHAR-0x1B]. scripts/device-ctest
(devicectest.py) and scripts/lava-job --fetch (lavafetch.py) write with it; they and scripts/flake-check
(flakecheck.py) read ctest's, the harness's and their own files with read_junit().
"""

import re
import xml.etree.ElementTree as ET

_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text):
    """`text` with each character XML forbids written as [NON-XML-CHAR-0x1B], as ctest's own JUnit does."""
    return _XML_FORBIDDEN.sub(lambda m: "[NON-XML-CHAR-0x%X]" % ord(m.group()), str(text))


def to_bytes(suite):
    """The <testsuite> element `suite` as a file's bytes (UTF-8, with the XML declaration)."""
    import io

    buf = io.BytesIO()
    ET.ElementTree(suite).write(buf, encoding="UTF-8", xml_declaration=True)
    return buf.getvalue()


def write(suite, path):
    """Writes `suite` to `path` through a temporary name in the same directory (jsonio.write_atomic): a
    full disk or a signal leaves the old file or none, never a partial one."""
    from .. import jsonio

    jsonio.write_atomic(path, to_bytes(suite))


def read_junit(path):
    """[(name, status, seconds, message)] of every <testcase>, status Passed / Failed / Skipped: a <failure>
    or ctest's status="fail" is Failed, a <skipped> or status notrun / disabled is Skipped."""
    root = ET.parse(path).getroot()
    out = []
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        try:
            secs = float(case.get("time", "0") or 0)
        except ValueError:
            secs = 0.0
        fail, skip = case.find("failure"), case.find("skipped")
        if fail is not None or case.get("status") == "fail":
            status, msg = "Failed", (fail.get("message", "") if fail is not None else "")
        elif skip is not None or case.get("status") in ("notrun", "disabled"):
            status, msg = "Skipped", (skip.get("message", "") if skip is not None else "")
        else:
            status, msg = "Passed", ""
        out.append((name, status, secs, msg))
    return out
