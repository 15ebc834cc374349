#!/usr/bin/env bash
# Rewrites the golden outputs beside each example (expected.txt, expected.json and the CI formats
# of the examples that exercise them) from the built binary, and what the rules' own examples make
# them say (Tests/Fixtures/rule-examples.txt): the golden tests in bless mode, so the
# list of examples, inputs, formats and exit codes lives in one place
# (Tests/IAPDoctorTests/GoldenTests.swift). Fails, writing nothing for that format, when the tool
# crashes or exits with another code than the table says. Review the diff before committing.
# Runs with the bash 3.2 of macOS too.
set -euo pipefail
cd "$(dirname "$0")/.."
IAPDOCTOR_BLESS=1 swift test --filter 'GoldenTests|RuleExampleOutputTests'
git diff --stat -- examples Tests/Fixtures/rule-examples.txt 2>/dev/null || true
