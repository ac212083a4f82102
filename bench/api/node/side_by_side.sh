#!/usr/bin/env bash
# `balcao api` and the bank's official Node SDK side by side, in one run against one
# `balcao sandbox` over HTTPS (figures in docs/performance.md, "api"): each creates N invoices
# in batches of 100 and lists them back. balcao: `api create --json @- --jsonl` (JSON Lines
# on stdin) and `api list invoice --all --jsonl`, each under /usr/bin/time (CPU = user +
# system of the process, startup included; peak RSS). The SDK (pinned in
# tests/sandbox/node/package.json, installed by tests/npm_ci.sh under the build dir): one
# node process, CPU per phase from process.cpuUsage, peak RSS of the process.
# usage: bench/api/node/side_by_side.sh BUILD_DIR [N] [LATENCY]
set -euo pipefail
BUILD=$(cd "$1" && pwd)
N=${2:-5000}
LATENCY=${3:-0ms}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BALCAO=$BUILD/terminal/balcao
WORK=$BUILD/bench/api/node_sdk
bash "$ROOT/tests/npm_ci.sh" "$ROOT/tests/sandbox/node" "$WORK" "$ROOT/tests/sandbox/node/sandbox_sdk.js" \
  "$HERE/side_by_side.js"
DATA=$(mktemp -d)
"$BALCAO" sandbox --no-seed --data-dir "$DATA/bank" --port 0 --https-port 0 --latency "$LATENCY" > "$DATA/sandbox.log" 2>&1 &
SANDBOX=$!
trap 'kill $SANDBOX 2>/dev/null; wait $SANDBOX 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 100); do grep -q listening "$DATA/sandbox.log" && break; sleep 0.1; done
CRED=$DATA/bank/credentials.json
field() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$CRED" "$1"; }
export BALCAO_CREDENTIALS=$CRED
export BALCAO_BANK_URL
BALCAO_BANK_URL=$(field httpsUrl)
export BALCAO_CA_FILE
BALCAO_CA_FILE=$(field tlsCertPath)

/usr/bin/python3 -c '
import json, sys
for i in range(int(sys.argv[1])):
    print(json.dumps({"amount": 1000 + i % 9000, "name": "Maria da Silva", "taxId": "337.451.076-08",
                      "tags": ["cli-side-by-side"]}, separators=(",", ":")))
' "$N" > "$DATA/invoices.jsonl"
measure() {  # measure LABEL COMMAND: CPU us per item, peak RSS
  /usr/bin/time -f '%U %S %M %e' -o "$DATA/time.txt" sh -c "$2"
  read -r user sys rss wall < <(tail -n 1 "$DATA/time.txt")
  echo "balcao $1: $(echo "scale=1; ($user + $sys) * 1000000 / $N" | bc) us CPU per item, wall ${wall}s, peak RSS $((rss / 1024)) MB"
}
measure "create in batches of 100" "'$BALCAO' api create invoice --json @- --jsonl < '$DATA/invoices.jsonl' > '$DATA/created.jsonl'"
measure "list all" "'$BALCAO' api list invoice --all --jsonl --tags cli-side-by-side > '$DATA/listed.jsonl'"
echo "balcao items: created $(wc -l < "$DATA/created.jsonl"), listed $(wc -l < "$DATA/listed.jsonl")"
(cd "$WORK" && SANDBOX_DATA_DIR=$DATA/bank node side_by_side.js "$N" sdk-side-by-side | sed 's/^/node sdk: /')
