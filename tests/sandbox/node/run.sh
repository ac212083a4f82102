#!/usr/bin/env bash
# ctest driver for the official Node SDK test: starts `balcao sandbox` on free ports with a
# temp data dir, installs the pinned SDK (npm ci, cached in the build dir), runs node --test,
# stops the sandbox. Fails when node or npm is missing.
# usage: run.sh <balcao executable> <work dir under the build tree>
set -euo pipefail
CLI=$1
WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
TESTS=(sdk.test.js divergences.test.js seeded.test.js)
bash "$HERE/../../npm_ci.sh" "$HERE" "$WORK" "${TESTS[@]/#/$HERE/}" "$HERE/sandbox_sdk.js"
DATA=$(mktemp -d)
"$CLI" sandbox --port 0 --https-port 0 --data-dir "$DATA/data" --db :memory: > "$DATA/sandbox.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 600); do
  [ -s "$DATA/data/credentials.json" ] && grep -q listening "$DATA/sandbox.log" && break
  sleep 0.1
done
[ -s "$DATA/data/credentials.json" ] || { cat "$DATA/sandbox.log"; echo "sandbox did not start" >&2; exit 1; }
cd "$WORK"
# One file at a time: they share the sandbox, and some move its clock.
for t in "${TESTS[@]}"; do
  SANDBOX_DATA_DIR="$DATA/data" node --test "$t" || { echo "--- sandbox log"; cat "$DATA/sandbox.log"; exit 1; }
done
