# tests/cli/with_shim.sh — sourced by the CLI test scripts (harness.sh, run.sh) after BIN and
# TIMEOUT are set: with_shim, and is_asan.
# shellcheck shell=bash

# with_shim ARGS...: runs the binary (bounded by TIMEOUT) with the fault shim preloaded
# (tests/fault/shim.c: $SB_SHIM, else the one beside the binary); its SB_FAULT_* settings come
# from the caller's environment, e.g. SB_FAULT_SIGNAL=INT SB_FAULT_SIGNAL_WRITE=K: the run
# interrupts itself at a point of its work, never at a point in time. Under qemu (BIN is the
# generated -qemu wrapper) the shim is a guest library, handed to the guest as SB_PRELOAD.
with_shim() {
    local shim=${SB_SHIM:-$(dirname "$BIN")/fault/shim.so}
    [ -f "$shim" ] || { echo "with_shim: no fault shim at $shim (make builds it)" >&2; return 125; }
    # ASan accepts a library preloaded before its runtime when told
    local asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
    case $BIN in
    *-qemu) ASAN_OPTIONS=$asan SB_PRELOAD=$shim timeout "$TIMEOUT" "$BIN" "$@" ;;
    *) ASAN_OPTIONS=$asan LD_PRELOAD=$shim timeout "$TIMEOUT" "$BIN" "$@" ;;
    esac
}

# is_asan: succeeds when BIN is an ASan build, where address-space limits (ulimit -v) cannot
# apply: ASan reserves terabytes of shadow memory at start and dies under such a limit.
is_asan() {
    [ -n "${SUDOKUBENCH_SANITIZED:-}" ] || nm "$BIN" 2>/dev/null | grep -q __asan_init
}
