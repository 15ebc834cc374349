#!/usr/bin/env bash
# Resolves the dependencies from scratch and fails unless each direct dependency resolves to the
# exact version Package.swift names. The repository keeps no Package.resolved: a recorded revision
# is the commit id of the copy that resolved it (a package mirror has its own), and SwiftPM refuses
# a revision the other copy of the same tag does not have, so a source build elsewhere would stop
# before compiling (docs/development.md, "Dependencies"). Bash 3.2 compatible.
set -euo pipefail
cd "$(dirname "$0")/.."
if git ls-files --error-unmatch Package.resolved >/dev/null 2>&1; then
  echo "Package.resolved is committed: remove it (git rm --cached Package.resolved); Package.swift pins the versions" >&2
  exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# A copy of the manifest alone: the checkout's own Package.resolved and .build are not consulted.
cp Package.swift "$scratch/"
mkdir -p "$scratch/Sources" "$scratch/Plugins"
( cd "$scratch" && swift package resolve >/dev/null 2>"$scratch/resolve.log" ) || {
  cat "$scratch/resolve.log" >&2
  echo "a clean resolution of Package.swift failed" >&2
  exit 1
}
python3 - "$scratch/Package.resolved" Package.swift <<'EOF'
import json, re, sys
resolved = {pin["location"].rstrip("/").removesuffix(".git").lower(): pin["state"].get("version")
            for pin in json.load(open(sys.argv[1]))["pins"]}
pins = re.findall(r'\.package\(url:\s*"([^"]+)",\s*(\w+):\s*"([^"]+)"\)', open(sys.argv[2]).read())
failed = False
for url, kind, version in pins:
    got = resolved.get(url.rstrip("/").removesuffix(".git").lower())
    if kind != "exact":
        print(f"{url}: `{kind}:` in Package.swift; pin it with `exact:`", file=sys.stderr); failed = True
    elif got != version:
        print(f"{url}: Package.swift pins {version}, resolution gave {got}", file=sys.stderr); failed = True
    else:
        print(f"{url} {version}")
for location, version in sorted(resolved.items()):
    if not any(location == url.rstrip("/").removesuffix(".git").lower() for url, _, _ in pins):
        print(f"{location} {version} (through a direct dependency)")
sys.exit(1 if failed or not pins else 0)
EOF
