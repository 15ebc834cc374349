#!/usr/bin/env bash
# Rewrites the golden outputs beside each example from the built binary (expected.txt,
# expected.json, and every CI format for the two examples that exercise them). Review the diff
# before committing: tests/GoldenTests compares against these files. Absolute paths (the xcode
# format) are written relative to the repository, as the test compares them.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -q
bin=.build/debug/iapdoctor
root="$(pwd)/"

# example folder -> the input to check (a descriptor or a package)
declare -A inputs=(
  [runmonster]=examples/runmonster/project.yaml
  [healthy]=examples/healthy/project.yaml
  [subscriptions]=examples/subscriptions/project.yaml
  [production-propagation]=examples/production-propagation/project.yaml
  [catalog]=examples/catalog/PocketGarden.itmsp
  [catalog-broken]=examples/catalog-broken/Garden.itmsp
  [runmonster-xcode]=examples/runmonster-xcode/project.yaml
  [storekit-broken]=examples/storekit-broken/Products.storekit
)
declare -A extension=(
  [text]=txt [json]=json [sarif]=sarif [junit]=junit.xml [github]=github.txt [xcode]=xcode.txt
  [gitlab]=gitlab.json [checkstyle]=checkstyle.xml [markdown]=md
)
for name in "${!inputs[@]}"; do
  formats="text json"
  case "$name" in runmonster|catalog-broken) formats="${!extension[*]}" ;; storekit-broken) formats="text json sarif" ;; esac
  for format in $formats; do
    NO_COLOR=1 "$bin" check "${inputs[$name]}" --format "$format" | sed "s|$root||g" \
      > "examples/$name/expected.${extension[$format]}" || true
  done
done
