# Shared by the scripts that build: set-up, configure and build one preset.
# Source it; it defines `build_project [PRESET]` (default: the default preset, in build/; any other
# preset P builds in build-P/, as CMakePresets.json names them).
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The default preset builds while the rest of set-up (the tests' Debian packages, Mesa 25: about a minute and a
# half on a new machine, mostly unpacking) installs beside it; build_project returns when both are done. Other
# presets (cross compilers, clang) set everything up first.
build_project() {
  preset=${1:-default}
  if [ "$preset" = default ]; then dir="$root/build"; else dir="$root/build-$preset"; fi
  setup_pid=""
  if [ "$preset" = default ]; then
    "$root/scripts/setup" --for-build
    if "$root/scripts/setup" --check >/dev/null 2>&1; then
      :  # nothing left to install
    elif [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then
      "$root/scripts/setup"  # sudo would ask for a password, which a background job cannot answer
    else
      mkdir -p "$dir"
      "$root/scripts/setup" </dev/null >"$dir/setup.log" 2>&1 &
      setup_pid=$!
    fi
  else
    "$root/scripts/setup"
  fi
  PATH="$root/.venv/bin:$PATH"
  export PATH
  start=$(date +%s)
  mkdir -p "$dir"
  build_rc=0
  if ! cmake --preset "$preset" >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log"
    echo "configure of preset $preset failed (log above)" >&2
    build_rc=2
  elif ! cmake --build --preset "$preset" -- -k 0; then
    echo "build of preset $preset failed" >&2
    build_rc=2
  fi
  if [ -n "$setup_pid" ]; then
    # Never left running: apt-get stopped half-way would leave dpkg to be repaired.
    if ! wait "$setup_pid"; then
      cat "$dir/setup.log"
      echo "setup (the tests' packages, installed during the build) failed: log above and in $dir/setup.log" >&2
      return 2
    fi
    grep '^setup: ' "$dir/setup.log" || true
  fi
  [ "$build_rc" = 0 ] || return "$build_rc"
  echo "build ($preset): $(( $(date +%s) - start )) s"
}
