#!/usr/bin/env bash
# Regenerates what is derived from rules.yaml: the copy embedded in the binary and docs/rules/.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/embed-rules.py
swift run -q iapdoctor rules --write-docs docs/rules
