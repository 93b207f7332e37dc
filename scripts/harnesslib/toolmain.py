"""How every Python tool of scripts/ starts and ends: one line on stderr naming the problem and the fix, and
exit 2, for any bad input or environment fault (exit 1 stays "something got worse").

  ap = toolmain.ArgumentParser(prog="merge", ...)          # argparse, its errors one line too
  ap.add_argument("--jobs", type=toolmain.whole(1, 1024))   # strict whole numbers, the range named
  sys.exit(toolmain.run("merge", main))                     # main(argv) -> exit status

run() turns what escapes main into that one line: InputError as it is; SQLite and PostgreSQL errors (a
corrupt, locked, read-only or full history, a user without privileges) by their cause; OSError by errno;
anything else as an unexpected input, with HARNESS_TRACEBACK=1 printing the traceback for a bug report.
"""

import argparse
import errno
import math
import os
import re
import sys
import traceback

from .jsonio import InputError, one_line


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors ("prog: argument --jobs: '2.5' is not a whole number from 1 to 1024;
    see prog --help") and exit 2."""

    def error(self, message):
        self.exit(2, "%s: %s; see %s --help\n" % (self.prog, one_line(message), self.prog))


def whole(lo, hi):
    """An argparse type: a whole number in [lo, hi], digits only (2.5, 2.9, 1e3, 0x10 are errors)."""

    def parse(text):
        if not re.fullmatch(r"[+-]?[0-9]+", text) or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError("'%s' is not a whole number from %d to %d" % (text, lo, hi))
        return int(text)

    parse.__name__ = "whole number"
    return parse


def real(lo, hi):
    """An argparse type: a finite decimal number in [lo, hi] (not 0x10, inf or nan)."""

    def parse(text):
        ok = re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", text) is not None
        if not ok or not math.isfinite(float(text)) or not lo <= float(text) <= hi:
            raise argparse.ArgumentTypeError("'%s' is not a number from %g to %g" % (text, lo, hi))
        return float(text)

    parse.__name__ = "number"
    return parse


def _first_line(e):
    lines = [l.strip() for l in str(e).strip().splitlines() if l.strip()]
    return lines[0] if lines else type(e).__name__


def describe_sqlite(e, target):
    text = str(e).lower()
    where = "the history %s" % target if target else "the SQLite history"
    if "locked" in text or "busy" in text:
        return (
            "%s is locked by another process; wait for it to finish (or raise HARNESS_DB_LOCK_TIMEOUT, "
            "seconds, default 120)" % where
        )
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "%s is not a SQLite database or is damaged (%s); restore it from a copy or pass another --db" % (
            where,
            _first_line(e),
        )
    if "readonly" in text or "read-only" in text:
        return "%s is read-only; make the file and its directory writable, or pass another --db" % where
    if "full" in text:
        return "the disk holding %s is full; free space and run again" % where
    if "unable to open" in text:
        return "cannot open %s; check that the path and its directory exist and are writable" % where
    if "no such table" in text or "no such column" in text or "has no column" in text:
        return "%s is not a history of this harness (%s); pass another --db" % (where, _first_line(e))
    if "disk i/o" in text:
        return "%s: disk I/O error; check the disk and its free space" % where
    return "%s: SQLite error (%s); check --db" % (where, _first_line(e))


def describe_postgresql(e, target):
    code = getattr(e, "pgcode", None) or ""
    where = "the history %s" % target if target else "the PostgreSQL history"
    first = _first_line(e)
    if code == "3F000":  # no schema on the search path that the user may use
        return (
            "%s: the user may use no schema (%s); grant it one (e.g. GRANT USAGE, CREATE ON SCHEMA public TO "
            "<user>) or connect as another user" % (where, first)
        )
    if code == "42501":
        return (
            "%s: the user lacks a privilege (%s); grant it (e.g. GRANT CREATE, USAGE ON SCHEMA public TO "
            "<user>) or connect as another user" % (where, first)
        )
    if code.startswith("53"):
        return "%s: the server is out of resources (%s); free disk space or memory on the server" % (where, first)
    if code.startswith("08") or code.startswith("57") or not code:
        return "%s: lost the connection (%s); is the server up?" % (where, first)
    if code.startswith("22"):
        return "%s: a value does not fit its column (%s); check the input files" % (where, first)
    if code.startswith("42"):
        return "%s is not a history of this harness, or its schema is older (%s); pass another --db" % (where, first)
    if code.startswith("25") or code.startswith("40"):
        return "%s: the transaction was aborted (%s); run it again" % (where, first)
    return "%s: PostgreSQL error %s (%s); check --db" % (where, code, first)


def describe_os_error(e):
    name = e.filename or ""
    what = ("%s: " % name) if name else ""
    code = e.errno
    if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        fix = "free space on its file system"
    elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
        fix = "make it writable (or readable), or choose another path"
    elif code in (errno.ENOENT, errno.ENOTDIR):
        fix = "check the path"
    elif code == errno.EEXIST:
        fix = "it is in the way: choose another path"
    elif code == errno.EISDIR:
        fix = "it is a directory: name a file"
    else:
        fix = "check the path and the disk"
    return "%s%s; %s" % (what, e.strerror or e, fix)


DB_TARGET = ""  # the history opened last, password removed: db.open_db sets it, the database errors name it


def describe(e):
    """One line for an exception that escaped a tool's main."""
    target = DB_TARGET
    mod = type(e).__module__ or ""
    if isinstance(e, InputError):
        return str(e)
    if mod.startswith("sqlite3"):
        return describe_sqlite(e, target)
    if mod.startswith("psycopg2"):
        return describe_postgresql(e, target)
    if type(e).__name__ == "ParseError" and mod.startswith("xml."):
        return "an XML file is not well-formed (%s); write it again (a run that stopped leaves a partial one)" % (
            _first_line(e)
        )
    if isinstance(e, OverflowError):
        return "a value is too large to store (%s); check the input files" % _first_line(e)
    if isinstance(e, MemoryError):
        return "out of memory; free memory or pass smaller inputs"
    if isinstance(e, RecursionError):
        return "an input is nested too deeply; check the input files"
    if isinstance(e, OSError):
        return describe_os_error(e)
    return (
        "unexpected %s (%s): an input does not have the shape this tool expects; check that the files are "
        "ones the harness wrote (HARNESS_TRACEBACK=1 shows where)" % (type(e).__name__, _first_line(e))
    )


class Interrupted(BaseException):
    """SIGINT/SIGTERM while a tool runs (handle_signals): cleanup code sees it like KeyboardInterrupt."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def handle_signals():
    """Makes SIGTERM (and SIGINT) raise Interrupted, so that `finally` and `except` blocks run on a
    cancelled job as on an error (marking a history run interrupted, removing temporary files)."""
    import signal

    def raise_it(signum, _frame):
        raise Interrupted(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, raise_it)


def run(prog, main, argv=None):
    """main(argv)'s exit status; whatever escapes it becomes one line on stderr and exit 2 (128 + the
    signal for an interruption)."""
    try:
        return main(argv)
    except SystemExit:
        raise
    except Interrupted as e:
        print("%s: interrupted by signal %d" % (prog, e.signum), file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print("%s: interrupted" % prog, file=sys.stderr)
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")  # nothing more reaches the closed pipe (nor its flush at exit)
        except OSError:
            pass
        print("%s: the output pipe was closed before the end" % prog, file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - the one place every other failure is turned into one line
        if os.environ.get("HARNESS_TRACEBACK"):
            traceback.print_exc()
        print("%s: %s" % (prog, one_line(describe(e))), file=sys.stderr)
        return 2
