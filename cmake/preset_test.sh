#!/bin/sh
# preset_test.sh CMAKE CTEST SOURCE_DIR PRESET [ctest args...]
# Configures, builds and tests another preset of this source tree (cross builds import the host
# generators from build/, so the default build must exist).
set -eu
cmake=$1 ctest=$2 src=$3 preset=$4
shift 4
cd "$src"
"$cmake" --preset "$preset" >/dev/null
"$cmake" --build --preset "$preset"
"$ctest" --preset "$preset" "$@"
