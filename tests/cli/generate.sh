#!/usr/bin/env bash
# tests/cli/generate.sh — black-box cases for `generate`, `augment` (docs/cli.md) and
# datasets/fetch.sh, sourced by tests/cli/run.sh at the end of its case list: they use its
# harness (begin/fail/skip/end, run, expect_*, BIN, HERE, TIMEOUT, HAVE_PY) and report in its
# `N passed, M failed` total. Run alone, it runs its own cases.
#
# The cases work in a subdirectory of run.sh's scratch directory; fetch.sh runs with
# FETCH_MANIFEST/FETCH_DEST pointing there, so nothing is written inside the repository. The
# puzzles' truth comes from `validate` and `solve`, which run.sh and the unit suite check
# against an independent reference; the unit suite also checks the generator itself against
# the reference (tests/test_generate.c).

# Run alone (tests/cli/generate.sh BINARY), it sets up the harness itself and runs its own cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # shellcheck source=tests/cli/run_lib.sh
    . "$(dirname "$0")/run_lib.sh" "$@"
fi

GEN_DIR=$PWD/generate
mkdir -p "$GEN_DIR" && cd "$GEN_DIR" || exit 1
FETCH=$HERE/../../datasets/fetch.sh

# expect_valid FILE N: validate says all N puzzles of FILE are proper
expect_valid() {
    timeout "$TIMEOUT" "$BIN" validate "$1" >v.out 2>v.err
    local rc=$?
    [ "$rc" = 0 ] || fail "validate $1: exit $rc"$'\n'"$(show v.err)"
    grep -qxF "$2 puzzles: $2 unique, 0 multiple, 0 unsolvable, 0 invalid lines" v.out ||
        fail "validate $1: $(cat v.out)"
}
clue_count() { tr -d '.\n' <<<"$1" | wc -c | tr -d ' '; }

# ---- generate -----------------------------------------------------------------------------
begin "generate --help: usage, options and defaults from the code"
run generate --help
expect_rc 0
grep -q '^Usage: sudokubench generate -n COUNT' out || fail "no usage line"$'\n'"$(show out)"
for w in --seed --threads --minimal --clues --symmetry --guesses --attempts --format '(default 0)' '(default 100000)'; do
    grep -qF -- "$w" out || fail "help lacks '$w'"
done
end

begin "generate: 300 puzzles, 81 cells each, all proper"
run generate -n 300 --seed 5 -t 1
expect_rc 0
cp out g1.txt
expect_records 300 g1.txt
bad=$(grep -cvE '^[1-9.]{81}$' g1.txt)
[ "$bad" = 0 ] || fail "$bad lines are not 81 cells of 1-9 and ."
[ "$(sort -u g1.txt | wc -l | tr -d ' ')" = 300 ] || fail "duplicate puzzles"
expect_valid g1.txt 300
end

begin "generate: same seed gives the same bytes for 1 and 2 threads"
run generate -n 300 --seed 5 -t 2
expect_rc 0
cmp -s g1.txt out || fail "-t 2 differs from -t 1"
run generate -n 300 --seed 5
cmp -s g1.txt out || fail "default threads differ from -t 1"
end

begin "generate: another seed gives other puzzles; --first shards the index range"
run generate -n 300 --seed 6 -t 1
[ "$(cat g1.txt out | sort | uniq -d | wc -l | tr -d ' ')" = 0 ] || fail "seeds 5 and 6 share puzzles"
run generate -n 100 --seed 5 --first 200 -t 2
expect_rc 0
tail -n 100 g1.txt >tail.txt
cmp -s tail.txt out || fail "--first 200 -n 100 is not lines 201-300 of -n 300"
end

begin "generate -n 0: no output, exit 0"
run generate -n 0
expect_rc 0
expect_out_empty
end

begin "generate -f tdoku: PUZZLE:1:SOLUTION, the same as solve -f tdoku"
run generate -n 200 --seed 8 -f tdoku
expect_rc 0
cp out gen.tdoku
cut -d: -f1 gen.tdoku >p.txt
run solve -f tdoku p.txt
expect_rc 0
cmp -s gen.tdoku out || fail "solve disagrees:"$'\n'"$(diff gen.tdoku out | head -n 4)"
end

begin "generate -f kaggle: quizzes,solutions rows that solve reads back"
run generate -n 200 --seed 8 -f kaggle
expect_rc 0
head -n 1 out | grep -qx 'quizzes,solutions' || fail "no Kaggle header"
expect_records 201
cp out gen.csv
run solve gen.csv
expect_rc 0
tail -n +2 gen.csv | cut -d, -f2 >want.txt
cmp -s want.txt out || fail "solutions column differs from solve"
tail -n +2 gen.csv | cut -d, -f1 | tr 0 . >kp.txt
cut -d: -f1 gen.tdoku >tp.txt
cmp -s kp.txt tp.txt || fail "kaggle puzzles differ from tdoku puzzles for the same seed"
end

begin "generate -f csv and json: index, puzzle, clues, guesses, solution agree with solve"
if [ "$HAVE_PY" = 1 ]; then
    run generate -n 150 --seed 9 --minimal -f csv
    expect_rc 0
    cp out gen.csv
    run generate -n 150 --seed 9 --minimal -f json
    expect_rc 0
    cp out gen.json
    tail -n +2 gen.csv | cut -d, -f2 >p.txt
    run solve -f csv p.txt
    cp out solved.csv
    python3 - gen.csv gen.json solved.csv >py.txt 2>&1 <<'EOF' || fail "$(cat py.txt)"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["index", "puzzle", "clues", "guesses", "solution"], rows[0]
objs = [json.loads(l) for l in open(sys.argv[2])]
solved = list(csv.reader(open(sys.argv[3])))[1:]
assert len(rows) - 1 == len(objs) == len(solved) == 150
for i, (r, o, s) in enumerate(zip(rows[1:], objs, solved)):
    assert list(o) == ["index", "puzzle", "clues", "guesses", "solution"], list(o)
    assert [str(o[k]) for k in o] == r, (o, r)
    assert int(r[0]) == i
    assert int(r[2]) == 81 - r[1].count("."), r
    assert s[1] == "solved" and s[2] == "1", s
    assert s[3] == r[3], ("guesses", s[3], r[3])
    assert s[4] == r[4], "solution differs"
print("ok")
EOF
else
    skip "python3 not available"
fi
end

begin "generate --minimal: removing any clue gives several solutions"
run generate -n 40 --seed 3 --minimal
expect_rc 0
cp out min.txt
expect_valid min.txt 40
: >minus.txt
n_clues=0
while read -r p; do
    for ((i = 0; i < 81; i++)); do
        if [ "${p:i:1}" != . ]; then
            echo "${p:0:i}.${p:i+1}" >>minus.txt
            n_clues=$((n_clues + 1))
        fi
    done
done <min.txt
run validate minus.txt
expect_rc 1
grep -qxF "$n_clues puzzles: 0 unique, $n_clues multiple, 0 unsolvable, 0 invalid lines" out ||
    fail "not all $n_clues one-clue removals are multiple: $(cat out)"
end

begin "generate --clues: the bound holds; below 17 is refused as infeasible"
run generate -n 40 --seed 4 --clues 23
expect_rc 0
cp out c23.txt
expect_valid c23.txt 40
while read -r p; do
    [ "$(clue_count "$p")" -le 23 ] || fail "$(clue_count "$p") clues: $p"
done <c23.txt
run generate -n 5 --clues 16
expect_usage_error generate
expect_err_re '^sudokubench: --clues 16 is infeasible: no puzzle with fewer than 17 clues has exactly one solution$'
run generate -n 5 --clues 82
expect_usage_error generate
end

begin "generate --clues 17 --attempts 2: a note, then a clear give-up (exit 1)"
run generate -n 3 --clues 17 --attempts 2 -t 1
expect_rc 1
expect_out_empty
expect_err_re '^sudokubench: note: --clues 17: random digging rarely reaches fewer than 20 clues'
expect_err_line 'sudokubench: generate: puzzle 0: no candidate met --clues 17 in 2 attempts'
end

begin "generate --symmetry: every clue's image is a clue"
for sym in rot180 rot90 mirror diagonal; do
    run generate -n 60 --seed 2 --symmetry "$sym"
    [ "$RC" = 0 ] || fail "$sym: exit $RC"
    cp out sym.txt
    expect_valid sym.txt 60
    while read -r p; do
        for ((i = 0; i < 81; i++)); do
            r=$((i / 9)) c=$((i % 9))
            case $sym in
            rot180) j=$((9 * (8 - r) + 8 - c)) ;;
            rot90) j=$((9 * c + 8 - r)) ;;
            mirror) j=$((9 * r + 8 - c)) ;;
            diagonal) j=$((9 * c + r)) ;;
            esac
            a=${p:i:1} b=${p:j:1}
            if [[ ($a == . && $b != .) || ($a != . && $b == .) ]]; then
                fail "$sym: r$((r + 1))c$((c + 1)) and its image differ: $p"
                break 2
            fi
        done
    done <sym.txt
done
run generate -n 1 --symmetry spiral
expect_usage_error generate
expect_err_re "^sudokubench: unknown symmetry 'spiral'"
end

begin "generate --guesses: every puzzle's guess count is in the range"
run generate -n 20 --seed 1 --minimal --guesses 2-5 -f csv
expect_rc 0
tail -n +2 out | cut -d, -f4 >g.txt
while read -r g; do
    if [ "$g" -lt 2 ] || [ "$g" -gt 5 ]; then fail "guesses $g outside 2-5"; fi
done <g.txt
tail -n +2 out | cut -d, -f2 >p.txt
run solve -f csv p.txt
tail -n +2 out | cut -d, -f4 >g2.txt
cmp -s g.txt g2.txt || fail "solve counts other guesses"
for bad in 5-2 x 1-2-3 -3; do
    run generate -n 1 --guesses "$bad"
    expect_usage_error generate
done
end

begin "generate: usage errors"
run generate
expect_usage_error generate
expect_err_line 'sudokubench: missing -n COUNT'
for args in "-n 3 extra" "-n x" "-n 3 -f boxed" "-n 3 -t 0" "-n 3 --attempts 0" "-n 3 --seed -1" "-n 3 --bogus" "-n"; do
    # shellcheck disable=SC2086 # split on purpose: each string is a word list
    run generate $args
    expect_usage_error generate
done
expect_err_line "sudokubench: option '-n' requires an argument"
end

# ---- generate --symmetry / --clues on other geometries ---------------------------------
# sym_ok FILE N SYM: every line of FILE (one character per cell, an N x N grid) has a clue
# pattern SYM keeps (the image worked out here in awk, independently of the library).
sym_ok() {
    awk -v n="$2" -v sym="$3" '{
        for (i = 0; i < n * n; i++) {
            r = int(i / n); c = i % n; last = n - 1
            if (sym == "rot180") j = n * (last - r) + (last - c)
            else if (sym == "rot90") j = n * c + (last - r)
            else if (sym == "mirror") j = n * r + (last - c)
            else j = n * c + r
            if ((substr($0, i + 1, 1) == ".") != (substr($0, j + 1, 1) == ".")) {
                printf "line %d: cell %d and its %s image %d differ\n", NR, i, sym, j; exit 1
            }
        }
    }' "$1"
}
# gvalid SPEC FILE N: validate --grid SPEC says all N puzzles of FILE are unique
gvalid() {
    timeout "$TIMEOUT" "$BIN" validate --grid "$1" "$2" >v.out 2>v.err
    grep -qxF "$3 puzzles: $3 unique, 0 multiple, 0 unsolvable, 0 invalid lines" v.out ||
        fail "validate --grid $1 $2: $(cat v.out v.err)"
}

begin "generate --grid --symmetry: symmetric, unique patterns on 4x4, 2x3, latin:5 and x:2x2, same bytes for -t 1 and 2"
for c in "2x2 4 rot90" "2x2 4 diagonal" "2x3 6 rot180" "2x3 6 mirror" "latin:5 5 diagonal" "latin:5 5 rot90" "x:2x2 4 rot180"; do
    read -r spec n sym <<<"$c"
    run generate --grid "$spec" -n 12 --seed 4 --symmetry "$sym" -t 1
    expect_rc 0
    expect_err_empty
    expect_records 12
    cp out sym1.txt
    why=$(sym_ok sym1.txt "$n" "$sym") || fail "$spec --symmetry $sym: $why"
    gvalid "$spec" sym1.txt 12
    run generate --grid "$spec" -n 12 --seed 4 --symmetry "$sym" -t 2
    cmp -s out sym1.txt || fail "$spec --symmetry $sym: -t 2 differs from -t 1"
done
# none is the plain puzzle
run generate --grid 2x3 -n 5 --seed 4
cp out plain.txt
run generate --grid 2x3 -n 5 --seed 4 --symmetry none
cmp -s out plain.txt || fail "--symmetry none differs from no --symmetry"
end

begin "generate --grid --clues K: at most K givens, unique; K unreachable gives up (exit 1)"
for c in "2x2 5" "2x3 11" "latin:5 10"; do
    read -r spec k <<<"$c"
    run generate --grid "$spec" -n 10 --seed 2 --clues "$k" -f csv -t 2
    expect_rc 0
    expect_records 11
    tail -n +2 out | cut -d, -f2 >clues.txt
    while read -r p; do
        [ "$(clue_count "$p")" -le "$k" ] || fail "$spec --clues $k: $p has $(clue_count "$p") clues"
    done <clues.txt
    awk -F, 'NR > 1 { n = gsub(/[^.]/, "", $2); if ($3 != n) { print "clues column " $3 " but " n " givens"; exit 1 } }' out >/dev/null ||
        fail "$spec: the clues column does not count the givens"
    gvalid "$spec" clues.txt 10
    run generate --grid "$spec" -n 10 --seed 2 --clues "$k" -f csv -t 1
    tail -n +2 out | cut -d, -f2 | cmp -s - clues.txt || fail "$spec --clues $k: -t 1 differs from -t 2"
done
# a symmetric pattern and a bound together
run generate --grid 2x2 -n 6 --seed 1 --symmetry rot180 --clues 6
expect_rc 0
cp out both.txt
why=$(sym_ok both.txt 4 rot180) || fail "--symmetry rot180 --clues 6: $why"
while read -r p; do [ "$(clue_count "$p")" -le 6 ] || fail "$p has more than 6 clues"; done <both.txt
# no 4x4 Sudoku puzzle has 3 clues: every candidate misses, the give-up names the bound
run generate --grid 2x2 -n 2 --seed 1 --clues 3 --attempts 4
expect_rc 1
expect_out_empty
expect_err_line "sudokubench: generate: puzzle 0: no candidate met --clues 3 in 4 attempts"
end

begin "generate --grid: options that do not apply are refused one by one, naming the option and the geometry"
run generate --grid 2x3 -n 1 --symmetry rot90
expect_usage_error generate
expect_err_line "sudokubench: --symmetry rot90: rot90 does not suit 2x3: it maps house 12 onto cells that are no house"
run generate --grid 2x3 -n 1 --symmetry diagonal
expect_usage_error generate
expect_err_re '^sudokubench: --symmetry diagonal: diagonal does not suit 2x3: '
run generate --geometry "$HERE/../data/jigsaw6.txt" -n 1 --symmetry rot180
expect_usage_error generate
expect_err_re '^sudokubench: --symmetry rot180: rot180 does not suit jigsaw:6: it maps house [0-9]+ onto cells that are no house$'
printf 'houses 4 2\n0 1\n2 3\n0 2\n1 3\n' >h.geo
run generate --geometry h.geo -n 1 --symmetry mirror
expect_usage_error generate
expect_err_line "sudokubench: --symmetry mirror: houses:4:2 has no grid picture for mirror to act on (a bare house list)"
run generate --grid 2x2 -n 1 --clues 2
expect_usage_error generate
expect_err_line "sudokubench: --clues 2 is infeasible on 2x2: a puzzle with fewer than 3 clues lacks two digits, which could swap"
run generate --grid 2x2 -n 1 --clues 17
expect_usage_error generate
expect_err_line "sudokubench: bad --clues '17' (3..16 on 2x2)"
run generate --grid 2x2 -n 1 --guesses 1-
expect_usage_error generate
expect_err_line "sudokubench: --guesses is for 9x9 only: the generator of 2x2 bounds clues, not guesses"
run generate --grid latin:5 -n 1 --class singles
expect_usage_error generate
expect_err_line "sudokubench: --class is for 9x9 only: latin:5 puzzles are not filtered by class"
run generate --grid 2x2 -n 1 -f kaggle
expect_usage_error generate
expect_err_line "sudokubench: -f kaggle is for 9x9 only (81-cell columns), not for 2x2"
end

# gen_stats_check FILE GEO N: the --stats line in err of a `generate -f csv` run that wrote FILE
# has the one layout of every geometry, its puzzles GEO and N, and clues (mean, MIN..MAX) and
# guesses/puzzle as counted from FILE's csv columns; sets UNDECIDED to its undecided clues.
gen_stats_check() {
    local num='[0-9]+\.[0-9]+' line want
    UNDECIDED=
    line=$(grep '^stats: ' err)
    [[ $line =~ ^stats:\ ([0-9]+)\ puzzles\ \((.+)\),\ ($num)\ clues/puzzle\ \(([0-9]+)\.\.([0-9]+)\),\ ($num)\ guesses/puzzle,\ ($num)\ attempts/puzzle,\ ([0-9]+)\ undecided\ clues,\ [0-9]+\ threads,\ $num\ s,\ $num\ puzzles/s$ ]] ||
        { fail "$2: stats line '$line'"; return; }
    want=$(awk -F, -v n="$3" 'NR > 1 { c += $3; g += $4; if (min == "" || $3 < min) min = $3; if ($3 > max) max = $3 }
        END { printf "%d %s %.2f %d %d %.3f", n, geo, c / n, min, max, g / n }' geo="$2" "$1")
    [ "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]} ${BASH_REMATCH[4]} ${BASH_REMATCH[5]} ${BASH_REMATCH[6]}" = "$want" ] ||
        fail "$2: stats '$line', counted from the csv: $want"
    [ "${BASH_REMATCH[7]}" = 1.00 ] || fail "$2: attempts/puzzle ${BASH_REMATCH[7]} without --clues"
    UNDECIDED=${BASH_REMATCH[8]}
}

begin "generate --stats: one layout on 9x9 and every geometry, its counts those of the csv; up to 16 digits no clue is undecided"
for c in "9x9 20" "2x3 20" "3x4 5"; do
    read -r geo n <<<"$c"
    grid=(--grid "$geo")
    [ "$geo" = 9x9 ] && grid=()
    run generate "${grid[@]}" -n "$n" --seed 7 -f csv -t 2
    cp out plain.csv
    run generate "${grid[@]}" -n "$n" --seed 7 -f csv -t 2 --stats
    expect_rc 0
    cmp -s out plain.csv || fail "$geo: --stats changed stdout"
    [ "$(wc -l <err)" = 1 ] || fail "$geo: stderr is not one stats line"$'\n'"$(show err)"
    gen_stats_check out "$geo" "$n"
    [ -z "$UNDECIDED" ] || [ "$UNDECIDED" = 0 ] || fail "$geo: $UNDECIDED undecided clues (its checks must all end)"
done
end

# Seed 3's puzzle is the cheaper of the first few (the work is a count of guesses, the same on
# every machine; the previous binary did not end in 30 s on it, nor in 5 minutes on seed 0)
begin "generate --grid 5x5 -n 1 ends: a uniqueness check out of guesses keeps its clue (unique, counted as undecided)"
run generate --grid 5x5 -n 1 --seed 3 -f csv -t 1 --stats
expect_rc 0
expect_records 2
gen_stats_check out 5x5 1
c=$(awk -F, 'NR == 2 { print $3 }' out)
[ "${UNDECIDED:-0}" -gt 0 ] && [ "$UNDECIDED" -le "${c:-0}" ] ||
    fail "5x5: ${UNDECIDED:-no} undecided clues of ${c:-no} clues (a sparse 25x25 check runs out of guesses)"
awk -F, 'NR == 2 { print $2 }' out >g55.txt
gvalid 5x5 g55.txt 1
# the solution column solves the puzzle: every given in place
awk -F, 'NR == 2 { for (i = 1; i <= length($2); i++) { p = substr($2, i, 1); if (p != "." && p != substr($5, i, 1)) { print "cell " i; exit } } }' out | grep -q . &&
    fail "5x5: a given differs from the solution column"
[ "$(awk -F, 'NR == 2 { n = gsub(/[^.]/, "", $2); print n }' out)" = "$c" ] || fail "5x5: the clues column does not count the givens"
end

begin "generate --progress: the line of puzzles made on stderr, stdout unchanged; a bad WHEN is a usage error"
run generate --grid 2x3 -n 300 --seed 1 --progress never
cp out never.txt
expect_err_empty
run generate --grid 2x3 -n 300 --seed 1 --progress always
expect_rc 0
cmp -s out never.txt || fail "--progress always changed stdout"
last=$(tr '\r' '\n' <err | tail -n 1)
# blanks pad the line over a longer one before it (a rate with fewer digits on a slow machine)
[[ $last =~ ^sudokubench:\ 300\ puzzles,\ [0-9]+/s,\ [0-9]+:[0-9][0-9]\ *$ ]] || fail "last progress line '$last'"
[ "$(tail -c 1 err | od -An -c | tr -d ' ')" = '\n' ] || fail "the progress line does not end with a newline"
run generate -n 3 --progress sometimes
expect_usage_error generate
expect_err_line "sudokubench: bad --progress 'sometimes' (auto, always, never)"
end

# ---- augment ------------------------------------------------------------------------------
# Inputs of all three kinds: proper puzzles, several solutions (a minimal puzzle minus a
# clue) and none (two equal givens in a row).
head -n 20 g1.txt >proper.txt
head -n 10 minus.txt >multi.txt
awk '{ print "55" substr($0, 3) }' proper.txt | head -n 5 >none.txt
cat proper.txt multi.txt none.txt >mix.txt # 35 puzzles

begin "augment --help"
run augment --help
expect_rc 0
grep -q '^Usage: sudokubench augment -n COUNT' out || fail "no usage line"
grep -qF '(default 0)' out || fail "no seed default"
end

begin "augment: counts are preserved for 0, 1 and 2+ solutions (cycling the inputs)"
run augment -n 105 --seed 7 mix.txt
expect_rc 0
cp out aug.txt
expect_records 105 aug.txt
bad=$(grep -cvE '^[1-9.]{81}$' aug.txt)
[ "$bad" = 0 ] || fail "$bad lines are not 81 cells"
for f in mix.txt aug.txt; do timeout "$TIMEOUT" "$BIN" solve -l 0 -f csv "$f" | tail -n +2 | cut -d, -f2,3 >"$f.counts"; done
cat mix.txt.counts mix.txt.counts mix.txt.counts >want.counts
cmp -s want.counts aug.txt.counts || fail "counts differ:"$'\n'"$(diff want.counts aug.txt.counts | head -n 6)"
for class in multiple unsolvable solved; do
    grep -q "^$class," want.counts || fail "the input lacks the class $class"
done
# The same puzzle comes back transformed, not verbatim (a relabelling at least).
[ "$(head -n 35 aug.txt | cat - mix.txt | sort | uniq -d | wc -l | tr -d ' ')" -le 1 ] ||
    fail "augment copies its inputs"
# Clue counts are kept line by line.
paste -d' ' <(cat mix.txt mix.txt mix.txt) aug.txt | while read -r a b; do
    [ "$(clue_count "$a")" = "$(clue_count "$b")" ] || { echo x; break; }
done | grep -q x && fail "a clue count changed"
end

begin "augment: deterministic for a seed; another seed differs"
run augment -n 105 --seed 7 mix.txt
cmp -s aug.txt out || fail "same seed, other bytes"
run augment -n 105 --seed 8 mix.txt
cmp -s aug.txt out && fail "seeds 7 and 8 give the same output"
run augment -n 50 --seed 7 mix.txt
head -n 50 aug.txt >head.txt
cmp -s head.txt out || fail "-n 50 is not a prefix of -n 105"
end

begin "augment: stdin, invalid lines reported and skipped (exit 1)"
{ echo "# comment"; cat proper.txt; echo "not a puzzle"; } >withbad.txt
timeout "$TIMEOUT" "$BIN" augment -n 40 --seed 1 <withbad.txt >out 2>err
RC=$?
expect_rc 1
expect_records 40
expect_err_re '^sudokubench: <stdin>:22:[0-9]+: invalid puzzle: '
cp out aug2.txt
expect_valid aug2.txt 40
end

begin "augment: usage and input errors"
run augment proper.txt
expect_usage_error augment
expect_err_line 'sudokubench: missing -n COUNT'
run augment -n 5 missing-file.txt
expect_rc 2
expect_err_re "^sudokubench: cannot open 'missing-file.txt'"
echo "# only a comment" >empty.txt
run augment -n 5 empty.txt
expect_rc 2
expect_err_re '^sudokubench: augment: no valid puzzle in the input$'
run augment -n 0 empty.txt
expect_rc 0
expect_out_empty
end

# ---- datasets/fetch.sh ----------------------------------------------------------------------
fetch() { # fetch ARGS...: runs fetch.sh with the scratch manifest and destination
    FETCH_MANIFEST=$GEN_DIR/manifest FETCH_DEST=$GEN_DIR/public timeout "$TIMEOUT" bash "$FETCH" "$@" >out 2>err
    RC=$?
}
mkdir -p zsrc/data
printf '%s\n' "$(head -n 1 g1.txt)" >zsrc/data/one.txt
if [ "$HAVE_PY" = 1 ]; then
    (cd zsrc && python3 -m zipfile -c ../corpus.zip data)
fi
ZIP_SHA=$(sha256sum corpus.zip 2>/dev/null | cut -d' ' -f1)
ONE_SHA=$(sha256sum zsrc/data/one.txt | cut -d' ' -f1)
ZEROS=0000000000000000000000000000000000000000000000000000000000000000

begin "fetch.sh: the real manifest refuses corpora without a recorded sha256"
FETCH_DEST=$GEN_DIR/public timeout "$TIMEOUT" bash "$FETCH" tdoku-data >out 2>err
RC=$?
expect_rc 3
expect_err_re "no sha256 recorded for 'tdoku-data'"
[ ! -e "$GEN_DIR/public" ] || fail "the destination was created"
FETCH_DEST=$GEN_DIR/public timeout "$TIMEOUT" bash "$FETCH" --list >out 2>err
RC=$?
expect_rc 0
grep -q 'tdoku-data' out || fail "--list lacks tdoku-data"
end

begin "fetch.sh: offline (unreachable host) fails with a message and touches nothing"
printf 'archive corpus %s zip http://127.0.0.1:9/corpus.zip\n' "$ZEROS" >manifest
fetch corpus
expect_rc 1
expect_err_re "^fetch.sh: cannot download 'corpus' from http://127.0.0.1:9/corpus.zip .*Nothing was installed"
[ ! -e "$GEN_DIR/public" ] || fail "the destination was created"
fetch --hash-only corpus
expect_rc 1
end

begin "fetch.sh: a checksum mismatch installs nothing"
if [ "$HAVE_PY" = 1 ]; then
    printf 'archive corpus %s zip file://%s/corpus.zip\n' "$ZEROS" "$GEN_DIR" >manifest
    fetch corpus
    expect_rc 3
    expect_err_re "^fetch.sh: sha256 mismatch for 'corpus': expected $ZEROS, got $ZIP_SHA"
    [ ! -e "$GEN_DIR/public" ] || fail "the destination was created"
    printf 'archive corpus %s zip file://%s/corpus.zip\nmember corpus data/one.txt %s\n' "$ZIP_SHA" "$GEN_DIR" "$ZEROS" >manifest
    fetch corpus
    expect_rc 3
    expect_err_re "member data/one.txt is $ONE_SHA"
    [ ! -e "$GEN_DIR/public" ] || fail "the destination was created"
else
    skip "python3 not available to build a zip"
fi
end

begin "fetch.sh: a verified download is unpacked into place with its provenance"
if [ "$HAVE_PY" = 1 ]; then
    printf 'archive corpus %s zip file://%s/corpus.zip\nmember corpus data/one.txt %s\n' "$ZIP_SHA" "$GEN_DIR" "$ONE_SHA" >manifest
    fetch corpus
    expect_rc 0
    cmp -s zsrc/data/one.txt public/corpus/data/one.txt || fail "member not installed"
    grep -qx "sha256 $ZIP_SHA" public/corpus/SOURCE || fail "SOURCE lacks the checksum"
    fetch --hash-only corpus
    expect_rc 0
    grep -q "^corpus sha256 $ZIP_SHA" out || fail "--hash-only does not print the sha256"$'\n'"$(show out)"
    grep -q 'member data/one.txt: sha256 matches' out || fail "--hash-only does not check members"
    fetch --file corpus.zip corpus
    expect_rc 0
    [ "$(ls -A public)" = corpus ] || fail "leftovers in the destination: $(ls -A public)"
else
    skip "python3 not available to build a zip"
fi
end

cd "$T" || exit 1

# Run alone: the total of this part's cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
fi
