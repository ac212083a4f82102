#!/usr/bin/env bash
# ctest driver for the touchscreen browser test: installs the pinned playwright-core (npm ci,
# cached in the build dir), creates a cashier and a supervisor in a temp data dir's store with
# `balcao operator add` (PIN on stdin, as root does on a box), starts `balcao serve` on a free
# port over that data dir (the embedded sandbox), runs touchscreen.test.js against it in
# Debian's /usr/bin/chromium (headless), then stops serve. The screenshots land in the work dir.
# A third argument names another test file of this folder (layout.test.js), run the same way
# against a serve of its own.
# usage: run.sh <balcao executable> <work dir under the build tree> [test file]
set -euo pipefail
CLI=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
WORK=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
[ -x /usr/bin/chromium ] || { echo "/usr/bin/chromium is required (deploy/install-deps.sh installs it)" >&2; exit 1; }
TEST_FILE=${3:-touchscreen.test.js}
bash "$HERE/../../npm_ci.sh" "$HERE" "$WORK" "$HERE/$TEST_FILE" "$HERE/screen_check.js"
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
mkdir -p "$DATA/data"
export BALCAO_CASHIER=ana BALCAO_CASHIER_PIN=4821 BALCAO_SUPERVISOR=bruno BALCAO_SUPERVISOR_PIN=736451
echo "$BALCAO_CASHIER_PIN" | "$CLI" --log-file "$DATA/balcao.log" operator add "$BALCAO_CASHIER" --role cashier \
  --db "$DATA/data/balcao.db"
echo "$BALCAO_SUPERVISOR_PIN" | "$CLI" --log-file "$DATA/balcao.log" operator add "$BALCAO_SUPERVISOR" --role supervisor \
  --db "$DATA/data/balcao.db"
# The card form typed on the touchscreen is the exception a store turns on (docs/adr/0009).
echo '{"card": {"keyed_entry": true}}' > "$DATA/balcao.conf"
"$CLI" --log-file "$DATA/balcao.log" serve --config "$DATA/balcao.conf" --port 0 --data-dir "$DATA/data" \
  > "$DATA/serve.out" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
URL=""
for _ in $(seq 1 200); do
  URL=$(grep -o 'listening on http://127.0.0.1:[0-9]*/' "$DATA/serve.out" | sed 's/listening on //') || true
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { cat "$DATA/serve.out"; echo "balcao serve did not start" >&2; exit 1; }
cd "$WORK"
BALCAO_URL="$URL" SCREENSHOT_DIR="$WORK" BALCAO_CLI="$CLI" BALCAO_SANDBOX_CREDENTIALS="$DATA/data/sandbox/credentials.json" \
  node --test "$TEST_FILE" || {
  echo "--- serve output"; cat "$DATA/serve.out"; echo "--- serve log"; tail -n 50 "$DATA/balcao.log"; exit 1; }
