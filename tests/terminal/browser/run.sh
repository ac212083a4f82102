#!/usr/bin/env bash
# ctest driver for the touchscreen browser test: installs the pinned playwright-core (npm ci,
# cached in the build dir), creates a cashier and a supervisor in a temp data dir's store with
# `balcao operator add` (PIN on stdin, as root does on a box), starts `balcao serve` on a free
# port over that data dir (the embedded sandbox), runs touchscreen.test.js against it in
# Debian's /usr/bin/chromium (headless), then stops serve. The screenshots land in the work dir.
# A third argument names another test file of this folder (layout.test.js), run the same way
# against a serve of its own. The steps: serve_for_browser.sh.
# usage: run.sh <balcao executable> <work dir under the build tree> [test file]
set -euo pipefail
TEST_FILE=${3:-touchscreen.test.js}
source "$(dirname "$0")/serve_for_browser.sh" "$1" "$2" "$TEST_FILE"
export BALCAO_CASHIER=ana BALCAO_CASHIER_PIN=4821 BALCAO_SUPERVISOR=bruno BALCAO_SUPERVISOR_PIN=736451
add_operator "$BALCAO_CASHIER" "$BALCAO_CASHIER_PIN" cashier
add_operator "$BALCAO_SUPERVISOR" "$BALCAO_SUPERVISOR_PIN" supervisor
# The card form typed on the touchscreen is the exception a store turns on (docs/adr/0009).
start_serve <<<'{"card": {"keyed_entry": true}}'
run_test "$TEST_FILE" 50 BALCAO_CLI="$CLI" BALCAO_SANDBOX_CREDENTIALS="$DATA/data/sandbox/credentials.json"
