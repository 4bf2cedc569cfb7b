#!/usr/bin/env bash
# tests/cli/report.sh — `make report` runs to the end on a small corpus: exit 0, no gnuplot
# warning, every chart report.md links is a non-empty PNG of the size report.gp sets, and the
# tables hold a row per corpus and level. Short timings (0.01 s a row) on 120 puzzles of two
# samples: what it checks is that the report is made, never a speed.
#
# Usage: tests/cli/report.sh [BINARY]   (default build/sudokubench; run from the repo root)

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" report

grep -v '^#' "$ROOT/datasets/samples/top1465.txt" | head -n 120 >top.txt
grep -v '^#' "$ROOT/datasets/samples/17_clue_2000.txt" | head -n 120 >clue17.txt

t_report() {
    local rc
    REPORT_FILES="top.txt clue17.txt" REPORT_SLICE=8 REPORT_SECONDS=0.01 REPORT_STUDY=0 \
        REPORT_THREADS="1 2" REPORT_DIR=rep timeout "$TIMEOUT" \
        bash "$ROOT/scripts/report/report.sh" "$BIN" >report.log 2>&1
    rc=$?
    [ "$rc" = 0 ] || { echo "report.sh: exit $rc"; tail -n 5 report.log; }
    ! grep -qiE 'warning|undefined variable' report.log || { echo "gnuplot complained:"; grep -iE 'warning|undefined' report.log | head -n 3; }
    local size
    size=$(sed -n 's/^set terminal pngcairo size \([0-9]*\),\([0-9]*\).*/\1 \2/p' "$ROOT/scripts/report/report.gp")
    for png in $(grep -oE '\(([a-z]+\.png)\)' rep/report.md | tr -d '()'); do
        python3 - "rep/$png" "$size" <<'PY' || echo "$png is no PNG of the size report.gp sets"
import struct, sys
path, (w, h) = sys.argv[1], map(int, sys.argv[2].split())
with open(path, "rb") as f:
    head = f.read(24)
ok = len(head) == 24 and head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (w, h)
sys.exit(0 if ok else 1)
PY
    done
    [ "$(grep -oE '\([a-z]+\.png\)' rep/report.md | sort -u | wc -l)" = 4 ] ||
        { echo "report.md does not link the four charts:"; grep -n png rep/report.md; }
    for name in top clue17; do
        grep -q "| $name" rep/report.md || echo "report.md has no row for $name"
    done
}
tcase "make report on two small corpora: exit 0, four PNG charts of the set size" t_report

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
