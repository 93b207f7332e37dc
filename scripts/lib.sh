# Shared by scripts/run and scripts/test: set-up, configure and build with the default preset.
# Source it; it defines `build_project`.
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

build_project() {
  "$root/scripts/setup"
  PATH="$root/.venv/bin:$PATH"
  export PATH
  start=$(date +%s)
  mkdir -p "$root/build"
  cmake --preset default >"$root/build/configure.log" 2>&1 || { cat "$root/build/configure.log"; echo "configure failed (log above)" >&2; return 2; }
  cmake --build --preset default -- -k 0 || { echo "build failed" >&2; return 2; }
  echo "build: $(( $(date +%s) - start )) s"
}
