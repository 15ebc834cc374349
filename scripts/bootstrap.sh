#!/usr/bin/env bash
# Installs what iapdoctor needs to build and test, on Debian/Ubuntu (as root or with sudo) and
# macOS. Idempotent: does nothing when everything is already there.
set -euo pipefail

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if command -v apt-get >/dev/null 2>&1; then
  # libxml2-dev: the XML reader; pkg-config: finds it; libyaml-dev: system libyaml for tools
  # (Yams vendors its own copy); libxml2-utils: xmllint, the benchmark baseline.
  for pkg in libxml2-dev pkg-config libyaml-dev libxml2-utils; do
    have_pkg "$pkg" || need_apt+=("$pkg")
  done
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
