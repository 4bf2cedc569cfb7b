#!/usr/bin/env bash
# scripts/measure/mpi_bench.sh — MPI scaling of `solve` (`make mpi-bench`).
#
# Generates N puzzles (default 1,000,000, the issue's corpus; `generate --seed 1`, cached under
# build/mpi-bench/) and N2 (default 10,000,000: long enough that mpirun's start-up, about half
# a second, no longer hides the scaling), then times `solve -t 1 -o FILE` on each as:
#   plain      build/sudokubench solve -t 1
#   np1        mpirun -np 1 build/sudokubench-mpi solve -t 1
#   np2        mpirun -np 2 build/sudokubench-mpi solve -t 1   (each rank writes its records)
#   np2-r0     the same with SUDOKUBENCH_MPI_DIRECT=0             (rank 0 writes every record)
#   launch     mpirun -np 1 / -np 2 build/sudokubench-mpi --version (mpirun + MPI_Init alone)
# in ROUNDS (default 3) interleaved rounds (each round runs every configuration once, so a
# burst of load from other jobs hits them alike), keeping each one's best. It reports np2 vs
# np1 (target >= 1.8x on 2 cores) and np1 vs plain (target within 5%) twice: raw wall times,
# and net of the launch (the launch's best time subtracted from the MPI runs). Every MPI
# run's output is checked byte-identical to the plain run's. Then the peak RSS of every rank
# (GNU time per rank) at N and N2 (target: flat), the CPU seconds per rank (independent of
# the load), and the same timings over HARD (default 100,000) lines of the hardest sample
# corpus repeated, where solving rather than I/O dominates.
#
# Usage: scripts/measure/mpi_bench.sh [PLAIN_BINARY [MPI_BINARY]]
# Environment: N, N2, HARD, ROUNDS, MPIRUN (default mpirun). Needs GNU time (/usr/bin/time).

set -euo pipefail

BIN=${1:-build/sudokubench}
MBIN=${2:-build/sudokubench-mpi}
N=${N:-1000000}
N2=${N2:-10000000}
HARD=${HARD:-100000}
ROUNDS=${ROUNDS:-3}
MPIRUN=${MPIRUN:-mpirun}
DIR=build/mpi-bench
GNU_TIME=/usr/bin/time
mkdir -p "$DIR"

MPI_FLAGS=(-q --bind-to none)
[ "$(id -u)" = 0 ] && MPI_FLAGS+=(--allow-run-as-root)

# puzzles N: the cached file of N generated puzzles.
puzzles() {
    local f=$DIR/gen_$1.txt
    if [ ! -s "$f" ]; then
        echo "mpi_bench: generating $1 puzzles into $f" >&2
        "$BIN" generate -n "$1" --seed 1 >"$f.tmp"
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}

# calc EXPR: EXPR evaluated by awk (floating point; comparisons give 1 or 0).
calc() { awk "BEGIN { print $1 }"; }

# wall CMD...: the wall time of CMD in seconds (stdout discarded).
wall() {
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null
    e=$(date +%s.%N)
    calc "$e - $s"
}

# keep NAME SECONDS: BEST[NAME] becomes SECONDS if that is lower.
declare -A BEST
keep() {
    if [ -z "${BEST[$1]:-}" ] || [ "$(calc "$2 < ${BEST[$1]}")" = 1 ]; then BEST[$1]=$2; fi
}

# ranks NP FILE: runs NP ranks on FILE under GNU time; sets RSS ("r0 r1 ...", peak MB per
# rank), CPU ("r0 r1 ...", user + system seconds per rank) and CPU_MAX (the largest).
ranks() {
    local np=$1 f=$2 r m u s
    rm -f "$DIR"/rss.*
    "$MPIRUN" "${MPI_FLAGS[@]}" -np "$np" sh -c \
        "exec $GNU_TIME -f '%M %U %S' -o $DIR/rss.\$OMPI_COMM_WORLD_RANK $MBIN solve -t 1 -o /dev/null $f"
    RSS="" CPU="" CPU_MAX=0
    for ((r = 0; r < np; r++)); do
        read -r m u s <"$DIR/rss.$r"
        RSS="$RSS $((m / 1024))"
        CPU="$CPU $(calc "$u + $s")"
        CPU_MAX=$(calc "($u + $s > $CPU_MAX) ? $u + $s : $CPU_MAX")
    done
    RSS=${RSS# } CPU=${CPU# }
}

# cpu_of CMD...: user + system seconds of CMD (GNU time).
cpu_of() {
    "$GNU_TIME" -f '%U %S' -o "$DIR/cpu" "$@" >/dev/null
    local u s
    read -r u s <"$DIR/cpu"
    calc "$u + $s"
}

# work FILE: the load-independent view for a busy machine: CPU seconds of the plain run and
# of each rank at -np 1 and -np 2 (MPI_Init included). The wall time of -np 2 is at best
# its busiest rank's CPU time, so plain CPU / that rank's CPU is the speedup two idle cores
# would give.
work() {
    local f=$1 plain c1
    plain=$(cpu_of "$BIN" solve -t 1 -o /dev/null "$f")
    ranks 1 "$f"
    c1=$CPU
    ranks 2 "$f"
    printf '  CPU seconds: plain %.2f, -np 1 %.2f, -np 2 per rank %s -> -np 2 at best %.2fx plain, %.2fx -np 1\n' \
        "$plain" "$c1" "$CPU" "$(calc "$plain / $CPU_MAX")" "$(calc "$c1 / $CPU_MAX")"
}

# timings FILE LINES: ROUNDS interleaved rounds of plain, np1, np2, np2-r0 and the launch on
# FILE; the table of best times and the ratios, raw and net of the launch.
timings() {
    local f=$1 n=$2 r l
    BEST=()
    for ((r = 0; r < ROUNDS; r++)); do
        # -o: the records go to a file (stdout would pass through mpirun's forwarding)
        keep plain "$(wall "$BIN" solve -t 1 -o "$DIR/out.plain" "$f")"
        keep up1 "$(wall "$MPIRUN" "${MPI_FLAGS[@]}" -np 1 "$MBIN" --version)"
        keep np1 "$(wall "$MPIRUN" "${MPI_FLAGS[@]}" -np 1 "$MBIN" solve -t 1 -o "$DIR/out.np1" "$f")"
        keep up2 "$(wall "$MPIRUN" "${MPI_FLAGS[@]}" -np 2 "$MBIN" --version)"
        keep np2 "$(wall "$MPIRUN" "${MPI_FLAGS[@]}" -np 2 "$MBIN" solve -t 1 -o "$DIR/out.np2" "$f")"
        keep np2r0 "$(wall env SUDOKUBENCH_MPI_DIRECT=0 "$MPIRUN" "${MPI_FLAGS[@]}" \
            -x SUDOKUBENCH_MPI_DIRECT -np 2 "$MBIN" solve -t 1 -o "$DIR/out.np2r0" "$f")"
        for l in np1 np2 np2r0; do
            cmp -s "$DIR/out.plain" "$DIR/out.$l" || { echo "mpi_bench: $l output differs from plain" >&2; exit 1; }
        done
    done
    rm -f "$DIR"/out.*
    local plain=${BEST[plain]} np1=${BEST[np1]} np2=${BEST[np2]} np2r0=${BEST[np2r0]}
    local up1=${BEST[up1]} up2=${BEST[up2]}
    printf '  %-44s %7.2f s %10s puzzles/s\n' "plain sudokubench solve -t 1" "$plain" "$(calc "int($n / $plain)")"
    printf '  %-44s %7.2f s %10s puzzles/s\n' "mpirun -np 1 -t 1" "$np1" "$(calc "int($n / $np1)")"
    printf '  %-44s %7.2f s %10s puzzles/s\n' "mpirun -np 2 -t 1 (each rank writes)" "$np2" "$(calc "int($n / $np2)")"
    printf '  %-44s %7.2f s %10s puzzles/s\n' "mpirun -np 2 -t 1 (rank 0 writes all)" "$np2r0" "$(calc "int($n / $np2r0)")"
    printf '  %-44s %7.2f s (np 1)  %.2f s (np 2)\n' "launch: mpirun + MPI_Init alone" "$up1" "$up2"
    printf '  raw:    np2 vs np1 %.2fx (target >= 1.8x; rank 0 writing all: %.2fx)   np1 vs plain %+.1f%% time (target within 5%%)\n' \
        "$(calc "$np1 / $np2")" "$(calc "$np1 / $np2r0")" "$(calc "($np1 / $plain - 1) * 100")"
    printf '  net of launch: np2 vs np1 %.2fx (rank 0 writing all: %.2fx)   np1 vs plain %+.1f%%\n' \
        "$(calc "($np1 - $up1) / ($np2 - $up2)")" "$(calc "($np1 - $up1) / ($np2r0 - $up2)")" \
        "$(calc "(($np1 - $up1) / $plain - 1) * 100")"
}

echo "mpi_bench: $(nproc) cores, best of $ROUNDS interleaved rounds; load $(cut -d' ' -f1-3 /proc/loadavg) at start"
for n in "$N" "$N2"; do
    F=$(puzzles "$n")
    echo "$n generated puzzles ($F):"
    timings "$F" "$n"
    work "$F" # its last run is -np 2 on F: RSS holds that
    echo "  peak RSS per rank (MB), -np 2: $RSS"
done
H=$DIR/hard_$HARD.txt
if [ ! -s "$H" ]; then
    for ((i = 0; i * 1000 < HARD; i++)); do cat datasets/samples/hardest_11plus_1000.txt; done |
        head -n "$HARD" >"$H.tmp" || true # head may end the loop with SIGPIPE
    mv "$H.tmp" "$H"
fi
echo "$HARD lines of datasets/samples/hardest_11plus_1000.txt repeated ($H):"
timings "$H" "$HARD"
work "$H"
echo "mpi_bench: load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
