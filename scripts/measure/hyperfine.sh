#!/usr/bin/env bash
# scripts/measure/hyperfine.sh — end-to-end CLI timings with hyperfine (`make hyperfine`).
#
# Times whole `sudokubench solve` processes (start-up, parsing, threads, output to
# /dev/null included) over every pipeline x thread count, one hyperfine run per corpus, with
# hyperfine's parameter lists:
#   sudokubench solve -t {threads} -s {pipeline} --progress never SLICEDIR/{pipeline}.txt
# Each pipeline reads its own slice of the corpus, written beside the results: the first
# HF_FAST_PUZZLES puzzles for `fast`, the first HF_GENERIC_PUZZLES for the generic
# pipelines (up to ~70 ms a puzzle each), so a run stays in minutes. Compare pipelines with
# `make report` or `make gbench` (same puzzles for all); this script answers "how long does
# the program take, and what do threads buy".
#
# Then `sudokubench generate`: HF_GEN_PUZZLES puzzles by default digging and
# HF_GEN_MINIMAL with --minimal (seed 0), at each thread count: the generator's throughput,
# the figure a user of `generate` sees.
#
# Output, in build/reports/hyperfine/: DATASET.json and DATASET.md per corpus (hyperfine's
# own exports: every run's time, mean, stddev, min, max, the parameters) and generate.json
# and generate.md, and a summary build/reports/hyperfine.md: per corpus, puzzles/s and the
# speedup over -t 1 of each pipeline, and the same for the two kinds of generation, under
# the build facts.
#
# Usage: scripts/measure/hyperfine.sh [BINARY]        (default build/sudokubench)
# Environment:
#   HF_FILES            corpora (default: ../shared/datasets/puzzles* when present, else
#                       datasets/samples/*.txt)
#   HF_PIPELINES        comma list (default: every registry pipeline, as `bench --pipelines
#                       all` names them)
#   HF_THREADS          comma list (default 1,nproc)
#   HF_FAST_PUZZLES     slice of pipeline fast (default 10000)
#   HF_GENERIC_PUZZLES  slice of the other pipelines (default 16)
#   HF_GEN_PUZZLES      puzzles of each default `generate` run (default 20000; 0 skips it)
#   HF_GEN_MINIMAL      puzzles of each `generate --minimal` run (default 2000)
#   HF_WARMUP / HF_RUNS warm-up runs (default 1) and timed runs (default 5) per command
#   HF_DIR              output directory (default build/reports)
#
# hyperfine 1.15 (Debian 12) has no --input, so the corpus is a file argument; it has
# parameter lists (-L, several combine as a product), --warmup, --output=null and the
# JSON/Markdown exports this uses.

set -euo pipefail

BIN=${1:-build/sudokubench}
REPORTS=${HF_DIR:-build/reports}
OUT=$REPORTS/hyperfine
FAST_N=${HF_FAST_PUZZLES:-10000}
GENERIC_N=${HF_GENERIC_PUZZLES:-16}
GEN_N=${HF_GEN_PUZZLES:-20000}
GEN_MIN=${HF_GEN_MINIMAL:-2000}
WARMUP=${HF_WARMUP:-1}
RUNS=${HF_RUNS:-5}

if ! command -v hyperfine >/dev/null 2>&1; then
    echo "hyperfine.sh: hyperfine not found (Debian package hyperfine: run 'make deps-all')" >&2
    exit 2
fi
. "$(dirname "$0")/../datasets/corpora.sh"
corpora "${HF_FILES:-}"
NPROC=$(nproc)
THREADS=${HF_THREADS:-$( [ "$NPROC" -gt 1 ] && echo "1,$NPROC" || echo 1 )}
mkdir -p "$OUT"

# puzzles FILE N: the first N puzzle lines of FILE (comments and blank lines dropped).
puzzles() {
    grep -v '^[[:space:]]*#' "$1" | grep -v '^[[:space:]]*$' | head -n "$2" || true
}

if [ -n "${HF_PIPELINES:-}" ]; then
    PIPELINES=$HF_PIPELINES
else
    # The CLI's own registry walk: bench every pipeline on one puzzle, read the names back.
    puzzles "${FILES[0]}" 1 >"$OUT/one.txt"
    "$BIN" bench --pipelines all -t 1 --seconds 0 --json "$OUT/one.json" "$OUT/one.txt" >/dev/null
    PIPELINES=$(python3 -c 'import json, sys
print(",".join(r["pipeline"] for r in json.load(open(sys.argv[1]))["rows"]))' "$OUT/one.json")
    rm -f "$OUT/one.txt" "$OUT/one.json"
fi

SUMMARY=$REPORTS/hyperfine.md
{
    echo "# sudokubench end-to-end timings (hyperfine)"
    echo
    echo "\`$("$BIN" --version | head -1)\`, $(git describe --always --dirty 2>/dev/null || echo '?'),"
    echo "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $NPROC cores,"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'). Command: \`sudokubench solve -t {threads} -s {pipeline}"
    echo "--progress never SLICE\` (stdout discarded); slices: fast the first $FAST_N puzzles,"
    echo "the other pipelines the first $GENERIC_N. $WARMUP warm-up and $RUNS timed runs each."
    echo "Times include process start-up and reading; hyperfine's own tables and every run's"
    echo "time are in \`hyperfine/DATASET.md\` and \`.json\`. The batch engine hands out chunks"
    echo "of 256 records, so a slice smaller than that runs on one thread whatever \`-t\` says:"
    echo "read the generic pipelines' speedups accordingly (\`HF_GENERIC_PUZZLES\` raises it)."
} >"$SUMMARY"

for f in "${FILES[@]}"; do
    name=$(basename "$f" .txt)
    dir=$OUT/slices/$name
    mkdir -p "$dir"
    IFS=, read -r -a list <<<"$PIPELINES"
    for p in "${list[@]}"; do
        puzzles "$f" "$([ "$p" = fast ] && echo "$FAST_N" || echo "$GENERIC_N")" >"$dir/$p.txt"
    done
    echo "hyperfine.sh: $name" >&2
    hyperfine -N --warmup "$WARMUP" --runs "$RUNS" --output=null --style basic \
        -L pipeline "$PIPELINES" -L threads "$THREADS" \
        --export-json "$OUT/$name.json" --export-markdown "$OUT/$name.md" \
        -n "{pipeline} -t {threads}" \
        "$BIN solve -t {threads} -s {pipeline} --progress never $dir/{pipeline}.txt"
    # hyperfine's Relative column compares commands over different slices; the summary
    # gives per-puzzle rates and the speedup of each pipeline over its own 1-thread run.
    python3 - "$OUT/$name.json" "$dir" "$name" >>"$SUMMARY" <<'EOF'
import json, os, sys
results = json.load(open(sys.argv[1]))["results"]
def puzzles(p):
    with open(os.path.join(sys.argv[2], p + ".txt")) as f:
        return sum(1 for _ in f)
one = {r["parameters"]["pipeline"]: r["mean"] for r in results
       if r["parameters"]["threads"] == "1"}
print("\n## %s\n" % sys.argv[3])
print("| pipeline | threads | puzzles | mean [ms] | stddev [ms] | puzzles/s | speedup vs -t 1 |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in results:
    p, t = r["parameters"]["pipeline"], r["parameters"]["threads"]
    n = puzzles(p)
    speed = "%.2fx" % (one[p] / r["mean"]) if p in one else "-"
    print("| %s | %s | %d | %.1f | %.1f | %.0f | %s |"
          % (p, t, n, 1e3 * r["mean"], 1e3 * (r["stddev"] or 0), n / r["mean"], speed))
EOF
done
if [ "$GEN_N" -gt 0 ]; then
    echo "hyperfine.sh: generate" >&2
    hyperfine -N --warmup "$WARMUP" --runs "$RUNS" --output=null --style basic \
        -L threads "$THREADS" \
        --export-json "$OUT/generate.json" --export-markdown "$OUT/generate.md" \
        "$BIN generate -n $GEN_N -t {threads} --progress never" \
        "$BIN generate -n $GEN_MIN --minimal -t {threads} --progress never"
    python3 - "$OUT/generate.json" "$GEN_N" "$GEN_MIN" >>"$SUMMARY" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
count = {"default": int(sys.argv[2]), "minimal": int(sys.argv[3])}
def kind(r):
    return "minimal" if "--minimal" in r["command"] else "default"
one = {kind(r): r["mean"] for r in results if r["parameters"]["threads"] == "1"}
print("\n## generate (seed 0)\n")
print("| digging | threads | puzzles | mean [ms] | stddev [ms] | puzzles/s | speedup vs -t 1 |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in results:
    k, t = kind(r), r["parameters"]["threads"]
    n = count[k]
    speed = "%.2fx" % (one[k] / r["mean"]) if k in one else "-"
    print("| %s | %s | %d | %.1f | %.1f | %.0f | %s |"
          % (k, t, n, 1e3 * r["mean"], 1e3 * (r["stddev"] or 0), n / r["mean"], speed))
EOF
fi
echo "hyperfine.sh: wrote $SUMMARY and $OUT/*.json" >&2
