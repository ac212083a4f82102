#!/usr/bin/env bash
# The package's whole life on a scratch copy of this machine: `dpkg -i` (maintainer scripts
# for real: user, folders, statoverride, units enabled); as the balcao user, serve creating the
# store and selling through its embedded sandbox while a settlement runs beside it, both under
# strace, their system calls checked against the units' filter (syscall-check.sh); a
# reinstall that keeps an edited conffile; `dpkg -r`; `dpkg -P`; each step checked.
#   deploy/package/install-check.sh PATH.deb     (root; run by deploy/package-check.sh)
# It re-runs itself in new mount, PID and network namespaces where /etc, /usr and /var are
# overlays on throwaway folders and /run is an empty tmpfs: dpkg, adduser and the scripts
# write only there, no systemd is reachable (the scripts' `[ -d /run/systemd/system ]` is
# false), the network is a loopback of its own, and every process it starts ends with it.
# The machine itself is left as it was.
set -euo pipefail

if [ "${BALCAO_INSTALL_CHECK_INSIDE:-}" != 1 ]; then
  deb=$(realpath "$1")
  # The namespaces need CAP_SYS_ADMIN and a root that is a mount point (a private one keeps the
  # overlays from reaching the machine's mounts). A chroot (its / is a folder), or a container
  # that may not make namespaces, has neither: the check is skipped there, saying why, rather
  # than run on the machine itself.
  unshare_args=(--mount --pid --net --fork --mount-proc --propagation private)
  if ! why=$(unshare "${unshare_args[@]}" true 2>&1); then
    echo "install-check: SKIPPED: this machine cannot make a private mount namespace ($why);" \
      "the package's install, reinstall, remove and purge are checked where it can (not a chroot)"
    exit 0
  fi
  scratch=$(mktemp -d /tmp/balcao-install-check.XXXXXX)
  status=0
  BALCAO_INSTALL_CHECK_INSIDE=1 unshare "${unshare_args[@]}" \
    bash "$(realpath "$0")" "$deb" "$scratch" || status=$?
  # The namespaces are gone with their last process, and the overlays with them.
  rm -rf "$scratch"
  exit "$status"
fi

deb=$1
scratch=$2
here=$(dirname "$(realpath "$0")")
for dir in etc usr var; do
  mkdir -p "$scratch/$dir.upper" "$scratch/$dir.work"
  mount -t overlay overlay -o "lowerdir=/$dir,upperdir=$scratch/$dir.upper,workdir=$scratch/$dir.work" "/$dir"
done
mount -t tmpfs tmpfs /run
ip link set lo up  # a loopback of its own: any port is free, nothing reaches the machine's

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
expect_stat /etc/balcao/keys "750 root:balcao"
expect_stat /etc/balcao/keys/card-kek "440 root:balcao"
expect_stat /usr/bin/balcao "755 root:root"
[ -L /etc/systemd/system/multi-user.target.wants/balcao.service ] || fail "balcao.service is not enabled"
[ -L /etc/systemd/system/timers.target.wants/balcao-settle.timer ] || fail "balcao-settle.timer is not enabled"
runuser -u balcao -- balcao --version

echo "install-check: as balcao, traced: serve (a Pix sale paid at its embedded sandbox) and a settlement beside it"
# setpriv execs strace, which runs balcao itself (runuser would stand between them and SIGTERM).
as_balcao() { setpriv --reuid balcao --regid balcao --init-groups "$@"; }
traces=/run/balcao-traces  # /run is this namespace's own tmpfs; $scratch is root-only
install -d -m 0700 -o balcao -g balcao "$traces"
# Exactly the units' commands: the shipped config (data_dir, listen 127.0.0.1:8080 on this
# namespace's own loopback, log file in /var/log/balcao, the embedded sandbox).
serve_command=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/balcao.service)
settle_command=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/balcao-settle.service)
# shellcheck disable=SC2086 # the unit's command line, split into words as systemd does
as_balcao strace -f -qq -o "$traces/serve.trace" $serve_command >"$scratch/serve.out" 2>"$scratch/serve.err" &
serve_pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's#^balcao serve: listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$scratch/serve.out")
  [ -n "$port" ] && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || fail "serve did not start: $(cat "$scratch/serve.err")"
# The API takes a cashier's session: an operator added as the operations guide says (PIN on
# stdin), then logged in; writes are JSON.
echo 4826 | as_balcao balcao operator add caixa --role cashier >/dev/null || fail "operator add failed"
cookies="$scratch/cookies"
api() {  # METHOD PATH [BODY] -> the answer's body; fails on an HTTP error
  curl -sf -b "$cookies" -c "$cookies" -H 'Content-Type: application/json' -X "$1" ${3:+-d "$3"} \
    "http://127.0.0.1:$port$2" || fail "$1 $2 answered an error"
}
field() { /usr/bin/python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])"; }
api POST /api/login '{"operator": "caixa", "pin": "4826"}' >/dev/null
sale=$(api POST /api/sales '{"amount": 2500}' | field id)
api POST "/api/sales/$sale/method" '{"method": "pix"}' >/dev/null
api POST "/api/sales/$sale/simulate" '{}' >/dev/null
for _ in $(seq 1 100); do
  [ "$(api GET "/api/sales/$sale" | field status)" = paid ] && break
  sleep 0.1
done
[ "$(api GET "/api/sales/$sale" | field status)" = paid ] || fail "the Pix sale $sale was not paid"
today=$(TZ=America/Sao_Paulo date +%F)
settled=0
# The embedded sandbox lives in serve: the settlement reaches it through the credentials
# serve wrote (a configured box names its bank in the config instead).
# shellcheck disable=SC2086
BALCAO_CREDENTIALS=/var/lib/balcao/sandbox/credentials.json as_balcao strace -f -qq -o "$traces/settle.trace" \
  $settle_command --day "$today" >"$scratch/settle.out" 2>&1 || settled=$?
[ "$settled" -le 1 ] || fail "balcao settle beside serve: exit $settled: $(cat "$scratch/settle.out")"
head -2 "$scratch/settle.out"
# The operator's tools find the store through /etc/balcao/balcao.conf, beside the service.
as_balcao balcao journal verify || fail "balcao journal verify beside serve"
as_balcao balcao queue list >/dev/null || fail "balcao queue list beside serve"
kill -TERM "$(pgrep -u balcao -x balcao)"
wait "$serve_pid" || fail "serve did not stop cleanly on SIGTERM"
expect_stat /var/lib/balcao/balcao.db "600 balcao:balcao"
expect_stat /var/log/balcao/balcao.log "600 balcao:balcao"
grep -q 'serve: listening' /var/log/balcao/balcao.log || fail "the operator log has no 'listening' record"
# The units' SystemCallFilter= and MemoryDenyWriteExecute=yes (which refuses any mapping
# made executable after the start, and any writable+executable one) against what ran.
bash "$here/syscall-check.sh" /lib/systemd/system/balcao.service "$traces/serve.trace"
bash "$here/syscall-check.sh" /lib/systemd/system/balcao-settle.service "$traces/settle.trace"
if grep -hE 'mprotect\(.*PROT_EXEC|mmap\(.*PROT_WRITE\|PROT_EXEC' "$traces"/*.trace; then
  fail "serve or settle asked for executable memory after the start: MemoryDenyWriteExecute=yes refuses it"
fi

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
