#!/usr/bin/env bash
# scripts/measure/compare.sh — same-run comparison with the tdoku peer (`make compare`).
#
# Measures sudokubench at every SIMD level the CPU runs and tdoku (../shared/peers, built by
# ../shared/peers/build-tdoku.sh into BUILD/peers at levels native, avx512, avx2, sse4.2) on the same
# machine, in the same run, on the same corpora: 1 thread, uniqueness check (limit 2).
# The machine is shared and noisy, so the runs are interleaved: COMPARE_ROUNDS rounds, each
# runs every configuration once per corpus (the starting configuration rotates each round),
# and the table reports medians over the rounds.
#
#   tdoku:        run_benchmark -s tdoku -t SECONDS -w 1 -c 1 -r 0 FILE   (its CSV row)
#
# Both solvers get the same puzzles. tdoku's benchmark by default puts every puzzle under a
# random transform of its own (-r 1), which changes the guesses a puzzle takes (forum hardest
# 11+: tdoku 61.7 a puzzle on the file as given, 65.0 under its transforms), so -r 0 here. With
# COMPARE_SHUFFLE=SEED each corpus is first transformed once per puzzle by `sudokubench
# augment --seed SEED` and both solvers run that file: the ratio then averages over
# orientations instead of taking the corpus's own.
#   sudokubench:  sudokubench bench -t 1 -l 2 --simd LEVEL --pipelines fast
#                   --seconds SECONDS --json OUT FILE
#   tdoku-plugin: sudokubench bench -t 1 -l 2 --plugin BUILD/peers/tdoku-plugin-native.so
#                   --pipelines tdoku --seconds SECONDS --json OUT FILE
#                 tdoku's native build through sudokubench's harness as a solver plug-in
#                 (scripts/measure/tdoku-plugin.sh): against tdoku native, what the harness
#                 costs a plug-in
#
# Output: the Markdown table per corpus on stdout and in BUILD/reports/NAME.md; every run and
# the medians in BUILD/reports/NAME.json; each run's raw output in BUILD/reports/NAME-runs/
# (NAME: COMPARE_NAME). Without ../shared/peers it says so and runs sudokubench alone.
#
# Usage: scripts/measure/compare.sh [BINARY [FILE...]]
#   BINARY  default BUILD/sudokubench, built with make first when not given
#   FILE    default: ../shared/datasets/puzzles* when present, else datasets/samples/*.txt;
#           and datasets/multi/*.txt (puzzles with several solutions) in both cases
# Environment:
#   COMPARE_ROUNDS   rounds (default 3)
#   COMPARE_SECONDS  timed seconds per run, a whole number >= 1 as tdoku's -t takes
#                    (default 2). A round of the three standard corpora and datasets/multi
#                    takes about 2.5 minutes on a Zen 5 core with nine configurations (four
#                    tdoku builds, five levels): the slow levels (scalar, sse4, avx2) need about
#                    20 s each on forum_hardest_11+ whatever SECONDS is, as bench validates
#                    every puzzle in its warm-up and times at least one full pass.
#   COMPARE_PEERS    the peers directory (default ../shared/peers)
#   COMPARE_SHUFFLE  a seed: run both solvers on each corpus transformed (default: as given)
#   COMPARE_NAME     the reports' name (default compare; scripts/measure/compare_ir.sh times its
#                    slices as compare-ir-timed)
#   BUILD            build directory (default build)

set -euo pipefail

die() { echo "compare: $*" >&2; exit 2; }
note() { echo "compare: $*" >&2; }

cd "$(dirname "$0")/../.."

BUILD=${BUILD:-build}
ROUNDS=${COMPARE_ROUNDS:-3}
SECS=${COMPARE_SECONDS:-2}
PEERS=${COMPARE_PEERS:-../shared/peers}
NAME=${COMPARE_NAME:-compare}
SHUFFLE=${COMPARE_SHUFFLE:-}
REPORTS=$BUILD/reports
RAW=$REPORTS/$NAME-runs

[[ $NAME =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
    die "COMPARE_NAME must be a plain file name (letters, digits, . _ -), not '$NAME'"
[ -z "$SHUFFLE" ] || [[ $SHUFFLE =~ ^[0-9]+$ ]] ||
    die "COMPARE_SHUFFLE must be a seed (a whole number), not '$SHUFFLE'"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "COMPARE_ROUNDS must be a whole number >= 1, not '$ROUNDS'"
[[ $SECS =~ ^[1-9][0-9]*$ ]] ||
    die "COMPARE_SECONDS must be a whole number >= 1 (tdoku's -t takes whole seconds), not '$SECS'"
command -v python3 >/dev/null || die "python3 is needed for the table (make deps-perf installs it)"

if [ $# -ge 1 ]; then
    BIN=$1; shift
else
    BIN=$BUILD/sudokubench
    make --no-print-directory BUILD="$BUILD" "$BIN" >&2 || die "building $BIN failed"
fi
[ -x "$BIN" ] || die "$BIN is not an executable (build it with 'make' first)"

# shellcheck source=scripts/datasets/corpora.sh
. scripts/datasets/corpora.sh
corpora "$*"
for f in "${FILES[@]}"; do
    [ -f "$f" ] && [ -r "$f" ] || die "corpus '$f' is not a readable file"
done

# The CPU's own choice is what `auto` means here: a forced level would mislabel every row.
if [ -n "${SUDOKUBENCH_SIMD:-}" ]; then
    note "ignoring SUDOKUBENCH_SIMD=$SUDOKUBENCH_SIMD (each run names its level with --simd)"
    unset SUDOKUBENCH_SIMD
fi

rm -rf "$RAW"
mkdir -p "$RAW"
META=$RAW/meta.tsv
RUNS=$RAW/runs.tsv
: >"$META"
: >"$RUNS"
meta() { printf '%s\t%s\n' "$1" "$2" >>"$META"; }

# --- sudokubench levels: every level the CPU runs; unsupported ones exit 2 with a message --
probe=${FILES[0]}
SB_LEVELS=()
for level in avx512 avx512bw avx2 sse4 scalar neon; do
    rc=0
    "$BIN" bench -t 1 -l 2 --simd "$level" --pipelines fast -n 1 --seconds 0 "$probe" \
        >/dev/null 2>"$RAW/probe.err" || rc=$?
    if [ "$rc" -eq 0 ]; then
        SB_LEVELS+=("$level")
    elif [ "$rc" -eq 2 ] && grep -q 'not supported' "$RAW/probe.err"; then
        note "sudokubench --simd $level: not supported by this CPU, skipped"
        meta skipped "sudokubench $level: not supported by this CPU"
    else
        die "probe of sudokubench --simd $level on $probe failed (exit $rc): $(head -3 "$RAW/probe.err")"
    fi
done
[ ${#SB_LEVELS[@]} -gt 0 ] || die "no SIMD level of $BIN runs here"

rc=0
"$BIN" bench -t 1 -l 2 --simd auto --pipelines fast -n 1 --seconds 0 --json "$RAW/auto.json" \
    "$probe" >/dev/null 2>"$RAW/probe.err" || rc=$?
[ "$rc" -eq 0 ] || die "probe of sudokubench --simd auto failed (exit $rc): $(head -3 "$RAW/probe.err")"
AUTO=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rows"][0]["simd"])' "$RAW/auto.json")
meta auto "$AUTO"
note "sudokubench levels: ${SB_LEVELS[*]} (auto chooses $AUTO)"

# --- tdoku builds: native, avx512, avx2, sse4.2 — those this CPU runs; built once, reused -
TD_LEVELS=()
if [ -d "$PEERS/tdoku" ] && [ -f "$PEERS/build-tdoku.sh" ]; then
    meta peers "$PEERS"
    if [ "$(uname -m)" != x86_64 ]; then
        note "tdoku needs x86-64 (it includes immintrin.h); this is $(uname -m): sudokubench alone"
        meta skipped "tdoku: not built on $(uname -m) (x86-64 only)"
    else
        for tool in cmake g++ make; do
            command -v "$tool" >/dev/null ||
                die "$tool is needed to build tdoku from $PEERS (apt-get install $tool)"
        done
        for level in native avx512 avx2 sse4.2; do
            # The CPU flags each build needs (tdoku's AVX512 option is -mavx512vl
            # -mavx512bitalg). avx512 is built beside native so that tdoku's AVX-512 path is
            # measured whatever -march=native makes of the CPU (that depends on the compiler:
            # gcc 12 names Zen 5 znver3, tuning for Zen 3, though it enables the AVX-512 it finds).
            case $level in
                native) flags= ;;
                avx512) flags="avx512vl avx512_bitalg" ;;
                *) flags=${level/./_} ;;
            esac
            missing=
            for flag in $flags; do
                grep -qw "$flag" /proc/cpuinfo || missing="$missing $flag"
            done
            if [ -n "$missing" ]; then
                note "tdoku $level: this CPU has no${missing}, skipped"
                meta skipped "tdoku $level: CPU has no${missing}"
                continue
            fi
            exe=$BUILD/peers/tdoku-$level/run_benchmark
            if [ -x "$exe" ]; then
                note "tdoku $level: reusing $exe (rm -rf $BUILD/peers to rebuild)"
            else
                note "tdoku $level: building into $BUILD/peers/tdoku-$level (cmake + g++, about a minute)"
                if ! sh "$PEERS/build-tdoku.sh" "$BUILD/peers" "$level" >/dev/null; then
                    note "tdoku $level: build failed (logs in $BUILD/peers/tdoku-$level/), skipped"
                    meta skipped "tdoku $level: build failed"
                    continue
                fi
                [ -x "$exe" ] || die "build-tdoku.sh reported success but $exe is missing"
            fi
            TD_LEVELS+=("$level")
        done
    fi
else
    note "no peers at $PEERS (../shared/peers beside the checkout): running sudokubench alone"
    meta skipped "tdoku: no peers directory at $PEERS"
fi

# tdoku's native build again as a solver plug-in, when its run_benchmark was built
PLUGIN_SO=
if [[ " ${TD_LEVELS[*]} " == *" native "* ]]; then
    if PLUGIN_SO=$(PEERS="$PEERS" bash scripts/measure/tdoku-plugin.sh "$BUILD/peers" native); then
        note "tdoku plug-in: $PLUGIN_SO"
    else
        note "tdoku plug-in: build failed, skipped"
        meta skipped "tdoku-plugin native: build failed"
        PLUGIN_SO=
    fi
fi

CONFIGS=()
for level in "${TD_LEVELS[@]}"; do CONFIGS+=("tdoku:$level"); done
[ -z "$PLUGIN_SO" ] || CONFIGS+=("tdoku-plugin:native")
for level in "${SB_LEVELS[@]}"; do CONFIGS+=("sudokubench:$level"); done

meta cpu "$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -1)"
meta cpus "$(nproc)"
meta gcc "$(gcc -dumpfullversion 2>/dev/null || echo unknown)"
meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta rounds "$ROUNDS"
meta seconds "$SECS"
meta version "$("$BIN" --version)"
meta commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# --- the puzzles both solvers get: each corpus as given, or with COMPARE_SHUFFLE every puzzle
# under one transform drawn from the seed (sudokubench augment: one output per valid input) -
if [ -n "$SHUFFLE" ]; then
    mkdir -p "$RAW/shuffled"
    for i in "${!FILES[@]}"; do
        f=${FILES[$i]} out=$RAW/shuffled/$(basename "${FILES[$i]}")
        [ ! -e "$out" ] || die "two corpora are named $(basename "$f"): the reports could not tell them apart"
        rc=0
        "$BIN" augment -n 1 --stats -o /dev/null "$f" 2>"$out.err" || rc=$?
        [ "$rc" -le 1 ] || die "augment of $f failed (exit $rc): $(head -3 "$out.err")"
        p=$(sed -n 's/^stats: .* from \([0-9][0-9]*\) inputs.*/\1/p' "$out.err")
        [ -n "$p" ] || die "augment --stats named no input count for $f: $(tail -1 "$out.err")"
        "$BIN" augment -n "$p" --seed "$SHUFFLE" -o "$out" "$f" 2>>"$out.err" || rc=$?
        [ "$rc" -le 1 ] || die "augment of $f failed (exit $rc): $(tail -3 "$out.err")"
        FILES[i]=$out
    done
    meta orientation "shuffled: every puzzle under one transform, sudokubench augment --seed $SHUFFLE"
    note "corpora transformed (augment --seed $SHUFFLE): both solvers run the files in $RAW/shuffled"
else
    meta orientation "as given"
fi

# --- the runs: rounds x corpora x configurations (rotated each round) ----------------------
n=${#CONFIGS[@]}
note "${#FILES[@]} corpora x $n configurations x $ROUNDS rounds, ${SECS}s each run"
for ((r = 1; r <= ROUNDS; r++)); do
    for f in "${FILES[@]}"; do
        name=$(basename "$f")
        for ((i = 0; i < n; i++)); do
            config=${CONFIGS[$(((i + r - 1) % n))]}
            kind=${config%%:*} level=${config#*:}
            out=$RAW/r$r-$name-$kind-$level
            rc=0
            if [ "$kind" = tdoku ]; then
                "$BUILD/peers/tdoku-$level/run_benchmark" -s tdoku -t "$SECS" -w 1 -c 1 -r 0 "$f" \
                    >"$out.csv" 2>&1 || rc=$?
                [ "$rc" -eq 0 ] ||
                    die "tdoku $level failed on $f (exit $rc): $(tail -3 "$out.csv")"
                row=$(tail -1 "$out.csv")
                [ "$(awk -F, '{print NF}' <<<"$row")" -ge 9 ] ||
                    die "tdoku $level on $f printed no CSV row: $(tail -3 "$out.csv")"
                printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$f" "$kind" "$level" "$out.csv" >>"$RUNS"
                rate=$(awk -F, '{printf "%.0f", $(NF-3)}' <<<"$row")
            else
                if [ "$kind" = tdoku-plugin ]; then
                    rows=(--plugin "$PLUGIN_SO" --pipelines tdoku)
                else
                    rows=(--simd "$level" --pipelines fast)
                fi
                "$BIN" bench -t 1 -l 2 "${rows[@]}" --seconds "$SECS" \
                    --json "$out.json" "$f" >"$out.txt" 2>"$out.err" || rc=$?
                if [ "$rc" -eq 1 ]; then
                    note "$f has invalid lines (left out of the measurement): $(head -1 "$out.err")"
                elif [ "$rc" -ne 0 ]; then
                    die "sudokubench ($kind $level) failed on $f (exit $rc): $(tail -3 "$out.err")"
                fi
                printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$f" "$kind" "$level" "$out.json" >>"$RUNS"
                rate=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["rows"][0]["puzzles_per_sec"]))' "$out.json")
            fi
            note "round $r/$ROUNDS $name: $kind $level ${rate}/s"
        done
    done
done

PYTHONPATH=scripts PYTHONDONTWRITEBYTECODE=1 python3 -m sbperf.compare --raw "$RAW" --json "$REPORTS/$NAME.json" --md "$REPORTS/$NAME.md"
note "wrote $REPORTS/$NAME.md and $REPORTS/$NAME.json"
