#!/usr/bin/env bash
# tests/cli/geometry.sh — the CLI on geometries other than 9x9 (docs/geometry.md
# "Command line"): --grid / --geometry, the geometry picked from the first line's cell count,
# errors per geometry (message, column, record kept, exit code), records checked against the
# dancing-links oracle, --all (counts = oracle, solutions valid and distinct), pretty, validate
# and the same bytes for any -t.
#
# Usage: tests/cli/geometry.sh [BINARY] [GCHECK]   (defaults build/sudokubench,
#        build/tests/gcheck; run from the repo root)
#
# GCHECK (tests/cli/gcheck.c) is the independent side: the oracle's counts and its own rule
# check over the house lists. Puzzles are made here: a solution of the empty grid (itself
# checked), then givens removed, changed and added with a fixed seed, so 0, 1 and 2+
# solutions all occur; lines whose givens clash are split off by GCHECK and must be reported
# invalid by the CLI.

set -u

BIN=${1:-build/sudokubench}
GCHECK=${2:-build/tests/gcheck}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $GCHECK in /*) ;; *) GCHECK=$PWD/$GCHECK ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" geo
# want_rc GOT WANT WHAT
want_rc() { [ "$1" = "$2" ] || echo "$3: exit $1, want $2"; }
# want_text FILE EXPECTED: FILE must hold exactly EXPECTED (plus its final newline)
want_text() { [ "$(cat "$1")" = "$2" ] || { echo "$1 differs:"; diff <(printf '%s\n' "$2") "$1" | head -n 20; }; }
# want_grep FILE PATTERN
want_grep() { grep -q -- "$2" "$1" || { echo "$1 lacks '$2':"; head -n 5 "$1"; }; }

# mutate SOLUTION N COUNT SEED [ints]: puzzles from a solved grid (character form, N <= 35)
mutate() {
    python3 - "$@" <<'EOF'
import random, sys
sol, n, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ints = len(sys.argv) > 5
alpha = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
rng = random.Random(seed)
cells = len(sol)
for i in range(count):
    p = list(sol)
    frac = [0.2, 0.4, 0.55, 0.7, 0.85][i % 5]
    for c in rng.sample(range(cells), int(frac * cells)):
        p[c] = '.'
    kind = i % 4
    filled = [c for c in range(cells) if p[c] != '.']
    empty = [c for c in range(cells) if p[c] == '.']
    if kind == 1 and filled:          # a given changed
        c = rng.choice(filled)
        p[c] = alpha[rng.randint(1, n)]
    elif kind == 2 and empty:         # a digit added (right or wrong)
        c = rng.choice(empty)
        p[c] = alpha[rng.randint(1, n)]
    line = "".join(p)
    if ints and i % 2:
        line = ",".join(str(alpha.index(ch)) for ch in line)
    print(line)
EOF
}

if [ ! -x "$BIN" ] || [ ! -x "$GCHECK" ]; then
    echo "not ok - binary $BIN and checker $GCHECK exist"
    echo "0 passed, 1 failed"
    exit 1
fi
cp "$ROOT/tests/data/jigsaw6.txt" jigsaw6.txt

# ---- seed 002 ----------------------------------------------------------------------------
S44=0000002130040000
S99=001690500400270001070000090000000030000430007000780600006000805020140060010350040
S333=000810002060070904500003000
t_seed() {
    local rc
    rc=$(echo $S44 | sb o e solve)
    want_rc "$rc" 0 "s44 (16 cells: 2x2 picked)"
    want_text o 2143432132141432
    rc=$(echo $S99 | sb o e solve)
    want_rc "$rc" 0 s99
    want_text o 281693574469275381573814296792561438658439127134782659346927815925148763817356942
    rc=$(echo $S333 | sb o e solve --grid cube:3 -f tdoku)
    want_rc "$rc" 0 s333
    want_text o "...81...2.6..7.9.45....3...:1:349816752168275934527493681"
    echo 349816752168275934527493681 >p333
    echo $S333 >s333
    solve_check cube:3 s333
}
# solve_check SPEC PUZZLES [ARGS...]: solve records against the oracle
solve_check() {
    local spec=$1 file=$2 rc
    shift 2
    local g=(--grid "$spec")
    case $spec in @*) g=(--geometry "${spec#@}") ;; esac
    rc=$(sb out.$$ err.$$ solve "${g[@]}" -l 2 "$@" "$file")
    [ "$rc" = 0 ] || { echo "solve $spec $file: exit $rc"; head -n 3 err.$$; }
    "$GCHECK" solve "$spec" "$file" <out.$$
}
tcase "seed 002: s44 found as 2x2, s99 on the 9x9 path, s333 as cube:3; solutions by the rules" t_seed

# ---- picking the geometry ----------------------------------------------------------------
t_pick() {
    local rc
    rc=$(echo $S333 | sb o e solve)
    want_rc "$rc" 2 "27 cells without --grid"
    want_grep e "<stdin>:1: cannot tell the geometry: 27 cells is not an N x N grid: say --grid cube:3"
    [ -s o ] && echo "27 cells: records written"
    printf '# a comment\n\n0000000000000000000000000\n' >l5
    rc=$(sb o e solve l5)
    want_rc "$rc" 2 "25 cells"
    want_grep e "l5:3: cannot tell the geometry: 25 cells: N = 5 is prime, so no boxes fit; say --grid latin:5"
    rc=$(sb o e solve --grid 8x9)
    want_rc "$rc" 2 "bad --grid"
    want_grep e "bad --grid: unknown geometry '8x9'"
    rc=$(sb o e solve --geometry nosuch.txt)
    want_rc "$rc" 2 "missing --geometry file"
    want_grep e "bad --geometry: nosuch.txt: cannot open"
    rc=$(sb o e solve --grid 2x2 --geometry jigsaw6.txt)
    want_rc "$rc" 2 "both options"
    # 36 cells -> 2x3 from a file, a pipe and a redirected stdin alike
    echo 000000000000000000000000000000000000 >e36
    rc=$(sb o1 e solve -l 1 e36)
    want_rc "$rc" 0 "36 cells from a file"
    rc=$(cat e36 | timeout "$TIMEOUT" "$BIN" solve -l 1 >o2 2>e)
    rc=$?
    want_rc "$rc" 0 "36 cells from a pipe"
    rc=$(sb o3 e solve -l 1 <e36)
    want_rc "$rc" 0 "36 cells from redirected stdin"
    cmp -s o1 o2 || echo "pipe output differs from the file's"
    cmp -s o1 o3 || echo "redirected stdin output differs from the file's"
    "$GCHECK" solve 2x3 e36 <<<"multiple" || true
}
tcase "geometry from the first line's cell count (file, pipe, redirect); errors name the choices, exit 2" t_pick

# A pipe whose writer closed before a whole puzzle line: the look-ahead sees the hang-up
# though the bytes are still in the pipe (it once waited for a '\n' forever).
t_pipe_ended() {
    local rc
    printf '%s\n' "$S99" >f99
    rc=$(sb o1 e solve -f csv f99)
    printf '%s' "$S99" | timeout "$TIMEOUT" "$BIN" solve -f csv >o2 2>e
    rc=$?
    want_rc "$rc" 0 "9x9 line without its newline through a pipe"
    cmp -s o1 o2 || echo "9x9 without newline through a pipe: output differs from the file's"
    echo "$S44" >p44
    printf '%s' "$S44" | timeout "$TIMEOUT" "$BIN" solve -f solution -l 2 >o3 2>e
    rc=$?
    want_rc "$rc" 0 "16 cells without a newline through a pipe"
    "$GCHECK" solve 2x2 p44 <o3
    printf '\n\n' | timeout "$TIMEOUT" "$BIN" solve -f csv >o4 2>e
    rc=$?
    want_rc "$rc" 0 "only blank lines through a pipe"
    [ "$(cat o4)" = "line,status,count,guesses,solution" ] || echo "blank lines: $(head -c 200 o4)"
    printf '# just a comment\n' | timeout "$TIMEOUT" "$BIN" validate >o5 2>e
    rc=$?
    want_rc "$rc" 0 "only a comment through a pipe"
    want_grep o5 "0 puzzles"
}
tcase "a pipe closed before a whole line (no final newline, blank or comment lines only): read, not waited for" t_pipe_ended

# 9x9 pencilmarks with a mark out of place are a garbled 9x9 record, not a 27x27 grid (729
# cells); fast+T on another geometry is a usage error that names the generic spec.
t_pick_marks() {
    local rc
    python3 -c "
s='$S99'
m=''.join('123456789' if c=='0' else ''.join(c if str(d)==c else '.' for d in range(1,10)) for c in s)
bad=m[:8]+'5'+m[9:] if m[8]=='9' else m[:17]+'5'+m[18:]
print(bad)
print(s)" >pm.txt
    rc=$(sb o e solve -f csv pm.txt)
    want_rc "$rc" 1 "pencilmarks with a typo, then a good line"
    want_grep e "pm.txt:1:.*pencilmark '5' in place of digit 9"
    want_grep o "^2,solved,1,"
    grep -q "too few cells" e && echo "the good 81-cell line was read as another geometry"
    echo 000000000000000000000000000000000000 >e36
    rc=$(sb o e solve --grid 2x3 -s fast+xw e36)
    want_rc "$rc" 2 "fast+T on 2x3"
    want_grep e "fast+xw runs on the 9x9 fused kernel only, not 2x3: the same rules on any geometry are restart:ns,hs,lc,xw"
    want_grep e "Try 'sudokubench solve --help'"
}
tcase "9x9 pencilmarks with a typo stay 9x9 (not 27x27); fast+T on 2x3: usage error naming the generic spec" t_pick_marks

# The inputs of a run share one geometry: when the first cannot be opened or holds no puzzle
# line, the next one's first puzzle line decides (it was 9x9 then, every 6x6 line invalid). A
# pipe by name (process substitution, /dev/fd/N) is looked at like a piped stdin; a FIFO made
# by mkfifo is read once, so it is not looked at: a note says it is read as 9x9.
t_pick_next() {
    local rc
    "$BIN" generate --grid 2x3 -n 4 --seed 7 >g6
    "$BIN" solve -f solution -l 2 g6 >want6
    "$GCHECK" solve 2x3 g6 <want6
    printf '# only a comment\n\n   \n' >co
    rc=$(sb o e solve -f solution -l 2 nosuch.txt g6)
    want_rc "$rc" 2 "a missing first input, then 6x6 puzzles"
    want_text e "sudokubench: cannot open 'nosuch.txt': No such file or directory"
    cmp -s o want6 || { echo "missing first input: records differ"; head -n 3 o; }
    rc=$(sb o e solve -f solution -l 2 co g6)
    want_rc "$rc" 0 "a comment-only first input, then 6x6 puzzles"
    [ -s e ] && { echo "comment-only first input: stderr"; head -n 3 e; }
    cmp -s o want6 || { echo "comment-only first input: records differ"; head -n 3 o; }
    printf '%s\n' "$S99" >f99
    rc=$(sb o e validate co f99)
    want_rc "$rc" 0 "a comment-only first input, then a 9x9 puzzle"
    want_grep o "1 puzzles"
    timeout "$TIMEOUT" "$BIN" solve -f solution -l 2 <(cat g6) >o 2>e
    want_rc "$?" 0 "6x6 through a process substitution"
    [ -s e ] && { echo "process substitution: stderr"; head -n 3 e; }
    cmp -s o want6 || { echo "process substitution: records differ"; head -n 3 o; }
    timeout "$TIMEOUT" "$BIN" solve -f solution -l 2 /dev/fd/3 3<g6 >o 2>e
    want_rc "$?" 0 "6x6 through /dev/fd/3 (a file)"
    cmp -s o want6 || { echo "/dev/fd/3: records differ"; head -n 3 o; }
    cat g6 | timeout "$TIMEOUT" "$BIN" solve -f solution -l 2 /dev/fd/3 3<&0 >o 2>e
    want_rc "$?" 0 "6x6 through /dev/fd/3 (a pipe)"
    cmp -s o want6 || { echo "/dev/fd/3 on a pipe: records differ"; head -n 3 o; }
    # a FIFO: 9x9 still runs through it, with the note; --grid reads another geometry
    rm -f ff && mkfifo ff
    { cat f99 >ff & } 2>/dev/null
    rc=$(sb o e solve -f csv ff)
    want_rc "$rc" 0 "9x9 through a FIFO"
    want_grep o "^1,solved,1,"
    want_text e "sudokubench: solve: note: 'ff' is a FIFO, which can be read only once: read as 9x9 (say --grid SPEC for another geometry)"
    { cat g6 >ff & } 2>/dev/null
    rc=$(sb o e solve -f solution -l 2 --grid 2x3 ff)
    want_rc "$rc" 0 "6x6 through a FIFO with --grid"
    [ -s e ] && { echo "FIFO with --grid: stderr"; head -n 3 e; }
    cmp -s o want6 || { echo "FIFO with --grid: records differ"; head -n 3 o; }
    # a FIFO after a file that decides: no note, the FIFO read as the file's geometry
    { cat g6 >ff & } 2>/dev/null
    rc=$(sb o e solve -f solution -l 2 g6 ff)
    want_rc "$rc" 0 "6x6 file, then a FIFO"
    [ -s e ] && { echo "file then FIFO: stderr"; head -n 3 e; }
    cmp -s o <(cat want6 want6) || { echo "file then FIFO: records differ"; head -n 3 o; }
}
tcase "geometry from the next input when the first cannot be opened or has no puzzle line; <(...) and /dev/fd/N looked at; a FIFO noted" t_pick_next

# A line with more cells than the geometry says so, at the first cell too many (not what a
# digit past the grid is); '#' after the cells is pointed at, on 9x9 with the same words.
t_line_faults() {
    local rc
    printf '%s\n' "$S44" "$S99" "$S44 # s44" "$S44" >mix
    rc=$(sb o e solve -f csv mix)
    want_rc "$rc" 1 "16 cells, 81 cells, a comment after the cells"
    want_text e "sudokubench: mix:2:17: invalid puzzle: too many cells (more than 16)
sudokubench: mix:3:18: invalid puzzle: unexpected '#': a comment takes its own line"
    [ "$(cut -d, -f1,2 o | tr '\n' ' ')" = "line,status 1,solved 2,invalid 3,invalid 4,solved " ] ||
        { echo "records:"; cat o; }
    printf '%s\n' "$S44" "1,2,3,4,0,0,0,0,0,0,0,0,0,0,0,0,1,2" >ints
    rc=$(sb o e solve ints)
    want_rc "$rc" 1 "integers: 18 cells on 2x2"
    want_text e "sudokubench: ints:2:33: invalid puzzle: too many cells (more than 16)"
    # the first line decides with its comment: 2x2, and the comment is the fault
    printf '%s\n' "$S44 # s44" >c44
    rc=$(sb o e solve c44)
    want_rc "$rc" 1 "a first 16-cell line with a comment after it"
    want_text e "sudokubench: c44:1:18: invalid puzzle: unexpected '#': a comment takes its own line"
    printf '%s\n' "$S99  # s99" "$S99#" >c99
    rc=$(sb o e solve c99)
    want_rc "$rc" 1 "9x9 lines with a comment after them"
    want_text e "sudokubench: c99:1:84: invalid puzzle: unexpected '#': a comment takes its own line
sudokubench: c99:2:82: invalid puzzle: unexpected '#': a comment takes its own line"
}
tcase "too many cells said at the first cell too many (16-cell file, 81-cell line); '#' after the cells pointed at, 9x9 alike" t_line_faults

# ---- records against the oracle -----------------------------------------------------------
# base SPEC [GEOARGS]: a solution of the empty grid via --all -l 1, checked by the rules
base() {
    local spec=$1 cells empty
    shift
    cells=$(python3 -c "
import sys
s=sys.argv[1]
if s.startswith('@'): print(36)
elif s.startswith('cube:'): print(int(s[5:])**3)
else:
    a,b=s.split(':')[-1].split('x') if 'x' in s else (s.split(':')[1],1)
    n=int(a)*int(b); print(n*n)" "$spec")
    empty=$(printf '%*s' "$cells" '' | tr ' ' .)
    echo "$empty" | timeout "$TIMEOUT" "$BIN" solve "$@" --all -l 1 | sed -n 1p
}
# oracle_case SPEC COUNT SEED [GEOARGS]: mutated puzzles, chars and ints forms
oracle_case() {
    local spec=$1 count=$2 seed=$3 s n rc
    shift 3
    s=$(base "$spec" "$@")
    [ -n "$s" ] || { echo "$spec: no base solution"; return; }
    echo "$s" >base.txt
    : >empty.txt
    n=$(python3 -c "print(max('123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.index(c)+1 for c in '$s'))")
    mutate "$s" "$n" "$count" "$seed" ints | "$GCHECK" clean "$spec" >p.txt 2>clash.txt
    # every oracle verdict must occur: 0, 1 and 2+
    rc=$(sb o e solve "$@" -l 2 p.txt)
    want_rc "$rc" 0 "$spec solve"
    for w in unsolvable multiple; do grep -qx $w o || echo "$spec: no '$w' record among $count"; done
    [ "$(grep -cvx -e unsolvable -e multiple o)" -gt 0 ] || echo "$spec: no solved record"
    "$GCHECK" solve "$spec" p.txt <o
    grep -q , o || echo "$spec: no record in the integer form"
    # clashing lines: invalid records, in place, exit 1
    if [ -s clash.txt ]; then
        rc=$(sb o e solve "$@" clash.txt)
        want_rc "$rc" 1 "$spec clashes"
        [ "$(grep -cx invalid o)" = "$(wc -l <clash.txt)" ] || echo "$spec: clashing lines not all invalid"
        [ "$(grep -c 'invalid puzzle: .* twice in ' e)" = "$(wc -l <clash.txt)" ] || { echo "$spec: clash messages"; head -n 3 e; }
    fi
    # the same bytes for any -t
    for t in 2 7; do
        sb o$t e solve "$@" -l 2 -t $t -f json p.txt >/dev/null
    done
    sb o1 e solve "$@" -l 2 -t 1 -f json p.txt >/dev/null
    cmp -s o1 o2 && cmp -s o1 o7 || echo "$spec: json output depends on -t"
}
t_2x2() { oracle_case 2x2 60 1; }
t_2x3() { oracle_case 2x3 60 2 --grid 2x3; }
t_3x4() { oracle_case 3x4 60 23 --grid 3x4; }
# 4x4 seed 16: the base is the first solution of the empty grid, so it moves with the branching
# rule, and the mutation seed with it, for 0, 1 and 2+ to occur among 20
t_4x4() { oracle_case 4x4 20 16 --grid 4x4; }
t_latin() { oracle_case latin:5 60 5 --grid latin:5; }
t_x() { oracle_case x:3x3 40 6 --grid x:3x3; }
t_cube() { oracle_case cube:3 60 7 --grid cube:3; }
t_jigsaw() { oracle_case @jigsaw6.txt 60 8 --geometry jigsaw6.txt; }
tcase "2x2 (picked from 16 cells): records = oracle, clashes invalid, any -t" t_2x2
tcase "2x3: records = oracle, clashes invalid, any -t" t_2x3
tcase "3x4: records = oracle, clashes invalid, any -t" t_3x4
tcase "4x4 (1-9A-G): records = oracle, clashes invalid, any -t" t_4x4
tcase "latin:5: records = oracle, clashes invalid, any -t" t_latin
tcase "x:3x3: records = oracle, clashes invalid, any -t" t_x
tcase "cube:3: records = oracle, clashes invalid, any -t" t_cube
tcase "jigsaw file: records = oracle, clashes invalid, any -t" t_jigsaw

# ---- errors -------------------------------------------------------------------------------
t_errors() {
    local rc
    printf '%s\n' 0000002150040000 1100002130040000 000000213004000 $S44 \
        0,0,0,0,0,0,2,1,3,0,0,9,0,0,0,0 "1, 0,0,0, 1,0,0,0,0,0,0,0,0,0,0,0" >bad.txt
    rc=$(sb o e solve --grid 2x2 bad.txt)
    want_rc "$rc" 1 "bad lines"
    want_text o "invalid
invalid
invalid
2143432132141432
invalid
invalid"
    want_text e "sudokubench: bad.txt:1:9: invalid puzzle: digit '5' out of range 1..4
sudokubench: bad.txt:2:2: invalid puzzle: 1 twice in row 1 (r1c1, r1c2)
sudokubench: bad.txt:3:16: invalid puzzle: too few cells (15 of 16)
sudokubench: bad.txt:5:23: invalid puzzle: value 9 out of range 0..4
sudokubench: bad.txt:6:11: invalid puzzle: 1 twice in column 1 (r1c1, r2c1)"
    echo 100000000000000000000000000 100000000000000000000000000 | tr ' ' '\n' >c.txt
    echo 101000000000000000000000000 >>c.txt
    rc=$(sb o e solve --grid cube:3 -f csv c.txt)
    want_rc "$rc" 1 "cube clash"
    want_text e "sudokubench: c.txt:3:3: invalid puzzle: 1 twice in plane x=1 (x1y1z1, x1y1z3)"
    [ "$(sed -n 4p o)" = "3,invalid,,," ] || echo "cube clash record: $(sed -n 4p o)"
    rc=$(sb o e validate --grid 2x2 bad.txt)
    want_rc "$rc" 1 "validate bad lines"
    want_text o "1 puzzles: 1 unique, 0 multiple, 0 unsolvable, 5 invalid lines"
    printf '%s\n' $S44 0000000000000000 1200003000000000 >v.txt
    rc=$(sb o e validate v.txt)
    want_rc "$rc" 1 "validate 2x2"
    want_text o "3 puzzles: 1 unique, 1 multiple, 1 unsolvable, 0 invalid lines"
    want_text e "sudokubench: v.txt:2: multiple solutions
sudokubench: v.txt:3: no solution"
    rc=$(echo $S44 | sb o e validate)
    want_rc "$rc" 0 "validate a proper 2x2"
}
tcase "errors per geometry: FILE:LINE:COL, the record kept, exit 1; validate on a geometry" t_errors

# ---- --all --------------------------------------------------------------------------------
# all_case SPEC COUNT SEED CAP ARGS...: --all counts = oracle, solutions valid and distinct
all_case() {
    local spec=$1 count=$2 seed=$3 cap=$4 s n rc
    shift 4
    s=$(base "$spec" "$@")
    n=$(python3 -c "print(max('123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.index(c)+1 for c in '$s'))")
    mutate "$s" "$n" "$count" "$seed" | "$GCHECK" clean "$spec" >p.txt 2>/dev/null
    rc=$(sb o e solve "$@" --all -l "$cap" p.txt)
    want_rc "$rc" 0 "$spec --all"
    "$GCHECK" all "$spec" p.txt "$cap" <o
    [ "$(awk 'NR==1 || 0' o)" ] || echo "$spec: empty --all output"
}
t_all() {
    all_case 2x2 40 11 0 --grid 2x2
    all_case 2x3 30 12 200
    all_case latin:4 30 13 0 --grid latin:4
    all_case cube:2 20 14 0 --grid cube:2
    all_case cube:3 30 15 100 --grid cube:3
    all_case @jigsaw6.txt 30 16 300 --geometry jigsaw6.txt
    # exact totals: 288 4x4 Sudoku grids, 576 order-4 latin squares
    echo 0000000000000000 | sb o e solve --all >/dev/null
    [ "$(tail -n 1 o)" = 288 ] && [ "$(wc -l <o)" = 289 ] || echo "2x2 empty: $(tail -n 1 o) / $(wc -l <o) lines"
    [ "$(sed '$d' o | sort -u | wc -l)" = 288 ] || echo "2x2 empty: solutions not distinct"
    echo 0000000000000000 | sb o e solve --grid latin:4 --all -f csv >/dev/null
    [ "$(tail -n 1 o)" = "1,multiple,576,$(tail -n 1 o | cut -d, -f4)," ] || echo "latin:4 count record: $(tail -n 1 o)"
    [ "$(grep -c '^1,solution,' o)" = 576 ] || echo "latin:4: $(grep -c '^1,solution,' o) solution rows"
    echo 0000000000000000 | sb o1 e solve --grid latin:4 -l 1 >/dev/null
    [ "$(sed -n 2p o)" = "1,solution,1,,$(cat o1)" ] || echo "latin:4 first row $(sed -n 2p o) is not solve -l 1's"
}
tcase "--all: every solution, then the count record; counts = oracle, valid, distinct; -l caps" t_all

t_all99() {
    local rc
    # s99 with 3 givens removed: 15 solutions, on 9x9 through the general solver
    python3 -c "
s='$S99'
p=list(s)
k=0
for i,c in enumerate(p):
    if c!='0' and k<3: p[i]='0'; k+=1
print(''.join(p))" >p99.txt
    rc=$(sb o e solve --all p99.txt)
    want_rc "$rc" 0 "9x9 --all"
    "$GCHECK" all 3x3 p99.txt <o
    [ "$(tail -n 1 o)" -ge 2 ] || echo "9x9 --all: count $(tail -n 1 o), want several"
    rc=$(sb o e solve --all -l 2 -f json p99.txt)
    want_grep o '"status":"multiple","count":2,'
    [ "$(grep -c '"status":"solution","index":' o)" = 2 ] || echo "9x9 --all -l 2: not 2 solution records"
    # the same order as the count's first solution: solution 1 is what solve prints at -l 1
    rc=$(sb o1 e solve --grid 3x3 -l 1 p99.txt)
    [ "$(sed -n 1p o | sed 's/.*"solution":"\([^"]*\)".*/\1/')" = "$(cat o1)" ] || echo "9x9: --all's first solution is not solve -l 1's"
    # "fast+T" lists as its generic order with the same techniques (restart:ns,hs,lc,T)
    rc=$(sb o e solve --all -s fast+xw,sky p99.txt)
    want_rc "$rc" 0 "9x9 --all -s fast+xw,sky"
    [ -s e ] && echo "9x9 --all -s fast+xw,sky: stderr: $(head -c 200 e)"
    "$GCHECK" all 3x3 p99.txt <o
    rc=$(sb o2 e solve --all -s restart:ns,hs,lc,xw,sky p99.txt)
    cmp -s o o2 || echo "9x9 --all: fast+xw,sky differs from restart:ns,hs,lc,xw,sky"
}
tcase "--all on 9x9: counts = oracle, -l cap, first solution = solve -l 1 (DFS order), fast+T" t_all99

# The one-line readers of 9x9 (--all, --grid 3x3) agree with solve's reader on three
# things: the Kaggle header `quizzes,solutions` is skipped (`generate -f kaggle` reads back,
# exit 0), a row of nine '-' in a nine-line grid is a row of blanks, not a rule (the grids of
# a file start where solve's do, a bad row inside one included), and a byte that is not
# printable is said as '\xHH' (on every geometry: a '?' would read as a literal question mark).
t_readers_agree() {
    local rc
    "$BIN" generate -n 2 --seed 4 -f kaggle >kag.csv
    rc=$(sb o e solve --all -l 1 -f csv kag.csv)
    want_rc "$rc" 0 "--all on a Kaggle file"
    [ "$(grep -c ',solved,1,' o)" = 2 ] || echo "--all on a Kaggle file: not 2 puzzles solved: $(head -c 300 o)"
    grep -q '^1,' o && echo "--all: the Kaggle header made a record"
    for cmd in solve validate rate; do
        rc=$(sb o e $cmd --grid 3x3 kag.csv)
        want_rc "$rc" 0 "$cmd --grid 3x3 on a Kaggle file"
        grep -q 'invalid puzzle' e && echo "$cmd --grid 3x3 kag.csv: $(head -c 200 e)"
    done
    # two nine-line grids, the first closed by a row of nine '-' (blanks)
    printf '%s\n' 4...3.... ...6..8.. ........1 ....5..9. .8....6.. .7.2..... ...1.27.. 5.3....4. \
        --------- 4...3.... ...6..8.. ........1 ....5..9. .8....6.. .7.2..... ...1.27.. \
        5.3....4. 9........ >grids.txt
    rc=$(sb o e solve -f csv grids.txt)
    cut -d, -f1-3 o >o3
    want_text o3 "line,status,count
1,multiple,2
10,solved,1"
    rc=$(sb o e solve --all -f csv grids.txt)
    want_rc "$rc" 1 "--all on nine-line grids"
    [ "$(cut -d, -f1 o | tr '\n' ' ')" = "line 1 10 " ] || echo "--all: grids start at lines $(cut -d, -f1 o | tr '\n' ' '), want 1 10"
    # a grid with a bad row is one record, as for solve: a grid from line 1 (row 8 holds an
    # 'x'), one from line 10, then a one-line puzzle at line 19
    { sed -e '8s/^.../.x./' grids.txt | head -n 9; sed -n '10,18p' grids.txt; sed -n 1,9p grids.txt | tr -d '\n'; echo; } >badrow.txt
    rc=$(sb o e solve -f csv badrow.txt)
    [ "$(cut -d, -f1,2 o | tr '\n' ' ')" = "line,status 8,invalid 10,solved 19,multiple " ] ||
        echo "solve on a grid with a bad row: records $(cut -d, -f1,2 o | tr '\n' ' ')"
    rc=$(sb o e solve --grid 3x3 -f csv badrow.txt)
    want_rc "$rc" 1 "--grid 3x3 on a grid with a bad row"
    [ "$(cut -d, -f1,2 o | tr '\n' ' ')" = "line,status 1,invalid 10,invalid 19,multiple " ] ||
        echo "--grid 3x3: a grid with a bad row gave records $(cut -d, -f1,2 o | tr '\n' ' ')"
    [ "$(grep -c 'invalid puzzle' e)" = 2 ] || echo "--grid 3x3: not 2 messages for 2 grids: $(cat e)"
    want_grep e "badrow.txt:1:1: invalid puzzle: nine-line grid: --all and 3x3 read one line a puzzle"
    rc=$(sb o e solve --all -l 1 -f csv badrow.txt)
    want_rc "$rc" 1 "--all on a grid with a bad row"
    [ "$(cut -d, -f1,2 o | tr '\n' ' ')" = "line,status 1,invalid 10,invalid 19,solution 19,solved " ] ||
        echo "--all: a grid with a bad row gave records $(cut -d, -f1,2 o | tr '\n' ' ')"
    printf '4..6.5\001.....\n' >ctl.txt
    rc=$(sb o e solve --grid 2x3 ctl.txt)
    want_rc "$rc" 1 "a control byte on 2x3"
    want_grep e "ctl.txt:1:7: invalid puzzle: unexpected character '\\\\x01'"
}
tcase "9x9's one-line readers (--all, --grid 3x3): Kaggle header skipped, nine '-' a row, '\\xHH' on every geometry" t_readers_agree

# ---- pipelines (-s) on geometries ---------------------------------------------------------
# pipe_case SPEC COUNT SEED GEOARGS...: mutated puzzles; every pipeline of $PIPES records
# agree with the oracle (GCHECK) and its verdicts and counts with the general solver's
PIPES_ALL="list array restart singles none array:ns,hs,lc,nt,ht list:ht,nt,lc,hs"
PIPES="$PIPES_ALL"
pipe_case() {
    local spec=$1 count=$2 seed=$3 s n rc p
    shift 3
    s=$(base "$spec" "$@")
    [ -n "$s" ] || { echo "$spec: no base solution"; return; }
    n=$(python3 -c "print(max('123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.index(c)+1 for c in '$s'))")
    mutate "$s" "$n" "$count" "$seed" ints | "$GCHECK" clean "$spec" >p.txt 2>/dev/null
    sb f.csv e solve "$@" -l 2 -f csv p.txt >/dev/null
    for p in $PIPES; do
        rc=$(sb o e solve "$@" -s "$p" -l 2 p.txt)
        want_rc "$rc" 0 "$spec -s $p"
        "$GCHECK" solve "$spec" p.txt <o
        sb c.csv e solve "$@" -s "$p" -l 2 -t 2 -f csv p.txt >/dev/null
        [ "$(cut -d, -f1-3 c.csv)" = "$(cut -d, -f1-3 f.csv)" ] || echo "$spec -s $p: verdicts or counts differ from the general solver's"
    done
}
t_pipes() {
    local rc
    pipe_case 2x2 25 31
    pipe_case 2x3 25 32 --grid 2x3
    pipe_case latin:5 25 34 --grid latin:5
    cp p.txt pl5.txt
    pipe_case cube:3 25 36 --grid cube:3
    cp p.txt pc3.txt
    pipe_case @jigsaw6.txt 25 37 --geometry jigsaw6.txt
    # bigger grids with 85% blanks: a weak pipeline (singles, none) may search for minutes to
    # prove a mutation has no solution, so only the full ones there
    PIPES="list array restart array:ns,hs,lc,nt,ht"
    pipe_case 3x4 20 33 --grid 3x4
    pipe_case x:3x3 20 35 --grid x:3x3
    PIPES="$PIPES_ALL"
    # lc needs two houses meeting in 2+ cells: a latin square has none, so it is skipped there
    # with a note on stderr (records unchanged); a cube has them, so no note
    rc=$(sb o e solve --grid latin:5 -s list pl5.txt)
    want_rc "$rc" 0 "latin:5 -s list"
    want_text e "sudokubench: solve: note: list skips lc on latin:5: locked candidates need two houses meeting in 2 or more cells, and it has none"
    rc=$(sb o e solve --grid latin:5 -s restart:ns,hs,nt pl5.txt)
    [ -s e ] && { echo "latin:5 without lc: stderr"; cat e; }
    rc=$(sb o e solve --grid cube:3 -s list pc3.txt)
    grep -q 'skips lc' e && echo "cube:3: lc reported skipped"
    # a bad spec or name is refused before any record, exit 2
    rc=$(sb o e solve --grid 2x3 -s list:ns,xx p.txt)
    want_rc "$rc" 2 "bad spec on 2x3"
    want_grep e "bad pipeline spec 'list:ns,xx': unknown technique 'xx'"
    [ -s o ] && echo "bad spec: records written"
    rc=$(sb o e solve --grid 2x3 -s list,array,restart p.txt)
    want_rc "$rc" 2 "a list given to -s"
    want_grep e "unknown pipeline 'list,array,restart'"
    # --all with a pipeline: every solution, valid and distinct, counts = oracle
    all_case 2x3 20 38 200 --grid 2x3 -s array
    all_case latin:4 10 39 0 --grid latin:4 -s restart:ns,hs,nt,ht
    echo 0000000000000000 | sb o e solve -s restart --all >/dev/null
    [ "$(tail -n 1 o)" = 288 ] && [ "$(sed '$d' o | sort -u | wc -l)" = 288 ] || echo "2x2 empty -s restart --all: $(tail -n 1 o)"
}
tcase "-s on geometries: list, array, restart, singles, none and specs = oracle and the general solver; lc skipped on latin" t_pipes

# ---- pretty -------------------------------------------------------------------------------
t_pretty() {
    echo $S44 | sb o e solve -f pretty >/dev/null
    want_text o "# <stdin>:1 solved (count 1, guesses 0)
+-----+-----+   +-----+-----+
| . . | . . |   | 2 1 | 4 3 |
| . . | 2 1 |   | 4 3 | 2 1 |
+-----+-----+   +-----+-----+
| 3 . | . 4 |   | 3 2 | 1 4 |
| . . | . . |   | 1 4 | 3 2 |
+-----+-----+   +-----+-----+"
    echo $S333 | sb o e solve --grid cube:3 -f pretty >/dev/null
    want_text o "# <stdin>:1 solved (count 1, guesses 0)
+-------+-------+-------+   +-------+-------+-------+
| . . . | . 6 . | 5 . . |   | 3 4 9 | 1 6 8 | 5 2 7 |
| 8 1 . | . 7 . | . . 3 |   | 8 1 6 | 2 7 5 | 4 9 3 |
| . . 2 | 9 . 4 | . . . |   | 7 5 2 | 9 3 4 | 6 8 1 |
+-------+-------+-------+   +-------+-------+-------+"
    echo 0000000000000000000000001 | sb o e solve --grid latin:5 -l 1 -f pretty >/dev/null
    want_text o "# <stdin>:1 solved (count 1, guesses 9)
. . . . .   1 3 4 5 2
. . . . .   2 5 1 4 3
. . . . .   5 1 3 2 4
. . . . .   3 4 2 1 5
. . . . 1   4 2 5 3 1"
}
tcase "pretty: boxes for RxC, cube planes x=1..K side by side, latin without boxes" t_pretty

# ---- generate ----------------------------------------------------------------------------
# gen_case SPEC N GEOARGS...: generated puzzles are unique (oracle) and minimal (each given
# removed: the oracle finds several solutions), the same bytes for -t 1 and -t 2
gen_case() {
    local spec=$1 n=$2 rc
    shift 2
    rc=$(sb g1 e generate "$@" -n "$n" --seed 9 -t 1)
    want_rc "$rc" 0 "$spec generate"
    sb g2 e generate "$@" -n "$n" --seed 9 -t 2 >/dev/null
    cmp -s g1 g2 || echo "$spec: generate output depends on -t"
    [ "$(wc -l <g1)" = "$n" ] || echo "$spec: $(wc -l <g1) puzzles, want $n"
    sb o e solve "$@" -l 2 g1 >/dev/null
    [ "$(grep -cx -e multiple -e unsolvable o)" = 0 ] || echo "$spec: a generated puzzle is not unique"
    "$GCHECK" solve "$spec" g1 <o
    python3 -c "
import sys
for line in open('g1'):
    p = line.strip()
    for i, ch in enumerate(p):
        if ch != '.':
            print(p[:i] + '.' + p[i + 1:])" >less.txt
    sb o e solve "$@" -l 2 less.txt >/dev/null
    [ "$(grep -cvx multiple o)" = 0 ] || echo "$spec: a generated puzzle is not minimal"
    "$GCHECK" solve "$spec" less.txt <o
}
t_generate() {
    gen_case 2x2 10 --grid 2x2
    gen_case 2x3 10 --grid 2x3
    gen_case latin:5 6 --grid latin:5
    gen_case cube:3 6 --grid cube:3
    gen_case @jigsaw6.txt 6 --geometry jigsaw6.txt
    gen_case x:2x2 6 --grid x:2x2
}
tcase "generate --grid/--geometry: unique and minimal by the oracle, same bytes for any -t" t_generate

# ---- augment ----------------------------------------------------------------------------
# aug_case SPEC SEED GEOARGS...: every output has its source's verdict (solve, and the oracle
# through gcheck), and the transforms move cells (not all outputs equal their source)
aug_case() {
    local spec=$1 seed=$2 s n p rc
    shift 2
    s=$(base "$spec" "$@")
    n=$(python3 -c "print(max('123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.index(c)+1 for c in '$s'))")
    mutate "$s" "$n" 20 "$seed" | "$GCHECK" clean "$spec" >p.txt 2>/dev/null
    p=$(wc -l <p.txt)
    rc=$(sb a.txt e augment "$@" -n $((3 * p)) --seed "$seed" p.txt)
    want_rc "$rc" 0 "$spec augment"
    sb o e solve "$@" -l 2 p.txt >/dev/null
    sb oa e solve "$@" -l 2 a.txt >/dev/null
    "$GCHECK" solve "$spec" a.txt <oa
    python3 - "$p" <<'PY'
import sys
p = int(sys.argv[1])
src = [l.split() and (l.strip() if l.strip() in ("multiple", "unsolvable") else "solved") for l in open("o")]
out = [l.split() and (l.strip() if l.strip() in ("multiple", "unsolvable") else "solved") for l in open("oa")]
pin = [l.strip() for l in open("p.txt")]
aug = [l.strip() for l in open("a.txt")]
for i, v in enumerate(out):
    if v != src[i % p]:
        print("output %d: %s, its source %d: %s" % (i + 1, v, i % p + 1, src[i % p]))
if all(a == pin[i % p] for i, a in enumerate(aug)):
    print("augment changed nothing")
PY
}
t_augment() {
    aug_case 2x3 21 --grid 2x3
    aug_case 2x2 22
    aug_case latin:5 23 --grid latin:5
    aug_case x:3x3 24 --grid x:3x3
    aug_case cube:3 25 --grid cube:3
    aug_case 3x4 26 --grid 3x4
}
tcase "augment on geometries: relabelled and symmetric copies keep their verdicts (oracle)" t_augment

# ---- rate ---------------------------------------------------------------------------------
# rate_sum FILE PUZZLES R C: every rated record's eliminations (all techniques) must add up to
# what a fixpoint without guessing removes, counted independently here: each blank cell's
# candidates left by its given peers, less its one solution digit (rows, columns and RxC boxes);
# a technique that eliminated something ran (its calls column, after the eliminations).
rate_sum() {
    python3 - "$@" <<'EOF'
import sys
csv, puz, R, C = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
N = R * C
alpha = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
puzzles = [l.strip() for l in open(puz) if l.strip() and not l.startswith("#")]
rows = [l.strip().split(",") for l in open(csv)][1:]
if len(rows) != len(puzzles):
    print("%s: %d records for %d puzzles" % (csv, len(rows), len(puzzles)))
rated = 0
for p, r in zip(puzzles, rows):
    if r[1] != "solved" or r[2] == "search":
        continue
    v = [alpha.index(ch.upper()) if ch != "0" else 0 for ch in p]
    want = 0
    for i in range(N * N):
        if v[i]:
            continue
        ri, ci = divmod(i, N)
        seen = {v[j] for j in range(N * N) if v[j] and (j // N == ri or j % N == ci or
                ((j // N) // R, (j % N) // C) == (ri // R, ci // C))}
        want += N - len(seen) - 1
    rated += 1
    if len(r) != 3 + 2 * 19:
        print("%s line %s: %d columns" % (csv, r[0], len(r)))
    if sum(int(x) for x in r[3:22]) != want:
        print("%s line %s: eliminations %s, want %d in all" % (csv, r[0], r[3:22], want))
    if any(int(e) and not int(k) for e, k in zip(r[3:22], r[22:])):
        print("%s line %s: eliminations without calls: %s" % (csv, r[0], r[3:]))
if rated < 10:
    print("%s: only %d puzzles rated below search" % (csv, rated))
EOF
}
HEADER=line,status,class,ns,hs,lc,nt2,nt3,nt4,ht2,ht3,ht4,xw,sf,jf,xy,xyz,ww,sky,kite,col,xc
HEADER=$HEADER,ns_calls,hs_calls,lc_calls,nt2_calls,nt3_calls,nt4_calls,ht2_calls,ht3_calls,ht4_calls
HEADER=$HEADER,xw_calls,sf_calls,jf_calls,xy_calls,xyz_calls,ww_calls,sky_calls,kite_calls,col_calls,xc_calls
t_rate() {
    local rc f
    # 9x9 forced through the geometry path: the 9x9 rate's bytes, classes and every counter
    # (one layout for every geometry; tuples to chains from the generic engine)
    { grep -v '^#' "$ROOT/datasets/samples/top1465.txt" | head -n 150
      grep -v '^#' "$ROOT/datasets/samples/17_clue_2000.txt" | head -n 150
      grep -v '^#' "$ROOT/datasets/samples/hardest_11plus_1000.txt" | head -n 30
      "$BIN" generate -n 20 --seed 1 --class singles; } >r.txt
    for f in csv json; do
        rc=$(sb fast.$f e rate -t 2 -f $f r.txt)
        want_rc "$rc" 0 "9x9 rate -f $f"
        rc=$(sb gen.$f e2 rate --grid 3x3 -t 1 -f $f r.txt)
        want_rc "$rc" 0 "rate --grid 3x3 -f $f"
        cmp -s fast.$f gen.$f || { echo "rate --grid 3x3 -f $f differs from 9x9 rate:"; diff fast.$f gen.$f | head -n 6; }
        cmp -s e e2 || { echo "rate --grid 3x3 -f $f: stderr differs from 9x9 rate"; diff e e2; }
    done
    [ "$(head -n 1 gen.csv)" = "$HEADER" ] || echo "rate --grid 3x3 header: $(head -n 1 gen.csv)"
    [ "$(cut -d, -f3 gen.csv | sort -u | tr '\n' ' ')" = "chains class hidden locked search singles tuples wings " ] ||
        echo "classes seen: $(cut -d, -f3 gen.csv | sort -u | tr '\n' ' ')"
    rate_sum gen.csv r.txt 3 3
    # 2x3 and 16x16: the same columns; the eliminations add up as on 9x9 (16x16 puzzles:
    # generated ones made easier by givens from their solution, so most rate below search)
    "$BIN" generate --grid 2x3 -n 40 --seed 4 >g6.txt 2>/dev/null
    rc=$(sb o e rate --grid 2x3 -t 2 g6.txt)
    want_rc "$rc" 0 "rate --grid 2x3"
    [ "$(head -n 1 o)" = "$HEADER" ] || echo "rate --grid 2x3 header: $(head -n 1 o)"
    rate_sum o g6.txt 2 3
    "$BIN" generate --grid 4x4 -n 3 --seed 2 -t 2 >m16.txt 2>/dev/null
    "$BIN" solve --grid 4x4 m16.txt >s16.txt 2>/dev/null
    python3 -c 'import random, sys
ps = [l.strip() for l in open(sys.argv[1])]
ss = [l.strip() for l in open(sys.argv[2])]
for k in range(30):  # a minimal puzzle with 2k of its solution digits added: still unique
    p, s = list(ps[k % 3]), ss[k % 3]
    for i in random.Random(k).sample([i for i, ch in enumerate(p) if ch == "."], 2 * k):
        p[i] = s[i]
    print("".join(p))' m16.txt s16.txt >g16.txt
    rc=$(sb o e rate -t 2 g16.txt)
    want_rc "$rc" 0 "rate of 16x16 (4x4 from 256 cells)"
    [ "$(head -n 1 o)" = "$HEADER" ] || echo "rate 16x16 header: $(head -n 1 o)"
    rate_sum o g16.txt 4 4
    want_grep e "^rate: g16.txt: 30 puzzles: singles [0-9]* ([0-9.]*%), hidden"
    # a latin square has no locked candidates (no class, no lc eliminations); a cube does
    sb g.txt e generate --grid latin:6 -n 30 --seed 4 >/dev/null
    sb o e rate --grid latin:6 g.txt >/dev/null
    [ "$(tail -n +2 o | cut -d, -f3 | grep -c '^locked$')" = 0 ] && [ "$(tail -n +2 o | cut -d, -f6 | sort -u)" = 0 ] ||
        echo "latin:6 rated locked, or lc eliminated: $(cut -d, -f3,6 o | sort -u | tr '\n' ' ')"
    [ "$(grep -c ',solved,' o)" = 30 ] || echo "latin:6: not 30 solved records"
    # exact records: the 2x2 of seed 002 (singles; its 14 eliminations are the 12 blanks'
    # candidates left by their given peers, 26, less one digit each; ns runs 3 times: two
    # sweeps place every blank, the third finds nothing), a puzzle with several solutions, an
    # invalid line; the same columns and per-file summary as on 9x9
    printf '%s\n' 0000002130040000 1200000000000000 12340000 >b.txt
    rc=$(sb o e rate --grid 2x2 b.txt)
    want_rc "$rc" 1 "rate csv with a multiple and an invalid line"
    want_text o "$HEADER
1,solved,singles,14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
2,multiple,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,
3,invalid,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
    want_text e "sudokubench: b.txt:3:9: invalid puzzle: too few cells (8 of 16)
rate: b.txt: 2 puzzles: singles 1 (100.0%), hidden 0 (0.0%), locked 0 (0.0%), tuples 0 (0.0%), fish 0 (0.0%), wings 0 (0.0%), chains 0 (0.0%), search 0 (0.0%); unsolvable 0, multiple 1, invalid lines 1"
    rc=$(sb o e rate --grid 2x2 -f json b.txt)
    want_rc "$rc" 1 "rate json with a multiple and an invalid line"
    python3 - <<'EOF'
import json
recs = [json.loads(l) for l in open("o")]
c = recs[0].pop("counts", {})
want = [{"file": "b.txt", "line": 1, "status": "solved", "class": "singles"},
        {"file": "b.txt", "line": 2, "status": "multiple"},
        {"file": "b.txt", "line": 3, "status": "invalid", "error": "too few cells (8 of 16)", "column": 9}]
if recs != want:
    print("json records: %s" % recs)
names = "ns hs lc nt2 nt3 nt4 ht2 ht3 ht4 xw sf jf xy xyz ww sky kite col xc".split()
if list(c) != names:
    print("json counters: %s" % list(c))
elif c["ns"]["eliminations"] != 14 or any(sum(v.values()) for k, v in c.items() if k != "ns"):
    print("json counts: %s" % c)
elif not 0 < c["ns"]["placements"] <= 12 or not c["ns"]["placements"] <= c["ns"]["applications"]:
    print("ns placements/applications: %s" % c["ns"])
EOF
    # several inputs: a file column first, as in solve's csv; a summary per file
    cp b.txt b2.txt
    rc=$(sb o e rate --grid 2x2 b.txt b2.txt)
    want_rc "$rc" 1 "rate of two files"
    [ "$(head -n 1 o)" = "file,$HEADER" ] || echo "two files header: $(head -n 1 o)"
    [ "$(sed -n 5p o)" = "b2.txt,1,solved,singles,14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0" ] || echo "two files record 4: $(sed -n 5p o)"
    [ "$(grep -c '^rate: b2\?\.txt: 2 puzzles:' e)" = 2 ] || { echo "two files: not one summary per file"; cat e; }
}
tcase "rate on geometries: one layout (9x9's bytes through --grid 3x3, counters adding up on 2x3 and 16x16, exact 2x2 records); no locked on latin" t_rate

# ---- bench --------------------------------------------------------------------------------
# The rows of a bench table: dataset pipeline puzzles guesses/puzzle, one line each.
bench_rows() { awk -F' *[|] *' 'NR > 3 { print $2, $3, $4, $8 }' "$1"; }
t_bench() {
    local rc
    printf '%s\n' 0000002130040000 1234000000000000 >b4.txt
    rc=$(sb o e bench --seconds 0.05 -t 2 b4.txt)
    want_rc "$rc" 0 "bench on 2x2"
    want_grep o "^# sudokubench .* | threads 2 | limit 2 | grid 2x2$"
    want_grep o "^| dataset | pipeline | puzzles | puzzles/sec | usec/puzzle | %no_guess | guesses/puzzle | ±MAD% |$"
    [ "$(bench_rows o)" = "b4.txt fast 2 2.000" ] || { echo "bench 2x2 rows:"; cat o; }
    want_text e "sudokubench: bench: b4.txt: 0 of 2 puzzles have no solution, 1 more than one (first: puzzle 2)"
    # pipelines on 2x3: one row each in the order given, the same verdicts (checked), and the
    # guesses per puzzle of each equal to its solve -s run
    printf '%s\n' 123456000000000000000000000000000000 000000000000000000000000000000000001 >b6.txt
    rc=$(sb o e bench --pipelines list,array,restart --grid 2x3 --seconds 0 -t 2 b6.txt)
    want_rc "$rc" 0 "bench --pipelines list,array,restart --grid 2x3"
    [ "$(bench_rows o | awk '{ print $1, $2, $3 }' | tr '\n' ';')" = "b6.txt list 2;b6.txt array 2;b6.txt restart 2;" ] || { echo "bench 2x3 rows:"; cat o; }
    for p in list array restart; do
        sb c.csv e solve --grid 2x3 -s $p -f csv b6.txt >/dev/null
        want=$(awk -F, 'NR > 1 { g += $4 } END { printf "%.3f", g / 2 }' c.csv)
        [ "$(bench_rows o | awk -v p=$p '$2 == p { print $4 }')" = "$want" ] || echo "bench 2x3 $p: guesses $(bench_rows o | awk -v p=$p '$2 == p { print $4 }'), solve says $want"
    done
    rc=$(sb o e bench --pipeline restart:ns,hs,lc --grid latin:4 --seconds 0 b4.txt)
    want_rc "$rc" 0 "bench on latin:4"
    want_grep e "sudokubench: bench: note: restart:ns,hs,lc skips lc on latin:4"
    # no puzzle of the geometry: as on 9x9, the lines are reported, the row has 0 puzzles, exit 1
    rc=$(sb o e bench --grid cube:3 --seconds 0.05 b4.txt)
    want_rc "$rc" 1 "bench: no puzzle of the geometry"
    want_grep e "b4.txt:1:17: invalid puzzle: too few cells (16 of 27)"
    [ "$(bench_rows o)" = "b4.txt fast 0 0.000" ] || { echo "bench cube:3 rows:"; cat o; }
}
tcase "bench on a geometry: the 9x9 table (grid named), a row per file and pipeline, guesses as solve -s; invalid lines exit 1" t_bench
# bench --json on 2x3 and 4x4 (detected from 256 cells): valid against bench/bench.schema.json,
# the build block naming the grid, and each row's verdict counts those of validate (an
# independent count), an invalid line (reported, exit 1) left out of both.
t_bench_json() {
    local rc g f want
    "$BIN" generate --grid 2x3 -n 30 --seed 4 >j6.txt 2>/dev/null
    # three puzzles with several solutions: minimal ones with a given dropped
    head -n 3 j6.txt | sed 's/[1-6]/./' >>j6.txt
    echo "not a puzzle" >>j6.txt
    { cat "$ROOT/tests/data/minimal16.txt"; printf '%256s\n' '' | tr ' ' .; } >j16.txt
    for f in "2x3 j6.txt" "4x4 j16.txt"; do
        set -- $f
        g=$1
        rc=$(sb o e bench --json b.json --seconds 0 -t 2 -l 2 --pipelines fast,list --grid "$g" "$2")
        [ "$g" = 2x3 ] && want=1 || want=0
        want_rc "$rc" $want "bench --json --grid $g"
        PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 python3 - "$ROOT" b.json "$g" <<'PY' || echo "bench --json --grid $g: schema"
import json, sys
from sbperf import json_schema
d = json.load(open(sys.argv[2]))
errs = json_schema.validate(d, json.load(open(sys.argv[1] + "/bench/bench.schema.json")))
for e in errs:
    print(e)
if d["build"].get("grid") != sys.argv[3]:
    print("build block grid %s, want %s" % (d["build"].get("grid"), sys.argv[3]))
    errs = 1
if [r["pipeline"] for r in d["rows"]] != ["fast", "list"]:
    print("rows %s" % [r["pipeline"] for r in d["rows"]])
    errs = 1
sys.exit(1 if errs else 0)
PY
        [ "$g" = 4x4 ] || want_grep e "^sudokubench: $2:34:1: invalid puzzle"
        python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    print(r["puzzles"], r["solved"], r["multiple"], r["unsolvable"])' b.json >counts
        sb v e validate --grid "$g" "$2" >/dev/null
        want=$(awk '{ print $1, $3, $5, $7 }' v)
        [ "$(wc -l <counts)" = 2 ] && [ "$(sort -u counts)" = "$want" ] ||
            echo "bench --json --grid $g: counts $(tr '\n' ';' <counts) validate: $(cat v)"
    done
}
tcase "bench --json on 2x3 and 4x4: schema-valid, grid named, verdict counts = validate's" t_bench_json
# --simd on 16-digit boxed grids picks the whole-board kernel's stamp (scalar: the per-cell
# reference): every level this CPU has gives the same bytes, guesses included (csv), the
# same --all listing and the same bench guesses; a level it lacks is exit 2 with a message.
t_simd16() {
    local s rc l ref=none lacks=0
    s=$(base 4x4 --grid 4x4)
    [ -n "$s" ] || { echo "4x4: no base solution"; return; }
    mutate "$s" 16 25 41 ints | "$GCHECK" clean 4x4 >p.txt 2>/dev/null
    for l in scalar sse4 avx2 avx512bw avx512 neon; do
        rc=$(sb c.$l e solve --grid 4x4 --simd $l -l 3 -f csv p.txt)
        if [ "$rc" = 2 ]; then
            want_grep e "SIMD level '$l' is not supported by this CPU"
            lacks=1
            continue
        fi
        want_rc "$rc" 0 "solve --simd $l"
        sb a.$l e solve --grid 4x4 --simd $l --all -l 30 p.txt >/dev/null
        sb b.$l e bench --grid 4x4 --simd $l --seconds 0 -t 1 p.txt >/dev/null
        bench_rows b.$l | awk '{ print $3, $4 }' >g.$l
        if [ $ref = none ]; then
            ref=$l
        else
            cmp -s c.$ref c.$l || { echo "solve --simd $l differs from $ref:"; diff c.$ref c.$l | head -n 4; }
            cmp -s a.$ref a.$l || echo "solve --all --simd $l lists differently from $ref"
            cmp -s g.$ref g.$l || { echo "bench --simd $l: $(cat g.$l), $ref: $(cat g.$ref)"; }
        fi
    done
    [ $lacks = 1 ] || echo "no level this CPU lacks was tried"
    awk -F, 'NR > 1 && $4 > 0 { n++ } END { exit n < 3 }' c.scalar || echo "fewer than 3 puzzles needed a guess: the kernel's search is untested here"
    rc=$(sb o e bench --grid 4x4 --simd neon --seconds 0 p.txt)
    [ "$rc" = 2 ] || [ "$(uname -m)" = aarch64 ] || echo "bench --simd neon on x86: exit $rc, want 2"
}
tcase "--simd on 16x16: every level the same records, --all listing and bench guesses; a missing level is exit 2" t_simd16

# ---- the geometry-file reader's bounds (docs/geometry.md, "Geometry files") ---------------
# --geometry /dev/zero under a 1 GB address-space limit: the reader stops at its line bound
# with exit 2 and the message (it used to grow one line until an allocation failed, then say
# "read error" at line 0); a house listed twice is refused naming both lines.
t_geometry_reader() {
    local rc
    local limit='ulimit -v 1000000;'
    is_asan && limit='' # ASan cannot start under an address-space limit; the bound still holds
    bash -c "$limit"' exec "$@"' _ timeout "$TIMEOUT" "$BIN" validate --geometry /dev/zero >o 2>e
    rc=$?
    want_rc "$rc" 2 "--geometry /dev/zero"
    want_grep e "^sudokubench: bad --geometry: /dev/zero:1: line longer than 4096 bytes$"
    [ -s o ] && { echo "--geometry /dev/zero: stdout"; head -n 3 o; }
    printf 'houses 4 2\n0 1\n2 3\n0 2\n1 3\n# column 1 again\n3,1\n' >dup.geo
    echo 0000 >p4.txt
    rc=$(sb o e solve --geometry dup.geo p4.txt)
    want_rc "$rc" 2 "--geometry with a house twice"
    want_grep e "^sudokubench: bad --geometry: dup.geo:7: house duplicates line 5$"
    [ -s o ] && { echo "--geometry dup.geo: stdout"; head -n 3 o; }
}
tcase "--geometry: /dev/zero stops at the line bound (exit 2, bounded memory); a repeated house is exit 2 naming its line" t_geometry_reader

# ---- generate on a geometry with no full grid, and Ctrl-C inside one puzzle ---------------
# x:1x2 and a 2x2 jigsaw whose regions are the diagonals have no solution grid: generate
# used to draw random fills forever, deaf to signals (the bounded run timed out); now it is
# exit 2 with the reason before any output, the CSV header included. (Bounded with -k: the
# old loop ignored timeout's SIGTERM too.)
t_generate_no_grid() {
    local rc
    timeout -k 5 "$TIMEOUT" "$BIN" generate --grid x:1x2 -n 1 -f csv >o 2>e
    rc=$?
    want_rc "$rc" 2 "generate --grid x:1x2"
    want_text e "sudokubench: generate: x:1x2 has no full grid: its empty grid has no solution"
    [ -s o ] && { echo "generate --grid x:1x2: stdout"; head -n 3 o; }
    printf 'jigsaw 2\nab\nba\n' >diag.geo
    timeout -k 5 "$TIMEOUT" "$BIN" generate --geometry diag.geo -n 3 -t 2 >o 2>e
    rc=$?
    want_rc "$rc" 2 "generate --geometry diag.geo"
    want_text e "sudokubench: generate: jigsaw:2 has no full grid: its empty grid has no solution"
    [ -s o ] && { echo "generate --geometry diag.geo: stdout"; head -n 3 o; }
    # its rows as regions do have grids: a 2x2 latin square with a repeated house
    printf 'jigsaw 2\naa\nbb\n' >rows.geo
    rc=$(sb o e generate --geometry rows.geo -n 2)
    want_rc "$rc" 0 "generate --geometry rows.geo"
    [ "$(wc -l <o)" = 2 ] || { echo "generate --geometry rows.geo: want 2 lines"; cat o e; }
}
tcase "generate: a geometry without a full grid (x:1x2, a diagonal 2x2 jigsaw) is exit 2 with the reason, no output" t_generate_no_grid
# One puzzle of latin:49 takes longer than anyone waits (its uniqueness checks grow
# exponentially as the digging goes on; latin:36 ends in seconds): SIGINT once the run is busy
# inside that puzzle ends it promptly as interrupted, exit 130, nothing written but the csv
# header (the sign that the stop handlers are in: sb_ready, tests/cli/signals.sh).
t_generate_interrupt() {
    sb_bg o e generate --grid latin:49 -n 1 -f csv
    sb_ready "$BG_PID" o 30 || { kill -KILL "$BG_PID"; return; }
    sb_signal INT "$BG_PID"
    want_rc "$BG_RC" 130 "generate --grid latin:49 after SIGINT"
    want_grep e "interrupted after 0 records"
    [ "$(cat o)" = "index,puzzle,clues,guesses,solution" ] ||
        { echo "generate --grid latin:49: stdout after SIGINT is not the header alone"; head -c 200 o; }
}
tcase "generate --grid latin:49: SIGINT inside the one puzzle ends it (exit 130, no record)" t_generate_interrupt

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
