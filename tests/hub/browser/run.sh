#!/usr/bin/env bash
# The fleet page's browser test (fleet.test.js), run by HubFleetBrowser (hub_fleet_browser_test.cc)
# once the hub, Caddy and the boxes are up: installs the pinned playwright-core of the
# touchscreen's browser test (tests/terminal/browser/package-lock.json; npm ci, cached in the
# work dir), copies that folder's Chromium launch (chromium.js) beside the test, and runs it in
# Debian's /usr/bin/chromium (headless). The environment carries BALCAO_HUB_URL,
# BALCAO_HUB_USER, BALCAO_HUB_PASSWORD; the screenshots land in the work dir.
# usage: run.sh <work dir under the build tree>
set -euo pipefail
mkdir -p "$1"
WORK=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
[ -x /usr/bin/chromium ] || { echo "/usr/bin/chromium is required (deploy/install-deps.sh installs it)" >&2; exit 1; }
bash "$HERE/../../npm_ci.sh" "$HERE/../../terminal/browser" "$WORK" "$HERE/fleet.test.js" \
  "$HERE/../../terminal/browser/chromium.js"
cd "$WORK"
SCREENSHOT_DIR="$WORK" node --test fleet.test.js
