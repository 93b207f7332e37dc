#!/bin/sh
# CLI behaviour checks, one scenario per CTest test: cli_checks.sh <aot-harness> <golden-dir> <scenario>
# Each scenario checks the exit code, the one-line message, and that golden/ is left byte-identical.
set -u
exe=$1 golden=$2 scenario=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $scenario: $*"; exit 1; }

# expect CODE REGEX cmd...: runs cmd, checks its exit code and that its output matches REGEX.
expect() {
  code=$1 regex=$2; shift 2
  "$@" >"$tmp/out" 2>&1
  got=$?
  cat "$tmp/out"
  [ "$got" = "$code" ] || fail "exit code $got, expected $code"
  grep -Eq -- "$regex" "$tmp/out" || fail "output does not match /$regex/"
}

# expect_usage REGEX cmd...: a usage/configuration error: exit 2 and exactly one line of output.
expect_usage() {
  expect 2 "$@"
  [ "$(wc -l <"$tmp/out")" = 1 ] || fail "expected exactly one line of output"
  grep -q '^aot-harness: error: ' "$tmp/out" || fail "expected an 'aot-harness: error:' line"
}

snapshot() { (cd "$1" && find . -type f -exec sha256sum {} + | sort) ; }

cp -r "$golden" "$tmp/golden"
before=$(snapshot "$tmp/golden")
case "$scenario" in
  missing_platform)
    HL_OCL_PLATFORM_NAME=nonexistent expect 77 "no OpenCL platform matches HL_OCL_PLATFORM_NAME='nonexistent'" \
      "$exe" run --profile opencl-mali --golden-dir "$tmp/golden" ;;
  bad_device_type)
    HL_OCL_DEVICE_TYPE=nonsense expect 77 "HL_OCL_DEVICE_TYPE='nonsense' names no device type" \
      "$exe" run --profile opencl-mali --case small --golden-dir "$tmp/golden" ;;
  unknown_profile)
    expect_usage "unknown profile 'metal'; known profiles: cpu, host, opencl-mali, opencl, cuda, vulkan, vulkan-mali" \
      "$exe" run --profile metal --golden-dir "$tmp/golden" ;;
  unknown_pipeline)
    expect_usage "unknown pipeline 'nope'; known pipelines: .*blur3x3.*brighten" \
      "$exe" run --pipeline nope --golden-dir "$tmp/golden" ;;
  unknown_case)
    expect_usage "unknown case 'huge' for pipeline brighten; known cases: small, odd, large" \
      "$exe" run --pipeline brighten --case huge --golden-dir "$tmp/golden" ;;
  unknown_option)
    expect_usage "unknown option '--colour' for 'run'" "$exe" run --colour ;;
  bad_timeout)
    expect_usage "--timeout '-1' is not a number" "$exe" run --timeout -1 ;;
  corrupt_golden)
    f="$tmp/golden/brighten/small.npy"
    printf 'X' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null
    before=$(snapshot "$tmp/golden")
    expect 2 "ERROR .*golden/brighten/small.npy does not match its sha256 in golden/MANIFEST.json; restore it with .git checkout -- golden/brighten/small.npy. or re-bless" \
      "$exe" run --pipeline brighten --profile cpu --case small --golden-dir "$tmp/golden" ;;
  missing_golden)
    rm "$tmp/golden/blur3x3/odd.npy"
    before=$(snapshot "$tmp/golden")
    expect 2 "golden/blur3x3/odd.npy is missing" \
      "$exe" run --pipeline blur3x3 --profile cpu --case odd --golden-dir "$tmp/golden" ;;
  unblessed_case)
    # A case with no manifest entry is an ERROR before the pipeline is called (no run_ms in its record).
    python3 -c 'import json,sys; p=sys.argv[1]; m=json.load(open(p)); m["goldens"]=[g for g in m["goldens"] if g["file"]!="blur3x3/odd.npy"]; json.dump(m,open(p,"w"),indent=1)' "$tmp/golden/MANIFEST.json"
    before=$(snapshot "$tmp/golden")
    expect 2 "ERROR .*golden/blur3x3/odd.npy has no entry in golden/MANIFEST.json" \
      "$exe" run --pipeline blur3x3 --profile cpu --case odd --golden-dir "$tmp/golden" --json "$tmp/r.json"
    grep -q '"run_ms"' "$tmp/r.json" && fail "the pipeline was called for a case without a golden" ;;
  verify_ok)
    expect 0 "all match the manifest" "$exe" golden verify --golden-dir "$tmp/golden" ;;
  verify_detects_corruption)
    printf 'X' | dd of="$tmp/golden/blur3x3/small.npy" bs=1 seek=100 conv=notrunc 2>/dev/null
    touch "$tmp/golden/blur3x3/stray.npy"
    before=$(snapshot "$tmp/golden")
    expect 1 "stray.npy is not in golden/MANIFEST.json" "$exe" golden verify --golden-dir "$tmp/golden"
    grep -q "blur3x3/small.npy does not match its sha256" "$tmp/out" || fail "corruption not reported" ;;
  unwritable_json)
    expect_usage "cannot write|Permission denied|No such file" "$exe" run --pipeline brighten --profile cpu --case small \
      --golden-dir "$tmp/golden" --json /proc/forbidden/results.json ;;
  bless_is_reproducible)
    # Re-blessing from the same build must reproduce the committed goldens bit for bit.
    expect 0 "blessed golden/brighten/small.npy" "$exe" bless --pipeline brighten --case small --golden-dir "$tmp/golden" ;;
  stale_provenance)
    # A generator changed after the last bless: verify names the pipeline and the fix; that bless
    # refreshes the provenance and leaves the bytes alone (the final snapshot equals the first).
    /usr/bin/python3 - "$tmp/golden/MANIFEST.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for e in m["goldens"]:
    if e["pipeline"] == "brighten":
        e["generator_sha256"] = "0" * 64
open(sys.argv[1], "w").write(json.dumps(m, indent=2) + "\n")
PY
    expect 1 "golden/brighten/: 4 of 4 goldens record generator_sha256 000000000000, the built generator is .*aot-harness bless --pipeline brighten" \
      "$exe" golden verify --golden-dir "$tmp/golden"
    grep -q "golden/blur3x3/" "$tmp/out" && fail "a pipeline whose provenance is current was reported"
    expect 0 "blessed golden/brighten/small.npy" "$exe" bless --pipeline brighten --golden-dir "$tmp/golden"
    expect 0 "all match the manifest" "$exe" golden verify --golden-dir "$tmp/golden" ;;
  bless_locked)
    # Another process holds the golden dir's lock: bless fails at once naming it, or waits (--wait).
    flock "$tmp/golden" sleep 3 &
    holder=$!
    sleep 0.5
    expect_usage "bless already running \(pid [0-9]+\) on .*--wait SECONDS" \
      "$exe" bless --pipeline brighten --case small --golden-dir "$tmp/golden"
    expect 0 "blessed golden/brighten/small.npy" "$exe" bless --pipeline brighten --case small --wait 30 --golden-dir "$tmp/golden"
    wait "$holder" ;;
  golden_recover_idle)
    expect 0 "nothing to recover in" "$exe" golden recover --golden-dir "$tmp/golden" ;;
  truncated_golden)
    f="$tmp/golden/brighten/odd.npy"; head -c 100 "$f" > "$tmp/t" && cat "$tmp/t" > "$f"
    before=$(snapshot "$tmp/golden")
    expect 2 "ERROR .*golden/brighten/odd.npy does not match its sha256" \
      "$exe" run --pipeline brighten --profile cpu --case odd --golden-dir "$tmp/golden" ;;
  manifest_malformed)
    printf '{"goldens": [' > "$tmp/golden/MANIFEST.json"
    before=$(snapshot "$tmp/golden")
    expect 2 "MANIFEST.json: not valid JSON" \
      "$exe" run --pipeline blur3x3 --profile cpu --case small --golden-dir "$tmp/golden" ;;
  manifest_wrong_shape)
    sed 's/"shape": \[/"shape": [ 1,/' "$tmp/golden/MANIFEST.json" > "$tmp/m" && cp "$tmp/m" "$tmp/golden/MANIFEST.json"
    before=$(snapshot "$tmp/golden")
    expect 2 "has dtype/shape .* but the manifest says" \
      "$exe" run --pipeline blur3x3 --profile cpu --case small --golden-dir "$tmp/golden" ;;
  xfail_malformed)
    printf '{"xfail": [{"profile": "opencl"}]}' > "$tmp/golden/xfail.json"
    before=$(snapshot "$tmp/golden")
    expect_usage "xfail.json: xfail\\[0\\].reason: missing; say why" \
      "$exe" run --pipeline blur3x3 --profile cpu --case small --golden-dir "$tmp/golden" ;;
  unknown_mode)
    expect_usage "unknown buffer mode 'zero-copy'; modes: host, device" "$exe" run --mode zero-copy ;;
  bad_repeats)
    expect_usage "--repeats '0' is not a whole number from 1 to 100" "$exe" run --repeats 0 ;;
  absurd_timeout)
    expect_usage "--timeout '1e12' is not a number from 1 to 86400" "$exe" run --timeout 1e12 ;;
  unknown_command)
    expect_usage "unknown command 'frobnicate'" "$exe" frobnicate ;;
  describe_unknown)
    expect_usage "unknown pipeline 'nope'" "$exe" describe nope ;;
  bless_needs_pipeline)
    expect_usage "bless needs --pipeline P or --all" "$exe" bless --golden-dir "$tmp/golden" ;;
  bless_names_and_globs)
    # --pipeline takes run's comma lists and globs: both pipelines blessed, bit for bit; a pattern that
    # matches nothing is a one-line error and writes nothing.
    before=$(snapshot "$tmp/golden")
    expect 0 "blessed golden/blur3x3/small.npy" "$exe" bless --pipeline 'blur3x3,bright*' --case small --golden-dir "$tmp/golden"
    grep -q "blessed golden/brighten/small.npy" "$tmp/out" || fail "brighten (the glob) was not blessed"
    [ "$(snapshot "$tmp/golden")" = "$before" ] || fail "the goldens changed"
    expect_usage "--pipeline 'nope\*' matches no pipeline" "$exe" bless --pipeline 'nope*' --golden-dir "$tmp/golden"
    expect_usage "bless --pipeline is empty" "$exe" bless --pipeline '' --golden-dir "$tmp/golden" ;;
  no_opencl_icd)
    mkdir "$tmp/vendors"
    OCL_ICD_VENDORS="$tmp/vendors" OCL_ICD_FILENAMES= expect 77 "SKIP .*no OpenCL platform found" \
      "$exe" run --profile opencl-mali --case small --golden-dir "$tmp/golden" ;;
  icd_missing_library)
    mkdir "$tmp/vendors"; echo /nonexistent/libnothere.so > "$tmp/vendors/broken.icd"
    OCL_ICD_VENDORS="$tmp/vendors" OCL_ICD_FILENAMES= expect 77 "SKIP .*no OpenCL platform found" \
      "$exe" run --profile opencl --case small --golden-dir "$tmp/golden" ;;
  readonly_golden_bless)
    chmod -R a-w "$tmp/golden"
    if touch "$tmp/golden/probe" 2>/dev/null; then rm -f "$tmp/golden/probe"; chmod -R u+w "$tmp/golden"; echo "root ignores permissions here; using a read-only bind is not possible: skip"; exit 77; fi
    expect_usage "cannot write .*golden" "$exe" bless --pipeline brighten --case small --golden-dir "$tmp/golden"
    chmod -R u+w "$tmp/golden" ;;
  disk_full_bless)
    # A file-size limit makes every write of more than 1 KiB fail (EFBIG), as a full disk would.
    before=$(snapshot "$tmp/golden")
    (trap '' XFSZ; ulimit -f 1; "$exe" bless --pipeline brighten --case odd --golden-dir "$tmp/golden") >"$tmp/out" 2>&1
    got=$?; cat "$tmp/out"
    [ "$got" = 2 ] || fail "exit code $got, expected 2"
    grep -q "aot-harness: error: cannot write .*brighten/odd.npy.*nothing in .* was changed" "$tmp/out" || fail "no one-line write error"
    ls "$tmp/golden/brighten" | grep -q tmp && fail "a temporary file was left behind" ;;
  unwritable_report)
    expect_usage "cannot write report to /proc/forbidden" "$exe" report --results /dev/null --out /proc/forbidden ;;
  compile_error_is_error)
    # <exe> is aot-harness-selftest: its bad_schedule pipeline's gpu schedule cannot compile. The
    # build kept a stub; running it is an ERROR (exit 2) carrying Halide's message, on any machine,
    # while list shows the variant as not runnable with the same reason.
    expect 2 "ERROR +bad_schedule/opencl/small .*failed to compile.*Funcs cannot be scheduled in between GPU block loops" \
      "$exe" run --pipeline bad_schedule --profile opencl --case small --golden-dir "$tmp/golden"
    expect 0 "" "$exe" list --json
    grep -q "bad_schedule__opencl failed to compile" "$tmp/out" || fail "list --json does not show the compile error" ;;
  *) fail "unknown scenario" ;;
esac
after=$(snapshot "$tmp/golden")
[ "$before" = "$after" ] || fail "golden dir changed"
echo "ok: $scenario"
