#!/usr/bin/env bash
# tests/cli/forms.sh — the input forms besides one puzzle per line (docs/cli.md "Input"):
# nine-line grids in several layouts, tdoku records PUZZLE:COUNT:SOLUTION and 729-character
# pencilmarks; the round trips of the project's own `-f tdoku` and `-f pretty` output; and
# that errors keep FILE:LINE:COL and one record per puzzle.
#
# Usage: tests/cli/forms.sh [BINARY]   (default build/sudokubench; run from anywhere)
# Prints `ok - NAME` / `not ok - NAME` per case, then `N passed, M failed`; exit 1 on failure.
set -u
BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
SAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/datasets/samples
W=$(mktemp -d "${TMPDIR:-/tmp}/sudokubench-forms.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
unset SUDOKUBENCH_SIMD
passed=0 failed=0

# check NAME FUNCTION: the case passes when FUNCTION prints nothing (what it prints is why not)
check() {
    local why
    why=$("$2" 2>&1)
    if [ -z "$why" ]; then echo "ok - $1"; passed=$((passed + 1)); else
        echo "not ok - $1"; printf '%s\n' "$why" | head -n 20 | sed 's/^/#   /'; failed=$((failed + 1)); fi
}
# run EXPECTED_EXIT OUT ERR ARGS...: runs the CLI, complains about another exit code
run() {
    local want=$1 out=$2 err=$3 rc
    shift 3
    timeout "${SUDOKUBENCH_TEST_TIMEOUT:-120}" "$BIN" "$@" > "$out" 2> "$err"
    rc=$?
    [ "$rc" = "$want" ] || { echo "exit $rc, expected $want: sudokubench $*"; sed 's/^/  stderr: /' "$err" | head -5; }
}
differ() { cmp -s "$1" "$2" || { echo "$1 and $2 differ:"; diff "$1" "$2" | head -n 8; }; }

# The corpus: solved, unsolvable (two 1s in a row) and multiple (empty) puzzles.
{ grep -v '^#' "$SAMPLES/top1465.txt" | head -n 150
  echo "11..............................................................................."
  echo "................................................................................."
  grep -v '^#' "$SAMPLES/hardest_11plus_1000.txt" | head -n 50; } > p.txt
"$BIN" solve -f tdoku p.txt > p.tdoku 2> /dev/null

tdoku_round_trip() {
    run 0 t2.tdoku e1 solve -f tdoku p.tdoku
    differ p.tdoku t2.tdoku
    run 0 a.sol e2 solve -f solution p.txt
    run 0 b.sol e3 solve -f solution p.tdoku
    differ a.sol b.sol
    [ "$(wc -l < p.tdoku)" = 202 ] || echo "p.tdoku has $(wc -l < p.tdoku) records, want 202"
}
check "round trip: -f tdoku output reads back to the same records" tdoku_round_trip

pretty_round_trip() {
    run 0 p.pretty e1 solve -f pretty p.txt
    run 0 r.tdoku e2 solve -f tdoku p.pretty
    differ p.tdoku r.tdoku
    # each record at its grid's first line (the top rule, under the header comment)
    run 0 r.csv e3 solve -f csv p.pretty
    local first
    first=$(sed -n 2p r.csv | cut -d, -f1)
    [ "$(sed -n "${first}p" p.pretty)" = "+-------+-------+-------+   +-------+-------+-------+" ] ||
        echo "csv line $first of the first record is not the first grid's top rule"
}
check "round trip: -f pretty output (grids side by side, comments) reads back to the same puzzles" pretty_round_trip

# One puzzle drawn in several layouts (the first line of p.txt).
P=$(head -n 1 p.txt)
rows() { echo "$P" | fold -w 9; }  # nine rows of nine characters
layouts() {
    echo "# bare rows"; rows; echo
    echo "# spaced, zeros for blanks"; rows | tr . 0 | sed 's/./& /g'; echo
    echo "# forum style"
    rows | sed -E 's/(...)(...)(...)/\1|\2|\3/' | sed '3a ---+---+---' | sed '7a ---+---+---'; echo
    echo "# boxed with spaces"; echo "+-------+-------+-------+"
    rows | sed -E 's/(.)(.)(.)(.)(.)(.)(.)(.)(.)/| \1 \2 \3 | \4 \5 \6 | \7 \8 \9 |/' |
        sed '3a +-------+-------+-------+' | sed '7a +-------+-------+-------+'
    echo "+-------+-------+-------+"
    echo "# dashes for blanks, then a separator line and the next grid without a blank line"
    rows | tr . -; echo "========="; rows | tr . _
    echo "$P"
}
layouts_read() {
    layouts > g.txt
    run 0 g.tdoku e1 solve -f tdoku g.txt
    local want
    want=$(sed -n 1p p.tdoku)
    [ "$(wc -l < g.tdoku)" = 7 ] || echo "$(wc -l < g.tdoku) records from seven drawings of one puzzle"
    [ "$(sort -u g.tdoku)" = "$want" ] || { echo "records differ from $want:"; sort -u g.tdoku; }
    run 0 g.csv e2 solve -f csv g.txt
    # each record at its grid's first line: a row, or the top rule of the boxed drawing
    [ "$(cut -d, -f1 g.csv | tail -n +2 | tr '\n' ' ')" = "2 13 24 37 51 61 70 " ] ||
        echo "record lines $(cut -d, -f1 g.csv | tail -n +2 | tr '\n' ' '), want 2 13 24 37 51 61 70"
}
check "nine-line grids: bare, spaced, forum, boxed, dashed layouts read as the one-line puzzle" layouts_read

grid_errors() {
    { rows | sed '5s/^\(....\)./\1x/'; echo; rows | head -n 6; echo; echo "$P"; rows | sed '2s/$/7/'; } > bad.txt
    run 1 bad.out bad.err solve -f csv bad.txt
    # lines 1-9 a grid with 'x' in row 5; 11-16 a grid cut after 6 rows; 18 a one-line
    # puzzle; 19-27 a grid whose row 2 (line 20) has a tenth cell
    [ "$(cut -d, -f1,2 bad.out | tr '\n' ' ')" = "line,status 5,invalid 11,invalid 18,solved 20,invalid " ] ||
        { echo "records:"; cat bad.out; }
    printf '%s\n' "sudokubench: bad.txt:5:5: invalid puzzle: unexpected character 'x'" \
        "sudokubench: bad.txt:11:1: invalid puzzle: grid ends after 6 of 9 rows" \
        "sudokubench: bad.txt:20:10: invalid puzzle: grid row has 10 cells (9 needed)" > want.err
    differ want.err bad.err
}
check "nine-line grids: a bad row and a cut grid are one invalid record each, FILE:LINE:COL" grid_errors

tdoku_errors() {
    S=$(sed -n 1p p.tdoku | cut -d: -f3)
    printf '%s\n' "$P:invalid:" "$P:x1:" "$P:1:${S}9" "$P:budget:" "$P:0" > td.txt
    run 1 td.out td.err solve -f tdoku td.txt
    printf '%s\n' "sudokubench: td.txt:1:83: invalid puzzle: tdoku record of an invalid line" \
        "sudokubench: td.txt:2:83: invalid puzzle: bad count field" \
        "sudokubench: td.txt:3:167: invalid puzzle: bad solution column" > want.err
    differ want.err td.err
    [ "$(cut -d: -f2 td.out | tr '\n' ' ')" = "invalid invalid invalid 1 1 " ] || { echo "records:"; cat td.out; }
}
check "tdoku records: an invalid-line record, a bad count or solution column are refused" tdoku_errors

# pencilmarks PUZZLE: the 729-character form with every candidate the givens leave
# (tests/pencilmarks.py, shared with the Python tests)
pencil() {
    python3 "$SAMPLES/../../tests/pencilmarks.py" "$1"
}
pencilmarks() {
    head -n 20 p.txt | while read -r q; do pencil "$q"; done > pm.txt
    run 0 pm.sol e1 solve -f solution pm.txt
    head -n 20 p.txt > p20.txt
    run 0 p20.sol e2 solve -f solution p20.txt
    differ p20.sol pm.sol
    # the same guesses too: candidates that say no more than the givens are that puzzle
    run 0 pm.csv e3 solve -f csv pm.txt
    run 0 p20.csv e4 solve -f csv p20.txt
    differ p20.csv pm.csv
    # the same classes; not always the same technique counts: a line cannot tell a given
    # from a blank cell left one candidate, which is a given there, found by ns here
    run 0 pm.rate e5 rate pm.txt
    run 0 p20.rate e6 rate p20.txt
    cut -d, -f1-3 pm.rate > pm.cls
    cut -d, -f1-3 p20.rate > p20.cls
    differ p20.cls pm.cls
}
check "pencilmarks: 729-character lines with the givens' candidates solve (guesses too) and rate as the puzzle" pencilmarks

# Pencilmarks that eliminate more than their givens, with known answers by construction
# (the puzzles of p.txt have one solution each, in a.sol): per puzzle, a line dropping
# random candidates but never the solution's digit (solved, that solution), one dropping the
# solution's digit from a blank cell (unsolvable), and an empty grid's line with a few cells
# narrowed (multiple).
pencil_extra() {
    python3 -c '
import random, sys
random.seed(15)
for p, s in zip(open(sys.argv[1]).read().split(), open(sys.argv[2]).read().split()):
    g = [0 if c in ".0" else int(c) for c in p]
    def marks(c):
        r, k = divmod(c, 9)
        peers = {g[9 * r + i] for i in range(9)} | {g[9 * i + k] for i in range(9)}
        peers |= {g[9 * (3 * (r // 3) + i) + 3 * (k // 3) + j] for i in range(3) for j in range(3)}
        return {g[c]} if g[c] else set(range(1, 10)) - peers
    keep = [marks(c) for c in range(81)]
    for c in range(81):
        if not g[c] and random.random() < 0.5:
            keep[c] = {d for d in keep[c] if d == int(s[c]) or random.random() < 0.5}
    line = lambda m: "".join(str(d) if d in m[c] else "." for c in range(81) for d in range(1, 10))
    print(line(keep))
    c = random.choice([c for c in range(81) if not g[c] and len(keep[c]) > 1])
    drop = [set(m) for m in keep]
    drop[c].discard(int(s[c]))
    print(line(drop))
    empty = [set(range(1, 10)) for _ in range(81)]
    for c in random.sample(range(81), 5):
        empty[c] = {int(s[c]), 1 + int(s[c]) % 9}
    print(line(empty))' "$1" "$2"
}
pencilmarks_beyond_the_givens() {
    head -n 10 p.txt > p10.txt
    head -n 10 a.sol > s10.txt
    pencil_extra p10.txt s10.txt > px.txt
    # the first line is a pencilmark line: still 9x9, not a 27x27 grid of 729 cells
    run 0 px.sol e1 solve -f solution px.txt
    while read -r s; do printf '%s\nunsolvable\nmultiple\n' "$s"; done < s10.txt > want.sol
    differ want.sol px.sol
    # output in the form of the input: tdoku records of the 729 characters, read back alike
    run 0 px.tdoku e2 solve -f tdoku px.txt
    [ "$(cut -d: -f1 px.tdoku)" = "$(cat px.txt)" ] || echo "tdoku PUZZLE fields are not the input lines"
    run 0 px2.tdoku e3 solve -f tdoku px.tdoku
    differ px.tdoku px2.tdoku
    run 0 px.json e4 solve -f json -l 1 px.txt
    [ "$(sed -n 1p px.json | sed 's/.*"puzzle":"\([^"]*\)".*/\1/')" = "$(sed -n 1p px.txt)" ] ||
        echo "json puzzle field: $(sed -n 1p px.json)"
    # every pipeline and both searches agree
    for s in list restart singles none; do
        run 0 px-$s.sol e5 solve -s $s -f solution px.txt
        differ want.sol px-$s.sol
    done
    sed -n '1~3p' px.txt > px-one.txt  # BFS: the solved lines (the empty grids are too wide)
    run 0 px-bfs.sol e6 solve --search bfs -f solution px-one.txt
    differ s10.txt px-bfs.sol
    # validate names the lines that are not proper; rate rates from the candidates
    run 1 v.out v.err validate px.txt
    local i want_err=""
    for i in $(seq 0 9); do
        want_err+="sudokubench: px.txt:$((3 * i + 2)): no solution"$'\n'
        want_err+="sudokubench: px.txt:$((3 * i + 3)): multiple solutions"$'\n'
    done
    [ "$(cat v.err)"$'\n' = "$want_err" ] || { echo "validate stderr:"; head -n 4 v.err; }
    run 0 r.csv e7 rate px.txt
    [ "$(tail -n +2 r.csv | cut -d, -f2 | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')" = "multiple=10 solved=10 unsolvable=10 " ] ||
        { echo "rate statuses:"; cut -d, -f2 r.csv | sort | uniq -c; }
}
check "pencilmarks beyond the givens: solved, unsolvable and multiple as built; tdoku and json keep the 729 characters" pencilmarks_beyond_the_givens

pencil_errors() {
    local line
    line=$(pencil "$P")
    # (a plain puzzle first: a garbled first line of 729 characters could be a 27x27 grid's)
    { echo "$P"; echo "${line:0:18}.........${line:27}"; echo "${line:0:4}x${line:5}"; echo "$line"; } > pe.txt
    run 1 pe.out pe.err solve -f csv pe.txt
    printf '%s\n' "sudokubench: pe.txt:2:19: invalid puzzle: pencilmarks: cell r1c3 has no candidate" \
        "sudokubench: pe.txt:3:5: invalid puzzle: unexpected character 'x'" > want.err
    differ want.err pe.err
    [ "$(cut -d, -f1,2 pe.out | tr '\n' ' ')" = "line,status 1,solved 2,invalid 3,invalid 4,solved " ] ||
        { echo "records:"; cat pe.out; }
}
check "pencilmarks: a cell without candidates or a bad mark is one invalid record at FILE:LINE:COL" pencil_errors

mixed_forms_one_record_each() {
    { echo "$P"; rows; sed -n 2p p.tdoku; pencil "$(sed -n 3p p.txt)"; echo "$(sed -n 4p p.txt),$(sed -n 4p p.tdoku | cut -d: -f3)"; } > mix.txt
    run 0 mix.sol e1 solve -t 2 -f solution mix.txt
    { sed -n 1p a.sol; sed -n 1,4p a.sol; } > want.sol
    differ want.sol mix.sol
}
check "forms mixed in one file: one record per puzzle, in order" mixed_forms_one_record_each

# Other geometries: `-f tdoku` output reads back (the puzzle before the first ':'), with the
# 9x9 reader's rules for COUNT and SOLUTION; `-f pretty` output does not (docs/cli.md).
geometry_tdoku_round_trip() {
    local g q6
    q6=$("$BIN" generate --grid 2x3 -n 1 --seed 14)
    for g in 2x3 3x4 cube:3; do
        "$BIN" generate --grid "$g" -n 4 --seed 11 > g.txt 2> /dev/null
        run 0 g.tdoku e1 solve --grid "$g" -f tdoku g.txt
        run 0 g2.tdoku e2 solve --grid "$g" -f tdoku g.tdoku
        differ g.tdoku g2.tdoku
        run 0 g.csv e3 solve --grid "$g" -f csv g.txt
        run 0 g2.csv e4 solve --grid "$g" -f csv g.tdoku
        differ g.csv g2.csv
    done
    # an invalid line's record (two givens clash) stays one invalid record
    echo "11${q6:2}" > bad6.txt
    run 1 b.tdoku e6 solve -f tdoku bad6.txt
    [ "$(cat b.tdoku)" = "11${q6:2}:invalid:" ] || { echo "the invalid line's record:"; cat b.tdoku; }
    run 1 b2.tdoku e7 solve -f tdoku b.tdoku
    grep -q "^sudokubench: b.tdoku:1:38: invalid puzzle: tdoku record of an invalid line$" e7 ||
        { echo "the invalid line's record:"; cat e7; }
    # without --grid the tdoku records pick the geometry from their puzzles' cell count
    "$BIN" generate --grid 2x3 -n 3 --seed 12 -f tdoku > a.tdoku
    run 0 a2.tdoku e5 solve -f tdoku a.tdoku
    differ a.tdoku a2.tdoku
}
check "other geometries: -f tdoku output reads back to the same records (2x3, 3x4, cube:3; picked without --grid)" geometry_tdoku_round_trip

geometry_tdoku_errors() {
    local q s
    q=$("$BIN" generate --grid 2x3 -n 1 --seed 13)
    s=$("$BIN" solve "$(echo "$q" > q6.txt; echo q6.txt)")
    printf '%s\n' "$q:invalid:" "$q:x1:" "$q:1:${s}6" "$q:1:${s:0:5}.${s:6}" "$q:budget:" "$q:0" "$q:1:" > td6.txt
    run 1 td6.out td6.err solve -f tdoku td6.txt
    printf '%s\n' "sudokubench: td6.txt:1:38: invalid puzzle: tdoku record of an invalid line" \
        "sudokubench: td6.txt:2:38: invalid puzzle: bad count field" \
        "sudokubench: td6.txt:3:76: invalid puzzle: bad solution column" \
        "sudokubench: td6.txt:4:45: invalid puzzle: bad solution column" > want.err
    differ want.err td6.err
    [ "$(cut -d: -f2 td6.out | tr '\n' ' ')" = "invalid invalid invalid invalid 1 1 1 " ] || { echo "records:"; cat td6.out; }
}
check "other geometries: tdoku records with an invalid-line record, a bad count or solution are refused as on 9x9" geometry_tdoku_errors

# 9x9 --all lists through the 3x3 geometry: a Kaggle row, a tdoku record and pencilmarks (one
# line each) list their solutions as the 81-cell line does; a nine-line grid is one invalid
# record naming the limitation at its first line; pencilmarks beyond their givens say so.
all_forms() {
    local s1
    sed -n 1p p.tdoku | cut -d: -f3 > s1.txt
    s1=$(cat s1.txt)
    { echo "$P,$s1"; sed -n 1p p.tdoku; pencil "$P"; echo "$P"; } > af.txt
    run 0 af.out e1 solve --all -f solution af.txt
    printf '%s\n1\n' "$s1" "$s1" "$s1" "$s1" > want.out
    differ want.out af.out
    echo "$P" > q1.txt
    "$BIN" solve -f pretty q1.txt > q1.pretty
    { cat q1.pretty; rows; echo; echo "$P"; } > ag.txt
    run 1 ag.out ag.err solve --all -f csv ag.txt
    # the pretty record: its comment, then 13 lines from line 2; then a blank line, bare rows
    # from line 16, a blank line and the one-line puzzle at line 26
    printf '%s\n' "sudokubench: ag.txt:2:1: invalid puzzle: nine-line grid: --all and 3x3 read one line a puzzle" \
        "sudokubench: ag.txt:16:1: invalid puzzle: nine-line grid: --all and 3x3 read one line a puzzle" > want.err
    differ want.err ag.err
    [ "$(cut -d, -f1,2 ag.out | tr '\n' ' ')" = "line,status 2,invalid 16,invalid 26,solution 26,solved " ] ||
        { echo "records:"; cat ag.out; }
    head -n 10 p.txt > p10.txt
    head -n 10 a.sol > s10.txt
    pencil_extra p10.txt s10.txt > px3.txt
    head -n 1 px3.txt > px1.txt
    run 1 px.out px.err solve --all px1.txt
    grep -q "^sudokubench: px1.txt:1:[0-9]*: invalid puzzle: pencilmarks: elimination beyond the givens" px.err ||
        { echo "pencilmarks beyond the givens under --all:"; cat px.err; }
}
check "9x9 --all: a Kaggle row, tdoku record and pencilmarks list as the line does; a nine-line grid is one record naming the limitation" all_forms

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
