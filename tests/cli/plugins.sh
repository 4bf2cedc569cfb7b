#!/usr/bin/env bash
# tests/cli/plugins.sh — solver plug-ins (--plugin FILE, docs/plugins.md): a good plug-in's
# answers cross-checked (9x9 against the fast pipeline's, 16x16 against the dancing-links
# oracle), its bench row, and every broken plug-in of tests/plugins/faulty.c named with its
# exit code: load errors, a wrong solution, a wrong count, a crash, a budget overrun, a slow
# one stopped by a signal it raises itself at a known call, a geometry it refuses.
#
# Usage: tests/cli/plugins.sh [BINARY] [PLUGIN_DIR] [GCHECK]
#        (defaults build/sudokubench, build/plugins, build/tests/gcheck; run from the repo root)

set -u

BIN=${1:-build/sudokubench}
PL=${2:-build/plugins}
GCHECK=${3:-build/tests/gcheck}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PL in /*) ;; *) PL=$PWD/$PL ;; esac
case $GCHECK in /*) ;; *) GCHECK=$PWD/$GCHECK ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" plugins
# want_rc GOT WANT WHAT
want_rc() { [ "$1" = "$2" ] || echo "$3: exit $1, want $2"; }
# want_grep FILE PATTERN
want_grep() { grep -q -- "$2" "$1" || { echo "$1 lacks '$2':"; head -n 5 "$1"; }; }

# Inputs: 9x9 puzzles with one solution (the samples), puzzles with several (a solved grid
# with its first band's givens removed, and the empty grid), one with none (two 1s in a row)
# and an invalid line; 16x16 puzzles with 60% of the cells given (gcheck half: a random full
# grid, cells blanked with a fixed seed; some have one solution, some several).
sol=534678912672195348198342567859761423426853791713924856961537284287419635345286179
# 30 puzzles with one solution from sol: a quarter of the cells blanked (one of four
# patterns) and the digits relabelled (d -> d + i mod 9). Easy for the faulty plug-ins'
# plain backtracking; the verdicts every row is held to are fast's.
awk -v s="$sol" 'BEGIN { for (i = 0; i < 30; i++) { p = ""; for (c = 0; c < 81; c++)
    p = p ((c * 7 + i) % 4 ? (substr(s, c + 1, 1) + i - 1) % 9 + 1 : "."); print p } }' >unique.txt
{
    cat unique.txt
    printf '%s\n' "${sol:0:27}" | tr '1-9' '.........' | tr -d '\n'; printf '%s\n' "${sol:27}"
    printf '%081d\n' 0
    printf '11%079d\n' 0
} >mixed.txt
printf '%s\nnot a puzzle\n' "$(head -n 1 unique.txt)" >invalid.txt
"$GCHECK" half 4x4 8 3 60 >g16.txt

# ---- a good plug-in -----------------------------------------------------------------------

t_solve_same() {
    local a b
    a=$(sb fast.txt fast.err solve -f tdoku mixed.txt)
    b=$(sb naive.txt naive.err solve --plugin "$PL/naive.so" -s naive -f tdoku mixed.txt)
    want_rc "$a" 0 "solve fast"
    want_rc "$b" 0 "solve -s naive"
    cmp -s fast.txt naive.txt || { echo "naive's records differ from fast's:"; diff fast.txt naive.txt | head; }
}
tcase "solve -s naive writes fast's records (0, 1 and 2+ solutions)" t_solve_same

t_option_order() {
    local a
    a=$(sb o.txt o.err solve -s naive --plugin "$PL/naive.so" -f tdoku mixed.txt)
    want_rc "$a" 0 "-s before --plugin"
    cmp -s fast.txt o.txt || echo "-s before --plugin gives other records"
}
tcase "-s may name a plug-in before --plugin loads it" t_option_order

t_validate() {
    local a b
    a=$(sb v1.txt v1.err validate mixed.txt)
    b=$(sb v2.txt v2.err validate --plugin "$PL/naive.so" mixed.txt)
    want_rc "$a" 1 "validate"
    want_rc "$b" 1 "validate --plugin"
    cmp -s v1.txt v2.txt || { echo "summaries differ:"; cat v1.txt v2.txt; }
    cmp -s v1.err v2.err || { echo "diagnostics differ:"; diff v1.err v2.err | head; }
    a=$(sb v3.txt v3.err validate --plugin "$PL/naive.so" --plugin "$PL/test-count.so" mixed.txt)
    want_rc "$a" 2 "validate with two plug-ins"
    want_grep v3.err "one --plugin"
}
tcase "validate --plugin: fast's summary and diagnostics; one plug-in only" t_validate

t_invalid_line() {
    local a
    a=$(sb i.txt i.err solve --plugin "$PL/naive.so" -s naive invalid.txt)
    want_rc "$a" 1 "an invalid line"
    want_grep i.err "invalid.txt:2:"
}
tcase "an invalid line is reported as without a plug-in (exit 1)" t_invalid_line

t_geometry_oracle() {
    local a
    a=$(sb g.txt g.err solve --grid 4x4 --plugin "$PL/naive.so" -s naive -f solution -l 2 g16.txt)
    want_rc "$a" 0 "16x16 solve"
    "$GCHECK" solve 4x4 g16.txt <g.txt || echo "gcheck rejects naive's 16x16 records"
}
tcase "naive on 16x16: the oracle's verdicts, valid solutions" t_geometry_oracle

t_bench_rows() {
    local a
    a=$(sb b.txt b.err bench --plugin "$PL/naive.so" --seconds 0 -t 1 mixed.txt)
    want_rc "$a" 0 "bench --plugin"
    want_grep b.txt "| mixed.txt | fast | 33 |"
    want_grep b.txt "| mixed.txt | naive | 33 |"
    [ "$(grep -c '^| mixed.txt |' b.txt)" = 2 ] || echo "bench --plugin: not two rows"
}
tcase "bench --plugin: rows fast and naive, cross-checked" t_bench_rows

t_bench_pipelines() {
    local a
    a=$(sb b2.txt b2.err bench --pipelines naive,fast --plugin "$PL/naive.so" --seconds 0 -t 1 unique.txt)
    want_rc "$a" 0 "--pipelines naive,fast"
    [ "$(grep '^| unique.txt |' b2.txt | cut -d'|' -f3 | tr -d ' ' | tr '\n' ,)" = "naive,fast," ] ||
        { echo "rows not in --pipelines order:"; cat b2.txt; }
}
tcase "--pipelines names a plug-in's row where it stands" t_bench_pipelines

# ---- load errors: exit 2, the file and the reason named -----------------------------------

t_load() { # FAULT PATTERN
    local a
    a=$(sb l.txt l.err bench --plugin "$PL/test-$1.so" unique.txt)
    want_rc "$a" 2 "$1"
    want_grep l.err "test-$1.so"
    want_grep l.err "$2"
    [ ! -s l.txt ] || echo "$1: a table was printed"
}
t_abi() { t_load abi "built for plug-in ABI 1001"; }
t_noentry() { t_load noentry "no symbol 'sb_plugin_entry'"; }
t_name() { t_load name "name 'fast' is a built-in pipeline's"; }
t_missing() {
    local a
    a=$(sb m.txt m.err solve --plugin ./no-such.so unique.txt)
    want_rc "$a" 2 "a missing file"
    want_grep m.err "no-such.so"
}
t_twice() {
    local a
    a=$(sb w.txt w.err solve --plugin "$PL/naive.so" --plugin "$PL/naive.so" unique.txt)
    want_rc "$a" 2 "the same plug-in twice"
    want_grep w.err "a plug-in named 'naive' is loaded already"
}
tcase "ABI version mismatch is refused by name" t_abi
tcase "a missing entry symbol is refused by name" t_noentry
tcase "a plug-in named as a built-in pipeline is refused" t_name
tcase "a plug-in file that does not exist is named" t_missing
tcase "two plug-ins of one name are refused" t_twice

t_geometry_refused() {
    local a
    a=$(sb r.txt r.err solve --plugin "$PL/test-geometry.so" -s faulty unique.txt)
    want_rc "$a" 2 "9x9 through a 16x16-only plug-in"
    want_grep r.err "plug-in 'faulty' does not solve 9x9 grids"
    [ ! -s r.txt ] || echo "records were written"
}
tcase "a plug-in that refuses the geometry is named before any work" t_geometry_refused

# ---- wrong answers: bench exits 2 naming the plug-in and the puzzle -----------------------

t_wrong_solution() {
    local a
    a=$(sb ws.txt ws.err bench --plugin "$PL/test-wrong.so" --seconds 0 -t 1 unique.txt)
    want_rc "$a" 2 "a wrong solution"
    want_grep ws.err "plug-in 'faulty' gave a wrong answer for puzzle 1 of unique.txt"
    a=$(sb ws2.txt ws2.err solve --plugin "$PL/test-wrong.so" -s faulty unique.txt)
    want_rc "$a" 2 "solve with a wrong solution"
    want_grep ws2.err "unique.txt:1: plug-in 'faulty' broke its contract"
}
tcase "a wrong solution is named (bench and solve, exit 2)" t_wrong_solution

t_wrong_count() {
    local a
    a=$(sb wc.txt wc.err bench --plugin "$PL/test-count.so" --seconds 0 -t 1 mixed.txt)
    want_rc "$a" 2 "a wrong count"
    want_grep wc.err "pipelines disagree on puzzle 31 of mixed.txt: fast says multiple, faulty says solved"
}
tcase "a wrong count is caught by the verdict cross-check" t_wrong_count

# ---- crashes, budgets, signals ------------------------------------------------------------

t_crash() {
    local a
    a=$(sb c.txt c.err solve --plugin "$PL/test-crash.so" -s faulty -t 1 unique.txt)
    want_rc "$a" 2 "a crash"
    want_grep c.err "plug-in 'faulty' crashed (SIGSEGV) during its call"
    a=$(sb c2.txt c2.err bench --plugin "$PL/test-crash.so" --seconds 0 -t 1 unique.txt)
    want_rc "$a" 2 "a crash in bench"
    want_grep c2.err "plug-in 'faulty' crashed (SIGSEGV)"
}
tcase "a crash inside the plug-in is named (exit 2)" t_crash

t_over_budget() {
    local a
    a=$(sb ob.txt ob.err solve --plugin "$PL/test-over.so" -s faulty --max-guesses 5 unique.txt)
    want_rc "$a" 2 "guesses beyond the budget"
    want_grep ob.err "plug-in 'faulty' broke its contract"
}
tcase "guesses beyond the budget given are the plug-in's fault" t_over_budget

t_budget() {
    local a
    a=$(sb bu.txt bu.err solve --plugin "$PL/test-slow.so" -s faulty --max-guesses 1000 -f csv unique.txt)
    want_rc "$a" 0 "a budget honoured"
    [ "$(grep -c ',budget,' bu.txt)" = 30 ] || { echo "not 30 budget records:"; head -n 3 bu.txt; }
}
tcase "a slow plug-in that honours --max-guesses gives budget records" t_budget

t_stop() {
    local a
    a=$(sb st.txt st.err solve --plugin "$PL/test-slow.so" -s faulty -t 1 unique.txt)
    want_rc "$a" 130 "stopped mid-search"
}
tcase "a slow plug-in polling the stop flag ends on SIGINT (exit 130)" t_stop

t_outputs_spare_plugin() {
    local a
    cp "$PL/naive.so" own.so
    a=$(sb so.txt so.err solve --plugin ./own.so -s naive -o own.so unique.txt)
    want_rc "$a" 2 "-o over the plug-in"
    want_grep so.err "cannot open 'own.so' for -o: it is also the --plugin './own.so'"
    a=$(sb sj.txt sj.err bench --plugin ./own.so --json ./own.so unique.txt)
    want_rc "$a" 2 "--json over the plug-in"
    want_grep sj.err "for --json: it is also the --plugin"
    cmp -s own.so "$PL/naive.so" || echo "the plug-in file was changed"
}
tcase "no output may overwrite a loaded plug-in (-o, --json)" t_outputs_spare_plugin

t_refused_modes() {
    local a
    a=$(sb am.txt am.err solve --plugin "$PL/naive.so" -s naive --all unique.txt)
    want_rc "$a" 2 "--all"
    want_grep am.err "plug-in 'naive': not with --all"
}
tcase "--all with a plug-in is a usage error" t_refused_modes

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
