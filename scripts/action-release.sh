#!/usr/bin/env bash
# The GitHub Action's first step (action.yml): puts the release binary for this runner in place,
# checked against the release's SHA256SUMS, or says that the tool is to be built from source
# (output `build=true`): when `build-from-source` is true, or when the release has no tarball for
# this runner (no such release, or no asset for this OS and architecture). A tarball whose SHA-256
# differs from SHA256SUMS, or that the release lists but does not serve, fails the step.
#
# Environment (action.yml sets it): VERSION, BUILD_FROM_SOURCE, RELEASE_URL (a base URL or a
# local folder holding vVERSION/ folders, as GitHub's releases/download/ does; default this
# action's repository on GitHub), ACTION_REF, ACTION_REPOSITORY, ACTION_PATH, and the runner's
# RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_SERVER_URL, GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH.
set -euo pipefail

from_source() {
    echo "::notice::iapdoctor: $1: building from source"
    echo "build=true" >> "$GITHUB_OUTPUT"
    exit 0
}

case "${BUILD_FROM_SOURCE:-false}" in
    true) from_source "build-from-source is true" ;;
    false) ;;
    *) echo "::error::iapdoctor: build-from-source is \`$BUILD_FROM_SOURCE\`; it takes true or false"; exit 2 ;;
esac

# The version: the input, else the action's ref when it is a release tag (vX.Y.Z), else the
# version the action's checkout names (a branch such as main: its last release's number).
version=${VERSION:-}
if [ -z "$version" ]; then case "${ACTION_REF:-}" in v[0-9]*) version=$ACTION_REF ;; esac; fi
if [ -z "$version" ]; then
    version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$ACTION_PATH/Sources/Model/Version.swift")
    echo "iapdoctor: the action's ref \`${ACTION_REF:-}\` is no release tag; using the release of the version its Sources/Model/Version.swift names"
fi
version=${version#v}
if [ -z "$version" ]; then echo "::error::iapdoctor: no version to download (set the \`version\` input)"; exit 2; fi

# The tarball scripts/release.sh names for this runner (macOS: one universal binary).
case "$RUNNER_OS/$RUNNER_ARCH" in
    Linux/X64) asset="iapdoctor-$version-linux-x86_64" ;;
    Linux/ARM64) asset="iapdoctor-$version-linux-aarch64" ;;
    macOS/X64 | macOS/ARM64) asset="iapdoctor-$version-macos" ;;
    *) from_source "no release binary is built for $RUNNER_OS $RUNNER_ARCH" ;;
esac

base=${RELEASE_URL:-}
[ -n "$base" ] || base="${GITHUB_SERVER_URL:-https://github.com}/${ACTION_REPOSITORY:-iapdoctor/iapdoctor}/releases/download"
base="${base%/}/v$version"

# fetch NAME DEST: 0 fetched, 1 not there (HTTP 404, or no such local file); anything else fails.
fetch() {
    case "$base" in
        http://* | https://*)
            code=$(curl -sSL --retry 3 -o "$2" -w '%{http_code}' "$base/$1") \
                || { echo "::error::iapdoctor: could not download $base/$1"; exit 1; }
            [ "$code" = 200 ] && return 0
            [ "$code" = 404 ] && return 1
            echo "::error::iapdoctor: $base/$1 answered HTTP $code"; exit 1 ;;
        *)
            local folder=${base#file://}
            [ -f "$folder/$1" ] || return 1
            cp "$folder/$1" "$2" ;;
    esac
}

work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/iapdoctor-$version"
rm -rf "$work" && mkdir -p "$work"
fetch SHA256SUMS "$work/SHA256SUMS" || from_source "$base has no SHA256SUMS (no release v$version)"
expected=$(awk -v name="$asset.tar.gz" '$2 == name { print $1 }' "$work/SHA256SUMS")
[ -n "$expected" ] || from_source "release v$version has no $asset.tar.gz"
fetch "$asset.tar.gz" "$work/$asset.tar.gz" \
    || { echo "::error::iapdoctor: SHA256SUMS lists $asset.tar.gz, but $base does not serve it"; exit 1; }
if command -v sha256sum >/dev/null 2>&1; then actual=$(sha256sum < "$work/$asset.tar.gz"); else actual=$(shasum -a 256 < "$work/$asset.tar.gz"); fi
actual=${actual%% *}
if [ "$actual" != "$expected" ]; then
    echo "::error::iapdoctor: $asset.tar.gz has SHA-256 $actual, but the release's SHA256SUMS says $expected; refusing it"
    exit 1
fi
tar -xzf "$work/$asset.tar.gz" -C "$work"
binary="$work/$asset/bin/iapdoctor"
said=$("$binary" --version) || { echo "::error::iapdoctor: the release binary does not run on this runner ($binary --version failed)"; exit 1; }
if [ "$said" != "$version" ]; then echo "::error::iapdoctor: $asset.tar.gz holds version $said, not $version"; exit 1; fi
echo "iapdoctor: $asset.tar.gz from $base, SHA-256 $actual as SHA256SUMS says"
echo "IAPDOCTOR=$binary" >> "$GITHUB_ENV"
echo "$work/$asset/bin" >> "$GITHUB_PATH"
echo "build=false" >> "$GITHUB_OUTPUT"
