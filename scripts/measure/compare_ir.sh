#!/usr/bin/env bash
# scripts/measure/compare_ir.sh — instructions and instruction rates against tdoku (`make
# compare-ir`).
#
# `make compare` says how much faster each level is than tdoku at the same width; this says
# why: whether the lead comes from executing fewer instructions or from executing them at a
# higher rate on this core. The first PUZZLES puzzles of each corpus are written as slices,
# timed as `make compare` times its corpora (scripts/measure/compare.sh, same rounds and medians),
# and counted under callgrind on the same slices:
#   sudokubench:  bench/perf_driver fast LEVEL 0 SLICE with SB_PERF_MANY=auto (sb_solve_many
#                 under the default pair policy, as bench solves), instructions inside
#                 sb_solve_many over the slice's puzzles;
#   tdoku:        run_benchmark -s tdoku -t 1 -w 0 -v 0 -e 1 -r 0 -c 1 -n N SLICE (N: the
#                 slice's puzzles), instructions inside TdokuSolverDpllTriadSimd over its
#                 calls (without warm-up it takes its slow path: the slice in one seeded
#                 random order, repeated, limit 2).
# Instructions a second = instructions a puzzle x median puzzles/s. Levels valgrind cannot
# run (AVX-512: valgrind 3.19) are timed but not counted.
#
# Output: BUILD/reports/compare-ir.md (printed) and compare-ir.json; the timing in
# BUILD/reports/compare-ir-timed.{md,json}; the slices in BUILD/reports/compare-ir-slices/.
#
# Usage: scripts/measure/compare_ir.sh BINARY DRIVER [FILE...]
#   FILE  default: the perf gate's samples (datasets/samples/17_clue_2000.txt, top1465.txt,
#         hardest_11plus_1000.txt) and datasets/multi/*.txt: always in the checkout
# Environment: COMPARE_IR_PUZZLES (puzzles per slice, default 300), COMPARE_ROUNDS,
#   COMPARE_SECONDS, COMPARE_PEERS and BUILD as scripts/compare.sh.

set -euo pipefail

die() { echo "compare-ir: $*" >&2; exit 2; }
note() { echo "compare-ir: $*" >&2; }

cd "$(dirname "$0")/../.."

[ $# -ge 2 ] || die "usage: scripts/measure/compare_ir.sh BINARY DRIVER [FILE...]"
BIN=$1 DRIVER=$2
shift 2
BUILD=${BUILD:-build}
PUZZLES=${COMPARE_IR_PUZZLES:-300}
[[ $PUZZLES =~ ^[1-9][0-9]*$ ]] ||
    die "COMPARE_IR_PUZZLES must be a whole number >= 1, not '$PUZZLES'"
[ -x "$BIN" ] || die "$BIN is not an executable (build it with 'make' first)"
[ -x "$DRIVER" ] || die "$DRIVER is not an executable (make $DRIVER)"
command -v valgrind >/dev/null || die "valgrind is needed to count instructions (make deps-perf installs it)"
command -v python3 >/dev/null || die "python3 is needed (make deps-perf installs it)"

if [ $# -gt 0 ]; then
    FILES=("$@")
else
    FILES=(datasets/samples/17_clue_2000.txt datasets/samples/top1465.txt
           datasets/samples/hardest_11plus_1000.txt datasets/multi/*.txt)
fi

REPORTS=$BUILD/reports
SLICES=$REPORTS/compare-ir-slices
rm -rf "$SLICES"
mkdir -p "$SLICES"
SLICED=()
for f in "${FILES[@]}"; do
    [ -f "$f" ] && [ -r "$f" ] || die "corpus '$f' is not a readable file"
    out=$SLICES/$(basename "$f")
    PYTHONPATH=scripts PYTHONDONTWRITEBYTECODE=1 python3 -m sbperf.compare_ir slice "$f" "$PUZZLES" "$out"
    SLICED+=("$out")
done

COMPARE_NAME=compare-ir-timed BUILD=$BUILD bash scripts/measure/compare.sh "$BIN" "${SLICED[@]}" >/dev/null

PYTHONPATH=scripts PYTHONDONTWRITEBYTECODE=1 python3 -m sbperf.compare_ir count --timed "$REPORTS/compare-ir-timed.json" --driver "$DRIVER" \
    --peers "$BUILD/peers" --work "$REPORTS/compare-ir-counts" \
    --json "$REPORTS/compare-ir.json" --md "$REPORTS/compare-ir.md"
note "wrote $REPORTS/compare-ir.md and $REPORTS/compare-ir.json"
