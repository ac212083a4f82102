#!/usr/bin/env bash
# The soak loop (ctest -L soak; docs/reliability.md, "Soak"): runs the tests that once hung at
# random, each in a fresh process, BALCAO_SOAK_RUNS times (default 200), and counts passes:
#   - TEF Dial CRT -> sale -> CNF (and its power cuts) against a spawned `balcao serve`;
#   - `balcao serve` started and stopped with operators (sessions, disabling, restarts);
#   - the kill-at-every-point tests (a child process SIGKILLed at each journal write and bank call);
#   - in-process sandboxes started and used at once (the start race of docs/reliability.md, "Soak").
# Every run has a deadline (BALCAO_SOAK_DEADLINE_S, default 600 s): past it the run is killed
# (SIGQUIT first, then SIGKILL) and counted as a hang. The output of every failed or hung run,
# with balcao serve's log (kept by the test fixture), is left in BALCAO_TEST_LOG_DIR.
# BALCAO_SOAK_SETS (names from SETS below, space-separated) runs only those sets: several soak.sh
# side by side, one set each, load the machine as the failures needed and end sooner.
# usage: soak.sh <build dir>
set -uo pipefail
BUILD=$1
RUNS=${BALCAO_SOAK_RUNS:-200}
DEADLINE=${BALCAO_SOAK_DEADLINE_S:-600}
BUILD=$(cd "$BUILD" && pwd)
export BALCAO_TEST_LOG_DIR=${BALCAO_TEST_LOG_DIR:-$BUILD/soak-logs}
mkdir -p "$BALCAO_TEST_LOG_DIR"
# A crashed test process leaves its core dump in its run's directory (with the kernel's default
# core_pattern "core"; /proc/sys/kernel/core_pattern says where else). balcao serve never dumps:
# card numbers pass through its memory; the fixture reports the signal that ended it instead.
ulimit -c unlimited 2>/dev/null || echo "soak: core dumps stay off (ulimit -c unlimited refused)" >&2

# name | binary (under the build dir) | gtest filter
SETS=(
  "tefdial|tests/integration/balcao_tefdial_serve_tests|TefDialServe.*:*/TefDialPowerCut.*"
  "serve-operators|tests/terminal/balcao_serve_tests|ServeSecurity.*:ServeStart.*:ServeRestart.*"
  "kill-points|tests/checkout/balcao_checkout_e2e_tests|CrashE2E.*:DriverE2E.CardSaleSurvivesSigkillAtEveryPoint"
  "kill-points-offline|tests/checkout/balcao_checkout_offline_tests|OfflineE2E.SaleQueuedOfflineSurvivesSigkillAtEveryPoint"
  "sandbox-start|tests/sandbox/balcao_sandbox_engine_lock_tests|SandboxEngineLock*"
  "sandbox-client|tests/sandbox/sandbox_client_e2e_test|ClientEndpointsE2E.*"
)

failed=0
for set in "${SETS[@]}"; do
  IFS='|' read -r name binary filter <<<"$set"
  if [ -n "${BALCAO_SOAK_SETS:-}" ] && [[ " $BALCAO_SOAK_SETS " != *" $name "* ]]; then continue; fi
  if [ ! -x "$BUILD/$binary" ]; then
    echo "soak: $name: $BUILD/$binary is not built" >&2
    failed=1
    continue
  fi
  pass=0 fail=0 hang=0
  for run in $(seq 1 "$RUNS"); do
    log="$BALCAO_TEST_LOG_DIR/$name-$run.log"
    rundir="$BALCAO_TEST_LOG_DIR/$name-$run.d"
    mkdir -p "$rundir"
    (cd "$rundir" && timeout --signal=QUIT --kill-after=10 "$DEADLINE" "$BUILD/$binary" --gtest_filter="$filter") \
      >"$log" 2>&1
    rc=$?
    # A filter that matches nothing passes in gtest: a run must have run tests.
    if [ "$rc" -eq 0 ] && ! grep -q '^\[       OK \]' "$log"; then
      echo "soak: $name: the filter $filter runs no test" >&2
      rc=2
    fi
    if [ "$rc" -eq 0 ]; then
      pass=$((pass + 1))
      rm -rf "$log" "$rundir"
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || [ "$rc" -eq 131 ]; then
      hang=$((hang + 1))
      echo "soak: $name run $run HUNG past ${DEADLINE} s: $log ($(grep -E '^\[ RUN' "$log" | tail -1))"
    else
      fail=$((fail + 1))
      echo "soak: $name run $run FAILED: $log ($(grep -E '^\[  FAILED' "$log" | head -1))"
    fi
    rmdir "$rundir" 2>/dev/null  # kept only with a core dump in it
  done
  echo "soak: $name: $pass/$RUNS passed, $fail failed, $hang hung ($filter)"
  [ "$pass" -eq "$RUNS" ] || failed=1
done
exit "$failed"
