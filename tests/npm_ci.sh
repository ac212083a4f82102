#!/usr/bin/env bash
# Installs a test's pinned npm packages into its work dir under the build tree (npm ci, once
# per package-lock.json) and copies its test files beside them. Shared by the Node SDK test
# and the browser test. Fails when node or npm is missing.
# usage: npm_ci.sh <test source dir> <work dir> <file>...
set -euo pipefail
HERE=$1
WORK=$2
shift 2
command -v node >/dev/null || { echo "node is required for this test (deploy/install-deps.sh)" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm is required for this test (deploy/install-deps.sh)" >&2; exit 1; }
mkdir -p "$WORK"
cp "$HERE/package.json" "$HERE/package-lock.json" "$@" "$WORK/"
if ! cmp -s "$HERE/package-lock.json" "$WORK/node_modules/.balcao-lock" 2>/dev/null; then
  (cd "$WORK" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$HERE/package-lock.json" "$WORK/node_modules/.balcao-lock"
fi
