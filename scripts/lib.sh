# Shared by the scripts that build: set-up, configure and build one preset.
# Source it; it defines `build_project [PRESET]` (default: the default preset, in build/; any other
# preset P builds in build-P/, as CMakePresets.json names them).
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

build_project() {
  preset=${1:-default}
  if [ "$preset" = default ]; then dir="$root/build"; else dir="$root/build-$preset"; fi
  "$root/scripts/setup"
  PATH="$root/.venv/bin:$PATH"
  export PATH
  start=$(date +%s)
  mkdir -p "$dir"
  cmake --preset "$preset" >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; echo "configure of preset $preset failed (log above)" >&2; return 2; }
  cmake --build --preset "$preset" -- -k 0 || { echo "build of preset $preset failed" >&2; return 2; }
  echo "build ($preset): $(( $(date +%s) - start )) s"
}
