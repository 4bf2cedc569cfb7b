#!/usr/bin/env bash
# scripts/report/report.sh — `make report`: the bench matrix on the corpora present, as
# build/reports/report.md with PNG charts (matplotlib).
#
# Every figure comes from `sudokubench bench --json` (1 thread unless scaling), so the report
# shows what a user measures. Four runs:
#   slice    every registry pipeline (--pipelines all, best SIMD level) on a common slice,
#            the first REPORT_SLICE puzzles of each corpus: the generic pipelines take up to
#            ~70 ms a puzzle, and comparing pipelines needs the same puzzles for all
#   simd     pipeline fast on the whole corpora at each SIMD level this CPU runs
#   threads  pipeline fast on the whole corpora with -t 1..nproc
# then scripts/report/report.py turns the JSON into tables and draws throughput.png (log
# scale), guesses.png (log scale above 1), simd.png and scaling.png, one panel per corpus in
# the bar charts; a speedup below 1 is a warning in scaling.png and in report.md.
#
# Usage: scripts/report/report.sh [BINARY]           (default build/sudokubench)
# Environment:
#   REPORT_FILES    corpora (default: ../shared/datasets/puzzles* when present, else
#                   datasets/samples/*.txt — the rule of `make bench`)
#   REPORT_SLICE    puzzles per corpus in the pipeline comparison (default 64)
#   REPORT_SECONDS  minimum timed seconds per row (default 0.5; bench adds a checked
#                   warm-up pass and always times at least one whole pass)
#   REPORT_THREADS  thread counts of the scaling run (default 1..nproc)
#   REPORT_DIR      output directory (default build/reports)
#   REPORT_STUDY    1 (default) also runs the strategies study (scripts/report/study.sh, its own
#                   STUDY_* settings; STUDY_SECONDS defaults to REPORT_SECONDS) into the same
#                   directory and links it from report.md; 0 leaves it out
#   PYTHON          the interpreter of report.py and study.py (default python3; make passes
#                   Debian's /usr/bin/python3, which has python3-matplotlib)
# Needs python3 with matplotlib (Debian packages python3 and python3-matplotlib: make deps-all).

set -euo pipefail

BIN=${1:-build/sudokubench}
OUT=${REPORT_DIR:-build/reports}
SLICE=${REPORT_SLICE:-64}
SECS=${REPORT_SECONDS:-0.5}
HERE=$(cd "$(dirname "$0")" && pwd)

# py ARGS...: the tooling's Python with scripts/ on its path and no bytecode caches written
py() { PYTHONPATH="$HERE/.." PYTHONDONTWRITEBYTECODE=1 "${PYTHON:-python3}" "$@"; }
py -m sbperf.charts ready || exit 2
. "$HERE/../datasets/corpora.sh"
corpora "${REPORT_FILES:-}"
NPROC=$(nproc)
if [ -n "${REPORT_THREADS:-}" ]; then
    read -r -a THREADS <<<"$REPORT_THREADS"
else
    read -r -a THREADS <<<"$(seq -s ' ' 1 "$NPROC")"
fi

DATA=$OUT/data
rm -rf "$DATA"
mkdir -p "$DATA/slice"

# The common slice keeps each corpus's file name, so bench's dataset column stays the same.
SLICES=()
for f in "${FILES[@]}"; do
    SLICES+=("$DATA/slice/$(basename "$f")")
    grep -v '^[[:space:]]*#' "$f" | grep -v '^[[:space:]]*$' | head -n "$SLICE" \
        >"${SLICES[-1]}" || true
done

# The SIMD levels this CPU runs: the ones solve accepts.
LEVELS=()
one=${SLICES[0]}
for level in scalar sse4 avx2 avx512bw avx512 neon; do
    if "$BIN" solve --simd "$level" --progress never "$one" >/dev/null 2>&1; then
        LEVELS+=("$level")
    fi
done

run() { # LABEL ARGS...: one bench run, its table on stdout, its JSON in $DATA/LABEL.json
    local label=$1
    shift
    echo "report: bench $label" >&2
    "$BIN" bench --seconds "$SECS" --json "$DATA/$label.json" "$@"
}

start=$(date +%s)
run slice --pipelines all -t 1 "${SLICES[@]}"
for level in "${LEVELS[@]}"; do
    run "simd_$level" --pipelines fast -t 1 --simd "$level" "${FILES[@]}"
done
for t in "${THREADS[@]}"; do
    run "threads_$t" --pipelines fast -t "$t" "${FILES[@]}"
done

{
    echo "version=$("$BIN" --version | head -1)"
    echo "git=$(git describe --always --dirty 2>/dev/null || echo unknown)"
    echo "compiler=$(${CC:-cc} --version | head -1)"
    echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
    echo "nproc=$NPROC"
    echo "levels=${LEVELS[*]}"
    echo "slice=$SLICE"
    echo "seconds=$SECS"
    echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "elapsed=$(($(date +%s) - start))"
    echo "files=${FILES[*]}"
} >"$DATA/build.txt"

py "$HERE/report.py" "$OUT"
if [ "${REPORT_STUDY:-1}" != 0 ]; then
    STUDY_DIR=$OUT STUDY_SECONDS=${STUDY_SECONDS:-$SECS} bash "$HERE/study.sh" "$BIN"
    printf '\n## Strategies study\n\nWhat each technique buys and costs on each corpus: %s\n' \
        '[study.md](study.md) and its Pareto chart study.png (`make study` runs it alone).' \
        >>"$OUT/report.md"
fi
echo "report: wrote $OUT/report.md and its charts (throughput, guesses, simd, scaling .png)" \
    "in $(($(date +%s) - start)) s"
