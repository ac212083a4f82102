#!/usr/bin/env bash
# The package's whole life on a scratch copy of this machine: `dpkg -i` (maintainer scripts
# for real: user, folders, statoverride, units enabled), the service's user creating the
# store, a reinstall that keeps an edited conffile, `dpkg -r`, `dpkg -P`, each checked.
#   deploy/package/install-check.sh PATH.deb     (root; run by deploy/package-check.sh)
# It re-runs itself in new mount and PID namespaces where /etc, /usr and /var are overlays
# on throwaway folders and /run is an empty tmpfs: dpkg, adduser and the scripts write only
# there, no systemd is reachable (the scripts' `[ -d /run/systemd/system ]` is false), and
# every process it starts ends with it. The machine itself is left as it was.
set -euo pipefail

if [ "${BALCAO_INSTALL_CHECK_INSIDE:-}" != 1 ]; then
  deb=$(realpath "$1")
  scratch=$(mktemp -d /tmp/balcao-install-check.XXXXXX)
  status=0
  BALCAO_INSTALL_CHECK_INSIDE=1 unshare --mount --pid --fork --propagation private \
    bash "$(realpath "$0")" "$deb" "$scratch" || status=$?
  # The namespaces are gone with their last process, and the overlays with them.
  rm -rf "$scratch"
  exit "$status"
fi

deb=$1
scratch=$2
for dir in etc usr var; do
  mkdir -p "$scratch/$dir.upper" "$scratch/$dir.work"
  mount -t overlay overlay -o "lowerdir=/$dir,upperdir=$scratch/$dir.upper,workdir=$scratch/$dir.work" "/$dir"
done
mount -t tmpfs tmpfs /run

fail() {
  echo "install-check: FAIL: $*" >&2
  exit 1
}
expect_stat() {  # path "mode owner:group"
  local got
  got=$(stat -c '%a %U:%G' "$1") || fail "$1 is missing"
  [ "$got" = "$2" ] || fail "$1 is $got, expected $2"
}
have_user() { getent passwd balcao >/dev/null; }

if have_user; then fail "this machine already has a balcao user: the check needs a box without one"; fi

echo "install-check: dpkg -i $(basename "$deb")"
dpkg -i "$deb"
have_user || fail "postinst did not create the balcao user"
[ "$(getent passwd balcao | cut -d: -f6,7)" = /var/lib/balcao:/usr/sbin/nologin ] ||
  fail "balcao user: $(getent passwd balcao)"
[ "$(id -u balcao)" -lt 1000 ] || fail "balcao is not a system user (uid $(id -u balcao))"
expect_stat /var/lib/balcao "750 balcao:balcao"
expect_stat /var/log/balcao "750 balcao:balcao"
expect_stat /etc/balcao/balcao.conf "640 root:balcao"
expect_stat /usr/bin/balcao "755 root:root"
[ -L /etc/systemd/system/multi-user.target.wants/balcao.service ] || fail "balcao.service is not enabled"
[ -L /etc/systemd/system/timers.target.wants/balcao-settle.timer ] || fail "balcao-settle.timer is not enabled"
runuser -u balcao -- balcao --version

echo "install-check: the service's user opens the store in /var/lib/balcao"
# setpriv execs balcao itself (runuser would stand between it and the SIGTERM below).
setpriv --reuid balcao --regid balcao --init-groups balcao serve --port 0 --data-dir /var/lib/balcao \
  >"$scratch/serve.out" 2>"$scratch/serve.err" &
serve_pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's#^balcao serve: listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$scratch/serve.out")
  [ -n "$port" ] && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || fail "serve did not start: $(cat "$scratch/serve.err")"
curl -sf "http://127.0.0.1:$port/api/status" >/dev/null || fail "GET /api/status"
kill -TERM "$serve_pid"
wait "$serve_pid" || fail "serve did not stop cleanly on SIGTERM"
expect_stat /var/lib/balcao/balcao.db "600 balcao:balcao"

echo "install-check: reinstall keeps an edited conffile and its statoverride"
echo '// edited on this box' >>/etc/balcao/balcao.conf
dpkg -i "$deb"
grep -q '^// edited on this box$' /etc/balcao/balcao.conf || fail "the reinstall replaced the edited balcao.conf"
expect_stat /etc/balcao/balcao.conf "640 root:balcao"

echo "install-check: dpkg -r keeps the conffiles and the data"
dpkg -r balcao
[ ! -e /usr/bin/balcao ] || fail "/usr/bin/balcao left after dpkg -r"
[ -f /etc/balcao/balcao.conf ] || fail "dpkg -r removed the conffile"
[ -f /var/lib/balcao/balcao.db ] || fail "dpkg -r removed the store"

echo "install-check: dpkg -P removes the conffiles, the statoverride and the logs; keeps the store and the user"
dpkg -P balcao
[ ! -e /etc/balcao/balcao.conf ] || fail "dpkg -P left /etc/balcao/balcao.conf"
[ ! -e /etc/logrotate.d/balcao ] || fail "dpkg -P left /etc/logrotate.d/balcao"
if dpkg-statoverride --list /etc/balcao/balcao.conf >/dev/null; then fail "dpkg -P left the statoverride"; fi
[ ! -e /var/log/balcao ] || fail "dpkg -P left /var/log/balcao"
[ ! -e /etc/systemd/system/multi-user.target.wants/balcao.service ] || fail "dpkg -P left the unit enabled"
[ -f /var/lib/balcao/balcao.db ] || fail "dpkg -P removed the store (the sale journal is kept)"
have_user || fail "dpkg -P removed the balcao user (kept: it owns the kept store)"
echo "install-check: ok"
