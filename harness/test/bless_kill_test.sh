#!/bin/sh
# bless_kill_test.sh EXE GOLDEN_DIR [TRIES]
# Kills `bless --all` with SIGKILL at random points, TRIES times (default 50), starting each time
# from an "old" golden set that differs from what bless writes. After each kill, `golden verify`
# (which finishes or discards the interrupted bless) must pass and the set must be exactly the old
# one or exactly the new one. Prints how many kills landed before and after the commit point.
# Readers never write: `golden verify` must pass before any recovery, without changing anything
# (an interrupted bless is read through), and `golden recover` then finishes or discards it.
set -u
exe=$1 src=$2 tries=${3:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
snapshot() { (cd "$1" && find . -type f ! -name xfail.json ! -path "./.bless-*" -exec sha256sum {} + | sort); }

# The new set: what bless writes (the committed goldens; cli/bless_is_reproducible checks they match).
cp -r "$src" "$tmp/new"
"$exe" bless --all --golden-dir "$tmp/new" >/dev/null || { echo "FAILED: bless did not run"; exit 1; }
new=$(snapshot "$tmp/new")
# The old set: every golden changed by one byte, manifest hashes updated: self-consistent but different.
cp -r "$tmp/new" "$tmp/old"
$py - "$tmp/old" <<'PY'
import hashlib, json, sys, os
d = sys.argv[1]
m = json.load(open(os.path.join(d, "MANIFEST.json")))
for e in m["goldens"]:
    p = os.path.join(d, e["file"])
    b = bytearray(open(p, "rb").read()); b[-1] ^= 0xFF
    open(p, "wb").write(b)
    e["sha256"] = hashlib.sha256(b).hexdigest()
json.dump(m, open(os.path.join(d, "MANIFEST.json"), "w"), indent=2)
PY
old=$(snapshot "$tmp/old")
"$exe" golden verify --golden-dir "$tmp/old" >/dev/null || { echo "FAILED: the old set is not self-consistent"; exit 1; }

start=$(date +%s%N)
cp -r "$tmp/old" "$tmp/w" && "$exe" bless --all --golden-dir "$tmp/w" >/dev/null
duration_us=$(( ($(date +%s%N) - start) / 1000 ))
rm -rf "$tmp/w"
echo "one bless --all takes about $((duration_us / 1000)) ms"

saw_old=0 saw_new=0 i=0
while [ "$i" -lt "$tries" ]; do
  i=$((i + 1))
  rm -rf "$tmp/w"; cp -r "$tmp/old" "$tmp/w"
  delay_us=$(od -An -N4 -tu4 /dev/urandom | awk -v d="$duration_us" '{ printf "%d", $1 % (d + 1) }')
  "$exe" bless --all --golden-dir "$tmp/w" >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v u="$delay_us" 'BEGIN { printf "%.6f", u / 1000000 }')"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  raw=$(cd "$tmp/w" && find . -exec stat -c '%n %s %Y' {} + | sort)
  out=$("$exe" golden verify --golden-dir "$tmp/w" 2>&1) || { echo "FAILED: try $i (kill after ${delay_us} us): verify failed:"; echo "$out"; exit 1; }
  [ "$raw" = "$(cd "$tmp/w" && find . -exec stat -c '%n %s %Y' {} + | sort)" ] || { echo "FAILED: try $i: golden verify changed the golden dir"; exit 1; }
  out=$("$exe" golden recover --golden-dir "$tmp/w" 2>&1) || { echo "FAILED: try $i: golden recover failed:"; echo "$out"; exit 1; }
  out=$("$exe" golden verify --golden-dir "$tmp/w" 2>&1) || { echo "FAILED: try $i: verify after recover failed:"; echo "$out"; exit 1; }
  [ -z "$(find "$tmp/w" -name '.bless-*')" ] || { echo "FAILED: try $i: golden recover left bless directories"; exit 1; }
  now=$(snapshot "$tmp/w")
  if [ "$now" = "$old" ]; then saw_old=$((saw_old + 1))
  elif [ "$now" = "$new" ]; then saw_new=$((saw_new + 1))
  else echo "FAILED: try $i (kill after ${delay_us} us) left a mixed golden set"; exit 1
  fi
done
echo "ok: $tries kills: $saw_old left the old set, $saw_new the new set; never a mix"
