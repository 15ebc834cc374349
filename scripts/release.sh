#!/usr/bin/env bash
# Builds iapdoctor's release artifacts into dist/ (or --out DIR):
#   iapdoctor-V-linux-ARCH.tar.gz       the Linux binary (Swift runtime linked in; needs the
#                                       system's zlib and libxml2, as libxml2.so.2 or .so.16:
#                                       bin/iapdoctor is a launcher that finds either), the man page
#   iapdoctor-V-macos.tar.gz            on macOS: a universal (arm64 + x86_64) binary and the man page
#   iapdoctor.artifactbundle.zip        SwiftPM's artifact bundle (SE-0305) of the binaries built
#                                       here, for `.binaryTarget`; its checksum is SwiftPM's
#   iapdoctor-V-source.tar.gz           `git archive` of HEAD, what Formula/iapdoctor.rb builds
#   SHA256SUMS                          every artifact's SHA-256
# With --tag vV (the release workflow), also writes the source archive's URL and checksum into
# Formula/iapdoctor.rb, and the published plugin package into OUT/iapdoctor-plugin: iapdoctor-plugin/
# with the bundle's release URL and checksum in place of its local path. With --plugin, copies the
# bundle into iapdoctor-plugin/ for `.package(path:)` use (ignored by git).
#
#   scripts/release.sh [--out DIR] [--binary PATH] [--tag vV] [--plugin] [--merge DIR...]
#
# --binary PATH packs that binary as this machine's variant instead of building (tests use the
# debug build). --merge DIR... adds the variant folders of other machines' bundles (the release
# workflow builds Linux and macOS on their own runners, then merges). Runs with macOS's bash 3.2.
set -euo pipefail
cd "$(dirname "$0")/.."

out=dist
binary=""
tag=""
merge=()
plugin=no
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --tag) tag=$2; shift 2 ;;
        --plugin) plugin=yes; shift ;;
        --merge) shift; while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do merge+=("$1"); shift; done ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        *) echo "release: unknown argument \`$1\` (see --help)" >&2; exit 2 ;;
    esac
done

version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/Model/Version.swift)
if [ -z "$version" ]; then echo "release: no version in Sources/Model/Version.swift" >&2; exit 2; fi
if [ -n "$tag" ] && [ "$tag" != "v$version" ]; then
    echo "release: the tag \`$tag\` is not \`v$version\`, the version Sources/Model/Version.swift says" >&2
    exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
bundle="$out/iapdoctor.artifactbundle"
mkdir -p "$bundle"

# This machine's binary and the variant it is.
case "$(uname -s)" in
    Linux)
        arch=$(uname -m)
        variant="iapdoctor-$version-linux-$arch"
        triples="\"$arch-unknown-linux-gnu\""
        if [ -z "$binary" ]; then
            IAPDOCTOR_UNCHECKED_EXCLUSIVITY=1 swift build -c release --static-swift-stdlib --product iapdoctor --scratch-path .build-release
            binary="$(swift build -c release --static-swift-stdlib --product iapdoctor --scratch-path .build-release --show-bin-path)/iapdoctor"
        fi ;;
    Darwin)
        variant="iapdoctor-$version-macos"
        triples='"arm64-apple-macosx", "x86_64-apple-macosx"'
        if [ -z "$binary" ]; then
            IAPDOCTOR_UNCHECKED_EXCLUSIVITY=1 swift build -c release --arch arm64 --arch x86_64 --product iapdoctor --scratch-path .build-release
            binary="$(swift build -c release --arch arm64 --arch x86_64 --product iapdoctor --scratch-path .build-release --show-bin-path)/iapdoctor"
        fi ;;
    *) echo "release: builds on Linux and macOS, not $(uname -s)" >&2; exit 2 ;;
esac
if [ ! -x "$binary" ]; then echo "release: no binary at \`$binary\`" >&2; exit 2; fi

rm -rf "${bundle:?}/$variant"
mkdir -p "$bundle/$variant/bin"
cp "$binary" "$bundle/$variant/bin/iapdoctor"
strip "$bundle/$variant/bin/iapdoctor" 2>/dev/null || true
printf '%s\n' "$triples" > "$bundle/$variant/triples"
for other in ${merge[@]+"${merge[@]}"}; do
    for folder in "$other"/iapdoctor.artifactbundle/iapdoctor-*/; do
        [ -d "$folder" ] && cp -R "$folder" "$bundle/"
    done
done

# The binary's tarball, deterministic (fixed owner and times): the binary and the man page. On
# Linux, bin/iapdoctor is the launcher (scripts/linux/iapdoctor) that finds libxml2 under either
# soname, the binary is libexec/iapdoctor/iapdoctor, and libexec/iapdoctor/libxml2-16/ holds the
# libxml2.so.2 that loads libxml2.so.16 (scripts/linux/libxml2-shim.sh).
if [ "$(uname -s)" = Linux ]; then
    bash scripts/linux/libxml2-shim.sh "$bundle/$variant/bin/iapdoctor" "$out/.libxml2.so.2"
    python3 scripts/release-pack.py tarball "$out/$variant.tar.gz" "$variant" \
        "bin/iapdoctor=scripts/linux/iapdoctor" "libexec/iapdoctor/iapdoctor=$bundle/$variant/bin/iapdoctor" \
        "libexec/iapdoctor/libxml2-16/libxml2.so.2=$out/.libxml2.so.2" "share/man/man1/iapdoctor.1=docs/man/iapdoctor.1"
    rm -f "$out/.libxml2.so.2"
else
    python3 scripts/release-pack.py tarball "$out/$variant.tar.gz" "$variant" \
        "bin/iapdoctor=$bundle/$variant/bin/iapdoctor" "share/man/man1/iapdoctor.1=docs/man/iapdoctor.1"
fi
# The bundle: info.json from the variant folders it holds, zipped deterministically.
python3 scripts/release-pack.py bundle "$bundle" "$version"
# The source, as the formula builds it.
git archive --format=tar --prefix="iapdoctor-$version/" HEAD | gzip -n -9 > "$out/iapdoctor-$version-source.tar.gz"

(cd "$out" && python3 "$OLDPWD/scripts/release-pack.py" sums SHA256SUMS ./*.tar.gz iapdoctor.artifactbundle.zip)
if [ -n "$tag" ]; then
    python3 scripts/release-pack.py formula Formula/iapdoctor.rb "$version" "$out/iapdoctor-$version-source.tar.gz"
    python3 scripts/release-pack.py plugin iapdoctor-plugin "$out/iapdoctor-plugin" "$version" "$out/iapdoctor.artifactbundle.zip"
fi
if [ "$plugin" = yes ]; then
    rm -rf iapdoctor-plugin/iapdoctor.artifactbundle
    cp -R "$bundle" iapdoctor-plugin/iapdoctor.artifactbundle
fi
echo "release: $version in $out"
(cd "$out" && ls -l ./*.tar.gz iapdoctor.artifactbundle.zip SHA256SUMS | awk '{print "  " $5 "\t" $9}')
