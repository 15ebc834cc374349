#!/usr/bin/env bash
# Builds the launcher's libxml2-16/libxml2.so.2 (scripts/linux/iapdoctor) for BINARY:
#
#   scripts/linux/libxml2-shim.sh BINARY OUT.so
#
# An empty library named libxml2.so.2 that needs libxml2.so.16. It defines the symbol versions
# BINARY asks of libxml2.so.2 (LIBXML2_2.4.30, ...), so the loader is satisfied and prints no
# "no version information available"; the functions come from libxml2.so.16, which has no symbol
# versions (libxml2 2.14 dropped them), and a versioned reference binds to an unversioned symbol.
set -euo pipefail
if [ $# -ne 2 ]; then sed -n '2,9p' "$0" >&2; exit 2; fi
binary=$1
out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")

# The version names in BINARY's requirements of libxml2.so.2 (readelf's .gnu.version_r listing).
versions=$(readelf -V --wide "$binary" | awk '/section/ { f = 0 } /File: / { f = ($5 == "libxml2.so.2") } f && /Name: / { print $3 }')
if [ -z "$versions" ]; then
    echo "libxml2-shim: $binary requires no symbol version of libxml2.so.2 (does it link libxml2?)" >&2
    exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
for version in $versions; do printf '%s { };\n' "$version"; done > versions.map
: > empty.c
# Any C compiler driver links it: cc where installed, else the Swift toolchain's clang.
compiler=${CC:-$(command -v cc || command -v clang || true)}
if [ -z "$compiler" ]; then echo "libxml2-shim: no C compiler (cc or clang) to link the shim" >&2; exit 2; fi
# A stand-in libxml2.so.16 to link against, so the shim records it as needed (DT_NEEDED).
"$compiler" -shared -nostdlib -o libxml2.so.16 empty.c -Wl,-soname,libxml2.so.16
"$compiler" -shared -nostdlib -o "$out" empty.c -Wl,-soname,libxml2.so.2 -Wl,--version-script=versions.map \
    -Wl,--no-as-needed -L. -l:libxml2.so.16
strip --strip-unneeded "$out"
