#!/usr/bin/env bash
# `balcao api` over a large list (figures in docs/performance.md, "api"): starts
# `balcao sandbox` on DIR/bank (LATENCY per answer, default none), stores INVOICES invoices
# once through `balcao api create --json @- --jsonl` (JSON Lines on stdin, sent 100 at a
# time as read), then lists them all with `list invoice --all --jsonl` and as a JSON array,
# each under /usr/bin/time: wall, CPU (user + system) per item and peak RSS.
# usage: bench/api/list_all.sh BUILD_DIR DIR [INVOICES] [LATENCY]
set -euo pipefail
BUILD=$(cd "$1" && pwd)
DIR=$2
INVOICES=${3:-100000}
LATENCY=${4:-0ms}
BALCAO=$BUILD/terminal/balcao
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

"$BALCAO" sandbox --no-seed --data-dir "$DIR/bank" --port 0 --https-port 0 --latency "$LATENCY" > "$DIR/sandbox.log" 2>&1 &
SANDBOX=$!
trap 'kill $SANDBOX 2>/dev/null; wait $SANDBOX 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q listening "$DIR/sandbox.log" && break; sleep 0.1; done
export BALCAO_CREDENTIALS=$DIR/bank/credentials.json

timed() {  # timed LABEL ITEMS COMMAND...: wall, CPU per item, peak RSS
  local label=$1 items=$2
  shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$DIR/time.txt" "$@"
  read -r wall user sys rss < <(tail -n 1 "$DIR/time.txt")
  echo "$label: $items items, wall ${wall}s, CPU $(echo "$user + $sys" | bc)s" \
    "($(echo "scale=2; ($user + $sys) * 1000000 / $items" | bc) us/item), peak RSS $((rss / 1024)) MB"
}

if [ ! -e "$DIR/seeded" ]; then
  /usr/bin/python3 -c '
import json, sys
for i in range(int(sys.argv[1])):
    print(json.dumps({"amount": 1000 + i % 9000, "name": "Maria da Silva", "taxId": "337.451.076-08",
                      "tags": ["bench", "batch-%d" % (i // 100)]}, separators=(",", ":")))
' "$INVOICES" > "$DIR/invoices.jsonl"
  timed "create --json @- --jsonl" "$INVOICES" sh -c "'$BALCAO' api create invoice --json @- --jsonl < '$DIR/invoices.jsonl' > '$DIR/created.jsonl'"
  [ "$(wc -l < "$DIR/created.jsonl")" = "$INVOICES" ] || { echo "created $(wc -l < "$DIR/created.jsonl")" >&2; exit 1; }
  touch "$DIR/seeded"
fi

timed "list invoice --all --jsonl" "$INVOICES" sh -c "'$BALCAO' api list invoice --all --jsonl > '$DIR/listed.jsonl'"
[ "$(wc -l < "$DIR/listed.jsonl")" -ge "$INVOICES" ] || { echo "listed $(wc -l < "$DIR/listed.jsonl")" >&2; exit 1; }
timed "list invoice --all (JSON array)" "$INVOICES" sh -c "'$BALCAO' api list invoice --all > /dev/null"
