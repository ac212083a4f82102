#!/usr/bin/env bash
# Which system calls, seen in strace outputs, would a unit's SystemCallFilter= refuse?
#   deploy/package/syscall-check.sh UNIT_FILE STRACE_OUTPUT...
# The first SystemCallFilter= line is the allow-list, each later "~" line takes calls out of
# it (systemd's rule), @groups expanded by `systemd-analyze syscall-filter` of this machine's
# systemd. Prints each refused call with a line of the trace that made it; exit 1 if any.
# The build machines have no systemd as PID 1 to run the unit: this is how a filter too tight
# for the code (a new library call) shows before a store box refuses it with EPERM.
set -euo pipefail
unit=$1
shift

expand() {  # a system call name or an @group -> system call names
  case $1 in
    @*) systemd-analyze syscall-filter "$1" | awk '/^    [@a-z0-9_]/ { print $1 }' |
          while read -r name; do expand "$name"; done ;;
    *) echo "$1" ;;
  esac
}

allowed="" denied=""
while IFS= read -r value; do
  if [ -z "$allowed" ] && [ "${value:0:1}" != "~" ]; then
    for group in $value; do allowed+=$(expand "$group")$'\n'; done
  elif [ "${value:0:1}" = "~" ]; then
    for group in ${value:1}; do denied+=$(expand "$group")$'\n'; done
  else
    for group in $value; do allowed+=$(expand "$group")$'\n'; done
  fi
done < <(sed -n 's/^SystemCallFilter=//p' "$unit")
[ -n "$allowed" ] || { echo "syscall-check: $unit has no SystemCallFilter= allow-list" >&2; exit 1; }

permitted=$(comm -23 <(sort -u <<<"$allowed") <(sort -u <<<"$denied"))
used=$(sed -nE 's/^[0-9]+ +([a-z_0-9]+)\(.*/\1/p' "$@" | sort -u)
refused=$(comm -23 <(echo "$used") <(echo "$permitted"))
if [ -n "$refused" ]; then
  for call in $refused; do
    echo "syscall-check: $(basename "$unit") refuses $call: $(grep -hm1 -E "^[0-9]+ +$call\(" "$@")"
  done
  exit 1
fi
echo "syscall-check: $(basename "$unit") allows all $(wc -l <<<"$used") system calls traced"
