# Sourced by the ctest drivers of this folder (run.sh, phone_run.sh): what every touchscreen
# browser test stands on. Sourcing it with <balcao executable> <work dir> <test file> installs
# the pinned playwright-core (npm ci, cached in the work dir) beside the test, screen_check.js
# and chromium.js, and makes a temp data dir (DATA, removed when the script exits). Then:
#   add_operator NAME PIN ROLE  an operator in DATA's store, the PIN on stdin as root types it
#   start_serve <<<CONFIG       `balcao serve` over DATA with that config (JSON) on a free port
#                               (the embedded sandbox); URL is its address; stopped at exit
#   run_test FILE LINES [NAME=value...]
#                               the test against URL in Debian's headless Chromium, screenshots
#                               in the work dir; on failure serve's output and its log's last LINES
# Also set: CLI (the executable's absolute path), WORK, DATA.
CLI=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
WORK=$(cd "$2" && pwd)
BROWSER_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -x /usr/bin/chromium ] || { echo "/usr/bin/chromium is required (deploy/install-deps.sh installs it)" >&2; exit 1; }
bash "$BROWSER_TESTS/../../npm_ci.sh" "$BROWSER_TESTS" "$WORK" "$BROWSER_TESTS/$3" "$BROWSER_TESTS/screen_check.js" \
  "$BROWSER_TESTS/chromium.js"
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
mkdir -p "$DATA/data"

add_operator() {
  echo "$2" | "$CLI" --log-file "$DATA/balcao.log" operator add "$1" --role "$3" --db "$DATA/data/balcao.db"
}

start_serve() {
  cat > "$DATA/balcao.conf"
  "$CLI" --log-file "$DATA/balcao.log" serve --config "$DATA/balcao.conf" --port 0 --data-dir "$DATA/data" \
    > "$DATA/serve.out" 2>&1 &
  SERVE_PID=$!
  trap 'kill $SERVE_PID 2>/dev/null; wait $SERVE_PID 2>/dev/null; rm -rf "$DATA"' EXIT
  URL=""
  for _ in $(seq 1 200); do
    URL=$(grep -o 'listening on http://127.0.0.1:[0-9]*/' "$DATA/serve.out" | sed 's/listening on //') || true
    [ -n "$URL" ] && break
    sleep 0.1
  done
  [ -n "$URL" ] || { cat "$DATA/serve.out"; echo "balcao serve did not start" >&2; exit 1; }
}

run_test() {
  local file=$1 lines=$2
  shift 2
  cd "$WORK"
  env BALCAO_URL="$URL" SCREENSHOT_DIR="$WORK" "$@" node --test "$file" || {
    echo "--- serve output"; cat "$DATA/serve.out"; echo "--- serve log"; tail -n "$lines" "$DATA/balcao.log"; exit 1; }
}
