#!/usr/bin/env bash
# The App Store Connect pull and check at catalog scale: the release binary pulls a synthetic
# catalog of N products (ten In-App Purchases to a subscription, each in 175 territories) from a
# loopback server, then checks the snapshot. Prints requests, time, peak memory and bytes.
# Usage: scripts/bench-asc-scale.sh [N ...]   (default: 1100 11000)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
swift build -c release --product iapdoctor >/dev/null
swift build --build-tests >/dev/null
binary="$(swift build -c release --show-bin-path)/iapdoctor"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1100 11000)
printf '| products | requests | pull | pull peak | snapshot | check | check peak |\n|---|---|---|---|---|---|---|\n'
for products in "${sizes[@]}"; do
  dir="$(mktemp -d)"
  IAPDOCTOR_ASC_SCALE="$products" IAPDOCTOR_ASC_SCALE_DIR="$dir" \
    swift test --skip-build --filter "ASCScaleServer" >"$dir/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do [ -s "$dir/base-url" ] && break; sleep 0.5; done
  { read -r url; read -r keyid; read -r issuer; } <"$dir/base-url"
  IAPDOCTOR_ASC_BASE_URL="$url" /usr/bin/time -f '%e %M' -o "$dir/pull.time" \
    "$binary" asc pull --bundle-id com.example.synthetic.coins -o "$dir/asc-snapshot.json" \
    --key-id "$keyid" --issuer-id "$issuer" --private-key "$dir/AuthKey.p8" 2>"$dir/pull.log"
  touch "$dir/done"
  wait "$server" || true
  cat >"$dir/project.yaml" <<YAML
version: 1
environment: review
app: { name: Synthetic Catalog, platform: ios, bundle_id: com.example.synthetic.coins }
app_store_connect: { snapshot: asc-snapshot.json }
YAML
  /usr/bin/time -f '%e %M' -o "$dir/check.time" "$binary" check "$dir/project.yaml" --format json >"$dir/check.json" 2>/dev/null || true
  requests="$(sed -n 's/.* from \([0-9]*\) requests.*/\1/p' "$dir/pull.log")"
  read -r pull_s pull_kb < <(tail -1 "$dir/pull.time")
  read -r check_s check_kb < <(tail -1 "$dir/check.time")
  bytes="$(stat -c %s "$dir/asc-snapshot.json")"
  printf '| %s | %s | %s s | %s MB | %s MB | %s s | %s MB |\n' "$products" "$requests" "$pull_s" "$((pull_kb / 1024))" \
    "$((bytes / 1000000))" "$check_s" "$((check_kb / 1024))"
  [ -n "${KEEP:-}" ] && echo "kept $dir" >&2 || rm -rf "$dir"
done
