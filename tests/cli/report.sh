#!/usr/bin/env bash
# tests/cli/report.sh — `make report` and `make study` run to the end on a small corpus, and
# their charts and tables say what they should:
#   - report.sh on 120 puzzles of two samples: exit 0, every chart report.md links is a
#     whole PNG file of the size sbperf.charts sets (matplotlib, no trimming), the tables
#     hold a row per corpus;
#   - report.py on made-up bench output: a speedup below 1 puts the warning in report.md and
#     in scaling.png (its red text), a speedup above 1 neither;
#   - study.sh on one corpus: exit 0, study.png of its size, the summary printed, every
#     ns/call of T a median with its range, or "< noise", never a bare negative number;
#   - study.py on made-up samples: a cost whose range holds 0 is "< noise", one wholly below
#     0 is flagged with its note, a clear one is a plain median with its range.
# Short timings (0.01 s a row): what it checks is that the reports are made, never a speed.
#
# Usage: tests/cli/report.sh [BINARY]   (default build/sudokubench; run from the repo root;
# PYTHON: an interpreter with matplotlib, as make test-report passes it)

set -u

BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}

# shellcheck source=tests/cli/harness.sh
. "$ROOT/tests/cli/harness.sh" report

# py ARGS...: the tooling's Python (sbperf on its path, no bytecode caches in the tree)
py() { PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 "${PYTHON:-python3}" "$@"; }
# warning_pixels PNG: how many pixels of the top 100 rows have the warning's colour #b00000
warning_pixels() {
    py - "$1" <<'PY'
import sys
import matplotlib.image
import numpy
rgb = matplotlib.image.imread(sys.argv[1])[:100, :, :3]
print(int((numpy.abs(rgb - numpy.array([176, 0, 0]) / 255.0).max(axis=2) < 0.5 / 255).sum()))
PY
}

grep -v '^#' "$ROOT/datasets/samples/top1465.txt" | head -n 120 >top.txt
grep -v '^#' "$ROOT/datasets/samples/17_clue_2000.txt" | head -n 120 >clue17.txt

t_report() {
    local rc png
    REPORT_FILES="top.txt clue17.txt" REPORT_SLICE=8 REPORT_SECONDS=0.01 REPORT_STUDY=0 \
        REPORT_THREADS="1 2" REPORT_DIR=rep timeout "$TIMEOUT" \
        bash "$ROOT/scripts/report/report.sh" "$BIN" >report.log 2>&1
    rc=$?
    [ "$rc" = 0 ] || { echo "report.sh: exit $rc"; tail -n 5 report.log; }
    ! grep -qE 'Traceback|Warning:' report.log || { echo "report.sh complained:"; grep -E -A3 'Traceback|Warning:' report.log | head -n 8; }
    for png in $(grep -oE '\(([a-z]+\.png)\)' rep/report.md | tr -d '()'); do
        py -m sbperf.charts check "rep/$png" report
    done
    [ "$(grep -oE '\([a-z]+\.png\)' rep/report.md | sort -u | wc -l)" = 4 ] ||
        { echo "report.md does not link the four charts:"; grep -n png rep/report.md; }
    for name in top clue17; do
        grep -q "| $name" rep/report.md || echo "report.md has no row for $name"
    done
}
tcase "make report on two small corpora: exit 0, four PNG charts of the set size" t_report

# fake_report DIR SPEEDUP: bench output of two corpora, two pipelines, two levels and -t 1,2
# in DIR/data, where 2 threads run SPEEDUP times as fast as one, then report.py on it.
fake_report() {
    py - "$1" "$2" <<'PY' && py "$ROOT/scripts/report/report.py" "$1"
import json, os, sys
out, speedup = sys.argv[1], float(sys.argv[2])
data = os.path.join(out, "data")
os.makedirs(data)
def row(dataset, pps, **kw):
    r = {"dataset": dataset, "pipeline": "fast", "simd": "avx2", "threads": 1, "puzzles": 100,
         "puzzles_per_sec": pps, "usec_per_puzzle": 1e6 / pps, "no_guess_pct": 50.0,
         "guesses_per_puzzle": 2.5}
    r.update(kw)
    return r
def write(name, rows):
    with open(os.path.join(data, name + ".json"), "w") as f:
        json.dump({"build": {"flags": "-O3"}, "rows": rows}, f)
sets = ("a.txt", 400000.0), ("b.txt", 20000.0)
write("slice", [row(d, p / k, pipeline=name, guesses_per_puzzle=g) for d, p in sets
                for name, k, g in (("fast", 1, 2.5), ("list", 200, 0.0))])
for level, k in (("scalar", 1.0), ("avx2", 1.6)):
    write("simd_" + level, [row(d, p * k, simd=level) for d, p in sets])
for t, k in ((1, 1.0), (2, speedup)):
    write("threads_%d" % t, [row(d, p * k, threads=t) for d, p in sets])
with open(os.path.join(data, "build.txt"), "w") as f:
    f.write("slice=8\nseconds=0.01\nnproc=2\nfiles=a.txt b.txt\n")
PY
}

t_scaling_warning() {
    local png
    fake_report slow 0.5 || echo "report.py failed on the slower run"
    fake_report fast 1.9 || echo "report.py failed on the faster run"
    grep -q 'Warning: speedup below 1.*a at 2 threads: 0.50x; b at 2 threads: 0.50x' slow/report.md ||
        echo "report.md of a speedup of 0.5 has no warning naming both corpora"
    ! grep -q 'Warning' fast/report.md || echo "report.md of a speedup of 1.9 has a warning"
    [ "$(warning_pixels slow/scaling.png)" -gt 100 ] ||
        echo "scaling.png of a speedup of 0.5 shows no red warning"
    [ "$(warning_pixels fast/scaling.png)" = 0 ] ||
        echo "scaling.png of a speedup of 1.9 shows a red warning"
    for png in throughput guesses simd scaling; do
        py -m sbperf.charts check "slow/$png.png" report
    done
}
tcase "a speedup below 1 is a warning in scaling.png and report.md, and only then" t_scaling_warning

# costs FILE: the ns/call of T cells of the "What pays where" table of a study.md, one a line
costs() {
    awk -F' [|] ' '/^## What pays where/ { on = 1 } on && /^[|] .* [|] .* [|]/ && !/^[|] corpus/ { print $6 }' "$1"
}

t_study() {
    local rc cell
    STUDY_CORPORA=top.txt STUDY_N=4 STUDY_FAST_N=40 STUDY_SECONDS=0.01 STUDY_TECHS="xw sky" \
        STUDY_DIR=st timeout "$TIMEOUT" bash "$ROOT/scripts/report/study.sh" "$BIN" \
        >study.out 2>study.log
    rc=$?
    [ "$rc" = 0 ] || { echo "study.sh: exit $rc"; tail -n 5 study.log; }
    py -m sbperf.charts check st/study.png study 1
    grep -q '^| top.fast | fast+sky | sky | ' study.out ||
        echo "study.sh did not print the summary with fast+sky"
    [ "$(costs st/study.md | wc -l)" = 4 ] || { echo "study.md: not 4 costs (xw, sky x 2 runs):"; costs st/study.md; }
    costs st/study.md | while read -r cell; do
        printf '%s\n' "$cell" | grep -qE '^(< noise \(-?[0-9,.]+\.\.-?[0-9,.]+\)|[0-9][0-9,.]* \([0-9][0-9,.]*\.\.[0-9][0-9,.]*\)|-[0-9,.]+ \(-[0-9,.]+\.\.-[0-9,.]+\) \(below 0\))$' ||
            echo "ns/call of T '$cell' is no median with its range, nor marked as noise"
    done
    grep -q '^ns/call of T and the time ratio: the median over every pairing' st/study.md ||
        echo "study.md does not explain the spread and '< noise'"
}
tcase "make study on one small corpus: exit 0, its chart, every ns/call with its spread" t_study

t_study_noise() {
    py - fake <<'PY' || echo "could not write the made-up study"
import json, os, sys
d = os.path.join(sys.argv[1], "study")
os.makedirs(d)
def row(name, samples, guesses=10.0, calls=0):
    pps = sorted(samples)[len(samples) // 2]
    techs = {"xw": {"calls": 0}, "sky": {"calls": 0}, "kite": {"calls": 0}}
    if name != "fast":
        techs[name[5:]] = {"calls": calls}
    return {"pipeline": name, "puzzles": 100, "puzzles_per_sec": pps, "mad": 1000.0,
            "usec_per_puzzle": 1e6 / pps, "guesses_per_puzzle": guesses,
            "techniques": techs, "samples": samples}
fast = [100000.0, 101000.0, 99000.0, 100500.0, 99500.0]
rows = [row("fast", fast),
        row("fast+xw", fast[::-1], calls=1000),                # same times: noise
        row("fast+sky", [2 * s for s in fast], calls=1000),    # twice as fast: below 0
        row("fast+kite", [s / 2 for s in fast], calls=1000)]   # twice as slow: 1 us a call
with open(os.path.join(d, "c.fast.json"), "w") as f:
    json.dump({"build": {}, "rows": rows}, f)
with open(os.path.join(d, "build.txt"), "w") as f:
    f.write("base=list:ns,hs,lc\n")
PY
    py "$ROOT/scripts/report/study.py" fake >/dev/null || echo "study.py failed"
    local got
    got=$(costs fake/study.md | tr '\n' '/')
    printf '%s\n' "$got" | grep -qE '^< noise \(-[0-9,.]+\.\.[0-9,.]+\)/-[0-9,.]+ \(-[0-9,.]+\.\.-[0-9,.]+\) \(below 0\)/1,000\.0 \(9[0-9]{2}\.[0-9]\.\.1,0[0-9]{2}\.[0-9]\)/$' ||
        echo "ns/call of xw, sky, kite: '$got', not '< noise (..)', a flagged negative, 1,000 with its range"
    grep -q "^\`(below 0)\`: in every pairing the row ran faster" fake/study.md ||
        echo "study.md does not explain the flagged negative cost"
    py -m sbperf.charts check fake/study.png study 1
}
tcase "ns/call of T: '< noise' where its range holds 0, flagged where wholly below 0" t_study_noise

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
