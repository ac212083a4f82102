#!/usr/bin/env bash
# The repository must build and pass its tests on its own, as a lone clone: nothing may read
# or cite a folder beside it. Run by deploy/test.sh before the build; exits non-zero with the
# offending files listed.
#   1. No tracked file (except the Markdown under docs/) names the sibling folder of the
#      project's source documents (`$SIBLING` below, with its notes, vectors and seeds): test data lives in tests/data/ (tests/data/README.md).
#   2. No C++ or JavaScript source outside tests/ cites outside notes or tickets in its
#      comments (`wire.md §`, `style.md G<digit>`, `reliability.md §`, `issue <number>`):
#      comments say why in their own words, and cite docs/ (docs/style.md S15). An error
#      (CITATIONS_ARE_ERRORS=1); 0 would only warn.
set -euo pipefail
cd "$(dirname "$0")/.."
# Spelled in two parts so that this checker does not itself name the folder it looks for.
SIBLING="sha""red"

CITATIONS_ARE_ERRORS=1
SELF=deploy/check-standalone.sh

# Tracked files, NUL-separated; outside a git checkout, every file but build output.
list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z
  else
    find . -type f ! -path './.git/*' ! -path './build*' ! -path '*/node_modules/*' -printf '%P\0'
  fi
}

# Reads NUL-separated paths on stdin; prints those whose text matches the extended regex $1
# (case-insensitive when $2 is -i).
files_matching() {
  local pattern=$1 case_flag=${2:-}
  xargs -0 -r grep -lIsE $case_flag -e "$pattern" -- || true
}

outside_paths=$(list_files |
  while IFS= read -r -d '' f; do
    case "$f" in
      "$SELF" | docs/*.md) ;;
      *) printf '%s\0' "$f" ;;
    esac
  done | files_matching "\\.\\./${SIBLING}|${SIBLING}/(notes|vectors|seeds)")

citations=$(list_files |
  while IFS= read -r -d '' f; do
    case "$f" in
      "$SELF" | tests/*) ;;
      *.cc | *.h | *.js) printf '%s\0' "$f" ;;
    esac
  done | files_matching 'wire\.md §|style\.md G[0-9]|reliability\.md §|\bissue #?[0-9]+' -i)

status=0
if [ -n "$outside_paths" ]; then
  echo "check-standalone: FAIL: these files refer to ../${SIBLING} or ${SIBLING}/(notes|vectors|seeds);" >&2
  echo "  the repository must not depend on anything beside it (test data: tests/data/):" >&2
  sed 's/^/  /' <<<"$outside_paths" >&2
  status=1
fi
if [ -n "$citations" ]; then
  if [ "$CITATIONS_ARE_ERRORS" = 1 ]; then
    echo "check-standalone: FAIL: sources outside tests/ cite outside notes or issue numbers" >&2
    status=1
  else
    echo "check-standalone: warning: sources outside tests/ cite outside notes or issue numbers" >&2
  fi
  echo "  ('wire.md §', 'style.md G<digit>', 'reliability.md §', 'issue <number>'); say it in" >&2
  echo "  the comment's own words instead:" >&2
  sed 's/^/  /' <<<"$citations" >&2
fi
if [ "$status" = 0 ]; then
  echo "check-standalone: ok (no file refers to a folder beside the repository)"
fi
exit "$status"
