# Sourced by the Python-backed scripts: runs `python3 -m harnesslib.$module "$@"` with Debian's python3.
# Set PYTHON to use another interpreter.
scripts_dir=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PYTHON:-}" ]; then
  if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
PYTHONPATH="$scripts_dir${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
