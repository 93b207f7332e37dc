"""One side of a comparison from a command-line spec: a run of the history or files (data.py's side dict).
data.py reads files and knows nothing of the history; history.py stores and reads runs; this module is the
only one that knows both (no import cycle)."""
import os

from . import data, history


def load_side(spec, db=None):
    """A run id in the history `db` (digits, or 'latest', 'latest~N'), a directory holding results.json
    and/or bench.json, or files joined with ',' (each a results or bench JSON)."""
    if db is not None and (spec.isdigit() or spec.startswith("latest")) and not os.path.exists(spec):
        return history.load_side(db, spec)
    return data.load_files_side(spec)
