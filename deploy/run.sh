#!/usr/bin/env bash
# The main job for a new user: installs what is needed, builds `balcao`, and runs the demo
# against the embedded bank sandbox (no credentials, no internet): a Pix sale, card sales
# (one through a 3-D Secure challenge) and an invoice, each with its receipt, then the
# bank's ledger. Extra arguments go to `balcao demo` (e.g. --keep to leave the sandbox up).
# `deploy/run.sh serve [options]` runs the box's service instead: the cashier's touchscreen
# web app at http://127.0.0.1:8080/ on the embedded sandbox (`balcao serve`).
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/balcao-ccache}
bash deploy/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target balcao
if [ "${1:-}" = serve ]; then
  shift
  exec ./build/terminal/balcao serve "$@"
fi
exec ./build/terminal/balcao demo "$@"
