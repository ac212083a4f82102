#!/usr/bin/env bash
# The nightly settlement of a day at scale against a bank with real latency (figures in
# docs/performance.md, "settlement"). Seeds DIR once (balcao_settlement_day seed), then:
#   1. starts `balcao sandbox --latency LATENCY` on DIR/bank;
#   2. fetches the pages the run reads, alone (balcao_settlement_day pages): the floor;
#   3. runs `balcao settle --dry-run --json` with /usr/bin/time (wall, CPU, peak RSS), and
#      reads bankCalls from its report;
#   4. the same with BEFORE_BALCAO (an executable built from before the change), when given,
#      and compares the two reports.
# With SENDS=1, each executable runs once more under strace to count its requests from its
# sendto(2) system calls (one request, one send on a plain-HTTP keep-alive connection; checked
# against bankCalls on the current executable): the count for the executable before the
# change, which does not report it.
# usage: bench/settlement/day.sh BUILD_DIR DIR [SALES] [LATENCY] [BEFORE_BALCAO]
set -euo pipefail
BUILD=$(cd "$1" && pwd)
DIR=$2
SALES=${3:-10000}
LATENCY=${4:-50ms}
BEFORE=${5:-}
BALCAO=$BUILD/terminal/balcao
DAYTOOL=$BUILD/bench/settlement/balcao_settlement_day

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
if [ ! -s "$DIR/box.db" ]; then
  echo "seeding $SALES sales into $DIR (once)" >&2
  "$DAYTOOL" seed "$DIR" "$SALES" > "$DIR/seed.json"
fi
echo "seed: $(cat "$DIR/seed.json" 2>/dev/null)"
DAY=$(date -u -d @$(( $(date -u +%s) - 3 * 3600 )) +%F)  # America/Sao_Paulo is UTC-3

"$BALCAO" sandbox --no-seed --data-dir "$DIR/bank" --port 0 --https-port 0 --latency "$LATENCY" > "$DIR/sandbox.log" 2>&1 &
SANDBOX=$!
trap 'kill $SANDBOX 2>/dev/null; wait $SANDBOX 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q listening "$DIR/sandbox.log" && break; sleep 0.1; done
case $LATENCY in 0|0ms) ;; *) grep -q "latency: $LATENCY" "$DIR/sandbox.log" || { cat "$DIR/sandbox.log"; exit 1; } ;; esac
export BALCAO_CREDENTIALS=$DIR/bank/credentials.json

echo "pages alone (4 connections): $("$DAYTOOL" pages "$BALCAO_CREDENTIALS" "$DAY" 4)"
echo "pages alone (1 connection):  $("$DAYTOOL" pages "$BALCAO_CREDENTIALS" "$DAY" 1)"

settle() {  # settle EXECUTABLE LABEL
  local out=$DIR/settle-$2
  /usr/bin/time -f '%e %U %S %M' -o "$out.time" "$1" --log-level info --log-file "$out.log" \
    settle --db "$DIR/box.db" --day "$DAY" --dry-run --json > "$out.json" || true
  read -r wall user sys rss < <(tail -n 1 "$out.time")  # after "Command exited with non-zero status 1"
  local calls
  calls=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("bankCalls", "-"))' "$out.json")
  local sales
  sales=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["sales"]), d["total"]["count"], d["attention"])' "$out.json")
  echo "$2: wall ${wall}s, CPU $(echo "$user + $sys" | bc)s, peak RSS $((rss / 1024)) MB, bankCalls $calls, sales/counted/attention $sales"
  grep -h "bank read" "$out.log" || true
}
sends() {  # sends EXECUTABLE: requests made, counted from sendto(2)
  strace -f -c -e trace=sendto -o "$DIR/strace.txt" "$1" settle --db "$DIR/box.db" --day "$DAY" --dry-run --json \
    > /dev/null 2>&1 || true
  awk '$NF == "sendto" {print $4}' "$DIR/strace.txt"
}
settle "$BALCAO" after
[ "${SENDS:-0}" = 1 ] && echo "after: sendto calls $(sends "$BALCAO")"
if [ -n "$BEFORE" ]; then
  settle "$BEFORE" before
  [ "${SENDS:-0}" = 1 ] && echo "before: sendto calls $(sends "$BEFORE")"
  # The same report either way: sales, totals, orphans, the day's ledger.
  /usr/bin/python3 - "$DIR/settle-before.json" "$DIR/settle-after.json" <<'PY'
import json, sys
before, after = (json.load(open(p)) for p in sys.argv[1:3])
for report in (before, after):  # what the run feeds carries the run's own time
    for fed in report["fed"]:
        fed["event"].pop("at", None)
keys = ["sales", "totals", "total", "late_returned", "fed", "orphans", "outbox", "attention"]
same = all(before.get(k) == after.get(k) for k in keys)
ledger = {k: v for k, v in after["ledger"].items() if k != "balance"}
same = same and ledger == {k: v for k, v in before["ledger"].items() if k != "balance"}
print("before and after reports:", "identical" if same else "DIFFERENT: " + ", ".join(k for k in keys if before.get(k) != after.get(k)))
PY
fi
