#!/usr/bin/env bash
# Installs what iapdoctor needs to build and run, on Debian/Ubuntu (as root or with sudo) and
# macOS; with --tests, also what the tests and benchmarks need (CI passes it). Idempotent: does
# nothing when everything is already there. apt's own output goes to a log, named on failure.
#
#   bash scripts/bootstrap.sh           # build and run: libxml2, zlib, pkg-config
#   bash scripts/bootstrap.sh --tests   # and the tests' tools: Chromium, Ruby, xmllint, Python modules…
set -euo pipefail

tests=0
for argument in "$@"; do
  case "$argument" in
    --tests) tests=1 ;;
    *) echo "usage: bash scripts/bootstrap.sh [--tests]" >&2; exit 2 ;;
  esac
done

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
log="${TMPDIR:-/tmp}/iapdoctor-bootstrap.log"
apt_install() {
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  echo "installing with apt-get: $*"
  if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
    tail -20 "$log" >&2
    echo "apt-get failed; its whole output is in $log" >&2
    exit 1
  fi
}

if command -v apt-get >/dev/null 2>&1; then
  # libxml2-dev: the XML reader; zlib1g-dev: zlib, the .ipa reader's inflate; pkg-config: finds both.
  packages=(libxml2-dev zlib1g-dev pkg-config)
  # The tests: libyaml-dev: system libyaml for tools (Yams vendors its own copy); libxml2-utils:
  # xmllint, the benchmark baseline; time: GNU time (/usr/bin/time -v), the benchmark's peak
  # memory; ruby: the release test checks Formula/iapdoctor.rb with `ruby -c`; unzip: the release
  # test's artifact bundle is unzipped.
  [ "$tests" -eq 1 ] && packages+=(libyaml-dev libxml2-utils time ruby unzip)
  for pkg in "${packages[@]}"; do
    have_pkg "$pkg" || need_apt+=("$pkg")
  done
  # chromium: ReportTests opens the HTML report in headless Chromium (rendered DOM, screenshot).
  # Any Chromium or Chrome on PATH will do (Ubuntu's apt `chromium` is only a snap stub).
  if [ "$tests" -eq 1 ]; then
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
      || command -v google-chrome >/dev/null 2>&1 || have_pkg chromium || need_apt+=(chromium)
  fi
  if [ "${#need_apt[@]}" -gt 0 ]; then apt_install "${need_apt[@]}"; fi
elif [ "$(uname)" = "Darwin" ]; then
  # The SDK brings libxml2 and its module map; /usr/bin/time is BSD time (-l); no pkg-config needed.
  xcode-select -p >/dev/null 2>&1 || { echo "install the Xcode command line tools: xcode-select --install" >&2; exit 1; }
  # The browser tests use Google Chrome or Chromium from /Applications; without one they are
  # skipped, by name, outside CI.
  [ "$tests" -eq 0 ] || [ -x "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" ] || [ -x "/Applications/Chromium.app/Contents/MacOS/Chromium" ] \
    || echo "note: no Google Chrome in /Applications; the report's browser tests will be skipped" >&2
fi

command -v swift >/dev/null 2>&1 || { echo "Swift 6 is required: https://www.swift.org/install" >&2; exit 1; }

# Python modules, imported by the python3 on PATH: jsonschema (ReporterTests validates the SARIF
# report against its schema; SchemaTests checks schemas/ and validates the examples against them)
# and yaml (SchemaTests reads the example descriptors; scripts/embed-rules.py composes rules.yaml
# when scripts/generate.sh runs). pip first; a Debian system Python refuses pip (PEP 668), so fall back
# to Debian's packages.
[ "$tests" -eq 1 ] || exit 0
command -v python3 >/dev/null 2>&1 || { echo "python3 is required by the tests" >&2; exit 1; }
for entry in jsonschema:jsonschema:python3-jsonschema yaml:PyYAML:python3-yaml; do
  IFS=: read -r module pip_name apt_name <<<"$entry"
  python3 -c "import $module" 2>/dev/null && continue
  # --user: the python3 of Apple's Command Line Tools cannot install into its own folder.
  python3 -m pip install --quiet "$pip_name" 2>/dev/null || python3 -m pip install --quiet --user "$pip_name" 2>/dev/null || {
    command -v apt-get >/dev/null 2>&1 || { echo "install the Python $pip_name package for python3" >&2; exit 1; }
    apt_install "$apt_name"
  }
  python3 -c "import $module" || { echo "$pip_name is still not importable by $(command -v python3)" >&2; exit 1; }
done
