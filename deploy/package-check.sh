#!/usr/bin/env bash
# Builds the Debian package (deploy/package.sh) and checks it as a store box would take it
# (docs/adr/0003-debian-package-with-cpack.md): lintian with no errors; the binary stripped,
# its symbols in the -dbgsym; the units verified by systemd-analyze and their sandboxing
# exposure at most 3.0; the shipped config's folders matching the units'; the extracted
# binary reporting the project's version; then the maintainer scripts for real on a
# throwaway copy of this machine (deploy/package/install-check.sh). Run by deploy/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
MAX_EXPOSURE=3.0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

fail() {
  echo "package-check: FAIL: $*" >&2
  exit 1
}
step() { echo "package-check: $*"; }

# package.sh's output goes on to ours (not through `tee /dev/stderr`: reopening a redirected
# stderr truncates the caller's log file); its last line names the package.
package_out=$(mktemp)
bash deploy/package.sh | tee "$package_out"
deb=$(tail -n 1 "$package_out")
rm -f "$package_out"
[ -f "$deb" ] || fail "deploy/package.sh did not name a package (last line: '$deb')"
dbgsym=${deb/\/balcao_/\/balcao-dbgsym_}
dbgsym=${dbgsym%.deb}.ddeb
[ -f "$dbgsym" ] || fail "no debug symbols package beside $deb"
version=$(sed -n 's/^project(balcao VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || fail "no project(balcao VERSION ...) in CMakeLists.txt"

scratch=$(mktemp -d /tmp/balcao-package-check.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

step "lintian $(basename "$deb")"
# Fails on errors; warnings and infos are shown (overrides: deploy/package/lintian-overrides).
status=0
lint_out=$(lintian --fail-on error --display-info "$deb" 2>&1) || status=$?
echo "$lint_out" | grep -v '^running with root privileges' || true
[ "$status" -eq 0 ] || fail "lintian found errors (exit $status)"

step "extract into $scratch/root"
dpkg-deb -x "$deb" "$scratch/root"
binary=$scratch/root/usr/bin/balcao
file -b "$binary" | grep -q ', stripped' || fail "/usr/bin/balcao is not stripped: $(file -b "$binary")"
build_id=$(readelf -n "$binary" | sed -n 's/^ *Build ID: //p')
[ "$(dpkg-deb -f "$dbgsym" Build-Ids)" = "$build_id" ] ||
  fail "$(basename "$dbgsym") holds Build-Ids '$(dpkg-deb -f "$dbgsym" Build-Ids)', the binary is $build_id"
case "$(dpkg-deb -f "$deb" Version)" in
  "$version"-[0-9]*) ;;
  *) fail "package version $(dpkg-deb -f "$deb" Version) is not $version-<revision>" ;;
esac

step "systemd-analyze verify (ExecStart pointed at the extracted binary)"
# verify checks that ExecStart's program exists and that `man balcao(1)` (Documentation=)
# resolves: copies of the units run the extracted binary, MANPATH finds the extracted page.
units_dir=$scratch/root/lib/systemd/system
mkdir "$scratch/units"
for unit in balcao.service balcao-settle.service balcao-settle.timer balcao-hub.service; do
  [ -f "$units_dir/$unit" ] || fail "the package has no /lib/systemd/system/$unit"
  sed "s#^ExecStart=/usr/bin/balcao #ExecStart=$binary #" "$units_dir/$unit" >"$scratch/units/$unit"
done
grep -q "^ExecStart=$binary " "$scratch/units/balcao.service" || fail "balcao.service's ExecStart is not /usr/bin/balcao"
# verify exits 0 on unknown keys and bad values (it only prints them): any output fails.
verify_out=$(cd "$scratch/units" && MANPATH=$scratch/root/usr/share/man \
  systemd-analyze verify balcao.service balcao-settle.service balcao-settle.timer balcao-hub.service 2>&1) ||
  fail "systemd-analyze verify: $verify_out"
[ -z "$verify_out" ] || fail "systemd-analyze verify: $verify_out"

step "systemd-analyze security (at most $MAX_EXPOSURE)"
threshold=$(awk -v e="$MAX_EXPOSURE" 'BEGIN { printf "%d", e * 10 }')  # its scale is 0..100
for unit in balcao.service balcao-settle.service; do
  report=$(systemd-analyze security --offline=true --threshold="$threshold" "$units_dir/$unit" 2>&1) ||
    fail "$unit: $(echo "$report" | grep -E '✗|Overall')"
  echo "$report" | grep 'Overall exposure'
done
# With the USB printer drop-in applied (a drop-in's lines read after the unit's).
cat "$units_dir/balcao.service" "$scratch/root/usr/share/doc/balcao/examples/printer-usb.conf" \
  >"$scratch/balcao-usb-printer.service"
report=$(systemd-analyze security --offline=true --threshold="$threshold" "$scratch/balcao-usb-printer.service" 2>&1) ||
  fail "balcao.service with printer-usb.conf: $(echo "$report" | grep -E '✗|Overall')"
echo "$report" | grep 'Overall exposure'

step "the shipped config's folders are the units' (StateDirectory, LogsDirectory)"
/usr/bin/python3 deploy/package/conf_paths.py "$scratch/root/etc/balcao/balcao.conf" \
  "$units_dir/balcao.service" "$units_dir/balcao-settle.service"

step "the extracted binary runs"
got=$("$binary" --version)
[ "$got" = "balcao $version" ] || fail "balcao --version printed '$got', expected 'balcao $version'"
echo "$got"

step "install, reinstall, remove, purge on a throwaway copy of this machine"
$SUDO bash "$ROOT/deploy/package/install-check.sh" "$deb"
step "ok: $deb"
