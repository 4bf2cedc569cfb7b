# tests/perf/check_lib.sh — what the perf gate's tests on real callgrind runs share, sourced
# by real_check.sh and plugin_check.sh: the skip without valgrind, a scratch folder $TMP
# removed on exit, the gate's command ${GATE[@]}, and the ok/bad tally in PASS and FAIL
# (bad shows $TMP/out, where each case leaves its output).
#
# Usage: . tests/perf/check_lib.sh NAME   (NAME: the test's name in its skip line)

PASS=0
FAIL=0

if ! command -v valgrind >/dev/null 2>&1; then
    echo "$1: skipped (valgrind not installed: make deps-perf)"
    exit 0
fi
TMP=$(mktemp -d)
GATE=(env PYTHONPATH="$PWD/scripts" PYTHONDONTWRITEBYTECODE=1 python3 -m sbperf.gate)
trap 'rm -rf "$TMP"' EXIT

ok() { PASS=$((PASS + 1)); echo "ok   $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1"; sed 's/^/     /' "$TMP/out"; }
