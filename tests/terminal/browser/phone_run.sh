#!/usr/bin/env bash
# ctest driver for the card-on-the-customer's-phone browser test (phone.test.js): the pinned
# playwright-core (npm ci, cached in the build dir, shared with run.sh), a cashier in a temp
# data dir's store, `balcao serve` on a free port over it with the shipped card settings (keyed
# entry off) and a 60 s card session (the expiry case waits for it), then the test in Debian's
# /usr/bin/chromium (headless) with zbarimg decoding the touchscreen's QR from a screenshot.
# usage: phone_run.sh <balcao executable> <work dir under the build tree>
set -euo pipefail
CLI=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
WORK=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
[ -x /usr/bin/chromium ] || { echo "/usr/bin/chromium is required (deploy/install-deps.sh installs it)" >&2; exit 1; }
command -v zbarimg >/dev/null || { echo "zbarimg is required (zbar-tools; deploy/install-deps.sh)" >&2; exit 1; }
bash "$HERE/../../npm_ci.sh" "$HERE" "$WORK" "$HERE/phone.test.js" "$HERE/screen_check.js"
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
mkdir -p "$DATA/data"
export BALCAO_CASHIER=ana BALCAO_CASHIER_PIN=4821
echo "$BALCAO_CASHIER_PIN" | "$CLI" --log-file "$DATA/balcao.log" operator add "$BALCAO_CASHIER" --role cashier \
  --db "$DATA/data/balcao.db"
cat > "$DATA/balcao.conf" <<CONF
{"merchant": {"name": "PADARIA DO ZE"},
 "checkout": {"card_session_expiration_s": 60, "poll_interval_s": 1, "max_installments": 3}}
CONF
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
BALCAO_URL="$URL" SCREENSHOT_DIR="$WORK" BALCAO_DATA="$DATA" node --test phone.test.js || {
  echo "--- serve output"; cat "$DATA/serve.out"; echo "--- serve log"; tail -n 80 "$DATA/balcao.log"; exit 1; }
