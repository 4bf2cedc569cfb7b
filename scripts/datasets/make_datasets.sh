#!/usr/bin/env bash
# scripts/datasets/make_datasets.sh — builds the local corpora of `make datasets` in
# datasets/generated/ (git-ignored) and writes datasets/generated/MANIFEST with each file's puzzle
# count, sha256 and the exact command that made it. Every file is reproducible from its command:
# generate and augment are deterministic for a seed, whatever the thread count.
#
# Usage: scripts/datasets/make_datasets.sh [BINARY]     (default build/sudokubench; run from the repo root)
# Environment (defaults in brackets):
#   GEN_COUNT [1000000]      puzzles in the random generated set
#   MINIMAL_COUNT [100000]   puzzles in the minimal generated set
#   AUG_COUNT [2000000]      augmented puzzles made from each standard corpus
#   SEED [1]                 seed of every command
#   SHARED [../shared/datasets]  where the standard corpora (puzzles*) are looked for
#   OUT [datasets/generated]     output directory
# Each file is written under a temporary name and renamed when complete, and checked: a
# sample of every output goes through `sudokubench validate` (generated sets must be all
# proper; augmented sets must keep their source's counts).

set -euo pipefail

BIN=${1:-build/sudokubench}
GEN_COUNT=${GEN_COUNT:-1000000}
MINIMAL_COUNT=${MINIMAL_COUNT:-100000}
AUG_COUNT=${AUG_COUNT:-2000000}
SEED=${SEED:-1}
SHARED=${SHARED:-../shared/datasets}
OUT=${OUT:-datasets/generated}
SAMPLE=100000 # lines of each output that are validated

[ -x "$BIN" ] || { echo "make_datasets: no executable $BIN (run make first)" >&2; exit 2; }
mkdir -p "$OUT"
MANIFEST_TMP=$(mktemp "$OUT/.MANIFEST.XXXXXX")
trap 'rm -f "$MANIFEST_TMP" "$OUT"/.*.tmp' EXIT
{
    echo "# datasets/generated/MANIFEST — written by scripts/datasets/make_datasets.sh; see datasets/README.md"
    echo "# $("$BIN" --version), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# file | puzzles | bytes | sha256 | seconds | command"
} >"$MANIFEST_TMP"

now() { date +%s.%N; }
T_ALL=$(now)

# make FILE COMMAND...: runs `sudokubench COMMAND...` into OUT/FILE, records it, prints it.
make_file() {
    local file=$1 t0 t1 n bytes sum secs
    shift
    t0=$(now)
    "$BIN" "$@" >"$OUT/.$file.tmp"
    t1=$(now)
    mv "$OUT/.$file.tmp" "$OUT/$file"
    n=$(wc -l <"$OUT/$file" | tr -d ' ')
    bytes=$(wc -c <"$OUT/$file" | tr -d ' ')
    sum=$(sha256sum "$OUT/$file" | cut -d' ' -f1)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    echo "$file | $n | $bytes | $sum | $secs | sudokubench $*" >>"$MANIFEST_TMP"
    awk -v f="$file" -v n="$n" -v b="$bytes" -v s="$secs" \
        'BEGIN { rate = s > 0 ? n / s : 0
                 printf "made %-54s %8d puzzles %6.0f MB in %6.2f s (%.0f puzzles/s)\n", f, n, b / 1e6, s, rate }'
}

# expect_proper FILE: the first SAMPLE puzzles of FILE all have exactly one solution.
expect_proper() {
    head -n "$SAMPLE" "$OUT/$1" | "$BIN" validate >/dev/null 2>&1 ||
        { echo "make_datasets: $1: validate found improper puzzles" >&2; exit 1; }
}

make_file "random_${GEN_COUNT}_seed${SEED}.txt" generate -n "$GEN_COUNT" --seed "$SEED"
expect_proper "random_${GEN_COUNT}_seed${SEED}.txt"
make_file "minimal_${MINIMAL_COUNT}_seed${SEED}.txt" generate -n "$MINIMAL_COUNT" --minimal --seed "$SEED"
expect_proper "minimal_${MINIMAL_COUNT}_seed${SEED}.txt"

shopt -s nullglob
SOURCES=("$SHARED"/puzzles*)
if [ ${#SOURCES[@]} -eq 0 ]; then
    echo "make_datasets: no standard corpora in $SHARED (puzzles*): augmented sets skipped"
    echo "               (set SHARED=DIR, e.g. SHARED=datasets/public/tdoku-data/data after datasets/fetch.sh)"
fi
for src in "${SOURCES[@]}"; do
    base=$(basename "$src")
    file="aug_${base}_${AUG_COUNT}_seed${SEED}.txt"
    make_file "$file" augment -n "$AUG_COUNT" --seed "$SEED" "$src"
    # Augmenting keeps every puzzle's count: the source's first puzzles and their images,
    # output line i being source puzzle i, must get the same validate verdict counts.
    puzzles() { grep -vE '^[[:space:]]*(#|$)' "$src"; } # the lines augment reads as puzzles
    n_src=$(puzzles | wc -l | tr -d ' ')
    k=$((n_src < SAMPLE ? n_src : SAMPLE))
    k=$((k < AUG_COUNT ? k : AUG_COUNT))
    a=$(puzzles | head -n "$k" | "$BIN" validate 2>/dev/null || true)
    b=$(head -n "$k" "$OUT/$file" | "$BIN" validate 2>/dev/null || true)
    [ "$a" = "$b" ] || { echo "make_datasets: $file: counts differ from $base: '$a' vs '$b'" >&2; exit 1; }
done

chmod 644 "$MANIFEST_TMP" # mktemp made it private
mv "$MANIFEST_TMP" "$OUT/MANIFEST"
awk -v a="$T_ALL" -v b="$(now)" 'BEGIN { printf "make_datasets: done in %.1f s; list and checksums in ", b - a }'
echo "$OUT/MANIFEST"
