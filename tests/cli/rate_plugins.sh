#!/usr/bin/env bash
# tests/cli/rate_plugins.sh — rate with technique plug-ins (--plugin FILE, docs/plugins.md):
# each one a rung of the ladder after chains (... < chains < NAME < search). With the
# example X-wing (the built-in xw, which chains already runs) every record of the sample
# corpora keeps its class and counts; with tests/plugins/forcing.c (singles forcing, which
# the ladder lacks) a puzzle the built-ins leave to search is rated "forcing" exactly when
# solve with the rung's pipeline finds its solution without a guess, on 9x9, from
# pencilmarks and on 16x16, and its counters are the ones bench counts for that pipeline.
# Every broken technique of tests/plugins/faulty_tech.c stops the run with exit 2, named
# with the puzzle's file:line; a solver plug-in, a plug-in named as a class and a refused
# geometry are usage errors. -t 1, -t 2 and --resume give the same bytes.
#
# Usage: tests/cli/rate_plugins.sh [BINARY] [PLUGIN_DIR]
#        (defaults build/sudokubench, build/plugins; run from the repo root)

set -u

BIN=${1:-build/sudokubench}
PL=${2:-build/plugins}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PL in /*) ;; *) PL=$PWD/$PL ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" rate_plugins
# want_rc GOT WANT WHAT
want_rc() { [ "$1" = "$2" ] || echo "$3: exit $1, want $2"; }
# want_grep FILE PATTERN
want_grep() { grep -q -- "$2" "$1" || { echo "$1 lacks '$2':"; head -n 5 "$1"; }; }

# Inputs: 150 hard puzzles with one solution each (top1465; comments dropped, so line N is
# puzzle N), the 16x16 minimal puzzles, the sample corpora.
grep -v '^#' "$ROOT/datasets/samples/top1465.txt" | head -n 150 >hard.txt
cp "$ROOT/tests/data/minimal16.txt" g16.txt
XW="$PL/xwing.so"
FO="$PL/forcing.so"
# the ladder's top built-in set (chains), as a restart spec
CHAINS=restart:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww,sky,kite,col,xc

# ---- the built-in classes stand; the rung is reached only from search ----------------------

# appended NAME BASE GOT: GOT (rate --plugin NAME, csv) is BASE (rate, csv) with a column NAME
# of zero eliminations on every rated record (empty on the others): the classes and counts
# of every puzzle are unchanged
appended() {
    python3 - "$@" <<'EOF'
import csv, sys
name, base, got = sys.argv[1:]
b, g = list(csv.reader(open(base))), list(csv.reader(open(got)))
if not b or g[0] != b[0] + [name]:
    sys.exit(f"{got}: header {g[0][-3:] if g else None}, want the built-in columns and {name}")
if len(g) != len(b):
    sys.exit(f"{got}: {len(g) - 1} records, want {len(b) - 1}")
for rb, rg in zip(b[1:], g[1:]):
    if rg != rb + (["0"] if rb[2] else [""]):
        sys.exit(f"{got}: line {rb[0]} is {rg[:3]} ... {rg[-1:]}, want {rb[:3]} and its counts, then 0")
EOF
}

t_xwing_corpora() {
    local f b a c
    for f in "$ROOT"/datasets/samples/*.txt "$ROOT"/datasets/multi/*.txt; do
        b=$(basename "$f" .txt)
        a=$(sb "$b.csv" "$b.err" rate -t 2 "$f")
        c=$(sb "$b.xw.csv" "$b.xw.err" rate -t 2 --plugin "$XW" "$f")
        want_rc "$a" 0 "rate $b"
        want_rc "$c" 0 "rate --plugin xwing $b"
        appended xwing "$b.csv" "$b.xw.csv"
        # the summary: the same counts, the rung (never reached) before search
        sed 's/, search /, xwing 0 (0.0%), search /' "$b.err" >"$b.want.err"
        cmp -s "$b.want.err" "$b.xw.err" || { echo "$b summary:"; cat "$b.xw.err"; }
    done
}
tcase "rate --plugin xwing (xw, already in chains): every record of the samples and multi corpora keeps its class and counts, xwing 0" t_xwing_corpora

# ladder NAME BASE GOT SOLVE: for every record, GOT (rate --plugin NAME) is BASE (rate) plus a
# zero column when the built-ins rate it below search; a puzzle they leave to search is NAME
# exactly when SOLVE (solve -f csv -l 1 with the rung's pipeline) made no guess, else search.
# Prints "N" (the records rated NAME) on the last line, or failures before it.
ladder() {
    python3 - "$@" <<'EOF'
import csv, sys
name, base, got, solve = sys.argv[1:]
b, g = list(csv.reader(open(base))), list(csv.reader(open(got)))
s = {r["line"]: r for r in csv.DictReader(open(solve))}
if g[0] != b[0] + [name] or len(g) != len(b):
    sys.exit(f"{got}: header or record count differs from {base}'s")
n = 0
for rb, rg in zip(b[1:], g[1:]):
    if rb[2] != "search":
        if rg != rb + (["0"] if rb[2] else [""]):
            print(f"line {rb[0]}: {rg[:3]}, want {rb[:3]} with its counts unchanged")
        continue
    want = name if s[rb[0]]["guesses"] == "0" else "search"
    n += want == name
    if rg[2] != want:
        print(f"line {rb[0]}: class {rg[2]}, want {want} (the rung's solve made "
              f"{s[rb[0]]['guesses']} guesses)")
print(n)
EOF
}

# forcing_ladder INPUT [ARGS...]: ladder's check for forcing on INPUT; the records rated
# forcing must be some but not all of the ones the built-ins leave to search
forcing_ladder() {
    local in=$1 a b c out
    shift
    a=$(sb r0.csv r0.err rate -t 2 "$@" "$in")
    b=$(sb r1.csv r1.err rate -t 2 --plugin "$FO" "$@" "$in")
    c=$(sb s.csv s.err solve -t 2 -f csv -l 1 --plugin "$FO" -s "$CHAINS,forcing" "$@" "$in")
    want_rc "$a" 0 "rate $in"
    want_rc "$b" 0 "rate --plugin forcing $in"
    want_rc "$c" 0 "solve -s $CHAINS,forcing $in"
    out=$(ladder forcing r0.csv r1.csv s.csv)
    printf '%s\n' "$out" | sed '$d'
    [ "$(printf '%s\n' "$out" | tail -n 1)" -gt 0 ] 2>/dev/null ||
        echo "$in: no puzzle reached the forcing rung ($(tail -n 1 <<<"$out"))"
    grep -q ',search,' r1.csv || echo "$in: forcing solved every puzzle: the case shows nothing"
}
t_forcing_9() { forcing_ladder hard.txt; }
tcase "9x9: a puzzle the built-ins leave to search is 'forcing' exactly when solve -s chains,forcing makes no guess" t_forcing_9

t_forcing_marks() {
    # pencilmark lines: the plain candidates of puzzles 1-40, and the same less one candidate
    # that is not the solution's (an elimination done), so the rating starts from the marks
    head -n 40 hard.txt >m.txt
    "$BIN" solve -t 1 -f tdoku m.txt | cut -d: -f3 >m.sol
    python3 - "$ROOT/tests" m.txt m.sol >marks.txt <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from pencilmarks import pencilmarks
for p, s in zip(open(sys.argv[2]).read().split(), open(sys.argv[3]).read().split()):
    print(pencilmarks(p))
    c = next(c for c in range(81) if p[c] in ".0")
    d = next(d for d in range(1, 10) if str(d) != s[c] and pencilmarks(p)[9 * c + d - 1] != ".")
    print(pencilmarks(p, drop={(c, d)}))
EOF
    [ "$(wc -l <marks.txt)" = 80 ] || { echo "marks.txt has $(wc -l <marks.txt) lines"; return; }
    forcing_ladder marks.txt
}
tcase "pencilmark input: the rung from the candidates, as solve -s chains,forcing from them" t_forcing_marks

t_forcing_16() { forcing_ladder g16.txt --grid 4x4; }
tcase "16x16 (--grid 4x4, the generic rater): the forcing rung as solve -s chains,forcing finds it" t_forcing_16

# counts_match INPUT [ARGS...]: the counters of the records rate --plugin forcing -f json
# rates forcing, summed per technique, equal what bench counts for the rung's pipeline over
# those puzzles (each solved at its root, so its counters are the rating run's); calls are
# left out: the search takes each known cell with a propagation of its own
counts_match() {
    local in=$1 a b
    shift
    a=$(sb r.json r.err rate -t 2 -f json --plugin "$FO" "$@" "$in")
    want_rc "$a" 0 "rate -f json --plugin forcing $in"
    python3 - r.json "$in" >f.txt <<'EOF'
import json, sys
lines = open(sys.argv[2]).read().split("\n")
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("class") == "forcing":
        print(lines[r["line"] - 1])
EOF
    [ -s f.txt ] || { echo "$in: no puzzle rated forcing"; return; }
    b=$(sb b.txt b.err bench -t 1 --seconds 0 --repeat 1 --plugin "$FO" --pipeline "$CHAINS,forcing" --json b.json "$@" f.txt)
    want_rc "$b" 0 "bench --pipeline $CHAINS,forcing"
    python3 - r.json b.json "$CHAINS,forcing" <<'EOF'
import json, sys
want = [r for r in json.load(open(sys.argv[2]))["rows"] if r["pipeline"] == sys.argv[3]]
if not want:
    sys.exit(f"bench has no row {sys.argv[3]}")
want = want[0]["techniques"]
got = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("class") != "forcing":
        continue
    for t, c in r["counts"].items():
        s = got.setdefault(t, [0, 0, 0])
        for i, k in enumerate(("applications", "placements", "eliminations")):
            s[i] += c[k]
if got["forcing"][2] == 0:
    print("forcing eliminated nothing in the puzzles it rated")
for t, s in got.items():
    w = [want[t][k] for k in ("applications", "placements", "eliminations")]
    if s != w:
        print(f"{t}: rate {s}, bench {w} (applications, placements, eliminations)")
EOF
}
t_counts_9() { counts_match hard.txt; }
t_counts_16() { counts_match g16.txt --grid 4x4; }
tcase "9x9: the counters of the forcing-rated records are bench's for chains,forcing on them" t_counts_9
tcase "16x16: the same counters through the generic rater" t_counts_16

t_two() {
    local a b
    a=$(sb one.csv one.err rate -t 2 --plugin "$FO" hard.txt)
    b=$(sb two.csv two.err rate -t 2 --plugin "$XW" --plugin "$FO" hard.txt)
    want_rc "$a" 0 "rate --plugin forcing"
    want_rc "$b" 0 "rate --plugin xwing --plugin forcing"
    # xwing's rung (chains, xwing) adds nothing, forcing's (chains, xwing, forcing) is
    # forcing's alone: the same classes and counts, xwing's column 0 before forcing's
    [ "$(head -n 1 two.csv)" = "$(head -n 1 one.csv | sed 's/,forcing$/,xwing,forcing/')" ] ||
        echo "header: $(head -n 1 two.csv | cut -d, -f40-)"
    awk -F, -v OFS=, 'NR > 1 { $(NF + 1) = $NF; $(NF - 1) = ($3 == "" ? "" : 0) } 1' one.csv | tail -n +2 >want.csv
    tail -n +2 two.csv | cmp -s - want.csv || echo "records differ from forcing's alone"
    want_grep two.err "chains [0-9]* ([0-9.]*%), xwing 0 (0.0%), forcing [1-9][0-9]* ([0-9.]*%), search"
}
tcase "two plug-ins: a rung each, in the order given (xwing < forcing); columns in that order" t_two

t_help() {
    "$BIN" rate --plugin "$FO" --help | tr -d '\n' |
        grep -qF 'chains (+sky, kite, col, xc)  < forcing (+forcing) < search' ||
        { echo "rate --plugin forcing --help:"; "$BIN" rate --plugin "$FO" --help | sed -n 3,6p; }
}
tcase "rate --help shows the plug-in's rung between chains and search" t_help

# ---- the same bytes for any -t, and after --resume -----------------------------------------

t_threads() {
    local f a b
    for f in csv json; do
        a=$(sb t1.$f t1.err rate -t 1 -f $f --plugin "$FO" hard.txt)
        b=$(sb t2.$f t2.err rate -t 2 -f $f --plugin "$FO" hard.txt)
        want_rc "$a" 0 "-t 1 -f $f"
        want_rc "$b" 0 "-t 2 -f $f"
        cmp -s t1.$f t2.$f || echo "-f $f: -t 1 and -t 2 differ"
        cmp -s t1.err t2.err || echo "-f $f: the summaries differ"
    done
    a=$(sb g1.csv g1.err rate -t 1 --grid 4x4 --plugin "$FO" g16.txt)
    b=$(sb g2.csv g2.err rate -t 2 --grid 4x4 --plugin "$FO" g16.txt)
    cmp -s g1.csv g2.csv || echo "16x16: -t 1 and -t 2 differ"
}
tcase "-t 1 and -t 2 write the same bytes with a plug-in (csv, json, 16x16)" t_threads

t_resume() {
    local rc want
    rm -f r.out r.out.resume
    want=$(sb r.want r.wante rate -t 1 --plugin "$FO" hard.txt)
    # killed by the fault shim once 6000 bytes of records are written (a point of its work)
    rc=$(
        export SB_FAULT_PATH=/r.out SB_FAULT_SIGNAL=KILL SB_FAULT_SIGNAL_WRITE=6000
        with_shim rate -t 2 --plugin "$FO" -o r.out --resume hard.txt >/dev/null 2>r.err1
        echo $?
    )
    [ "$rc" = 137 ] || { echo "the interrupted run exits $rc, not 137: $(tail -n 2 r.err1)"; return; }
    [ -s r.out ] || { echo "the kill came before any record was kept"; return; }
    [ "$(wc -l <r.out)" -lt 151 ] || { echo "the run finished before the kill"; return; }
    rc=$(sb r.o2 r.err2 rate -t 1 --plugin "$FO" -o r.out --resume hard.txt)
    [ "$rc" = "$want" ] || echo "the resume exits $rc, want $want: $(head -n 2 r.err2)"
    cmp -s r.want r.out || echo "the resumed file differs from one run's"
    rc=$(sb r.o3 r.err3 rate -t 1 --plugin "$XW" -o r.out --resume hard.txt)
    [ "$rc" = 2 ] || echo "a resume with another plug-in exits $rc, want 2"
}
tcase "--resume of a run killed at -t 2, resumed at -t 1: one run's bytes; another plug-in is refused" t_resume

# ---- broken techniques, refused plug-ins ---------------------------------------------------

# search_line K: the line of the K-th puzzle of hard.txt the built-ins leave to search
search_line() { "$BIN" rate -t 1 hard.txt 2>/dev/null | awk -F, -v k="$1" '$3 == "search" && ++n == k { print $1; exit }'; }

# t_fault FAULT LINE PATTERN: rate -t 1 --plugin test-tech-FAULT.so stops with exit 2 and
# "hard.txt:LINE: PATTERN"; the records before it are written, that one is not
t_fault() {
    local a last=line
    a=$(sb f.csv f.err rate -t 1 --plugin "$PL/test-tech-$1.so" hard.txt)
    want_rc "$a" 2 "$1"
    want_grep f.err "^sudokubench: hard.txt:$2: $3"
    [ "$2" -gt 1 ] && last=$(($2 - 1))
    [ "$(tail -n 1 f.csv | cut -d, -f1)" = "$last" ] ||
        echo "$1: the last record is '$(tail -n 1 f.csv | cut -d, -f1-3)', want line $last"
}
# Each fault comes at a call: one call per puzzle the built-ins leave to search (the plug-in
# finds nothing, so the rung stalls at once), none for the others.
t_lie() {
    t_fault lie "$(search_line 1)" "technique plug-in 'faulty' removed digit [1-9] from cell [0-9]* (row [1-9], column [1-9]), which fast's solution puts there$"
}
t_silent() { t_fault silent "$(search_line 1)" "technique plug-in 'faulty' eliminated candidates but reported no pattern$"; }
t_fail() { t_fault fail "$(search_line 2)" "technique plug-in 'faulty' failed (step returned -1)$"; }
tcase "an elimination of the solution's digit: exit 2, the plug-in, file:line, cell and digit" t_lie
tcase "eliminations reported as no pattern: exit 2, named with file:line" t_silent
tcase "a failure code: exit 2, named with the file:line of its second call's puzzle" t_fail

t_crash() {
    local a
    a=$(sb c.csv c.err rate -t 1 --plugin "$PL/test-tech-crash.so" hard.txt)
    want_rc "$a" 2 "a crashing technique"
    [ "$(cat c.err)" = "sudokubench: plug-in 'faulty' crashed (SIGSEGV) during its call: its answers stop here" ] ||
        { echo "stderr:"; cat c.err; }
}
tcase "a crash inside the technique is named as its fault (exit 2)" t_crash

# t_refused FILE MESSAGE [ARGS...]: rate --plugin FILE is a usage error with MESSAGE, no output
t_refused() {
    local so=$1 msg=$2 a
    shift 2
    a=$(sb u.csv u.err rate --plugin "$so" "$@" hard.txt)
    want_rc "$a" 2 "$(basename "$so")"
    [ "$(head -n 1 u.err)" = "sudokubench: $msg" ] || { echo "stderr:"; cat u.err; }
    [ ! -s u.csv ] || echo "$(basename "$so"): records were written"
}
t_solver() {
    t_refused "$PL/naive.so" "--plugin '$PL/naive.so': 'naive' is a solver plug-in; rate takes technique plug-ins (a rung of the ladder is a technique step)"
}
t_classname() {
    t_refused "$PL/test-tech-classname.so" "--plugin '$PL/test-tech-classname.so': technique 'chains' is named as a class of the ladder, so its rung would read as that class"
}
t_abi() { t_refused "$PL/test-tech-abi.so" "--plugin '$PL/test-tech-abi.so': built for plug-in ABI 1001, this program speaks 1"; }
t_name() { t_refused "$PL/test-tech-name.so" "--plugin '$PL/test-tech-name.so': name 'xw' is a built-in technique's"; }
tcase "a solver plug-in is refused: rate needs technique steps (exit 2)" t_solver
tcase "a technique named as a class is refused (exit 2)" t_classname
tcase "a technique built for another ABI is refused (exit 2)" t_abi
tcase "a technique named as a built-in technique is refused (exit 2)" t_name

t_geometry() {
    local a b
    t_refused "$PL/test-tech-geometry.so" "plug-in 'faulty' does not work on 9x9 grids"
    # the grid it takes (16x16): a rung that finds nothing leaves every class as it was
    a=$(sb g0.csv g0.err rate -t 1 --grid 4x4 g16.txt)
    b=$(sb g1.csv g1.err rate -t 1 --grid 4x4 --plugin "$PL/test-tech-geometry.so" g16.txt)
    want_rc "$b" 0 "16x16 with the 16x16-only technique"
    sed '1s/$/,faulty/; 2,$s/$/,0/' g0.csv | cmp -s - g1.csv || echo "16x16: the records are not the built-in ones with faulty 0"
}
tcase "a technique that refuses the geometry is refused with its reason; on its own grid it runs" t_geometry

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
