#!/usr/bin/env bash
# Fuzzes iapdoctor's readers of hostile files with libFuzzer (Swift's -sanitize=fuzzer,address).
#
#   scripts/fuzz.sh [--minutes N | --runs N] [--timeout S] [--max-len B] [--fork] [target…]
#
# Targets: xml descriptor pbxproj storekit typo pattern resolver manifest xcconfig snapshot json scripts
# codesign bplist fix zip
# (default: all, one after the other; see FUZZING.md for what each reads).
# --minutes N  run each target for N minutes (default 5)
# --runs N     run each target for N executions instead (e.g. --runs 10000000)
# --timeout S  seconds one input may take before it counts as a hang (default 5; on a machine
#              shared with other fuzzers and builds, slow units stretch several-fold)
# --max-len B  largest input in bytes (default 65536; smaller runs faster once the corpus has
#              grown large units)
# --fork       keep going after a crash/timeout/OOM (libFuzzer -fork=1 -ignore_*), else stop at the first
# --build-only build the targets and stop
# --no-build   run the binaries already in .build-fuzz (e.g. while the tree is being edited)
#
# The fuzz package (Fuzz/Package.swift) depends on the root package by path and is built with
# SwiftPM's --sanitize=fuzzer --sanitize=address in its own scratch path, .build-fuzz/, so the
# normal `swift build` / `swift test` in .build/ never see the sanitizer. Everything a run makes
# lives under .build-fuzz/: the growing corpus (corpus/<target>/, seeded from Fuzz/Seeds/<target>/),
# crash/timeout/OOM inputs (artifacts/<target>/), libFuzzer's log (logs/<target>-<time>.log) and one line
# per run in logs/history.tsv (date, target, executions, seconds, coverage, corpus, verdict).
# A finding is minimized with: .build-fuzz/release/fuzz-<target> -minimize_crash=1 -runs=100000 <artifact>
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
scratch="$root/.build-fuzz"
all_targets=(xml descriptor pbxproj storekit typo pattern resolver manifest xcconfig snapshot json scripts codesign bplist fix zip)

minutes=5
runs=""
fork=0
timeout=5
max_len=65536
build_only=0
no_build=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; runs=""; shift 2
      [[ "$minutes" =~ ^[1-9][0-9]*$ ]] || { echo "--minutes needs a whole number ≥ 1" >&2; exit 2; } ;;
    --runs) runs="$2"; shift 2
      [[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "--runs needs a whole number ≥ 1" >&2; exit 2; } ;;
    --timeout) timeout="$2"; shift 2
      [[ "$timeout" =~ ^[1-9][0-9]*$ ]] || { echo "--timeout needs a whole number ≥ 1" >&2; exit 2; } ;;
    --max-len) max_len="$2"; shift 2
      [[ "$max_len" =~ ^[1-9][0-9]*$ ]] || { echo "--max-len needs a whole number ≥ 1" >&2; exit 2; } ;;
    --fork) fork=1; shift ;;
    --build-only) build_only=1; shift ;;
    --no-build) no_build=1; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *)
      case " ${all_targets[*]} " in
        *" $1 "*) targets+=("$1") ;;
        *) echo "unknown target: $1 (targets: ${all_targets[*]})" >&2; exit 2 ;;
      esac
      shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

if [ "$no_build" -eq 0 ]; then
echo "== building ${targets[*]} (release, -sanitize=fuzzer,address) in .build-fuzz"
mkdir -p "$scratch/logs"
# SwiftPM does not notice a source file added to the root package (a path dependency here) until
# the fuzz manifest changes; touching it makes every build see the tree as it is.
touch Fuzz/Package.swift
# The commit each binary is built from (+ when Sources/ or Fuzz/ had changes), for logs/history.tsv.
revision_now=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "?")
git -C "$root" diff --quiet HEAD -- Sources Fuzz 2>/dev/null || revision_now="$revision_now+"
for t in "${targets[@]}"; do
  # SwiftPM's --sanitize flags give the Swift driver `-sanitize=address -sanitize=fuzzer`, and the
  # driver keeps only the last one (no ASan); -Xswiftc -sanitize=fuzzer,address comes after them and
  # wins. --sanitize=fuzzer is still needed: it makes SwiftPM link with libFuzzer's main.
  if ! swift build --package-path Fuzz --scratch-path "$scratch" -c release \
    --sanitize=address --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product "fuzz-$t" \
    >"$scratch/logs/build-$t.log" 2>&1; then
    grep -E "error:" "$scratch/logs/build-$t.log" | sort -u | head -20 >&2
    echo "building fuzz-$t failed (log: .build-fuzz/logs/build-$t.log)" >&2
    exit 2
  fi
  tail -1 "$scratch/logs/build-$t.log"
  echo "$revision_now" >"$scratch/logs/built-revision-$t"
done
fi
[ "$build_only" -eq 0 ] || exit 0

dict_for() {
  case "$1" in
    xml) echo xml.dict ;;
    descriptor) echo yaml.dict ;;
    pbxproj) echo pbxproj.dict ;;
    storekit|snapshot|json) echo json.dict ;;
    typo) echo typo.dict ;;
    pattern) echo pattern.dict ;;
    resolver|manifest|scripts) echo swift.dict ;;
    xcconfig) echo xcconfig.dict ;;
    codesign) echo codesign.dict ;;
    zip) echo zip.dict ;;
    bplist) echo bplist.dict ;;
    fix) echo fix.dict ;;
  esac
}

# malloc_context_size=0: no stack trace per allocation, which makes Swift's allocation-heavy code
# about 1.6x faster under ASan; reproduce a finding with ASAN_OPTIONS=malloc_context_size=30 for
# full allocation stacks. max_malloc_fill_size=0: ASan would otherwise fill the first 4 KB of
# every allocation with a pattern (4% of the descriptor target's time; uninitialized reads are not
# what ASan finds, and Swift initializes what it allocates). Leak detection stays on.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0:max_malloc_fill_size=0}"
# Swift's own backtracer would race ASan/libFuzzer for the trap signal; libFuzzer reports it.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

status=0
summary=()
for t in "${targets[@]}"; do
  bin="$scratch/release/fuzz-$t"
  revision=$(cat "$scratch/logs/built-revision-$t" 2>/dev/null || echo "?")
  corpus="$scratch/corpus/$t"
  artifacts="$scratch/artifacts/$t"
  log="$scratch/logs/$t-$(date -u +%Y%m%dT%H%M%S).log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  # -reload=0: one process per corpus, so rescanning the corpus folder (thousands of files) only costs.
  args=(-max_len="$max_len" -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 -reload=0
        -dict="$root/Fuzz/Dictionaries/$(dict_for "$t")" -artifact_prefix="$artifacts/")
  if [ -n "$runs" ]; then args+=(-runs="$runs"); else args+=(-max_total_time=$((minutes * 60))); fi
  if [ "$fork" -eq 1 ]; then args+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
  if [ -n "$runs" ]; then budget="$runs runs"; else budget="$minutes min"; fi
  echo "== fuzzing $t: $budget (log: ${log#"$root"/})"
  started=$(date +%s)
  set +e
  "$bin" "${args[@]}" "$corpus" "$root/Fuzz/Seeds/$t" >"$log" 2>&1
  code=$?
  set -e
  elapsed=$(( $(date +%s) - started ))
  # Executions: the final stats when libFuzzer got to print them, else the last status line.
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  execs=${execs:-0}
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  corpus_files=$(find "$corpus" -type f | wc -l)
  rate=$(( elapsed > 0 ? execs / elapsed : execs ))
  found=$(find "$artifacts" -type f -newermt "@$started" 2>/dev/null | wc -l)
  verdict="clean"
  if [ "$code" -eq 72 ] && [ "$found" -eq 0 ]; then
    verdict="interrupted"
  elif [ "$code" -ne 0 ] || [ "$found" -gt 0 ]; then
    verdict="FINDINGS (exit $code, $found new file(s) in ${artifacts#"$root"/})"
    status=1
    grep -E 'ERROR: (libFuzzer|AddressSanitizer)|Fatal error|SUMMARY|Test unit written' "$log" | head -10 || true
  fi
  line=$(printf '%-10s %12s execs %6ss %8s exec/s  %-22s corpus %5s  %s' \
    "$t" "$execs" "$elapsed" "$rate" "${cov:-cov: ?}" "$corpus_files" "$verdict")
  echo "$line"
  summary+=("$line")
  # One line per run, so executions add up across runs that resume the same corpus; the last column
  # is the commit the binary was built from (+ when the tree had changes).
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$t" "$execs" "$elapsed" \
    "${cov:-?}" "$corpus_files" "$verdict" "$revision" >>"$scratch/logs/history.tsv"
done

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo "?")  # nproc is GNU-only
echo "== summary ($(date -u +%Y-%m-%dT%H:%MZ), $cores cores)"
printf '%s\n' "${summary[@]}"
exit "$status"
