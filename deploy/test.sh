#!/usr/bin/env bash
# The whole test suite: installs dependencies, checks the tree needs nothing beside it
# (check-standalone.sh), builds with warnings as errors, runs every test (unit, loopback
# end-to-end against the embedded sandbox, official Node SDK compatibility), the Debian
# package's checks, then the sanitizer run (ASan+UBSan) of the bad-input tests, built while
# the other tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/balcao-ccache}
# Each stage's wall time, printed as it ends: CI's whole run has a budget (docs/performance.md).
stage() { echo "test.sh: $1 done at ${SECONDS} s"; }

bash deploy/install-deps.sh
bash deploy/check-standalone.sh
stage "install and standalone check"

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBALCAO_WERROR=ON >/dev/null
cmake --build build -j "$JOBS"
stage build

# The sanitizer build (ASan+UBSan, Debug) runs beside the tests at the lowest CPU priority: the
# tests spend most of their time waiting on sockets, child processes and timers (about a third
# of 2 cores busy), and the compiler takes only what they leave (docs/performance.md). Its own
# session, so that a failing test run stops it whole.
sanitize=0
[ "${BALCAO_SKIP_SANITIZE:-0}" = 1 ] || sanitize=1
asan_build=
stop_asan_build() { [ -z "$asan_build" ] || kill -- "-$asan_build" 2>/dev/null || true; }
trap stop_asan_build EXIT
if [ "$sanitize" = 1 ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBALCAO_WERROR=ON -DBALCAO_SANITIZE=ON \
        -DBALCAO_BUILD_BENCH=OFF >/dev/null
  setsid -w nice -n 19 cmake --build build-asan -j "$JOBS" --target balcao_sanitize_tests \
    >build-asan/build.log 2>&1 </dev/null &
  asan_build=$!
fi

# The soak loop (label soak, hours long) runs on its own: ctest -L soak (docs/reliability.md).
(cd build && ctest --output-on-failure -j "$JOBS" --timeout 600 -LE soak)
stage tests
# The Debian package of the binary just tested: lintian, systemd units, install and purge.
bash deploy/package-check.sh
stage "package check"

if [ "$sanitize" = 1 ]; then
  if ! wait "$asan_build"; then
    asan_build=
    tail -n 60 build-asan/build.log
    echo "test.sh: the sanitizer build failed (whole log: build-asan/build.log)" >&2
    exit 1
  fi
  asan_build=
  stage "sanitizer build"
  (cd build-asan && ctest --output-on-failure -j "$JOBS" --timeout 900 -L sanitize)
  stage "sanitizer tests"
fi
echo "test.sh: all green"
