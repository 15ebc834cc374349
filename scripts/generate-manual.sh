#!/usr/bin/env bash
# Regenerates docs/man/iapdoctor.1 from the commands' help (swift-argument-parser's
# GenerateManual plugin). ManualTests fails when an option is missing from the committed page.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --allow-writing-to-package-directory generate-manual --date 2026-11-22 --authors "iapdoctor contributors"
cp .build/plugins/GenerateManual/outputs/IAPDoctorCLI/iapdoctor.1 docs/man/iapdoctor.1
echo "wrote docs/man/iapdoctor.1 (view it with: man ./docs/man/iapdoctor.1)"
