#!/usr/bin/env bash
# Shows that a change keeps every output byte-identical: builds the working tree and a base
# revision (default HEAD; its build is kept in .build-base/ between runs), runs both over the same
# inputs in every output format, and compares stdout, stderr and the exit code of each run.
#
#   scripts/same-output.sh            # the working tree against HEAD
#   scripts/same-output.sh main~3     # against another revision
#
# Inputs: every example descriptor (each format, and `report`), the catalogs and .storekit files of
# examples/ and of ../shared/samples (when it is beside the checkout), and generated bulk catalogs,
# clean and faulty, with and without screenshots (scripts/gen_catalog.py, fixed seeds). Prints one
# line per difference and a count; exits 1 when anything differs. Runs with the bash 3.2 of macOS.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
base=${1:-HEAD}
work=$(mktemp -d "${TMPDIR:-/tmp}/same-output.XXXXXX")
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

echo "== building the working tree"
swift build --product iapdoctor >/dev/null
new="$root/.build/debug/iapdoctor"
echo "== building $base in .build-base/"
git worktree add --detach "$work/base" "$base" >/dev/null 2>&1
swift build --package-path "$work/base" --scratch-path "$root/.build-base" --product iapdoctor >/dev/null
old="$root/.build-base/debug/iapdoctor"

inputs="$work/inputs"
mkdir -p "$inputs"
python3 scripts/gen_catalog.py --seed 7 500 "$inputs/clean.itmsp" >/dev/null
python3 scripts/gen_catalog.py --seed 7 --faults 500 "$inputs/faulty.itmsp" >/dev/null
python3 scripts/gen_catalog.py --seed 11 --faults --density 3 --screenshots 40 300 "$inputs/dense.itmsp" >/dev/null

runs=()
for descriptor in examples/*/project.yaml; do
    for format in text json sarif junit github xcode gitlab checkstyle markdown; do
        runs+=("check --format $format $descriptor")
    done
    runs+=("check --verbose $descriptor")
done
for file in examples/*/*.storekit examples/*/*.itmsp examples/*/metadata.xml; do
    [ -e "$file" ] || continue
    runs+=("check $file" "check --format json $file")
done
if [ -d ../shared/samples ]; then
    for file in ../shared/samples/*.xml ../shared/samples/*.storekit; do
        [ -e "$file" ] || continue
        runs+=("check $file" "check --format sarif $file")
    done
fi
for catalog in "$inputs"/*.itmsp; do
    for format in text json sarif checkstyle; do
        runs+=("check --format $format $catalog")
    done
done

differences=0
count=0
for run in "${runs[@]}"; do
    count=$((count + 1))
    # shellcheck disable=SC2086
    set +e
    "$old" $run >"$work/old.out" 2>"$work/old.err"; old_status=$?
    "$new" $run >"$work/new.out" 2>"$work/new.err"; new_status=$?
    set -e
    # `report` and the text header carry the time of the run when the descriptor sets none.
    if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err" || [ "$old_status" != "$new_status" ]; then
        differences=$((differences + 1))
        echo "DIFFERS: iapdoctor $run (exit $old_status → $new_status)"
        diff "$work/old.out" "$work/new.out" | head -5 || true
    fi
done
echo "$count runs, $differences differ ($base → working tree)"
[ "$differences" -eq 0 ]
