# shellcheck shell=bash disable=SC2034 # BG_PID and BG_RC are for the sourcing script
# tests/cli/signals.sh — long runs stopped by a signal from outside, for the CLI test
# scripts. Sourced by tests/cli/harness.sh and tests/cli/run_lib.sh, after BIN and TIMEOUT are
# set and with sb_fail MESSAGE defined (how the sourcing script records a failed check).
#
# Only a run that cannot end by itself (an empty grid's -l 0 or --all, a bench of 100,000 s,
# one puzzle of latin:49) is signalled from outside. The signal must not come before the run
# has its stop handlers, or the default action kills it without its message. The run itself
# shows when they are in: the CLI writes nothing to standard output before them (a command's
# first bytes, a csv header or a record, are flushed after cli_stop_begin in src/cli/batch.c),
# and bench opens its inputs after them. So a case waits for a byte of output (sb_ready) or
# for its input fifo to be opened (sb_feed), then for some CPU time, so that the signal lands
# deep in the work. /proc/PID/status's SigCgt is no such sign: under qemu user-mode emulation
# it shows qemu's own handlers from the start. No step waits on a clock; TIMEOUT only bounds
# a hang.

# sb_bg OUT ERR ARGS...: starts the binary in the background in its own process group (a
# non-interactive shell would start it with SIGINT ignored), with SIGINT at its default even
# when the script was started with it ignored (nohup, `make test &`): the program keeps an
# ignored SIGINT ignored, as a background job expects. OUT and ERR (unless fifos) are emptied
# first, here: the background job's own redirection comes later, and a wait for output must
# not see the last case's. Sets BG_PID.
sb_bg() {
    local o=$1 e=$2 f
    shift 2
    for f in "$o" "$e"; do
        [ -p "$f" ] || : >"$f"
    done
    set -m
    env --default-signal=INT "$BIN" "$@" >"$o" 2>"$e" &
    BG_PID=$!
    set +m
}
# sb_grown FILE: waits (bounded by TIMEOUT) until FILE is not empty. @return 1 if it stays so.
sb_grown() {
    local limit=$((SECONDS + TIMEOUT))
    until [ -s "$1" ]; do
        [ "$SECONDS" -le "$limit" ] || return 1
        sleep 0.05
    done
}
# sb_busy PID [TICKS]: waits (bounded by TIMEOUT) until PID has used TICKS clock ticks of CPU
# (default 20: it is deep in its work). For a run already known to have its handlers.
# @return 1 after a failure (PID ended first, or never got there).
sb_busy() {
    local pid=$1 want=${2:-20} used limit=$((SECONDS + TIMEOUT))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -le "$limit" ]; do
        used=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
        [ "${used:-0}" -ge "$want" ] && return 0
        sleep 0.05
    done
    sb_fail "process $pid did not get busy ($want ticks of CPU) within $TIMEOUT s"
    return 1
}
# sb_ready PID OUT [TICKS]: waits until the run PID has written to its standard output OUT
# (its stop handlers are in) and is busy (sb_busy). @return 1 after a failure.
sb_ready() {
    if ! sb_grown "$2"; then
        sb_fail "process $1 wrote nothing to $2 within $TIMEOUT s"
        return 1
    fi
    sb_busy "$1" "${3:-20}"
}
# sb_feed FILE FIFO: writes FILE into FIFO; it returns once the program has opened FIFO and
# taken FILE (bounded by TIMEOUT). @return 1 after a failure.
sb_feed() {
    # shellcheck disable=SC2016 # the inner shell expands its own arguments
    timeout "$TIMEOUT" sh -c 'cat "$1" >"$2"' sh "$1" "$2" && return 0
    sb_fail "nothing read $2 within $TIMEOUT s"
    return 1
}
# sb_signal SIG PID: sends SIG to PID and reaps it (sb_reap). Sets BG_RC to its exit code.
sb_signal() {
    kill "-$1" "$2"
    sb_reap "$2" "SIG$1"
}
# sb_reap PID WHAT: waits for PID to end (bounded: still there TIMEOUT seconds later, it is
# killed and reported as WHAT left running) and reaps it, without signalling it again (a
# second signal could land in its exit path, after its handlers are gone). Sets BG_RC.
sb_reap() {
    local limit=$((SECONDS + TIMEOUT))
    while kill -0 "$1" 2>/dev/null && [ "$SECONDS" -le "$limit" ]; do
        sleep 0.05
    done
    if kill -0 "$1" 2>/dev/null; then
        sb_fail "$2 left process $1 running for $TIMEOUT s: killed"
        kill -KILL "$1"
    fi
    wait "$1"
    BG_RC=$?
}
