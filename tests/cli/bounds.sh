#!/usr/bin/env bash
# tests/cli/bounds.sh — comment lines of any length and the look that tells the geometry:
#   - a comment line of 5,000 bytes (or 200,000, longer than any read) is skipped as a short
#     one is, on 9x9 and on another geometry, and the records after it keep their line
#     numbers; a 2,000-byte line that is not a comment stays `line too long`;
#   - the geometry is told by the first puzzle line however far down it is: 100,000 comment
#     lines then 2x2 (4x4-cell) puzzles, from a file, from a pipe (`cat f | sudokubench
#     solve`), from standard input redirected, and from a pipe by name (<(...)): every record
#     right, with its line number; a pipe read past its first 64 KiB loses no record, on 9x9
#     too; the line of "cannot tell the geometry" counts the comment lines.
# Sourced by tests/cli/run.sh (its harness and puzzles); run alone, it runs its own
# cases. Every expectation is exact bytes and exit codes; nothing depends on speed.

# Run alone (tests/cli/bounds.sh BINARY), it sets up the harness itself and runs its own cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # shellcheck source=tests/cli/run_lib.sh
    . "$(dirname "$0")/run_lib.sh" "$@"
fi

BOUNDS_DIR=$T/bounds
mkdir -p "$BOUNDS_DIR" && cd "$BOUNDS_DIR" || exit 1

# ---- helpers -------------------------------------------------------------------------------
# run_pipe FILE ARGS...: `cat FILE | sudokubench ARGS...`, stdout -> out, stderr -> err, the
# binary's exit code -> RC.
run_pipe() {
    local f=$1
    shift
    cat "$f" | timeout "$TIMEOUT" "$BIN" "$@" >out 2>err
    RC=${PIPESTATUS[1]}
    if [ "$RC" -eq 124 ]; then fail "timed out after ${TIMEOUT}s: cat $f | sudokubench $*"; fi
}
# comments N: N comment lines of 16 to 22 bytes
comments() { seq -f '# comment line %.0f' "$1"; }
# long_comment LEN: a comment line of LEN bytes, '#' first
long_comment() { printf '#'; head -c $(($1 - 1)) /dev/zero | tr '\0' c; printf '\n'; }

S44='0000002130040000'     # a 2x2 puzzle (16 cells: the 4x4 grid of 2x2 boxes)
S44_SOL='2143432132141432' # its solution
S44_B='1000000000000000'   # another one: 2 solutions at least
LONG5K=$(long_comment 5000)

# ---- 1. a comment line of any length is skipped -------------------------------------------
{ printf '%s\n' "$P1" "$LONG5K" "$P2" "  $LONG5K"; printf '%s\n' "$P1"; } >c5k.txt

begin "comments: a 5,000-byte comment line between 9x9 puzzles is skipped (exit 0)"
run solve c5k.txt
expect_rc 0
expect_out "$S1"$'\n'"$S2"$'\n'"$S1"
expect_err_empty
end

begin "comments: records after a 5,000-byte comment keep their line numbers (-f csv)"
run solve -f csv c5k.txt
expect_rc 0
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "1,solved,1,G,$S1" "3,solved,1,G,$S2" \
    "5,solved,1,G,$S1" >expected.txt
expect_file expected.txt got.txt
expect_err_empty
end

{ long_comment 200000; printf '%s\n' "$P1"; long_comment 200000; printf '%s\n' "$P2"; } >c200k.txt
begin "comments: 200,000-byte comment lines (longer than a read) at the start and middle"
run solve -f csv c200k.txt
expect_rc 0
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "2,solved,1,G,$S1" "4,solved,1,G,$S2" \
    >expected.txt
expect_file expected.txt got.txt
expect_err_empty
end

{ printf '%s\n' "$P1"; repeat 1 2000; printf '\n%s\n' "$P2"; } >l2k.txt
begin "comments: a 2,000-byte line that is no comment stays one invalid record, line too long"
run solve l2k.txt
expect_rc 1
expect_out "$S1"$'\n'"invalid"$'\n'"$S2"
expect_err_line "sudokubench: l2k.txt:2:1025: invalid puzzle: line too long"
expect_err_count 1
end

{ printf '%s\n' "$S44"; long_comment 40000; printf '%s\n' "$S44"; } >c40k44.txt
begin "comments: a 40,000-byte comment (past the 32,000-byte bound of other geometries) on 2x2"
run solve -f csv c40k44.txt
expect_rc 0
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "1,solved,1,G,$S44_SOL" \
    "3,solved,1,G,$S44_SOL" >expected.txt
expect_file expected.txt got.txt
expect_err_empty
end

# ---- 2. the geometry is told past any number of comment lines -----------------------------
{ comments 100000; printf '%s\n' "$S44" "$S44_B" "$S44"; } >c4.txt
printf '%s\n' "line,status,count,guesses,solution" "100001,solved,1,G,$S44_SOL" \
    "100002,multiple,2,G," "100003,solved,1,G,$S44_SOL" >c4.want

begin "detect: 100,000 comment lines then 2x2 puzzles in a file: 2x2, exact records, exit 0"
run solve c4.txt
expect_rc 0
expect_out "$S44_SOL"$'\n'"multiple"$'\n'"$S44_SOL"
expect_err_empty
run solve -f csv c4.txt
norm_csv out >got.txt
expect_file c4.want got.txt
end

begin "detect: 100,000 comment lines then 2x2 puzzles through a pipe: 2x2, nothing lost"
run_pipe c4.txt solve
expect_rc 0
expect_out "$S44_SOL"$'\n'"multiple"$'\n'"$S44_SOL"
expect_err_empty
run_pipe c4.txt solve -f csv
expect_rc 0
norm_csv out >got.txt
expect_file c4.want got.txt
end

begin "detect: the same from stdin redirected, /dev/stdin and a pipe by name <(...)"
timeout "$TIMEOUT" "$BIN" solve -f csv <c4.txt >out 2>err
RC=$?
expect_rc 0
norm_csv out >got.txt
expect_file c4.want got.txt
cat c4.txt | timeout "$TIMEOUT" "$BIN" solve -f csv /dev/stdin >out 2>err
RC=${PIPESTATUS[1]}
expect_rc 0
norm_csv out >got.txt
expect_file c4.want got.txt
timeout "$TIMEOUT" "$BIN" solve -f csv <(cat c4.txt) >out 2>err
RC=$?
expect_rc 0
norm_csv out >got.txt
expect_file c4.want got.txt
expect_err_empty
end

begin "detect: a file of comments only, then a file behind 100,000 comment lines: 2x2"
comments 100000 >only.txt
run solve only.txt c4.txt
expect_rc 0
expect_out "$S44_SOL"$'\n'"multiple"$'\n'"$S44_SOL"
expect_err_empty
end

{
    comments 100000
    printf '%s\n' "$P1" "$LONG5K" "x${P1:1}" "$P2"
    comments 100000
    printf '%s\n' "$P1"
} >c9.txt
begin "detect: a 9x9 pipe behind 100,000 comment lines loses no record, line numbers exact"
run_pipe c9.txt solve -f csv
expect_rc 1
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "100001,solved,1,G,$S1" "100003,invalid,,," \
    "100004,solved,1,G,$S2" "200005,solved,1,G,$S1" >expected.txt
expect_file expected.txt got.txt
expect_err_line "sudokubench: <stdin>:100003:1: invalid puzzle: unexpected character 'x'"
expect_err_count 1
end

{ comments 100000; printf '%s\n' "$(repeat 0 27)"; } >c27.txt
begin "detect: cannot tell the geometry names the line past 100,000 comment lines"
run_pipe c27.txt solve
expect_usage_error solve
expect_err_line "sudokubench: <stdin>:100001: cannot tell the geometry: 27 cells is not an N x N grid: say --grid cube:3"
run solve c27.txt
expect_usage_error solve
expect_err_line "sudokubench: c27.txt:100001: cannot tell the geometry: 27 cells is not an N x N grid: say --grid cube:3"
end

cd "$T" || exit 1

# Run alone: the total of this part's cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
fi
