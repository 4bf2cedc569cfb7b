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

# ---- long runs stopped by a signal: sb_bg, sb_ready, sb_feed, sb_busy, sb_signal, sb_reap -
# A failed check is a printed line (tcase).
sb_fail() { echo "$*"; }
# shellcheck source=tests/cli/signals.sh
. "$(dirname "${BASH_SOURCE[0]}")/signals.sh"
