#!/bin/sh
# debian_halide_source.sh [CACHE_DIR]
# Debian bookworm's source package of Halide (halide 14.0.0-3), the corpus's third-party generators: downloaded
# with apt-get (`apt-get source --download-only`) into CACHE_DIR (default $XDG_CACHE_HOME/aot-harness, else
# ~/.cache/aot-harness), never into the repository; the .dsc checked against its pinned sha256 and every file
# it lists against the sha256 it states; then the upstream tarball's apps/ (and LICENSE.txt) unpacked into
# CACHE_DIR/debian-halide-14.0.0-3/src. Debian's patches do not touch apps/. Prints that src directory.
# Without a deb-src entry in the host's apt sources, apt-get runs with a private configuration under the
# cache (bookworm's deb-src from $AOT_HARNESS_DEBIAN_MIRROR, default http://deb.debian.org/debian, signed by
# Debian's archive keyring): the host's apt is left as it is. Exit 0 with the path; 1 with one line naming
# what failed (download, checksum, unpacking) and the fix.
set -eu
version=14.0.0-3
dsc=halide_$version.dsc
dsc_sha256=2e59fef78cbbe614ef51bdff2075d05c2fbde24fc05b907631e2f7d61e8e7630
cache_root=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/aot-harness}
cache="$cache_root/debian-halide-$version"
die() { echo "debian_halide_source: $*" >&2; exit 1; }
done_already() { [ -f "$cache/verified" ] && [ "$(cat "$cache/verified")" = "$dsc_sha256" ] && [ -d "$cache/src/apps" ]; }
if done_already; then echo "$cache/src"; exit 0; fi
mkdir -p "$cache" || die "cannot create $cache; give a writable cache directory"
exec 9>"$cache/.lock"
flock 9 || die "cannot lock $cache/.lock"
if done_already; then echo "$cache/src"; exit 0; fi

dl=$(mktemp -d "$cache/download.XXXXXX")
trap 'rm -rf "$dl"' EXIT INT TERM
if ! (cd "$dl" && apt-get source --download-only -q "halide=$version") >"$dl/apt.log" 2>&1; then
  # No deb-src for bookworm on this host: a private apt state, the host's apt untouched.
  mirror=${AOT_HARNESS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -f "$keyring" ] || die "apt-get source failed ($(tail -n 1 "$dl/apt.log")) and $keyring is missing; install debian-archive-keyring or add a deb-src entry for bookworm"
  apt="$dl/apt"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts"
  echo "deb-src [signed-by=$keyring] $mirror bookworm main" >"$apt/sources.list"
  set -- -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts" \
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Debug::NoLocking=1
  apt-get "$@" update -q >>"$dl/apt.log" 2>&1 &&
    (cd "$dl" && apt-get "$@" source --download-only -q "halide=$version") >>"$dl/apt.log" 2>&1 ||
    die "apt-get could not download the halide $version source package ($(grep -E '^(E|W):' "$dl/apt.log" | tail -n 1)); check the network or set AOT_HARNESS_DEBIAN_MIRROR"
fi

[ -f "$dl/$dsc" ] || die "apt-get did not download $dsc; see $dl/apt.log"
got=$(sha256sum "$dl/$dsc" | cut -d' ' -f1)
[ "$got" = "$dsc_sha256" ] || die "$dsc has sha256 $got, not the pinned $dsc_sha256; the mirror serves another file: do not use it"
# Every file the .dsc lists, with the sha256 and size it states.
files=$(sed -n '/^Checksums-Sha256:/,/^[^ ]/p' "$dl/$dsc" | sed -n 's/^ \([0-9a-f]\{64\}\) \([0-9]*\) \(.*\)$/\1 \2 \3/p')
[ -n "$files" ] || die "$dsc lists no Checksums-Sha256"
echo "$files" | while read -r sum size name; do
  [ -f "$dl/$name" ] || die "$name (listed in $dsc) was not downloaded"
  [ "$(stat -c %s "$dl/$name")" = "$size" ] || die "$name is not $size bytes as $dsc states"
  [ "$(sha256sum "$dl/$name" | cut -d' ' -f1)" = "$sum" ] || die "$name does not match the sha256 $dsc states"
done
orig=$(echo "$files" | sed -n 's/^.* \(halide_[^ ]*\.orig\.tar\.gz\)$/\1/p')
[ -n "$orig" ] || die "$dsc lists no upstream tarball"
mkdir -p "$dl/src"
tar -xzf "$dl/$orig" -C "$dl/src" --strip-components=1 "Halide-${version%-*}/apps" "Halide-${version%-*}/LICENSE.txt" ||
  die "cannot unpack apps/ from $orig"
rm -rf "$cache/src"
mv "$dl/src" "$cache/src"
echo "$dsc_sha256" >"$cache/verified"
echo "$cache/src"
