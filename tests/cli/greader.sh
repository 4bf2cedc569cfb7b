#!/usr/bin/env bash
# tests/cli/greader.sh — the CLI over the library's reader and rater of any geometry (
# docs/geometry.md "Reading and rating any geometry"): defects of the reader the CLI had, each
# checked on every command that reads puzzles.
#
# Usage: tests/cli/greader.sh [BINARY]   (default build/sudokubench; run from the repo root)

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" greader
# want_rc GOT WANT WHAT
want_rc() { [ "$1" = "$2" ] || echo "$3: exit $1, want $2"; }

WHY='one character per cell needs N <= 35, not 36: write integers'

# ---- the character form on more than 35 digits --------------------------------------------
# A 36x36 grid (1296 cells, 6x6 picked from the count) written one character per cell cannot
# be written back in that form: it is an invalid record (exit 1, the reason at column 1) in
# every format and in augment, never a puzzle solved and written as an empty record.
t_chars_over_35() {
    local f rc
    python3 -c "print('0' * 1296)" >c36.txt
    for f in solution tdoku csv json pretty; do
        rc=$(sb o e solve -f "$f" c36.txt)
        want_rc "$rc" 1 "solve -f $f"
        grep -q "^sudokubench: c36.txt:1:1: invalid puzzle: $WHY\$" e || { echo "solve -f $f: stderr"; head -n 3 e; }
        # pretty separates records by a blank line; no other format writes one
        grep -q '"puzzle":""\|^:' o && { echo "solve -f $f: an empty record"; head -c 300 o; }
        [ "$f" != pretty ] && grep -q '^$' o && { echo "solve -f $f: an empty line"; head -c 300 o; }
        grep -q 'solved\|multiple' o && { echo "solve -f $f: the line was solved"; head -c 300 o; }
    done
    rc=$(sb o e validate c36.txt)
    want_rc "$rc" 1 "validate"
    grep -q "1 invalid lines" o || { echo "validate: stdout"; cat o; }
    rc=$(sb o e rate c36.txt)
    want_rc "$rc" 1 "rate"
    grep -qx "1,invalid,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,," o || { echo "rate: stdout"; cat o; }
    rc=$(sb o e solve --all -l 1 c36.txt)
    want_rc "$rc" 1 "solve --all"
    rc=$(sb o e augment -n 2 c36.txt)
    want_rc "$rc" 2 "augment"
    grep -q "$WHY" e || { echo "augment: stderr"; head -n 3 e; }
    [ -s o ] && { echo "augment wrote records:"; head -c 200 o; }
    # the same grid in integers is a puzzle and comes back in integers
    python3 -c "print(','.join(['0'] * 1296))" >i36.txt
    rc=$(sb o e solve -l 1 i36.txt)
    want_rc "$rc" 0 "solve -l 1 of the integer form"
    [ "$(tr ',' '\n' <o | grep -c '^[1-9][0-9]*$')" = 1296 ] || { echo "integer form: not 1296 digits"; head -c 200 o; }
}
tcase "more than 35 digits one character per cell: invalid everywhere (exit 1), integers work" t_chars_over_35

# ---- bench's exit code ---------------------------------------------------------------------
# As on 9x9: rows stand, measured on the valid puzzles, and an invalid line makes the exit 1.
t_bench_invalid() {
    local rc
    printf '0000002130040000\nbad\n' >b.txt
    rc=$(sb o e bench --grid 2x2 --seconds 0 b.txt)
    want_rc "$rc" 1 "bench --grid with an invalid line"
    grep -q "^| b.txt | fast | 1 |" o || { echo "bench: no row for the valid puzzle"; cat o; }
    grep -q "b.txt:2:1: invalid puzzle" e || { echo "bench: stderr"; cat e; }
    printf '0000002130040000\n' >good.txt
    rc=$(sb o e bench --grid 2x2 --seconds 0 good.txt)
    want_rc "$rc" 0 "bench --grid, every line valid"
    rc=$(sb o e bench --grid 2x2 --seconds 0 good.txt b.txt)
    want_rc "$rc" 1 "bench --grid, the second file with an invalid line"
    [ "$(grep -c "^| [a-z.]*txt | fast |" o)" = 2 ] && grep -q "| grid 2x2$" o || { echo "bench: two files, not two rows"; cat o; }
    # 9x9 bench, the rule followed
    printf '%s\nbad\n' "$(grep -v '^#' "$ROOT/datasets/samples/top1465.txt" | head -n 1)" >b9.txt
    rc=$(sb o e bench --seconds 0 b9.txt)
    want_rc "$rc" 1 "9x9 bench with an invalid line"
}
tcase "bench --grid: invalid lines give exit 1 as 9x9 bench, the rows stand" t_bench_invalid

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
