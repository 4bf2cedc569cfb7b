#!/usr/bin/env bash
# tests/perf/real_check.sh — the perf gate on real callgrind runs (part of `make test`).
#
# A tiny workload (pipeline fast, scalar, the first 64 puzzles of the 17-clue sample: about
# 3 million instructions, a second under callgrind) is made into a scratch baseline. Then:
#   - the same driver passes, with identical counts (the measure is deterministic);
#   - the slowed driver (tests/perf/slowdown.c: sb_solve wrapped by a loop burner in a
#     test-only build under build/perf-test/) burning turns worth +0.5% per solve passes at
#     the default 2% threshold;
#   - burning turns worth +25% fails with exit 1 and the entry flagged, and passes again
#     with PERF_THRESHOLD-style --threshold 50.
#   The turns are sized from the workload's own counts (a calibration run at 1000 turns
#   gives the instructions of one turn), not fixed: a fixed number of turns is a different
#   percentage of a solver that got faster, and the 25% case once measured +52%.
#   - the parser's inclusive sb_solve count equals what callgrind reports when it collects
#     only inside sb_solve (--toggle-collect), so the two ways to measure agree.
#
# Usage: tests/perf/real_check.sh DRIVER SLOWED_DRIVER   (run from the repository root)

set -u
DRIVER=$1
SLOW=$2
DATA=datasets/samples/17_clue_2000.txt
. tests/perf/check_lib.sh "perf real check"

# Runs the check with DRIVER $1 and extra arguments; sets RC, output in $TMP/out.
check() {
    local driver=$1
    shift
    "${GATE[@]}" check --driver "$driver" --baseline "$TMP/base.json" \
        --datasets "$DATA" "$@" >"$TMP/out" 2>&1
    RC=$?
}

if ! "${GATE[@]}" baseline --driver "$DRIVER" --out "$TMP/base.json" \
        --only fast:scalar --puzzles 64 --datasets "$DATA" >"$TMP/out" 2>&1; then
    bad "baseline of the tiny workload"
    echo "$PASS passed, $FAIL failed"
    exit 1
fi
ENTRY=fast/scalar/17_clue_2000

# Instructions of one burner turn, and the turns that add a given fraction of the workload.
if ! PERF_TEST_SLOWDOWN=1000 "${GATE[@]}" baseline --driver "$SLOW" \
        --out "$TMP/cal.json" --only fast:scalar --puzzles 64 --datasets "$DATA" \
        >"$TMP/out" 2>&1; then
    bad "calibration of the loop burner"
    echo "$PASS passed, $FAIL failed"
    exit 1
fi
turns_for() {
    python3 - "$TMP/base.json" "$TMP/cal.json" "$1" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))["entries"][0]
cal = json.load(open(sys.argv[2]))["entries"][0]
per_turn = (cal["solve_ir"] - base["solve_ir"]) / (1000 * base["puzzles"])
print(max(1, round(float(sys.argv[3]) * base["solve_ir"] / base["puzzles"] / per_turn)))
PY
}
SMALL=$(turns_for 0.005)
BIG=$(turns_for 0.25)

check "$DRIVER"
if [ $RC -eq 0 ] && grep -q "^| $ENTRY .* +0.00% .* ok " "$TMP/out"; then
    ok "unchanged build passes with identical counts"
else bad "unchanged build passes with identical counts (exit $RC)"; fi

PERF_TEST_SLOWDOWN=$SMALL check "$SLOW"
if [ $RC -eq 0 ] && grep -q "^| $ENTRY .* ok " "$TMP/out" && ! grep -q "+0.00%" "$TMP/out"; then
    ok "a slowdown under the threshold (+0.5%, $SMALL turns) is measured and passes"
else bad "a slowdown under the threshold (+0.5%) is measured and passes (exit $RC)"; fi

PERF_TEST_SLOWDOWN=$BIG check "$SLOW"
if [ $RC -eq 1 ] && grep -q "^| $ENTRY .* REGRESSION " "$TMP/out" && grep -q "FAIL$" "$TMP/out"; then
    ok "an injected slowdown (+25%, $BIG turns) fails and names the entry"
else bad "an injected slowdown (+25%) fails and names the entry (exit $RC)"; fi

PERF_TEST_SLOWDOWN=$BIG check "$SLOW" --threshold 50
if [ $RC -eq 0 ]; then
    ok "the threshold is configurable"
else bad "the threshold is configurable (exit $RC)"; fi

# The gate's figure against callgrind's own collection limited to sb_solve.
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["entries"][0]["solve_ir"])' \
    "$TMP/base.json")
valgrind --tool=callgrind --toggle-collect=sb_solve --callgrind-out-file="$TMP/toggle.out" \
    "$DRIVER" fast scalar 64 "$DATA" >"$TMP/out" 2>&1
got=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$TMP/toggle.out")
if [ -n "$want" ] && [ "$want" = "$got" ]; then
    ok "inclusive sb_solve count = callgrind --toggle-collect=sb_solve ($got)"
else
    echo "parser $want, toggle-collect $got" >>"$TMP/out"
    bad "inclusive sb_solve count = callgrind --toggle-collect=sb_solve"
fi

echo "perf real check: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
