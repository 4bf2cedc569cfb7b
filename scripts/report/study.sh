#!/usr/bin/env bash
# scripts/report/study.sh — `make study`: what each technique buys and costs, per
# corpus, measured with `sudokubench bench --json` (1 thread), as build/reports/study.md with
# a Pareto chart study.png (time per puzzle against guesses per puzzle), and the summary
# table printed. docs/strategies.md "The study" says how to read it.
#
# Rows per corpus, from two bench runs: the generic rows `fast`, `list`, a base spec
# (STUDY_BASE) alone and with each technique T added (BASE,T) on the first STUDY_N puzzles
# (NAME.json); and `fast` with `fast+T` for each T this binary runs on that geometry (asked of
# the binary itself: `solve -s fast+T` on one puzzle of the corpus must succeed) on
# STUDY_FAST_N puzzles (NAME.fast.json; skipped where there is no fast+T). The cost of one
# call of T comes from bench's `calls` counter (scripts/report/study.py).
#
# Usage: scripts/report/study.sh [BINARY]            (default build/sudokubench)
# Environment:
#   STUDY_CORPORA  samples (default): datasets/samples (17-clue, top1465, forum hardest 11+)
#                  and a 16x16 set made by `generate --grid 4x4`; shared: the full corpora of
#                  ../shared/datasets/puzzles*; all: both; or a list of 9x9 puzzle files
#   STUDY_N        puzzles per corpus for the generic rows (bench -n; default 100: the
#                  generic engine takes up to ~70 ms a puzzle on the hardest corpus)
#   STUDY_FAST_N   puzzles per corpus for the fast and fast+T rows (default all of them)
#   STUDY_SECONDS  minimum timed seconds per row (default 1.0; checks use 0.2 or less)
#   STUDY_N16      16x16 puzzles generated (default 30)
#   STUDY_BASE     the base spec the techniques are added to (default list:ns,hs,lc)
#   STUDY_TECHS    the techniques studied (default: every whole-board technique of the
#                  registry, read from `solve --help`)
#   STUDY_DIR      output directory (default build/reports)
#   PYTHON         the interpreter of scripts/report/study.py (default python3; make passes
#                  Debian's /usr/bin/python3, which has python3-matplotlib)
# The default (samples) is sized for a few minutes on one core: the generic rows on the
# hardest sample dominate (a dozen rows x 100 puzzles x up to ~70 ms, warm-up and one timed
# pass each). `shared` benches the fast rows on the full corpora (about 100k puzzles) and
# the generic rows on their first STUDY_N. The corpora and sample sizes used are printed
# first, and build.txt records them.
# Needs python3 with matplotlib (Debian packages python3 and python3-matplotlib: make deps).

set -euo pipefail

BIN=${1:-build/sudokubench}
OUT=${STUDY_DIR:-build/reports}
SECS=${STUDY_SECONDS:-1.0}
N=${STUDY_N:-100}
FAST_N=${STUDY_FAST_N:-all}
WHICH=${STUDY_CORPORA:-samples}
N16=${STUDY_N16:-30}
BASE=${STUDY_BASE:-list:ns,hs,lc}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

[ -x "$BIN" ] || { echo "study: $BIN is not an executable (make it first)" >&2; exit 2; }
# py ARGS...: the tooling's Python with scripts/ on its path and no bytecode caches written
py() { PYTHONPATH="$HERE/.." PYTHONDONTWRITEBYTECODE=1 "${PYTHON:-python3}" "$@"; }
py -m sbperf.charts ready || exit 2
if [ -n "${STUDY_TECHS:-}" ]; then
    read -r -a TECHS <<<"$STUDY_TECHS"
else
    # The registry's tokens as solve --help lists them, after the tuples (the whole-board
    # techniques: fish, wings, chains).
    read -r -a TECHS <<<"$("$BIN" solve --help | tr -s ' \n' '  ' |
        sed -n 's/.*techniques ns hs lc nt2 nt3 nt4 ht2 ht3 ht4 \(.*\), nt, ht;.*/\1/p')"
fi
[ "${#TECHS[@]}" -gt 0 ] || { echo "study: no technique found in '$BIN solve --help'" >&2; exit 2; }

DATA=$OUT/study
rm -rf "$DATA"
mkdir -p "$DATA"

# The corpora: NAME FILE GRID (GRID "-" for 9x9).
CORPORA=()
add_samples() {
    local f S=$ROOT/datasets/samples
    for f in "$S/17_clue_2000.txt" "$S/top1465.txt" "$S/hardest_11plus_1000.txt"; do
        [ -e "$f" ] && CORPORA+=("$(basename "$f" .txt) $f -")
    done
    "$BIN" generate --grid 4x4 -n "$N16" --seed 25 -t 1 >"$DATA/generated_16x16.txt" 2>/dev/null
    CORPORA+=("generated_16x16 $DATA/generated_16x16.txt 4x4")
}
add_shared() {
    local f
    for f in "$ROOT"/../shared/datasets/puzzles*; do
        [ -f "$f" ] && CORPORA+=("shared_$(basename "$f" | tr -c 'A-Za-z0-9_\n' _) $f -")
    done
    return 0
}
case $WHICH in
    samples) add_samples ;;
    shared) add_shared ;;
    all) add_samples; add_shared ;;
    *) for f in $WHICH; do
           [ -f "$f" ] || { echo "study: STUDY_CORPORA: no file '$f'" >&2; exit 2; }
           CORPORA+=("$(basename "$f" .txt | tr -c 'A-Za-z0-9_\n' _) $f -")
       done ;;
esac
[ "${#CORPORA[@]}" -gt 0 ] || { echo "study: STUDY_CORPORA=$WHICH: no corpus found" >&2; exit 2; }
fast_n=()
[ "$FAST_N" = all ] || fast_n=(-n "$FAST_N")
echo "study: corpora ($WHICH), generic rows on the first $N puzzles, fast rows on $FAST_N:" >&2
for entry in "${CORPORA[@]}"; do
    read -r name file grid <<<"$entry"
    total=$(grep -cv '^[[:space:]]*\(#\|$\)' "$file" || true)
    generic=$((total < N ? total : N))
    fast=$total
    [ "$FAST_N" = all ] || fast=$((total < FAST_N ? total : FAST_N))
    printf 'study:   %-32s %8s puzzles: generic rows %s, fast rows %s (%s)\n' "$name" \
        "$total" "$generic" "$fast" "$file" >&2
done

start=$(date +%s)
for entry in "${CORPORA[@]}"; do
    read -r name file grid <<<"$entry"
    g=()
    [ "$grid" = - ] || g=(--grid "$grid")
    one=$(awk '!/^[[:space:]]*(#|$)/ { print; exit }' "$file")
    args=(--pipelines fast,list --pipeline "$BASE")
    for t in "${TECHS[@]}"; do
        args+=(--pipeline "$BASE,$t")
    done
    fargs=(--pipelines fast)
    for t in "${TECHS[@]}"; do
        # fast+T rows only where the binary runs that pipeline on this corpus's geometry
        if printf '%s\n' "$one" | "$BIN" solve "${g[@]}" -s "fast+$t" --progress never \
            >/dev/null 2>&1; then
            fargs+=(--pipeline "fast+$t")
        fi
    done
    echo "study: $name: ${#TECHS[@]} techniques on $BASE, $((${#fargs[@]} / 2 - 1)) fast+T rows" >&2
    # bench exits 1 when a corpus has lines that are not puzzles: the rows still stand
    rc=0
    "$BIN" bench "${g[@]}" -t 1 -n "$N" --seconds "$SECS" --json "$DATA/$name.json" \
        "${args[@]}" "$file" >"$DATA/$name.table" || rc=$?
    [ "$rc" -le 1 ] || { echo "study: bench failed on $name (exit $rc)" >&2; exit 2; }
    if [ "${#fargs[@]}" -gt 2 ]; then
        "$BIN" bench "${g[@]}" -t 1 "${fast_n[@]}" --seconds "$SECS" \
            --json "$DATA/$name.fast.json" "${fargs[@]}" "$file" >"$DATA/$name.fast.table" || rc=$?
        [ "$rc" -le 1 ] || { echo "study: bench failed on $name, fast rows (exit $rc)" >&2; exit 2; }
    fi
done

{
    echo "version=$("$BIN" --version | head -1)"
    echo "git=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
    echo "base=$BASE"
    echo "techniques=${TECHS[*]}"
    echo "corpora=$WHICH"
    echo "puzzles=$N"
    echo "fast_puzzles=$FAST_N"
    echo "seconds=$SECS"
    echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "elapsed=$(($(date +%s) - start))"
} >"$DATA/build.txt"

py "$HERE/study.py" "$OUT"
echo "study: wrote $OUT/study.md and study.png in $(($(date +%s) - start)) s" >&2
