#!/usr/bin/env bash
# tests/guesses/check.sh — every fast kernel's guesses against an independent model of its
# rules (scripts/sbperf/guess_model.py: Python, written from branch.h's and search.h's contracts,
# no code shared with the library).
#
# Usage: tests/guesses/check.sh BINARY   (run from the repo root; `make test-guesses`)
#
# The model's per-puzzle solution count (to 2) and guess count are computed once, on the
# first puzzles of each committed corpus (the slices below: unique, hard, easy and
# multi-solution puzzles, and puzzles whose givens already clash). Then `solve -f csv` must
# print the same two numbers for every puzzle at every SIMD level this CPU runs (the
# --version line names them; under qemu, the guest's), against the model with the triad
# rules at the root when SBT3_OPEN cells are open there (what fast adds, src/kernel/triad.h:
# its value is read from the header), and through the generic pipelines with the same
# techniques, against the model without them; both with the 9x9 engines' first digit, the
# one most of the branch cell's peers hold (--digit most). Same guesses at every level is the
# contract the speed comparisons rest on (docs/performance.md); this holds it to the
# documented rule, not just to each other.

set -u
BIN=${1:-build/sudokubench}
ROOT=$PWD
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-300}
MODEL=(env PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 python3 -m sbperf.guess_model)
OPEN=$(sed -n 's/^#define SBT3_OPEN \([0-9][0-9]*\).*/\1/p' "$ROOT/src/kernel/triad.h")
AFTER=$(sed -n 's/^#define SBL_AFTER \([0-9][0-9]*\).*/\1/p' "$ROOT/src/kernel/line.h")
BELOW=$(sed -n 's/^#define SBL_BELOW \([0-9][0-9]*\).*/\1/p' "$ROOT/src/kernel/line.h")
. "$ROOT/tests/cli/harness.sh" guesses
[ -n "$OPEN" ] || echo "no SBT3_OPEN in src/kernel/triad.h" >&2
[ -n "$AFTER" ] || echo "no SBL_AFTER in src/kernel/line.h" >&2
[ -n "$BELOW" ] || echo "no SBL_BELOW in src/kernel/line.h" >&2

# slice NAME FILE N: the first N puzzle lines of FILE as NAME.txt
slice() { grep -v '^#' "$2" | head -n "$3" >"$1.txt"; }
slice hardest "$ROOT/datasets/samples/hardest_11plus_1000.txt" 40
slice top "$ROOT/datasets/samples/top1465.txt" 150
slice clue17 "$ROOT/datasets/samples/17_clue_2000.txt" 150
slice multi "$ROOT/datasets/multi/multi_2000_seed1.txt" 200
# Clashing givens (two 5s in row 1; two 7s in box 1) and an empty grid (counted to 2 at once).
{
    echo "5...5............................................................................"
    echo "7.........7......................................................................"
    echo "................................................................................."
} >bad.txt
SETS="hardest top clue17 multi bad"

t_model() {
    for s in $SETS; do
        timeout "$TIMEOUT" "${MODEL[@]}" --per-puzzle --digit most "$s.txt" >"$s.plain" 2>/dev/null ||
            echo "$s: guess_model.py exit $?"
        timeout "$TIMEOUT" "${MODEL[@]}" --per-puzzle --digit most --triad both --triad-depth root \
            --triad-open "$OPEN" --branch line --line-after "$AFTER" --line-below "$BELOW" \
            "$s.txt" >"$s.fast" 2>/dev/null ||
            echo "$s: guess_model.py --triad-open $OPEN --branch line --line-after $AFTER --line-below $BELOW exit $?"
    done
    # The model's own sanity: the clashes count 0 with no guess, the empty grid 2.
    local w
    for w in plain fast; do
        [ "$(awk '{ print $1 }' bad.$w | tr '\n' ' ')" = "0 0 2 " ] || echo "bad.txt: $w model counts $(awk '{ print $1 }' bad.$w | tr '\n' ' ')"
        [ "$(awk 'NR < 3 { print $2 }' bad.$w | tr '\n' ' ')" = "0 0 " ] || echo "bad.txt: the $w model guesses on clashing givens"
        [ "$(awk '$1 != 1' hardest.$w top.$w clue17.$w | wc -l)" = 0 ] ||
            echo "the $w model counts other than 1 solution on a unique-solution corpus"
        [ "$(awk '$1 != 2' multi.$w | wc -l)" = 0 ] || echo "the $w model counts fewer than 2 on multi"
    done
}
tcase "model: counts 1 on the unique corpora, 2 on multi and the empty grid, 0 without a guess on clashing givens" t_model

# check WANT LABEL ARGS...: solve every slice with ARGS; count and guesses per puzzle = the
# model's (WANT: fast, with the triad rules at the root and the line pairs, or plain)
check() {
    local want=$1 label=$2 s
    shift 2
    for s in $SETS; do
        timeout "$TIMEOUT" "$BIN" solve -f csv -t 1 "$@" "$s.txt" >out.csv 2>err ||
            { echo "$label $s: exit $? ($(head -c 200 err))"; continue; }
        awk -F, 'NR > 1 { print $3, $4 }' out.csv >got
        if ! cmp -s "$s.$want" got; then
            paste -d' ' "$s.$want" got | awk -v l="$label" -v s="$s" '
                $1 != $3 || $2 != $4 { print l " " s " puzzle " NR ": model count " $1 " guesses " $2 ", solve " $3 " " $4; exit }'
            [ "$(wc -l <got)" = "$(wc -l <"$s.$want")" ] || echo "$label $s: $(wc -l <got) records"
        fi
    done
}

LEVELS=$(timeout "$TIMEOUT" "$BIN" --version | sed -n 's/^simd: .*; supported: //p')
[ -n "$LEVELS" ] || echo "no supported SIMD levels in --version" >&2
for lvl in $LEVELS; do
    t_level() { check fast "--simd $lvl" -s fast --simd "$lvl"; }
    tcase "fast at $lvl: per-puzzle counts and guesses = the model's, triads at the root, line pairs" t_level
done
for spec in list:ns,hs,lc array:ns,hs,lc restart:ns,hs,lc; do
    t_spec() { check plain "-s $spec" -s "$spec"; }
    tcase "$spec: per-puzzle counts and guesses = the model's" t_spec
done

# The study mode: nine searches a file; its first two rows are the plain and fast means, and
# the fast row's gates (the model's FAST_OPEN, FAST_LINE_AFTER and FAST_LINE_BELOW) are the
# headers' SBT3_OPEN, SBL_AFTER and SBL_BELOW.
t_study() {
    timeout "$TIMEOUT" "${MODEL[@]}" --study -n 5 --json study.json hardest.txt multi.txt >study.md 2>err ||
        { echo "--study exit $? ($(head -c 200 err))"; return; }
    local n want
    n=$(grep -c -e '^| cell rule' -e '^| band branching' study.md)
    [ "$n" = 9 ] || echo "want 9 search rows, got $n"
    local w label hard
    for w in plain fast; do
        hard=$(head -n 5 hardest.$w | awk '{ g += $2 } END { printf "%.2f", g / 5 }')
        want=$(head -n 5 multi.$w | awk '{ g += $2 } END { printf "%.2f", g / 5 }')
        label="cell rule, no triads (ns,hs,lc)"
        [ $w = fast ] && label="cell rule + line pairs + both at the root (fast)"
        grep -q -F "| $label | $hard | $want |" study.md ||
            echo "the $label row is not the per-puzzle means $hard, $want: $(grep -F "| $label" study.md)"
    done
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(len(r) != 18)' study.json ||
        echo "study.json: want 18 rows (9 searches x 2 files)"
    python3 -c '
import json, sys
gates = {(r["triad_open"], r["line_after"], r["line_below"])
         for r in json.load(open("study.json")) if r["search"].endswith("(fast)")}
if gates != {(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))}:
    print("the study'"'"'s fast rows gate at %r, the headers at %s, %s, %s" % (sorted(gates), *sys.argv[1:4]))' "$OPEN" "$AFTER" "$BELOW"
    "${MODEL[@]}" --study --tdoku ./nonexistent hardest.txt >/dev/null 2>err && echo "--tdoku ./nonexistent: exit 0"
    grep -q "not an executable file" err || echo "--tdoku ./nonexistent: $(cat err)"
    printf '12345\n' >short.txt
    "${MODEL[@]}" short.txt 2>err && echo "a short line: exit 0"
    grep -q "short.txt:1: not an 81-cell puzzle line" err || echo "a short line: $(cat err)"
}
tcase "guess_model --study: 9 searches a file, the first two the plain and fast means; bad --tdoku and bad lines refused by name" t_study

# --triad-depth: deeper than any search goes is the rule on every board; root runs the rule
# in exactly one settle a puzzle, and it saves guesses on the top1465 slice (7.05 against 8.27
# a puzzle on the whole file); every settle counted under the rule without a depth.
t_depth() {
    local all deep
    all=$(timeout "$TIMEOUT" "${MODEL[@]}" --per-puzzle --triad both top.txt 2>/dev/null)
    deep=$(timeout "$TIMEOUT" "${MODEL[@]}" --per-puzzle --triad both --triad-depth 81 top.txt 2>/dev/null)
    [ -n "$all" ] && [ "$all" = "$deep" ] || echo "--triad-depth 81 differs from the rule on every board"
    timeout "$TIMEOUT" "${MODEL[@]}" --json --triad both --triad-depth root top.txt >root.json 2>err ||
        { echo "--triad-depth root: exit $? ($(head -c 200 err))"; return; }
    timeout "$TIMEOUT" "${MODEL[@]}" --json --triad both top.txt >all.json 2>err ||
        { echo "--triad both: exit $? ($(head -c 200 err))"; return; }
    python3 -c '
import json, sys
root, every = json.load(open("root.json"))[0], json.load(open("all.json"))[0]
plain = sum(int(line.split()[1]) for line in open("top.plain"))
if not root["guesses"] < plain:
    print("root: %d guesses, not fewer than the plain model'"'"'s %d" % (root["guesses"], plain))
if root["triad_settles_per_puzzle"] != 1.0:
    print("root: %r triad settles a puzzle, want 1" % root["triad_settles_per_puzzle"])
if every["triad_settles_per_puzzle"] != every["settles_per_puzzle"]:
    print("every board: %r triad settles of %r" % (every["triad_settles_per_puzzle"], every["settles_per_puzzle"]))
if root["triad_depth"] != "root" or every["triad_depth"] != "all":
    print("triad_depth keys: %r, %r" % (root["triad_depth"], every["triad_depth"]))'
    "${MODEL[@]}" --triad-depth root top.txt 2>err && echo "--triad-depth without --triad: exit 0"
    grep -q -- "--triad-depth goes with --triad" err || echo "--triad-depth without --triad: $(tail -1 err)"
    "${MODEL[@]}" --triad both --triad-depth x top.txt 2>err && echo "--triad-depth x: exit 0"
    grep -q -- "--triad-depth x: not a depth" err || echo "--triad-depth x: $(tail -1 err)"
}
tcase "guess_model --triad-depth: 81 = every board, root = one triad settle a puzzle and fewer guesses; bad values refused" t_depth

# --triad-open: 0 is the ungated root, past 81 the root never takes the rules (= no triads),
# and the gate at SBT3_OPEN skips them on some multi puzzles (fewer triad settles than
# puzzles); a bad count or no --triad is refused.
t_open() {
    local ungated never
    ungated=$(timeout "$TIMEOUT" "${MODEL[@]}" --per-puzzle --triad both --triad-depth root --triad-open 0 multi.txt 2>/dev/null)
    [ -n "$ungated" ] && [ "$ungated" = "$(timeout "$TIMEOUT" "${MODEL[@]}" --per-puzzle --triad both --triad-depth root multi.txt 2>/dev/null)" ] ||
        echo "--triad-open 0 differs from the ungated root"
    never=$(timeout "$TIMEOUT" "${MODEL[@]}" --per-puzzle --digit most --triad both --triad-depth root --triad-open 82 multi.txt 2>/dev/null)
    [ -n "$never" ] && [ "$never" = "$(cat multi.plain)" ] || echo "--triad-open 82 differs from the model without triads"
    timeout "$TIMEOUT" "${MODEL[@]}" --json --triad both --triad-depth root --triad-open "$OPEN" multi.txt >open.json 2>err ||
        { echo "--triad-open $OPEN: exit $? ($(head -c 200 err))"; return; }
    python3 -c '
import json, sys
r = json.load(open("open.json"))[0]
if not 0 < r["triad_settles_per_puzzle"] < 1:
    print("gated root: %r triad settles a puzzle, want between 0 and 1" % r["triad_settles_per_puzzle"])
if r["triad_open"] != int(sys.argv[1]):
    print("triad_open key: %r" % r["triad_open"])' "$OPEN"
    "${MODEL[@]}" --triad-open 50 top.txt 2>err && echo "--triad-open without --triad: exit 0"
    grep -q -- "--triad-open goes with --triad" err || echo "--triad-open without --triad: $(tail -1 err)"
    "${MODEL[@]}" --triad both --triad-open 99 top.txt 2>err && echo "--triad-open 99: exit 0"
    grep -q -- "--triad-open 99: not a cell count" err || echo "--triad-open 99: $(tail -1 err)"
}
tcase "guess_model --triad-open: 0 = ungated, 82 = no triads, $OPEN skips some multi roots; bad values refused" t_open

t_levels_named() { [ -n "$LEVELS" ] || echo "--version names no SIMD level"; }
tcase "--version names the levels checked: $LEVELS" t_levels_named

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
