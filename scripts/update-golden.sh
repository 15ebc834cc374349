#!/usr/bin/env bash
# Rewrites the golden outputs beside each example (expected.txt, expected.json) from the built
# binary. Review the diff before committing: the golden tests compare against these files.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -q
for dir in examples/*/; do
  name=$(basename "$dir")
  [ -f "$dir/project.yaml" ] || continue
  NO_COLOR=1 .build/debug/iapdoctor check "examples/$name/project.yaml" > "$dir/expected.txt" || true
  .build/debug/iapdoctor check "examples/$name/project.yaml" --format json > "$dir/expected.json" || true
done
