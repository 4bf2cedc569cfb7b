#!/usr/bin/env bash
# shellcheck disable=SC2034 # the puzzles and flags defined here are used by the parts
# tests/cli/run_lib.sh — the shared harness and fixtures of the CLI suite: the binary (first
# argument, default build/sudokubench), a scratch directory (mktemp -d, removed on exit),
# the case helpers (begin, fail, skip, end, run, expect_*), the puzzles P1, S1, P2, S2,
# MULTI, NOSOL, CONF... and their fixture files. Sourced by tests/cli/run.sh and by each of
# its parts when a part runs alone (tests/cli/contract.sh BINARY runs only its own cases).
#
# Golden files (tests/cli/golden/) were written from docs/cli.md, not captured from the binary:
#   mixed.txt               the input: solved, multiple, unsolvable (conflict and no-solution),
#                           invalid (unexpected ':' and too many cells), comment and blank lines
#   mixed.FORMAT.out        expected `solve -f FORMAT mixed.txt` for every output format
#   mixed.solve.err         expected stderr of those runs
#   mixed.validate.{out,err} expected `validate mixed.txt`
# The `guesses` count depends on the engine (multiple/unsolvable puzzles need search), so the
# golden csv/json/pretty files hold the placeholder `G` and the binary's output is normalised
# with sed (any run of digits in the guesses field becomes G) before comparing. The sed only
# matches digits, so a non-numeric guesses value still fails.
#
# Puzzle facts used by the cases were checked with an independent brute-force solver while
# writing them: P1 and P2 are unique and solved by singles alone; MULTI has exactly 11
# solutions; NOSOL has no conflicting givens and no solution; CONF/CONF_COL/CONF_BOX have
# exactly one pair of equal givens in one house.

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GOLDEN=$HERE/golden
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}
. "$HERE/with_shim.sh" # with_shim: the binary with the fault shim preloaded

if [ ! -x "$BIN" ]; then
    echo "not ok - binary $BIN exists and is executable"
    echo "0 passed, 1 failed"
    exit 1
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/sudokubench-cli.XXXXXX") || { echo "mktemp -d failed" >&2; exit 1; }
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
cd "$T" || exit 1
unset SUDOKUBENCH_SIMD
exec </dev/null   # no case may wait on the terminal; cases redirect stdin explicitly

HAVE_PY=0
command -v python3 >/dev/null 2>&1 && python3 -c 'import json' >/dev/null 2>&1 && HAVE_PY=1

# ------------------------------------------------------------------------------------------
# Puzzles
# ------------------------------------------------------------------------------------------
P1='..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..'
S1='425186379317952486986743215163874952279531648548629137652418793791365824834297561'
P2='.4.7.28........2.9928.4......38.7.1.....2.....7.9.14......5.1935.6........91.4.85'
S2='145792836367518249928643571453867912891425367672931458784256193516389724239174685'
MULTI='..5..63........4..98.74...51...7.9....95.16....8.....76...18.93..1........42..5..'  # P1 minus r6c5: 11 solutions
MULTI_COUNT=11
CONF='5.5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..'      # r1c1 and r1c3 are both 5
CONF_COL='..5..63........4..98.74...51...7.9....95.16....8.2.5.76...18.93..1........42..5..'  # r6c7 and r9c7 are both 5
CONF_BOX='..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5.9'  # r7c8 and r9c9 are both 9
NOSOL='..59.63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..'     # P1 plus r1c4=9: no solution
P2MIX='04-7_28.0-_.0-_2.992804-_.0-_38.701-_.0-2_.0-_7.9014-_.0-_5.193506-_.0-_.091-4_85'  # P2, blanks 0 - _ .

zeros() { printf '%s' "$1" | tr '.' '0'; }
repeat() { local s=$1 n=$2 out=''; while [ "$n" -gt 0 ]; do out+=$s; n=$((n - 1)); done; printf '%s' "$out"; }

# ------------------------------------------------------------------------------------------
# Harness
# ------------------------------------------------------------------------------------------
PASS=0
FAIL=0
CASE=''
ERRS=''
SKIPPED=''

begin() { CASE=$1; ERRS=''; SKIPPED=''; }
fail() { ERRS+="$*"$'\n'; }
skip() { SKIPPED=$*; }
# the signal helpers (sb_bg, sb_ready, sb_feed, sb_busy, sb_signal, sb_reap) report by fail
sb_fail() { fail "$*"; }
# shellcheck source=tests/cli/signals.sh
. "$HERE/signals.sh"
end() {
    if [ -n "$ERRS" ]; then
        echo "not ok - $CASE"
        printf '%s' "$ERRS" | head -n 40 | sed 's/^/#   /'
        FAIL=$((FAIL + 1))
    elif [ -n "$SKIPPED" ]; then
        echo "ok - $CASE # SKIP $SKIPPED"
        PASS=$((PASS + 1))
    else
        echo "ok - $CASE"
        PASS=$((PASS + 1))
    fi
}

# run ARGS...: runs the binary (stdin inherited), stdout -> out, stderr -> err, code -> RC.
RC=0
run() {
    timeout "$TIMEOUT" "$BIN" "$@" >out 2>err
    RC=$?
    if [ "$RC" -eq 124 ]; then fail "timed out after ${TIMEOUT}s: sudokubench $*"; fi
    if [ "$RC" -gt 128 ]; then fail "killed by signal $((RC - 128)): sudokubench $*"; fi
}

show() { # show FILE: first lines of a file, shortened, for explanations
    if [ -s "$1" ]; then head -n 6 "$1" | cut -c1-200 | sed 's/^/    | /'; else echo "    (empty)"; fi
}

expect_rc() {
    [ "$RC" = "$1" ] || fail "exit code: expected $1, got $RC"$'\n'"  stderr:"$'\n'"$(show err)"
}
# expect_file EXPECTED ACTUAL: exact comparison, shows a short diff
expect_file() {
    if ! cmp -s "$1" "$2"; then
        fail "$(basename "$2") differs from expected (--- expected +++ got):"$'\n'"$(diff -u "$1" "$2" | tail -n +3 | head -n 24)"
    fi
}
# expect_out TEXT: stdout is exactly TEXT (a trailing newline is added to TEXT unless empty)
expect_out() {
    if [ -z "$1" ]; then : >expected.txt; else printf '%s\n' "$1" >expected.txt; fi
    expect_file expected.txt out
}
expect_err_empty() { [ ! -s err ] || fail "stderr should be empty, got:"$'\n'"$(show err)"; }
expect_out_empty() { [ ! -s out ] || fail "stdout should be empty, got:"$'\n'"$(show out)"; }
# expect_err_line LINE: stderr has exactly this line
expect_err_line() {
    grep -qxF -- "$1" err || fail "stderr lacks the line: $1"$'\n'"  got:"$'\n'"$(show err)"
}
# expect_err_re ERE: some stderr line matches the anchored-by-caller regex
expect_err_re() {
    grep -qE -- "$1" err || fail "stderr has no line matching /$1/"$'\n'"  got:"$'\n'"$(show err)"
}
expect_out_re() {
    grep -qE -- "$1" out || fail "stdout has no line matching /$1/"$'\n'"  got:"$'\n'"$(show out)"
}
# expect_records N [FILE]: number of output lines
expect_records() {
    local f=${2:-out} n
    n=$(wc -l <"$f" | tr -d ' ')
    [ "$n" = "$1" ] || fail "record count: expected $1, got $n"
}
# expect_err_count N: number of stderr lines
expect_err_count() {
    local n
    n=$(wc -l <err | tr -d ' ')
    [ "$n" = "$1" ] || fail "stderr lines: expected $1, got $n"$'\n'"$(show err)"
}

norm_csv() { sed -E 's/^(("[^"]*"|[^,"]+),)?([0-9]+,(solved|unsolvable|multiple|budget),[0-9]+,)[0-9]+,/\1\3G,/' "$@"; }
norm_json() { sed -E 's/,"guesses":[0-9]+,/,"guesses":G,/' "$@"; }
norm_pretty() { sed -E 's/^(# .* \(count [0-9]+, guesses )[0-9]+\)$/\1G)/' "$@"; }

# valid_solution PUZZLE SOLUTION: 81 digits 1-9, keeps every given, each row, column and
# box holds 9 distinct digits (hence exactly 1-9).
valid_solution() {
    awk -v p="$1" -v s="$2" 'BEGIN {
        if (length(s) != 81 || s !~ /^[1-9]+$/) exit 1
        for (i = 0; i < 81; i++) {
            pc = substr(p, i + 1, 1); sc = substr(s, i + 1, 1)
            if (pc ~ /[1-9]/ && pc != sc) exit 1
            r = int(i / 9); c = i % 9; b = 3 * int(r / 3) + int(c / 3)
            if ((("r" r ":" sc) in seen) || (("c" c ":" sc) in seen) || (("b" b ":" sc) in seen)) exit 1
            seen["r" r ":" sc] = 1; seen["c" c ":" sc] = 1; seen["b" b ":" sc] = 1
        }
        exit 0
    }'
}

# The usage-error shape (docs/cli.md, Exit codes): stderr is `sudokubench: MESSAGE` then
# `Try 'sudokubench COMMAND --help'.`, with no line in any other form; nothing on stdout.
expect_usage_error() { # expect_usage_error COMMAND
    expect_rc 2
    expect_out_empty
    expect_err_re '^sudokubench: .+'
    expect_err_line "Try 'sudokubench $1 --help'."
    local other
    other=$(grep -vE "^sudokubench: .+|^Try 'sudokubench $1 --help'\.\$" err)
    [ -z "$other" ] || fail "stderr has lines not of the form 'sudokubench: MESSAGE' / Try ...:"$'\n'"$(printf '%s\n' "$other" | sed 's/^/    | /')"
    [ "$(tail -n 1 err)" = "Try 'sudokubench $1 --help'." ] || fail "the Try line is not the last stderr line"
}

# ------------------------------------------------------------------------------------------
# Fixtures
# ------------------------------------------------------------------------------------------
cp "$GOLDEN/mixed.txt" mixed.txt
printf '%s\n' "$P1" "$P2" "$P2MIX" >proper.txt
printf '%s\n' "$P1" >p1.txt
printf '%s\n' "$P2" >p2.txt
printf '%s\n' "$MULTI" >multi.txt
printf '%s\n' "$NOSOL" >nosol.txt
printf '%s\n' "# bench input" "$P1" "$P2" "$P2MIX" >bench.txt
# 10 MiB of '1' with no newline at all, and the same line between two good puzzles
head -c 10485760 /dev/zero | tr '\0' '1' >longline.bin
cp longline.bin long_only.txt
{ printf '%s\n' "$P1"; cat longline.bin; printf '\n%s\n' "$P2"; } >long_mid.txt
LONG_TEXT=$(repeat 1 81)
