#!/usr/bin/env bash
# The main job for a new user: installs what is needed, builds `balcao`, and runs the demo
# against the embedded bank sandbox (no credentials, no internet): a Pix sale, card sales
# (one through a 3-D Secure challenge) and an invoice, each with its receipt, then the
# bank's ledger. Extra arguments go to `balcao demo` (e.g. --keep to leave the sandbox up).
# `deploy/run.sh serve [options]` runs the box's service instead: the cashier's touchscreen
# web app at http://127.0.0.1:8080/ on the embedded sandbox (`balcao serve`).
# It builds in the repository and runs in the caller's directory: the demo's files
# (./balcao-demo) and the service's data (./balcao-data) land where the command was typed.
# BALCAO_PREBUILT=/path/to/balcao skips the install and the build (the README test uses it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${BALCAO_PREBUILT:-}" ]; then
  BALCAO=$BALCAO_PREBUILT
else
  export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/balcao-ccache}
  bash "$ROOT/deploy/install-deps.sh"
  cmake -S "$ROOT" -B "$ROOT/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$ROOT/build" -j "$(nproc)" --target balcao
  BALCAO=$ROOT/build/terminal/balcao
fi
if [ "${1:-}" = serve ]; then
  shift
  exec "$BALCAO" serve "$@"
fi
exec "$BALCAO" demo "$@"
