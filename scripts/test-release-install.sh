#!/usr/bin/env bash
# Checks, offline, what a user of a Linux release gets, with BINARY packed as the release binary
# (ReleaseTests runs this with the debug build; any built iapdoctor will do):
#
#   bash scripts/test-release-install.sh BINARY
#
# 1. the Action (action.yml, run by scripts/run-workflow.py --action) against a local release
#    folder made by scripts/release.sh: a clean example passes, a broken one fails with exit 1;
# 2. a tarball whose bytes differ from SHA256SUMS is refused, and nothing is checked with it;
# 3. with no release for the runner, the Action's download step says it builds from source;
# 4. the tarball's launcher runs the binary through the libxml2.so.16 shim when ldconfig knows
#    only libxml2.so.16 (a copy of this machine's libxml2 under that name stands in for it).
# Needs git, python3 with PyYAML, a C compiler and readelf (scripts/bootstrap.sh --tests). Linux only.
set -euo pipefail
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
version=$("$binary" --version)
arch=$(uname -m)
fail() { echo "test-release-install: FAILED: $*" >&2; exit 1; }
trap 'echo "test-release-install: FAILED at line $LINENO" >&2' ERR

bash scripts/release.sh --binary "$binary" --out "$scratch/releases/v$version" > /dev/null
action() { python3 scripts/run-workflow.py --action --with release-url="$1" --with paths="$2" > "$scratch/out" 2>&1; }

# 1. A clean and a broken example through the Action, on the release binary.
action "$scratch/releases" examples/healthy/project.yaml || fail "the Action on examples/healthy: $(cat "$scratch/out")"
grep -q "iapdoctor-$version-linux-$arch.tar.gz from .*as SHA256SUMS says" "$scratch/out" || fail "no checked download: $(cat "$scratch/out")"
grep -q "== output exit-code: 0" "$scratch/out" || fail "exit-code is not 0: $(cat "$scratch/out")"
if action "$scratch/releases" examples/runmonster/project.yaml; then fail "the Action passed examples/runmonster"; fi
grep -q "== output exit-code: 1" "$scratch/out" || fail "exit-code is not 1 for examples/runmonster: $(cat "$scratch/out")"
echo "test-release-install: the Action downloads, checks and runs the release binary"

# 2. A tampered tarball: the same SHA256SUMS, other bytes.
mkdir -p "$scratch/tampered/v$version"
cp "$scratch/releases/v$version/SHA256SUMS" "$scratch/tampered/v$version/"
{ cat "$scratch/releases/v$version/iapdoctor-$version-linux-$arch.tar.gz"; printf 'x'; } > "$scratch/tampered/v$version/iapdoctor-$version-linux-$arch.tar.gz"
if action "$scratch/tampered" examples/healthy/project.yaml; then fail "the Action took a tampered tarball"; fi
grep -q "but the release's SHA256SUMS says .*; refusing it" "$scratch/out" || fail "no refusal: $(cat "$scratch/out")"
if grep -q "^-- 5. Check (annotations)$" "$scratch/out"; then fail "the check ran after the refusal"; fi
echo "test-release-install: a tarball that differs from SHA256SUMS is refused"

# 3. No release for this version: the download step asks for a source build (not run here).
mkdir -p "$scratch/empty" "$scratch/temp" && : > "$scratch/github-output"
env RELEASE_URL="$scratch/empty" ACTION_PATH="$PWD" RUNNER_OS=Linux RUNNER_ARCH=X64 RUNNER_TEMP="$scratch/temp" \
    GITHUB_OUTPUT="$scratch/github-output" GITHUB_ENV=/dev/null GITHUB_PATH=/dev/null bash scripts/action-release.sh > "$scratch/out"
grep -qx "build=true" "$scratch/github-output" || fail "no build=true without a release"
grep -q "has no SHA256SUMS (no release v$version): building from source" "$scratch/out" || fail "no notice: $(cat "$scratch/out")"
echo "test-release-install: without a release, the Action says it builds from source"

# 4. The launcher on a system with only libxml2.so.16.
mkdir -p "$scratch/x" "$scratch/lib" "$scratch/fake"
tar -xzf "$scratch/releases/v$version/iapdoctor-$version-linux-$arch.tar.gz" -C "$scratch/x"
system_xml=$( (ldconfig -p || /sbin/ldconfig -p) | awk '!found && /libxml2\.so\.2 / { found = $NF } END { print found }')
cp "$system_xml" "$scratch/lib/libxml2.so.16"
printf '#!/bin/sh\necho "1 libs found in cache"\nprintf "\\tlibxml2.so.16 (libc6) => %s\\n"\n' "$scratch/lib/libxml2.so.16" > "$scratch/fake/ldconfig"
chmod +x "$scratch/fake/ldconfig"
launcher="$scratch/x/iapdoctor-$version-linux-$arch/bin/iapdoctor"
said=$(PATH="$scratch/fake:$PATH" LD_LIBRARY_PATH="$scratch/lib" LD_DEBUG=libs "$launcher" --version 2> "$scratch/debug") || fail "the launcher failed: $(tail -5 "$scratch/debug")"
[ "$said" = "$version" ] || fail "the launcher printed \`$said\`"
grep -q "calling init: .*/libexec/iapdoctor/libxml2-16/libxml2.so.2" "$scratch/debug" || fail "the shim was not loaded"
grep -q "calling init: $scratch/lib/libxml2.so.16" "$scratch/debug" || fail "libxml2.so.16 was not loaded"
if grep -q "no version information" "$scratch/debug"; then fail "the loader warned about symbol versions"; fi
[ "$("$launcher" --version)" = "$version" ] || fail "the launcher failed with this machine's libxml2.so.2"
echo "test-release-install: the launcher runs with libxml2.so.2 and with only libxml2.so.16"
echo "test-release-install: all 4 checks passed"
