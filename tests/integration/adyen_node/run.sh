#!/usr/bin/env bash
# ctest driver: Adyen's Node API library, unmodified, against `balcao serve`'s nexo port. A
# register is added with `balcao pos add`; serve runs with its embedded sandbox, the payer
# paying each Pix QR after 2 s, and the certificate's CN Adyen's libraries check
# (nexo.certificate_common_name, docs/integration.md). Fails when node or npm is missing.
# usage: run.sh <balcao executable> <work dir under the build tree>
set -euo pipefail
CLI=$1
WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
bash "$HERE/../../npm_ci.sh" "$HERE" "$WORK" "$HERE/nexo.test.js"
DATA=$(mktemp -d)
"$CLI" pos add CAIXA-1 --data-dir "$DATA/data" > "$DATA/key.json"
echo '{"nexo": {"certificate_common_name": "legacy-terminal-certificate.test.terminal.adyen.com"}}' > "$DATA/box.conf"
"$CLI" --log-file "$DATA/serve.log" serve --port 0 --data-dir "$DATA/data" --config "$DATA/box.conf" \
  --nexo-port 0 --sandbox-autopay 2 > "$DATA/serve.out" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 100); do
  grep -q "embedded sandbox" "$DATA/serve.out" && break
  sleep 0.1
done
URL=$(sed -n 's/^nexo listening on \(https:[^ ]*\)$/\1/p' "$DATA/serve.out")
[ -n "$URL" ] || { cat "$DATA/serve.out"; echo "serve did not open its nexo port" >&2; exit 1; }
cd "$WORK"
NEXO_URL="$URL" NEXO_KEY="$DATA/key.json" NEXO_CERT="$DATA/data/tls/cert.pem" node --test nexo.test.js ||
  { echo "--- serve log"; cat "$DATA/serve.log"; exit 1; }
