"""The one way the Python tools read JSON and write their output files (as harness/src/base/json_reader.h
does for the C++ side).

Reading: a nesting limit checked before parsing (json.load recurses: a few hundred thousand levels end in
RecursionError, and so would every function that walks the value), then json.loads, then typed getters
(`At`). Every error is an InputError with one line: "<file>: <key path>: <problem>; <fix>".

Writing: write_atomic() writes to a temporary name in the same directory and renames it into place, so a
full disk, a signal or a crash never leaves a partial or empty output; the error names the cause and the
fix for that cause.
"""

import errno
import itertools
import json
import math
import os
import re

MAX_DEPTH = 64  # as kJsonMaxDepth in json_reader.h: a results file nests about 6 levels

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_MISSING = object()


class InputError(Exception):
    """A bad input file, argument or environment: the message names the problem and the fix (one line)."""


def one_line(text):
    """`text` with control characters (a newline in a key or a message) turned into spaces."""
    return re.sub(r"[\x00-\x1f\x7f]", " ", str(text))


def brief(value):
    """A value for a one-line message: its JSON text, at most about 40 characters."""
    try:
        s = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        s = repr(value)
    return one_line(s if len(s) <= 40 else s[:37] + "...")


def check_depth(text, source, fix):
    """InputError when `text` nests arrays and objects deeper than MAX_DEPTH (brackets in strings do not count)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    skeleton = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if max(itertools.accumulate(_STEP[c] for c in skeleton), default=0) > MAX_DEPTH:
        raise InputError(one_line("%s: arrays and objects nested deeper than %d levels; %s" % (source, MAX_DEPTH, fix)))


def loads(text, source, fix):
    """Parses JSON text (str or bytes); `source` names it in errors, `fix` says how to repair or remake it."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(one_line("%s: not UTF-8 text (byte %d); %s" % (source, e.start, fix)))
    check_depth(text, source, fix)
    try:
        return json.loads(text)
    except RecursionError:  # only where the interpreter's stack is smaller than MAX_DEPTH needs
        raise InputError(one_line("%s: nested too deeply to read; %s" % (source, fix)))
    except ValueError as e:
        raise InputError(one_line("%s: not valid JSON (%s); %s" % (source, e, fix)))


def load_or_none(path):
    """The JSON file at `path` as it is, or None when it is missing or unreadable: the tools' own state and
    stamp files (a half-written one counts as none)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def load(path, fix):
    """Reads and parses the JSON file at `path` (loads)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise InputError(one_line("cannot read %s: %s; check the path and its permissions" % (path, e.strerror or e)))
    return loads(raw, path, fix)


class At:
    """A value inside a parsed document, with where it is: the file, its key path ("runs[3].metrics") and the
    document's fix (how to remake the file; when empty, each getter says what to write)."""

    def __init__(self, value, source, fix="", path=""):
        self.value, self.source, self.fix, self.path = value, source, fix, path

    def fail(self, problem, fix=""):
        how = self.fix or fix
        raise InputError(
            one_line("%s: %s: %s%s" % (self.source, self.path or "(top level)", problem, "; " + how if how else ""))
        )

    def _wrong(self, wanted, fix):
        self.fail("is %s, not %s" % (brief(self.value), wanted), fix)

    def _child(self, value, path):
        return At(value, self.source, self.fix, path)

    def obj(self):
        if not isinstance(self.value, dict):
            self._wrong("an object", "write it as {...}")
        return self.value

    def list(self):
        if not isinstance(self.value, list):
            self._wrong("a list", "write it as [...]")
        return self.value

    def has(self, key):
        return isinstance(self.value, dict) and key in self.value

    def get(self, key, default=_MISSING):
        """The member `key` (an At); `default` (a plain value, wrapped) when it is absent or null."""
        d = self.obj()
        path = "%s.%s" % (self.path, key) if self.path else str(key)
        if key not in d or (d[key] is None and default is not _MISSING):
            if default is _MISSING:
                self._child(None, path).fail("missing", "add it")
            return self._child(default, path)
        return self._child(d[key], path)

    def items(self):
        return [self._child(v, "%s[%d]" % (self.path, i)) for i, v in enumerate(self.list())]

    def members(self):
        return [(k, self._child(v, "%s.%s" % (self.path, k) if self.path else str(k))) for k, v in self.obj().items()]

    def str(self):
        if not isinstance(self.value, str):
            self._wrong("a string", 'write a "string"')
        return self.value

    def int(self, lo=-(2**63), hi=2**63 - 1):
        """A whole number in [lo, hi] (SQLite and PostgreSQL store 64 bits; true/false are not numbers)."""
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            self._wrong("a whole number from %d to %d" % (lo, hi), "write a whole number in that range")
        return v

    def num(self, lo=None, hi=None):
        """A finite number (within [lo, hi] when given)."""
        v = self.value
        ok = not isinstance(v, bool) and isinstance(v, (int, float))
        if ok:
            try:
                ok = math.isfinite(float(v)) and (lo is None or v >= lo) and (hi is None or v <= hi)
            except OverflowError:  # an integer beyond any float
                ok = False
        if not ok:
            self._wrong(
                "a finite number" + ("" if lo is None else " from %g" % lo) + ("" if hi is None else " to %g" % hi),
                "write a number, e.g. 1.5",
            )
        return float(v)

    def bool(self):
        if not isinstance(self.value, bool):
            self._wrong("true or false", "write true or false")
        return self.value

    def only_keys(self, allowed):
        for k, v in self.members():
            if k not in allowed:
                raise InputError(
                    one_line("%s: %s: unknown key; use one of: %s" % (self.source, v.path, ", ".join(allowed)))
                )


def write_error(path, err, step="writing"):
    """One line for an OSError while writing `path`: the cause and the fix for that cause."""
    d = os.path.dirname(os.path.abspath(path))
    code = getattr(err, "errno", None)
    if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        fix = "free space on its file system (or raise the file size limit)"
    elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
        fix = "make %s writable, or choose another path" % d
    elif code in (errno.ENOENT, errno.ENOTDIR, errno.EEXIST):
        fix = "a part of %s is missing or is a file, not a directory; choose another path" % d
    elif code == errno.EISDIR:
        fix = "%s is a directory; name a file" % path
    else:
        fix = "check %s" % d
    return InputError(
        one_line("cannot write %s (%s: %s); %s" % (path, step, getattr(err, "strerror", None) or err, fix))
    )


def make_dirs(d):
    """os.makedirs(d, exist_ok=True), or an InputError naming the cause. Returns the directories it made,
    outermost first (for undo_dirs)."""
    made, p = [], os.path.abspath(d)
    while not os.path.isdir(p):
        if os.path.lexists(p):
            raise InputError(
                one_line("cannot create the directory %s: %s is a file, not a directory; choose another path" % (d, p))
            )
        made.append(p)
        p = os.path.dirname(p)
    try:
        os.makedirs(d, exist_ok=True)
    except OSError as e:
        raise write_error(os.path.join(d, "."), e, "creating the directory %s" % d)
    return list(reversed(made))


def undo_dirs(made):
    """Removes the directories make_dirs made (innermost first), where they are still empty."""
    for d in reversed(made):
        try:
            os.rmdir(d)
        except OSError:
            pass


def write_atomic(path, data):
    """Writes str or bytes to `path` through a temporary file in the same directory: the file is either the
    old one or the whole new one, never partial, and no temporary file stays behind. InputError on failure."""
    write_all_atomic([(path, data)])


def write_all_atomic(outputs):
    """write_atomic for several files that belong together: every file is written before any is renamed
    into place, so a failure (a full disk) leaves all of them as they were."""
    tmps, made = [], []
    try:
        for path, data in outputs:
            if os.path.isdir(path):
                raise InputError(one_line("cannot write %s: it is a directory; name a file" % path))
            d = os.path.dirname(os.path.abspath(path))
            made += make_dirs(d)
            tmp = os.path.join(d, ".%s.%d.%s.tmp" % (os.path.basename(path), os.getpid(), os.urandom(4).hex()))
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except OSError as e:
                raise write_error(path, e, "creating a temporary file")
            tmps.append(tmp)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data.encode("utf-8") if isinstance(data, str) else data)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as e:
                raise write_error(path, e)
        for (path, _), tmp in zip(outputs, tmps):
            try:
                os.replace(tmp, path)
            except OSError as e:
                raise write_error(path, e, "renaming the temporary file")
        tmps = made = []
    finally:
        for tmp in tmps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        undo_dirs(made)  # a failed write leaves no directory it made either
