#!/usr/bin/env bash
# Installs what iapdoctor needs to build and test, on Debian/Ubuntu (as root or with sudo) and
# macOS. Idempotent: does nothing when everything is already there.
set -euo pipefail

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if command -v apt-get >/dev/null 2>&1; then
  # libxml2-dev: the XML reader; pkg-config: finds it; libyaml-dev: system libyaml for tools
  # (Yams vendors its own copy); libxml2-utils: xmllint, the benchmark baseline; time: GNU time
  # (/usr/bin/time -v), the benchmark's peak memory.
  for pkg in libxml2-dev pkg-config libyaml-dev libxml2-utils time; do
    have_pkg "$pkg" || need_apt+=("$pkg")
  done
  # chromium: ReportTests opens the HTML report in headless Chromium (rendered DOM, screenshot).
  command -v chromium >/dev/null 2>&1 || have_pkg chromium || need_apt+=(chromium)
  if [ "${#need_apt[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
  fi
elif [ "$(uname)" = "Darwin" ]; then
  xcode-select -p >/dev/null 2>&1 || { echo "install the Xcode command line tools: xcode-select --install" >&2; exit 1; }
fi

command -v swift >/dev/null 2>&1 || { echo "Swift 6 is required: https://www.swift.org/install" >&2; exit 1; }

# jsonschema: ReporterTests validates the SARIF report against the schema with the python3 on PATH.
# pip first; a Debian system Python refuses pip (PEP 668), so fall back to its own package.
command -v python3 >/dev/null 2>&1 || { echo "python3 is required by the tests" >&2; exit 1; }
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  python3 -m pip install --quiet jsonschema 2>/dev/null || {
    command -v apt-get >/dev/null 2>&1 || { echo "install the Python jsonschema package for python3" >&2; exit 1; }
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends python3-jsonschema
  }
  python3 -c 'import jsonschema' || { echo "jsonschema is still not importable by $(command -v python3)" >&2; exit 1; }
fi
