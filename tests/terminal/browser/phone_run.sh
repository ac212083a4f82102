#!/usr/bin/env bash
# ctest driver for the card-on-the-customer's-phone browser test (phone.test.js): the pinned
# playwright-core (npm ci, cached in the build dir, shared with run.sh), a cashier in a temp
# data dir's store, `balcao serve` on a free port over it with the shipped card settings (keyed
# entry off) and a 60 s card session (the expiry case waits for it), then the test in Debian's
# /usr/bin/chromium (headless) with zbarimg decoding the touchscreen's QR from a screenshot.
# The steps: serve_for_browser.sh.
# usage: phone_run.sh <balcao executable> <work dir under the build tree>
set -euo pipefail
command -v zbarimg >/dev/null || { echo "zbarimg is required (zbar-tools; deploy/install-deps.sh)" >&2; exit 1; }
source "$(dirname "$0")/serve_for_browser.sh" "$1" "$2" phone.test.js
export BALCAO_CASHIER=ana BALCAO_CASHIER_PIN=4821
add_operator "$BALCAO_CASHIER" "$BALCAO_CASHIER_PIN" cashier
start_serve <<CONF
{"merchant": {"name": "PADARIA DO ZE"},
 "checkout": {"card_session_expiration_s": 60, "poll_interval_s": 1, "max_installments": 3}}
CONF
run_test phone.test.js 80 BALCAO_DATA="$DATA"
