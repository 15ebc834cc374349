#!/usr/bin/env bash
# Regenerates what is derived from rules.yaml and the schema: the copy embedded in the binary, the rule
# ids and registry, the descriptor keys (Generated/ folders) and docs/rules/.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/embed-rules.py
python3 scripts/generate-descriptor-keys.py
swift run -q iapdoctor rules --write-docs docs/rules
