# shellcheck shell=bash
# peers.sh — sourced by the scripts that time tdoku beside sudokubench (compare.sh,
# compare_ir.sh): the tdoku builds of ../shared/peers, made once and then reused.
#
# The caller defines note MESSAGE and die MESSAGE; when it also defines meta KEY VALUE, every
# level left out is recorded there as "skipped".

# peer_skip NOTE WHY: reports a level left out, to stderr and to the caller's meta record.
peer_skip() {
    note "$1"
    if declare -F meta >/dev/null; then meta skipped "$2"; fi
}

# tdoku_builds PEERS BUILD LEVEL...: sets the array TD_LEVELS to the LEVELs (native, avx2,
# sse4.2) of tdoku that run here, building each missing one into BUILD/peers/tdoku-LEVEL with
# PEERS/build-tdoku.sh. A level this CPU lacks, a failed build, no PEERS directory or a
# machine that is not x86-64 leaves levels out (peer_skip); a missing build tool dies.
tdoku_builds() {
    local peers=$1 build=$2 level flag exe tool
    shift 2
    TD_LEVELS=()
    if [ ! -d "$peers/tdoku" ] || [ ! -f "$peers/build-tdoku.sh" ]; then
        peer_skip "no peers at $peers (../shared/peers beside the checkout): running sudokubench alone" \
            "tdoku: no peers directory at $peers"
        return 0
    fi
    if declare -F meta >/dev/null; then meta peers "$peers"; fi
    if [ "$(uname -m)" != x86_64 ]; then
        peer_skip "tdoku needs x86-64 (it includes immintrin.h); this is $(uname -m): sudokubench alone" \
            "tdoku: not built on $(uname -m) (x86-64 only)"
        return 0
    fi
    for tool in cmake g++ make; do
        command -v "$tool" >/dev/null ||
            die "$tool is needed to build tdoku from $peers (apt-get install $tool)"
    done
    for level in "$@"; do
        flag=${level/./_}
        if [ "$level" != native ] && ! grep -qw "$flag" /proc/cpuinfo; then
            peer_skip "tdoku $level: this CPU has no $flag, skipped" "tdoku $level: CPU has no $flag"
            continue
        fi
        exe=$build/peers/tdoku-$level/run_benchmark
        if [ -x "$exe" ]; then
            note "tdoku $level: reusing $exe (rm -rf $build/peers to rebuild)"
        else
            note "tdoku $level: building into $build/peers/tdoku-$level (cmake + g++, about a minute)"
            if ! sh "$peers/build-tdoku.sh" "$build/peers" "$level" >/dev/null; then
                peer_skip "tdoku $level: build failed (logs in $build/peers/tdoku-$level/), skipped" \
                    "tdoku $level: build failed"
                continue
            fi
            [ -x "$exe" ] || die "build-tdoku.sh reported success but $exe is missing"
        fi
        TD_LEVELS+=("$level")
    done
}
