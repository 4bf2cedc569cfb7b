#!/usr/bin/env bash
# tests/datasets/multi.sh — the multi-solution benchmark corpus and its generator
# (scripts/datasets/make_multi.py, datasets/README.md), checked against the dancing-links oracle.
#
# Usage: tests/datasets/multi.sh BINARY GCHECK   (run from the repo root; `make test-multi`)
#
# GCHECK (tests/cli/gcheck.c) counts each puzzle to 2 with tests/dlx.c, which shares no code
# with the library: fed one "multiple" per puzzle, it fails every puzzle whose oracle count is
# not >= 2. That is asserted for a small instance of the generator (with 1 and with 3 givens
# removed) and for the whole committed corpus, which must also be what the script makes: its
# first puzzles are the small instance's (puzzle i depends only on the seed and i).

set -u
BIN=${1:-build/sudokubench}
GCHECK=${2:-build/tests/gcheck}
ROOT=$PWD
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
case $GCHECK in /*) ;; *) GCHECK=$ROOT/$GCHECK ;; esac
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}
CORPUS=$ROOT/datasets/multi/multi_2000_seed1.txt
MAKE_MULTI=$ROOT/scripts/datasets/make_multi.py
. "$ROOT/tests/cli/harness.sh" multi

# oracle_multi FILE: every puzzle line of FILE has >= 2 solutions by the oracle
oracle_multi() {
    grep -v '^#' "$1" >p.$$
    local n
    n=$(wc -l <p.$$)
    [ "$n" -gt 0 ] || { echo "$1: no puzzles"; return; }
    yes multiple | head -n "$n" | timeout "$TIMEOUT" "$GCHECK" solve 3x3 p.$$ ||
        echo "$1: the oracle counts fewer than 2 solutions for the puzzles above"
}
# givens FILE: the number of givens of each puzzle line
givens() { grep -v '^#' "$1" | awk '{ print gsub(/[1-9]/, "&") }'; }

t_small() {
    timeout "$TIMEOUT" python3 "$MAKE_MULTI" "$BIN" --count 40 --seed 1 -o a.txt || echo "make_multi exit $?"
    timeout "$TIMEOUT" python3 "$MAKE_MULTI" "$BIN" --count 40 --seed 1 >b.txt || echo "make_multi (stdout) exit $?"
    cmp -s a.txt b.txt || echo "two runs with the same seed differ"
    [ "$(grep -vc '^#' a.txt)" = 40 ] || echo "want 40 puzzles, got $(grep -vc '^#' a.txt)"
    oracle_multi a.txt
    # Each puzzle is generate's minimal puzzle i with exactly one given blanked, the rest kept.
    timeout "$TIMEOUT" "$BIN" generate -n 40 --minimal --seed 1 >src.txt || echo "generate exit $?"
    paste -d' ' src.txt <(grep -v '^#' a.txt) | awk '{
        d = 0
        for (i = 1; i <= 81; i++) {
            s = substr($1, i, 1); m = substr($2, i, 1)
            if (s != m && !(m == "." && s != ".")) { print "line " NR ": cell " i " changed " s " -> " m; exit }
            d += s != m
        }
        if (d != 1) { print "line " NR ": " d " givens removed, want 1"; exit }
    }'
}
tcase "make_multi: 40 puzzles, deterministic, one given less than generate --minimal, >= 2 solutions each by the oracle" t_small

t_remove3() {
    timeout "$TIMEOUT" python3 "$MAKE_MULTI" "$BIN" --count 20 --seed 7 --remove 3 -o c.txt || echo "make_multi exit $?"
    oracle_multi c.txt
    "$BIN" generate -n 20 --minimal --seed 7 >src7.txt
    paste -d' ' <(givens src7.txt) <(givens c.txt) | awk '$1 - $2 != 3 { print "line " NR ": " $1 " -> " $2 " givens"; exit }'
}
tcase "make_multi --remove 3 --seed 7: three givens less each, >= 2 solutions each by the oracle" t_remove3

t_corpus() {
    [ -f "$CORPUS" ] || { echo "$CORPUS missing"; return; }
    [ "$(grep -vc '^#' "$CORPUS")" = 2000 ] || echo "$CORPUS: want 2000 puzzles"
    oracle_multi "$CORPUS"
    timeout "$TIMEOUT" python3 "$MAKE_MULTI" "$BIN" --count 40 --seed 1 -o a.txt
    cmp -s <(grep -v '^#' a.txt) <(grep -v '^#' "$CORPUS" | head -n 40) ||
        echo "$CORPUS is not what 'scripts/datasets/make_multi.py --seed 1' makes (regenerate it: make multi-corpus)"
}
tcase "datasets/multi: 2000 puzzles, each >= 2 solutions by the oracle, as make_multi.py makes them" t_corpus

DUG=$ROOT/datasets/multi/dug_2000_seed1.txt
MAKE_DUG=$ROOT/scripts/datasets/make_dug.py

t_dug() {
    timeout "$TIMEOUT" python3 "$MAKE_DUG" "$BIN" --count 60 --seed 1 -o d.txt || echo "make_dug exit $?"
    [ "$(grep -vc '^#' d.txt)" = 60 ] || echo "want 60 puzzles, got $(grep -vc '^#' d.txt)"
    oracle_multi d.txt
    givens d.txt | awk '$1 < 30 || $1 > 40 { print "line " NR ": " $1 " givens, want 30-40"; exit }'
    # Each puzzle keeps cells of one of generate's solutions, in index order, and only them.
    timeout "$TIMEOUT" "$BIN" generate -n 1024 --seed 1 -f tdoku | cut -d: -f3 >grids.txt
    python3 - d.txt grids.txt <<'PY' || echo "a dug puzzle is no subset of generate's grids in order"
import sys
dug = [l.strip() for l in open(sys.argv[1]) if not l.startswith("#")]
grids = [l.strip() for l in open(sys.argv[2])]
j = 0
for d in dug:
    while j < len(grids) and any(c != "." and c != g for c, g in zip(d, grids[j])):
        j += 1
    if j == len(grids):
        sys.exit(1)
    j += 1
PY
    cmp -s <(grep -v '^#' d.txt) <(grep -v '^#' "$DUG" | head -n 60) ||
        echo "$DUG is not what 'scripts/datasets/make_dug.py --seed 1' makes (regenerate it: make dug-corpus)"
    [ "$(grep -vc '^#' "$DUG")" = 2000 ] || echo "$DUG: want 2000 puzzles"
    givens "$DUG" | awk '$1 < 30 || $1 > 40 { print "'"$DUG"' line " NR ": " $1 " givens"; exit }'
    oracle_multi "$DUG"
}
tcase "make_dug: 30-40 givens of generate's grids in order, >= 2 solutions each by the oracle; datasets/multi/dug as it makes it" t_dug

t_errors() {
    local rc
    python3 "$MAKE_MULTI" "$BIN" --count 0 >o 2>e; rc=$?
    [ "$rc" = 2 ] && grep -q 'need --count >= 1' e || echo "--count 0: exit $rc, $(head -c 200 e)"
    python3 "$MAKE_MULTI" "$BIN" --remove 17 >o 2>e; rc=$?
    [ "$rc" = 2 ] && grep -q '1 <= --remove <= 16' e || echo "--remove 17: exit $rc, $(head -c 200 e)"
    python3 "$MAKE_MULTI" ./no-such-binary >o 2>e; rc=$?
    [ "$rc" = 2 ] && grep -q 'make_multi: cannot run ./no-such-binary' e || echo "missing binary: exit $rc, $(head -c 200 e)"
    python3 "$MAKE_MULTI" /bin/false >o 2>e; rc=$?
    [ "$rc" = 2 ] && grep -q "make_multi: '/bin/false generate -n 2000 --minimal --seed 1' failed (exit 1" e ||
        echo "failing generator: exit $rc, $(head -c 200 e)"
    [ ! -s o ] || echo "a failed run wrote to stdout"
}
tcase "make_multi: usage errors exit 2, a generator that fails or is missing is named" t_errors

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
