#!/usr/bin/env bash
# The fast tier, to run while editing: every test that stays in-process (the readers, the scanner,
# the loaders, the engine, the rules and their examples, the reporters' text), skipping the
# integration suites, which launch the built binary, a browser or Python, build large hostile
# inputs, or serve a loopback App Store Connect or RevenueCat. CI runs both tiers (`swift test`, README).
#
#   scripts/test-fast.sh                 # build the tests, then run the fast tier
#   scripts/test-fast.sh --skip-build    # run it on what is built
# Runs with the bash 3.2 of macOS too.
set -euo pipefail
cd "$(dirname "$0")/.."

# The integration suites, by type name.
integration=(
    GoldenTests ConfinementTests MaliciousInputTests ManualTests ReportTests ReportBrowserTests SchemaTests
    ASCCommandTests ASCScaleTests ASCScaleServer ASCPullTests ASCHostileServerTests ASCPulledEqualsWrittenTests ASCSnapshotTests
    CostTests FindingCostTests FullListingTests HostileSettingsTests HostileManifestTests SecretsTests
    ProjectShapeTests ProjectSettingsTests EvidenceTests AnswerTests ByteEscapingTests InitEscapingTests EntryPointTests BuildCommandTests FixCommandTests ReleaseTests SuppressionTests
)
# Whole targets that are integration tests: RevenueCatTests serves a loopback RevenueCat.
pattern="(IAPDoctorTests|AppStoreConnectTests)\\.($(IFS='|'; echo "${integration[*]}"))|RevenueCatTests\\."

if [ "${1:-}" != "--skip-build" ]; then
    swift build --build-tests
fi
swift test --skip-build --skip "$pattern"
