#!/usr/bin/env bash
# scripts/measure/batch_scale.sh — the batch engine at multi-million scale (`make batch`).
#
# Builds a BATCH_PUZZLES-line file (default 5,000,000) under build/batch/ by repeating the
# available corpora, then runs `sudokubench solve` on it with 1 thread and with every core,
# printing wall time, puzzles/s and peak RSS (GNU time -v), and checks that both runs wrote
# the same bytes.
#
# Usage: scripts/measure/batch_scale.sh [BINARY]        (default build/sudokubench)
# Environment:
#   BATCH_PUZZLES  lines in the file (default 5000000)
#   BATCH_FILES    corpora to repeat (default: ../shared/datasets/puzzles* except the
#                  hardest set, else datasets/samples/ likewise; the hardest puzzles take
#                  ~30x longer each, so 5M of them would take an hour on one core)
#   BATCH_FORMAT   solve's output format (default solution)
#   BATCH_KEEP=1   keep the outputs (default: removed after the comparison)
#
# Requires GNU time as /usr/bin/time (Debian package `time`, installed by `make deps-all`).

set -euo pipefail

BIN=${1:-build/sudokubench}
N=${BATCH_PUZZLES:-5000000}
FORMAT=${BATCH_FORMAT:-solution}
DIR=build/batch
GNU_TIME=/usr/bin/time

if [ ! -x "$GNU_TIME" ] || ! "$GNU_TIME" -v true >/dev/null 2>&1; then
    echo "batch_scale: GNU time not found at $GNU_TIME (run 'make deps-all': package 'time')" >&2
    exit 2
fi

if [ -n "${BATCH_FILES:-}" ]; then
    read -r -a SRC <<<"$BATCH_FILES"
else
    SRC=()
    for f in ../shared/datasets/puzzles*; do
        [ -f "$f" ] && [[ $f != *hardest* ]] && SRC+=("$f")
    done
    if [ ${#SRC[@]} -eq 0 ]; then
        for f in datasets/samples/*.txt; do
            [[ $f != *hardest* ]] && SRC+=("$f")
        done
    fi
fi
[ ${#SRC[@]} -gt 0 ] || { echo "batch_scale: no corpus found" >&2; exit 2; }

mkdir -p "$DIR"
INPUT=$DIR/batch_$N.txt
# The file is rebuilt only when missing: it is a pure function of N and the sources.
if [ ! -s "$INPUT" ]; then
    echo "batch_scale: building $INPUT ($N lines from ${SRC[*]})"
    awk -v n="$N" '!/^#/ && NF { line[m++] = $0 }
        END { if (!m) exit 1; for (i = 0; i < n; i++) print line[i % m] }' "${SRC[@]}" >"$INPUT.tmp"
    mv "$INPUT.tmp" "$INPUT"
fi
echo "batch_scale: $INPUT: $(wc -l <"$INPUT") puzzles, $(du -m "$INPUT" | cut -f1) MB"

ALL=$("$BIN" solve --help | sed -n 's/.*--threads N .*(default \([0-9]*\).*/\1/p')
ALL=${ALL:-$(nproc)}

# run THREADS: solve into $DIR/out.tTHREADS, print one result line
run() {
    local t=$1 log=$DIR/time.t$1 rc=0
    "$GNU_TIME" -v -o "$log" "$BIN" solve -t "$t" -f "$FORMAT" --progress never "$INPUT" \
        >"$DIR/out.t$t" || rc=$?
    if [ "$rc" -gt 1 ]; then
        echo "batch_scale: solve -t $t failed (exit $rc)" >&2
        exit 2
    fi
    # GNU time prints the wall clock as [h:]m:ss.ss; RSS in KiB.
    awk -v t="$t" -v n="$N" -F': ' '
        /Elapsed \(wall clock\)/ { k = split($2, p, ":"); s = 0
                                  for (i = 1; i <= k; i++) s = s * 60 + p[i] }
        /Maximum resident set size/ { rss = $2 }
        END { printf "threads %3d: %8.2f s  %12.0f puzzles/s  peak RSS %7.1f MB\n",
                     t, s, (s > 0 ? n / s : 0), rss / 1024 }' "$log"
}

echo "batch_scale: sudokubench solve -f $FORMAT, 1 thread and all $ALL threads"
run 1
if [ "$ALL" -gt 1 ]; then
    run "$ALL"
    if cmp -s "$DIR/out.t1" "$DIR/out.t$ALL"; then
        echo "batch_scale: outputs of -t 1 and -t $ALL are identical ($(wc -c <"$DIR/out.t1") bytes)"
    else
        echo "batch_scale: outputs of -t 1 and -t $ALL DIFFER" >&2
        exit 1
    fi
fi
[ "${BATCH_KEEP:-0}" = 1 ] || rm -f "$DIR"/out.t*
