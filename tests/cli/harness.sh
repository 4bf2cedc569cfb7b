# tests/cli/harness.sh — the shared scaffolding of a CLI test script, sourced after BIN,
# ROOT and TIMEOUT are set: `. "$ROOT/tests/cli/harness.sh" NAME` makes a scratch directory
# (mktemp -d, removed on exit) and enters it, clears the environment the binary reads, and
# defines the counters and helpers below. Scripts end with
#   echo "$NPASS passed, $NFAIL failed"; [ "$NFAIL" = 0 ]

T=$(mktemp -d "${TMPDIR:-/tmp}/sudokubench-${1:-cli}.XXXXXX") || { echo "mktemp -d failed" >&2; exit 1; }
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
unset SUDOKUBENCH_SIMD OMP_NUM_THREADS
exec </dev/null
# with_shim: runs the binary with the fault shim preloaded
. "$(dirname "${BASH_SOURCE[0]}")/with_shim.sh"
NPASS=0
NFAIL=0
# SB_SHARD=K/N: only the cases whose number (0, 1, 2, ... in script order) is K modulo N, so
# that make test can run one script as N processes side by side (mk/shards.mk). The cases of
# a script share its inputs, made before the first case, never each other's results.
TCASE_NO=0
tcase_mine() {
    local no=$TCASE_NO
    TCASE_NO=$((no + 1))
    [ -z "${SB_SHARD:-}" ] || [ $((no % ${SB_SHARD#*/})) = "${SB_SHARD%/*}" ]
}
# tcase NAME FUNCTION: runs FUNCTION; every line it prints is a failure
tcase() {
    tcase_mine || return 0
    local msg
    msg=$("$2" 2>&1)
    if [ -z "$msg" ]; then
        echo "ok - $1"
        NPASS=$((NPASS + 1))
    else
        echo "not ok - $1"
        printf '%s\n' "$msg" | head -n 30 | sed 's/^/#   /'
        NFAIL=$((NFAIL + 1))
    fi
}
# sb OUT ERR ARGS...: runs the binary with a time limit; prints its exit code
sb() {
    local o=$1 e=$2
    shift 2
    timeout "$TIMEOUT" "$BIN" "$@" >"$o" 2>"$e"
    echo $?
}

# ---- long runs stopped by a signal (for runs that cannot end by themselves) ----------------
# Only an endless run (an empty grid's -l 0 or --all) is signalled from outside: the script
# waits until it has its handlers and is busy in its search, so the signal cannot come too
# early, and the run cannot end first. No step waits on a clock; TIMEOUT only bounds a hang.

# sb_bg OUT ERR ARGS...: starts the binary in the background in its own process group (a
# non-interactive shell would start it with SIGINT ignored), with SIGINT at its default even
# when this script was started with it ignored (nohup, `make test &`): the program keeps an
# ignored SIGINT ignored, as a background job expects. Sets BG_PID.
sb_bg() {
    local o=$1 e=$2
    shift 2
    set -m
    env --default-signal=INT "$BIN" "$@" >"$o" 2>"$e" &
    BG_PID=$!
    set +m
}
# sb_busy PID [TICKS]: waits (bounded by TIMEOUT) until PID catches SIGTERM (its stop
# handlers are in) and has used TICKS clock ticks of CPU (default 20: it is deep in its
# work). Prints a failure line and returns 1 when that never happens.
sb_busy() {
    local pid=$1 want=${2:-20} caught used limit=$((SECONDS + TIMEOUT))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -le "$limit" ]; do
        caught=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
        used=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
        [ -n "$caught" ] && (((16#$caught >> 14) & 1)) && [ "${used:-0}" -ge "$want" ] && return 0
        sleep 0.05
    done
    echo "process $pid did not get busy (SIGTERM caught, $want ticks of CPU) within $TIMEOUT s"
    return 1
}
# sb_signal SIG PID: sends SIG to PID and reaps it; a process still there TIMEOUT seconds
# later is killed and reported. Sets BG_RC to its exit code.
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
        echo "$2 left process $1 running for $TIMEOUT s: killed"
        kill -KILL "$1"
    fi
    wait "$1"
    BG_RC=$?
}
# sb_grown FILE: waits (bounded by TIMEOUT) until FILE is not empty. @return 1 if it stays so.
sb_grown() {
    local limit=$((SECONDS + TIMEOUT))
    until [ -s "$1" ]; do
        [ "$SECONDS" -le "$limit" ] || return 1
        sleep 0.05
    done
}
