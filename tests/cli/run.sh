#!/usr/bin/env bash
# tests/cli/run.sh — black-box tests of the sudokubench CLI against docs/cli.md.
#
# Usage: tests/cli/run.sh [BINARY]      (default build/sudokubench; run from the repo root)
#
# Prints `ok - NAME` / `not ok - NAME` (with a short explanation) per case and ends with the
# line `N passed, M failed`; exits 1 if any case failed. All scratch files live in a
# mktemp -d directory that is removed on exit; nothing is written inside the repository.
# The harness, the puzzles and the golden files are tests/cli/run_lib.sh's; the cases are in
# the parts below, each of which also runs alone (tests/cli/PART.sh BINARY).

# shellcheck source=tests/cli/run_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh" "$@"

# ------------------------------------------------------------------------------------------
# The parts, each a file of cases over run_lib.sh's fixtures. SB_SHARD=K/N (as in harness.sh):
# only the parts whose number is K modulo N, so that make test can run them side by side.
# ------------------------------------------------------------------------------------------
PART_NO=0
part() {
    local no=$PART_NO
    PART_NO=$((no + 1))
    [ -z "${SB_SHARD:-}" ] || [ $((no % ${SB_SHARD#*/})) = "${SB_SHARD%/*}" ] || return 0
    . "$HERE/$1"
}
part contract.sh   # formats, malformed and accepted lines, stdin and files, usage, validate
part generate.sh   # generate, augment and datasets/fetch.sh
part strategies.sh # pipelines, specs, BFS, rate
part edges.sh      # the contract at its edges: signals, write errors, messages
part threads.sh    # threads that cannot start: a message and exit 2, never the runtime's exit
part outputs.sh    # an output that is an input is refused; a file size limit is a write error
part bounds.sh     # comment lines of any length; the geometry told past any number of them
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
