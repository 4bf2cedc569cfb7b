#!/usr/bin/env bash
# scripts/measure/hosts_bench.sh — two namespace hosts against one (`make hosts-bench`,
# docs/scale.md "Two hosts against one"). Sets up 2 hosts exactly as tests/cli/hosts.sh does
# (tests/cli/hosts_lib.sh: network namespaces on a private bridge, own hostnames, a launch agent
# in place of ssh, TCP only), makes N hard puzzles (default 200,000: `augment --seed 1` of
# datasets/samples/hardest_11plus_1000.txt, so all distinct and the same every run; cached under
# DIR), then runs, in R interleaved rounds (default 3; each round runs all three, so a burst of
# load from other jobs hits them alike):
#   plain  build/sudokubench solve -t 1                      (one process, no MPI)
#   np1    mpirun -np 1 build/sudokubench-mpi solve -t 1     (on host 1)
#   np2    mpirun -np 2 build/sudokubench-mpi solve -t 1     (one rank on host 1, one on host 2)
# each with --stats and -o FILE (across hosts -o goes through MPI-IO), every output checked
# byte-identical to the first plain run's. Per run: wall seconds (mpirun's start to its exit:
# launch included), the program's own --stats seconds (rank 0's batch, after MPI_Init: launch
# excluded), and user + system CPU seconds per rank (GNU time around each rank, started by the
# launch agent's daemon). The 2-core machine caps np2 at 2x, and other load lowers it further;
# the CPU seconds per rank do not depend on the load. Medians and the np1/np2 ratios with and
# without launch go to stdout and build/reports/hosts-bench.md (REPORT).
#
# Usage: scripts/measure/hosts_bench.sh [PLAIN_BINARY [MPI_BINARY]]   (from the repo root, as root)
# Environment: N, R, SUDOKUBENCH_MPI_SEGMENT (passed to the ranks when set), DIR (corpus cache, default build/hosts-bench), REPORT, MPIRUN, TIMEOUT
# (per mpirun, a hang guard: default 1200 s). Skips (exit 0, one "hosts_bench: skipped: ..."
# line) without root, ip, unshare, mpirun, GNU time or the MPI binary, or when a host set-up
# step fails. The hosts are always torn down on exit.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=$(realpath "${1:-build/sudokubench}")
MBIN=$(realpath "${2:-build/sudokubench-mpi}")
N=${N:-200000}
R=${R:-3}
DIR=${DIR:-build/hosts-bench}
REPORT=${REPORT:-build/reports/hosts-bench.md}
MPIRUN=${MPIRUN:-mpirun}
TIMEOUT=${TIMEOUT:-1200}
GNU_TIME=/usr/bin/time

skip() {
    echo "hosts_bench: skipped: $*"
    exit 0
}
die() {
    echo "hosts_bench: $*" >&2
    exit 1
}
[ "$(id -u)" = 0 ] || skip "not root (network namespaces need it)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) not found"
command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) not found"
command -v "$MPIRUN" >/dev/null 2>&1 || skip "$MPIRUN not found (make deps-all installs openmpi-bin)"
[ -x "$GNU_TIME" ] || skip "$GNU_TIME (GNU time) not found"
[ -x "$BIN" ] || skip "$BIN not built"
[ -x "$MBIN" ] || skip "$MBIN not built (make mpi)"

mkdir -p "$DIR" "$(dirname "$REPORT")"
DIR=$(realpath "$DIR")
T=$(mktemp -d /tmp/sbhb.XXXXXX) # every namespace shares the file system
MPI_FLAGS=(-q --bind-to none --allow-run-as-root)
# segments of 2 MiB (mpi.c) are about 25,000 lines: a smaller corpus gives rank 1 little or
# nothing unless SUDOKUBENCH_MPI_SEGMENT (bytes) is set smaller; it is passed on when set
[ -n "${SUDOKUBENCH_MPI_SEGMENT:-}" ] && MPI_FLAGS+=(-x SUDOKUBENCH_MPI_SEGMENT)
. "$ROOT/tests/cli/hosts_lib.sh"
trap 'teardown "$ID"; rm -rf "$T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
hosts_up 2

# the corpus: N distinct hard puzzles, deterministic (cached)
F=$DIR/hard_$N.txt
if [ ! -s "$F" ]; then
    echo "hosts_bench: making $N hard puzzles into $F" >&2
    "$BIN" augment -n "$N" --seed 1 "$ROOT/datasets/samples/hardest_11plus_1000.txt" >"$F.tmp" ||
        die "augment failed"
    mv "$F.tmp" "$F"
fi

calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
now() { date +%s.%N; }
# stats_secs FILE: the seconds of the --stats line in FILE
stats_secs() { sed -n 's/^stats: .*, \([0-9.]*\) s, [0-9]* puzzles\/s$/\1/p' "$1" | tail -1; }
# median V...: the median of the values
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A WALL SOLVE CPU # by "config round": seconds; CPU: "r0 r1" (user + system per rank)
ROWS=""

# run CONFIG ROUND: one run of CONFIG (plain, np1, np2); fills WALL, SOLVE, CPU, ROWS and
# checks its -o bytes against the first plain run's.
run() {
    local c=$1 r=$2 s e np k u sy cpu=""
    rm -f "$T"/cpu.* "$T/$c.o"
    s=$(now)
    if [ "$c" = plain ]; then
        np=1
        "$GNU_TIME" -f '%U %S' -o "$T/cpu.0" "$BIN" solve -t 1 --stats -o "$T/$c.o" "$F" 2>"$T/$c.err"
    else
        np=${c#np}
        hostrun "$np" sh -c "exec $GNU_TIME -f '%U %S' -o $T/cpu.\$OMPI_COMM_WORLD_RANK \
            $MBIN solve -t 1 --stats -o $T/$c.o $F" 2>"$T/$c.err"
    fi || die "$c round $r failed: $(head -5 "$T/$c.err")"
    e=$(now)
    if [ ! -e "$T/ref.o" ]; then
        mv "$T/$c.o" "$T/ref.o"
    else
        cmp -s "$T/ref.o" "$T/$c.o" || die "$c round $r: -o bytes differ from the plain run's"
    fi
    for ((k = 0; k < np; k++)); do
        read -r u sy <"$T/cpu.$k" || die "$c round $r: no CPU time for rank $k"
        cpu="$cpu $(calc "$u + $sy")"
    done
    k="$c $r"
    WALL[$k]=$(calc "$e - $s")
    SOLVE[$k]=$(stats_secs "$T/$c.err")
    [ -n "${SOLVE[$k]}" ] || die "$c round $r: no --stats line: $(head -5 "$T/$c.err")"
    CPU[$k]=${cpu# }
    ROWS+="| $c | $r | ${WALL[$k]} | ${SOLVE[$k]} | $(calc "${WALL[$k]} - ${SOLVE[$k]}") | ${CPU[$k]// / + } |"$'\n'
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "hosts_bench: $N puzzles, $R rounds, $(nproc) cores, load $LOAD0" >&2
for ((r = 1; r <= R; r++)); do
    for c in plain np1 np2; do
        run "$c" "$r"
    done
done

# medians per config: wall, solve, launch (wall - solve), CPU of each rank
declare -A MW MS ML MC
for c in plain np1 np2; do
    w=() s=() l=() c0=() c1=()
    for ((r = 1; r <= R; r++)); do
        w+=("${WALL[$c $r]}") s+=("${SOLVE[$c $r]}")
        l+=("$(calc "${WALL[$c $r]} - ${SOLVE[$c $r]}")")
        read -r a b <<<"${CPU[$c $r]}"
        c0+=("$a")
        [ -n "${b:-}" ] && c1+=("$b")
    done
    MW[$c]=$(median "${w[@]}") MS[$c]=$(median "${s[@]}") ML[$c]=$(median "${l[@]}")
    MC[$c]=$(median "${c0[@]}")
    [ ${#c1[@]} -gt 0 ] && MC[$c]="${MC[$c]} + $(median "${c1[@]}")"
done
read -r c2a c2b <<<"${MC[np2]//+/}"
busiest=$(calc "($c2a > $c2b) ? $c2a : $c2b")

{
    echo "# Two hosts against one (scripts/measure/hosts_bench.sh)"
    echo
    echo "$N hard puzzles (augment --seed 1 of hardest_11plus_1000.txt), solve -t 1 --stats -o FILE;"
    echo "$R interleaved rounds; $(nproc) cores; load $LOAD0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end;"
    echo "$("$MPIRUN" --version 2>/dev/null | head -1). Every output byte-identical to the plain run's."
    echo "Wall: mpirun's start to its exit (launch included); solve: the program's --stats seconds"
    echo "(rank 0's batch, after MPI_Init); launch = wall - solve; CPU: user + system per rank."
    echo
    echo "| run | round | wall s | solve s | launch s | CPU s per rank |"
    echo "|---|---|---|---|---|---|"
    printf '%s' "$ROWS"
    echo
    echo "| medians | wall s | solve s | launch s | CPU s per rank |"
    echo "|---|---|---|---|---|"
    for c in plain np1 np2; do
        echo "| $c | ${MW[$c]} | ${MS[$c]} | ${ML[$c]} | ${MC[$c]} |"
    done
    echo
    echo "| ratio (medians) | with launch (wall) | without launch (solve) | CPU: np1 / busiest np2 rank |"
    echo "|---|---|---|---|"
    echo "| np1 / np2 | $(calc "${MW[np1]} / ${MW[np2]}") | $(calc "${MS[np1]} / ${MS[np2]}") | $(calc "${MC[np1]} / $busiest") |"
    echo "| plain / np1 | $(calc "${MW[plain]} / ${MW[np1]}") | $(calc "${MS[plain]} / ${MS[np1]}") | $(calc "${MC[plain]} / ${MC[np1]}") |"
} | tee "$REPORT"
echo "hosts_bench: report in $REPORT" >&2
