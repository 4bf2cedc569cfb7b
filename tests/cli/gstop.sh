#!/usr/bin/env bash
# tests/cli/gstop.sh — Ctrl-C and `solve --all` on every geometry: SIGINT/SIGTERM
# end a search on any engine (the general solver, its 16-digit kernel, the generic pipelines,
# 9x9 --all) with exit 130 and the interrupted message; --all writes each solution as it is
# found, before the puzzle's count record; a write error under --all is one message naming
# the output, exit 2, and whole records; 9x9 --all's count records are solve's at the same
# limit on puzzles where fast's root triad rules and line pairs do not act.
#
# Usage: tests/cli/gstop.sh [BINARY]   (default build/sudokubench; run from the repo root)
#
# Every signalled run cannot end by itself (an empty grid listed or counted to the end), and
# is signalled only once it has written output (so its handlers are in) and is busy
# (sb_ready, tests/cli/signals.sh), so no case races the process or depends on its speed.

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" gstop

# empty N FILE [ints]: writes an empty grid of N cells (one character per cell, or integers)
empty() {
    if [ "${3:-}" = ints ]; then
        printf '0%.0s,' $(seq 2 "$1") >"$2"
        echo 0 >>"$2"
    else
        printf '.%.0s' $(seq "$1") >"$2"
        echo >>"$2"
    fi
}
empty 81 e81.txt
empty 256 e256.txt
empty 4096 e4096.txt ints

# want_rc GOT WANT WHAT
want_rc() { [ "$1" = "$2" ] || echo "$3: exit $1, want $2"; }
# want_err FILE TEXT: stderr FILE is exactly the one line TEXT
want_err() { [ "$(cat "$1")" = "$2" ] || { echo "stderr is not '$2':"; head -n 5 "$1"; }; }
# whole LEN FILE: every line of FILE is LEN characters of cells, and FILE ends in a newline
whole() {
    [ ! -s "$2" ] || [ "$(tail -c 1 "$2" | od -An -c | tr -d ' ')" = '\n' ] || echo "$2 ends mid-line"
    awk -v n="$1" 'length($0) != n || /[^0-9A-Z]/ { print FILENAME ":" NR ": not a whole record: " substr($0, 1, 40); exit }' "$2"
}

# ---- a signal ends a search on every engine ------------------------------------------------
# stop_case SIG WHAT ARGS...: an endless solve -f csv, signalled when busy: 130, the csv
# header alone (no record), message
stop_case() {
    local sig=$1 what=$2
    shift 2
    sb_bg o e "$@"
    sb_ready "$BG_PID" o || { kill -KILL "$BG_PID"; return; }
    sb_signal "$sig" "$BG_PID"
    want_rc "$BG_RC" 130 "$what"
    want_err e "sudokubench: interrupted after 0 records"
    [ "$(cat o)" = "line,status,count,guesses,solution" ] ||
        echo "$what: a record was written for the cut puzzle"
}
t_stop() {
    stop_case INT "16x16 -l 0 (kernel)" solve -t 1 -l 0 -f csv e256.txt
    stop_case TERM "16x16 -l 0 (kernel)" solve -t 1 -l 0 -f csv e256.txt
    stop_case TERM "16x16 -l 0 (per-cell engine)" solve -t 1 --simd scalar -l 0 -f csv e256.txt
    stop_case INT "16x16 -l 0 -s restart" solve -t 1 -s restart -l 0 -f csv e256.txt
    stop_case TERM "64x64 -s list -l 0" solve -t 1 --grid 8x8 -s list -l 0 -f csv e4096.txt
    stop_case INT "64x64 -l 0" solve -t 1 --grid 8x8 -l 0 -f csv e4096.txt
}
tcase "signals: SIGINT/SIGTERM end -l 0 on an empty 16x16 (kernel, per-cell, -s) and 64x64: 130, message" t_stop

# ---- --all: a signal, and the stream -------------------------------------------------------
# all_stop SIG FILE LEN ARGS...: --all on an endless listing, signalled when busy: 130, the
# interrupted message, and the solutions so far as whole records (no count record)
all_stop() {
    local sig=$1 file=$2 len=$3
    shift 3
    sb_bg o e solve --all "$@" "$file"
    # solutions are written in batches (at most 50 ms or 64 KiB held back): signal once some
    # are out, a state to observe, not a time to wait
    sb_ready "$BG_PID" o || { kill -KILL "$BG_PID"; return; }
    sb_signal "$sig" "$BG_PID"
    want_rc "$BG_RC" 130 "--all $*"
    want_err e "sudokubench: interrupted ($file:1)"
    [ -s o ] || echo "--all $*: no solution written before the signal"
    whole "$len" o
}
t_all_stop() {
    all_stop INT e81.txt 81
    all_stop TERM e81.txt 81
    all_stop TERM e256.txt 256
    all_stop INT e256.txt 256 -s list
}
tcase "--all: SIGINT/SIGTERM on an empty 9x9 and 16x16: 130, message, whole solution records" t_all_stop

# stream FILE LEN ARGS...: the first solution line of --all on an endless listing is read from
# a fifo while the process runs (it cannot have finished: only a signal ends it)
stream() {
    local file=$1 len=$2 line fd
    shift 2
    rm -f fifo && mkfifo fifo
    sb_bg fifo e solve --all "$@" "$file"
    exec {fd}<fifo
    if ! IFS= read -r -t "$TIMEOUT" -u "$fd" line; then
        echo "--all $*: no line within $TIMEOUT s"
    elif ! kill -0 "$BG_PID" 2>/dev/null; then
        echo "--all $*: the process had ended"
    else
        printf '%s\n' "$line" >first.txt
        whole "$len" first.txt
    fi
    kill -TERM "$BG_PID" 2>/dev/null
    timeout "$TIMEOUT" cat <&"$fd" >/dev/null # drain, so a blocked write sees the signal
    exec {fd}<&-
    sb_reap "$BG_PID" SIGTERM
    want_rc "$BG_RC" 130 "--all $* after the first line"
}
t_stream() {
    stream e81.txt 81
    stream e256.txt 256
    stream e256.txt 256 --simd scalar
    stream e256.txt 256 -s restart
}
tcase "--all streams: the first solution is out while the listing runs (9x9, 16x16, -s)" t_stream

# ---- write errors under --all --------------------------------------------------------------
# full_case LEN ARGS...: --all into /dev/full: exit 2 and exactly one message
full_case() {
    local rc
    rc=$(sb /dev/full e solve --all "$@")
    want_rc "$rc" 2 "--all $* >/dev/full"
    want_err e "sudokubench: write error: standard output: No space left on device"
}
# limit_case LEN ARGS...: --all -o cut.txt under a 100 KiB file size limit: exit 2, one
# message naming cut.txt, and cut.txt cut back to whole records
limit_case() {
    local len=$1 rc
    shift
    rm -f cut.txt
    rc=$(ulimit -f 100 && timeout "$TIMEOUT" "$BIN" solve --all -o cut.txt "$@" 2>e; echo $?)
    want_rc "$rc" 2 "--all -o cut.txt $* over the size limit"
    want_err e "sudokubench: write error: cut.txt: File too large"
    [ -s cut.txt ] || echo "--all $*: nothing before the limit"
    whole "$len" cut.txt
}
t_write() {
    if [ ! -w /dev/full ]; then
        return # no /dev/full here: nothing to test
    fi
    printf '0000000000000000\n' >e16.txt
    full_case e16.txt
    full_case -l 2000 e81.txt
    full_case -l 500 e256.txt
    limit_case 81 -l 3000 e81.txt
    limit_case 256 -l 1000 e256.txt
    limit_case 256 -l 1000 -s restart e256.txt
}
tcase "--all write errors: one message naming the output, exit 2, whole records (/dev/full, ulimit -f)" t_write

# ---- 9x9 --all runs the general solver: its count records are solve's -----------------------
# (clashing givens aside: --all reads them as an invalid line, as every geometry does; the
# general solver has the cell rule without fast's root triads and line pairs, which these
# puzzles do not call on, so the guesses agree too)
t_all99() {
    local rc f
    {
        echo '..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..'
        echo '..5..63........4..98.74...51...7.9....95.16....8.....76...18.93..1........42..5..'
        echo '..59.63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..'
        printf '%54s123456789%18s\n' '' '' | tr ' ' . # row 7 given: many solutions, -l caps
    } >p99.txt
    for f in csv json tdoku; do
        for s in fast list; do
            rc=$(sb a e solve -s "$s" --all -l 200 -f "$f" p99.txt)
            want_rc "$rc" 0 "solve -s $s --all -f $f"
            grep -vE '(,solution,|"status":"solution"|^[0-9]{81}$)' a >a.counts
            rc=$(sb c e solve -s "$s" -l 200 -f "$f" p99.txt)
            want_rc "$rc" 0 "solve -s $s -l 200 -f $f"
            cmp -s c a.counts || { echo "-s $s -f $f: --all count records differ from solve -l 200:"; diff c a.counts | head -n 6; }
        done
    done
}
tcase "9x9 --all: the count records are solve's at the same limit (csv, json, tdoku; fast and list)" t_all99

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
