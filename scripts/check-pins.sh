#!/usr/bin/env bash
# Resolves the dependencies and fails if any resolves to another version than Package.resolved
# pins. The committed Package.resolved was recorded on the development machines, whose package
# mirror has its own commit ids: where packages come from GitHub (a Mac, GitHub Actions), SwiftPM
# re-resolves each pin to the same version and rewrites its revision (Package.resolved then shows
# as modified; do not commit that). Versions are what must not change. Bash 3.2 compatible.
set -euo pipefail
cd "$(dirname "$0")/.."
pins() {
  python3 -c 'import json, sys
for pin in sorted(json.load(open(sys.argv[1]))["pins"], key=lambda p: p["identity"]):
    print(pin["identity"], pin["state"].get("version"))' "$1"
}
before=$(pins Package.resolved)
swift package resolve
after=$(pins Package.resolved)
if [ "$before" != "$after" ]; then
  echo "dependencies resolved to other versions than Package.resolved pins:" >&2
  echo "pinned:   $before" >&2
  echo "resolved: $after" >&2
  exit 1
fi
echo "pinned versions kept:"
echo "$before"
