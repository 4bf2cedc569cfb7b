#!/usr/bin/env bash
# tests/cli/techniques.sh — technique plug-ins (--plugin FILE exporting
# sb_plugin_technique_entry, docs/plugins.md): the X-wing of examples/plugins/xwing.c held to
# the built-in "xw" (same records, guesses and technique counters in every order, in the fused
# kernel's fast+ hook, on 16x16 and from pencilmarks), its bench row, and every broken technique of
# tests/plugins/faulty_tech.c named with its exit code: an elimination that removes the
# solution's digit, eliminations reported as no pattern, a failure code, a crash, load errors,
# a geometry it refuses.
#
# Usage: tests/cli/techniques.sh [BINARY] [PLUGIN_DIR]
#        (defaults build/sudokubench, build/plugins; run from the repo root)

set -u

BIN=${1:-build/sudokubench}
PL=${2:-build/plugins}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PL in /*) ;; *) PL=$PWD/$PL ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" techniques
# want_rc GOT WANT WHAT
want_rc() { [ "$1" = "$2" ] || echo "$3: exit $1, want $2"; }
# want_grep FILE PATTERN
want_grep() { grep -q -- "$2" "$1" || { echo "$1 lacks '$2':"; head -n 5 "$1"; }; }

# Inputs: 150 hard puzzles with one solution each, where X-wings occur (top1465), the
# 16x16 minimal puzzles, and two puzzles with several solutions: a solved grid with its first
# 27 givens removed (145 solutions), and its first 36 (1,225).
grep -v '^#' "$ROOT/datasets/samples/top1465.txt" | head -n 150 >hard.txt
cp "$ROOT/tests/data/minimal16.txt" g16.txt
sol=534678912672195348198342567859761423426853791713924856961537284287419635345286179
{
    printf '%s\n' "${sol:0:27}" | tr '1-9' '.........' | tr -d '\n'; printf '%s\n' "${sol:27}"
    printf '%s\n' "${sol:0:36}" | tr '1-9' '.........' | tr -d '\n'; printf '%s\n' "${sol:36}"
} >multi.txt
XW="$PL/xwing.so"

# stats_guesses ERRFILE: the guesses of solve --stats
stats_guesses() { sed -n 's/.* \([0-9]*\) guesses.*/\1/p' "$1"; }

# ---- the example X-wing agrees with the built-in one --------------------------------------

# same_as_builtin SPEC_BUILTIN SPEC_PLUGIN [ARGS...]: same records and guesses
same_as_builtin() {
    local want=$1 got=$2 a b
    shift 2
    a=$(sb w.txt w.err solve --plugin "$XW" -s "$want" --stats -t 1 -f tdoku "$@")
    b=$(sb g.txt g.err solve --plugin "$XW" -s "$got" --stats -t 1 -f tdoku "$@")
    want_rc "$a" 0 "$want"
    want_rc "$b" 0 "$got"
    cmp -s w.txt g.txt || { echo "$got's records differ from $want's:"; diff w.txt g.txt | head -n 4; }
    [ -n "$(stats_guesses w.err)" ] && [ "$(stats_guesses w.err)" = "$(stats_guesses g.err)" ] ||
        echo "guesses: $want $(stats_guesses w.err), $got $(stats_guesses g.err)"
}
t_restart() { same_as_builtin restart:ns,hs,lc,xw restart:ns,hs,lc,xwing hard.txt; }
tcase "restart:ns,hs,lc,xwing = restart:ns,hs,lc,xw (records, guesses)" t_restart
t_list() { same_as_builtin list:ns,hs,lc,xw list:ns,hs,lc,xwing hard.txt; }
tcase "list:ns,hs,lc,xwing = list:ns,hs,lc,xw (records, guesses)" t_list
t_fast() { same_as_builtin fast+xw fast+xwing hard.txt; }
tcase "fast+xwing, in the fused kernel's hook, = fast+xw (records, guesses)" t_fast
t_16() { same_as_builtin restart:ns,hs,lc,xw restart:ns,hs,lc,xwing --grid 4x4 g16.txt; }
tcase "16x16: restart:ns,hs,lc,xwing = restart:ns,hs,lc,xw" t_16

t_marks() {
    local p
    head -n 20 hard.txt | while read -r p; do python3 "$ROOT/tests/pencilmarks.py" "$p"; done >marks.txt
    [ "$(wc -l <marks.txt)" = 20 ] || { echo "pencilmarks.py wrote $(wc -l <marks.txt) lines"; return; }
    same_as_builtin fast+xw fast+xwing marks.txt
    same_as_builtin restart:ns,hs,lc,xw restart:ns,hs,lc,xwing marks.txt
}
tcase "pencilmark input: the technique takes the candidates as xw does" t_marks

t_all() {
    local a b
    a=$(sb w.txt w.err solve --plugin "$XW" -s fast+xw --all -l 0 multi.txt)
    b=$(sb g.txt g.err solve --plugin "$XW" -s fast+xwing --all -l 0 multi.txt)
    want_rc "$a" 0 "--all fast+xw"
    want_rc "$b" 0 "--all fast+xwing"
    [ "$(wc -l <g.txt)" = 1370 ] || echo "--all listed $(wc -l <g.txt) solutions, not 145 + 1,225"
    cmp -s w.txt g.txt || echo "--all: fast+xwing's solutions differ from fast+xw's"
}
tcase "solve --all -s fast+xwing lists fast+xw's solutions, in order" t_all

t_validate() {
    local a b
    a=$(sb v.txt v.err validate multi.txt hard.txt)
    b=$(sb p.txt p.err validate --plugin "$XW" multi.txt hard.txt)
    want_rc "$a" 1 "validate (puzzles with several solutions)"
    want_rc "$b" 1 "validate --plugin xwing"
    cmp -s v.txt p.txt || { echo "validate --plugin xwing differs:"; diff v.txt p.txt | head -n 4; }
}
tcase "validate --plugin xwing counts what validate counts" t_validate

# json_counts FILE ROW TECHNIQUE: applications,placements,eliminations,calls of a bench row
json_counts() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rows"] if r["pipeline"] == sys.argv[2]][0]["techniques"][sys.argv[3]]
print(r["applications"], r["placements"], r["eliminations"], r["calls"])' "$@"
}

t_bench() {
    local a b
    a=$(sb b.txt b.err bench --plugin "$XW" --seconds 0 --repeat 1 -t 1 --json b.json hard.txt)
    want_rc "$a" 0 "bench --plugin xwing"
    [ "$(grep '^| hard.txt |' b.txt | cut -d'|' -f3 | tr -d ' ' | tr '\n' ,)" = "fast,fast+xwing," ] ||
        { echo "rows are not fast, fast+xwing:"; cat b.txt; }
    b=$(sb x.txt x.err bench --pipelines fast+xw --seconds 0 --repeat 1 -t 1 --json x.json hard.txt)
    want_rc "$b" 0 "bench fast+xw"
    local got want
    got=$(json_counts b.json fast+xwing xwing)
    want=$(json_counts x.json fast+xw xw)
    [ -n "$want" ] && [ "${want%% *}" != 0 ] || echo "fast+xw found no X-wing: the input is too easy"
    [ "$got" = "$want" ] || echo "counters (applications placements eliminations calls): xwing $got, xw $want"
}
tcase "bench --plugin xwing: rows fast and fast+xwing; counters equal xw's" t_bench

t_bench_16() {
    local a
    a=$(sb b.txt b.err bench --grid 4x4 --plugin "$XW" --seconds 0 --repeat 1 -t 1 g16.txt)
    want_rc "$a" 0 "bench --grid 4x4 --plugin xwing"
    want_grep b.txt "| g16.txt | restart:ns,hs,lc,xwing | 10 |"
}
tcase "16x16 bench: the technique's row is the restart order with it" t_bench_16

t_not_a_pipeline() {
    local a
    a=$(sb n.txt n.err solve --plugin "$XW" -s xwing hard.txt)
    want_rc "$a" 2 "-s xwing"
    want_grep n.err "'xwing' is a technique plug-in, a step of a pipeline"
    a=$(sb u.txt u.err solve -s restart:ns,xwing hard.txt)
    want_rc "$a" 2 "xwing without --plugin"
    want_grep u.err "unknown technique 'xwing'"
}
tcase "a technique is a step, not a pipeline; unknown without --plugin" t_not_a_pipeline

# ---- broken techniques: named, exit 2 ------------------------------------------------------

t_lie() {
    local a
    a=$(sb l.txt l.err bench --plugin "$PL/test-tech-lie.so" --seconds 0 --repeat 1 -t 1 hard.txt)
    want_rc "$a" 2 "a technique removing the solution's digit"
    want_grep l.err "bench: row fast+faulty, puzzle 1 of hard.txt: technique plug-in 'faulty' removed digit [1-9] from cell [0-9]* (row [1-9], column [1-9]), which fast's solution puts there: "
}
tcase "bench: an elimination of the solution's digit is named with its cell (exit 2)" t_lie

t_silent() {
    local a
    a=$(sb s.txt s.err bench --plugin "$PL/test-tech-silent.so" --pipeline list:ns,hs,faulty --seconds 0 --repeat 1 -t 1 hard.txt)
    want_rc "$a" 2 "eliminations with no pattern"
    want_grep s.err "technique plug-in 'faulty' eliminated candidates but reported no pattern"
}
tcase "bench: eliminations reported as no pattern are a breach (exit 2)" t_silent

t_fail() {
    local a
    a=$(sb f.txt f.err solve --plugin "$PL/test-tech-fail.so" -s restart:ns,hs,faulty -t 1 hard.txt)
    want_rc "$a" 2 "a failing technique in solve"
    want_grep f.err "hard.txt:1: technique plug-in 'faulty' failed (step returned -1)"
    a=$(sb v.txt v.err validate --plugin "$PL/test-tech-fail.so" -t 1 hard.txt)
    want_rc "$a" 2 "a failing technique in validate"
    want_grep v.err "hard.txt:1: technique plug-in 'faulty' failed (step returned -1)"
}
tcase "solve and validate: a failing technique is named with file:line (exit 2)" t_fail

t_crash() {
    local a
    a=$(sb c.txt c.err solve --plugin "$PL/test-tech-crash.so" -s fast+faulty -t 1 hard.txt)
    want_rc "$a" 2 "a crashing technique"
    want_grep c.err "plug-in 'faulty' crashed (SIGSEGV)"
}
tcase "a crash inside a technique is named as its fault (exit 2)" t_crash

t_load() { # FAULT PATTERN
    local a
    a=$(sb l.txt l.err bench --plugin "$PL/test-tech-$1.so" hard.txt)
    want_rc "$a" 2 "$1"
    want_grep l.err "$2"
    [ ! -s l.txt ] || echo "$1: a table was printed"
}
t_abi() { t_load abi "built for plug-in ABI 1001"; }
t_name() { t_load name "name 'xw' is a built-in technique's"; }
t_geometry() { t_load geometry "plug-in 'faulty' does not work on 9x9 grids"; }
tcase "a technique built for another ABI is refused, named (exit 2)" t_abi
tcase "a technique named as a built-in is refused (exit 2)" t_name
tcase "a technique that refuses the geometry is a usage error (exit 2)" t_geometry

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
