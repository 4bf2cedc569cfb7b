#!/usr/bin/env bash
# tests/cli/mpi.sh — build/sudokubench-mpi against build/sudokubench (docs/scale.md):
# under `mpirun -np 1, 2, 3` every command must write the same bytes to stdout and stderr
# and exit with the same code as one plain process, for every format, -t 1 and 2, on the
# samples, a file with invalid lines, standard input and several files, other geometries;
# -o FILE must hold the same bytes (written by every rank with pwrite, or with MPI-IO, or by
# rank 0); a full disk (/dev/full as -o), a write error on one rank and unreadable inputs
# give exit 2 with one message.
#
# Usage: tests/cli/mpi.sh [PLAIN_BINARY [MPI_BINARY]]   (run from the repo root;
#        MPIRUN=mpirun by default)
#        tests/cli/mpi.sh PLAIN_BINARY none   only the plain binary's -o cases (what make test
#        runs where the MPI tests are skipped: sanitizers, clang, cross builds under qemu)
#
# Segments are made small (SUDOKUBENCH_MPI_SEGMENT=3000 bytes, ~35 lines; ITEMS=97) so that
# the sample files span many rounds of every rank and segment edges fall mid-file, on
# invalid lines and on the last line without its newline. Prints `ok - NAME` / `not ok -
# NAME` per case and `N passed, M failed`; exits 1 if any case failed.

set -u

BIN=${1:-build/sudokubench}
MBIN=${2:-build/sudokubench-mpi}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $MBIN in /*) ;; *) MBIN=$PWD/$MBIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SAMPLES=$ROOT/datasets/samples
MPIRUN=${MPIRUN:-mpirun}
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120} # a hang guard per command, not a speed limit

PL=${PLUGIN_DIR:-build/plugins} # the plug-ins of make plugins
case $PL in /*) ;; *) PL=$PWD/$PL ;; esac
PLAIN_ONLY=0
[ "$MBIN" = "$PWD/none" ] && PLAIN_ONLY=1
if [ "$PLAIN_ONLY" = 0 ] && ! command -v "$MPIRUN" >/dev/null 2>&1; then
    echo "mpi.sh: skipped: $MPIRUN not found (make deps-all installs openmpi-bin)"
    exit 0
fi

# scratch directory, environment, tcase and sb: the shared CLI test harness
. "$ROOT/tests/cli/harness.sh" mpi

# -q: no banner when a rank exits non-zero (the exit code is the test's subject);
# --bind-to none: -t 2 must not share one core; root needs its flag in containers.
MPI_FLAGS=(-q --oversubscribe --bind-to none -x SUDOKUBENCH_MPI_SEGMENT -x SUDOKUBENCH_MPI_ITEMS
    -x SUDOKUBENCH_MPI_DIRECT -x SUDOKUBENCH_MPI_IO)
[ "$(id -u)" = 0 ] && MPI_FLAGS+=(--allow-run-as-root)
# A rank that exits non-zero (exit 1: an invalid line) makes Open MPI kill the job's other
# processes, waiting odls_base_sigkill_timeout (1 s) between SIGTERM and SIGKILL, twice: 2 s
# of an mpirun whose ranks have all ended already. The cases compare whole outputs and exit
# codes, so a rank cut short by that kill would fail them with either setting.
MPI_FLAGS+=(--mca odls_base_sigkill_timeout 0)
# DIRECT=1: with -o FILE every rank writes its own records (the default); 0: rank 0 writes.
# IO=1: those writes go through MPI-IO even on one node (as across nodes); empty: pwrite here
export SUDOKUBENCH_MPI_SEGMENT=3000 SUDOKUBENCH_MPI_ITEMS=97 SUDOKUBENCH_MPI_DIRECT=1
export SUDOKUBENCH_MPI_IO=

# Open MPI's libevent may warn about a descriptor it watched, in runs whose bytes and exit
# codes are right (seen in hosts.sh's t_resume, in slurm.sh's mpirun under sbatch, and here
# in a `solve -f json -t 2 -np 3` on a loaded 2-core machine): the runtime's line, never the
# program's, so every run through mrun drops it from the stderr it passes on.
EPOLL_NOISE='^\[warn\] Epoll MOD([0-9]*) on fd [0-9]* failed\. Old events were'

# mrun NP ARGS...: the MPI binary on NP ranks (stdin passed on to rank 0), its stderr
# without EPOLL_NOISE, its exit code.
mrun() {
    local np=$1 rc
    shift
    timeout "$TIMEOUT" "$MPIRUN" "${MPI_FLAGS[@]}" -np "$np" "$MBIN" "$@" 2>mrun.err
    rc=$?
    grep -v -e "$EPOLL_NOISE" mrun.err >&2
    return $rc
}

# mrun_io NP ARGS...: mrun with -o FILE written through MPI-IO.
mrun_io() { SUDOKUBENCH_MPI_IO=1 mrun "$@"; }

# same LABEL ARGS...: plain run vs -np N for each N of $NPS (default 1 2 3): stdout, stderr
# and exit code equal. (Each mpirun costs most of a second in MPI_Init here, so the cases
# spread the rank counts instead of running every case at all three.)
same() {
    local label=$1 np prc mrc
    shift
    "$BIN" "$@" >p.out 2>p.err
    prc=$?
    for np in ${NPS:-1 2 3}; do
        mrun "$np" "$@" >m.out 2>m.err
        mrc=$?
        cmp -s p.out m.out || echo "$label -np $np: stdout differs: $(diff p.out m.out | head -3)"
        cmp -s p.err m.err || echo "$label -np $np: stderr differs: $(diff p.err m.err | head -6)"
        # the MPI run's own stderr and exit code, so a failure that leaves no output says why
        cmp -s p.out m.out && cmp -s p.err m.err ||
            echo "$label -np $np: exit $mrc, its stderr: $(head -n 5 m.err)"
        [ "$prc" = "$mrc" ] || echo "$label -np $np: exit $mrc, plain $prc"
    done
}

# ---- inputs -------------------------------------------------------------------------------
# mixed.txt: puzzles of three corpora with invalid lines, blank and comment lines, an
# unsolvable puzzle (all 1s) and a last line cut short without its newline.
{
    head -n 300 "$SAMPLES/top1465.txt"
    echo "bad line here"
    echo
    echo "# a comment"
    head -n 50 "$SAMPLES/17_clue_2000.txt"
    echo "12345"
    printf '1%.0s' $(seq 1 81); echo
    echo "..........x"
    head -n 700 "$SAMPLES/hardest_11plus_1000.txt"
    head -n 1 "$SAMPLES/top1465.txt" | cut -c1-40 | tr -d '\n'
} >mixed.txt
head -n 400 "$SAMPLES/17_clue_2000.txt" >small.txt
# grids.txt: nine-line grids (with and without rule lines and '|'), one-line puzzles between
# them and grids directly after grids: a segment boundary must never cut a grid in two.
head -n 120 "$SAMPLES/top1465.txt" | awk '
    NR % 3 == 0 { print; next }
    NR % 3 == 1 { for (i = 0; i < 9; i++) print substr($0, i * 9 + 1, 9); print ""; next }
    { for (i = 0; i < 9; i++) {
          if (i == 3 || i == 6) print "------+-------+------"
          r = substr($0, i * 9 + 1, 9)
          print substr(r, 1, 3) " | " substr(r, 4, 3) " | " substr(r, 7, 3) } }' >grids.txt

# ---- cases --------------------------------------------------------------------------------
t_solve_formats() {
    local f
    for f in solution tdoku csv json pretty; do
        same "solve -f $f -t 1" solve -f "$f" -t 1 mixed.txt
        NPS="2 3" same "solve -f $f -t 2" solve -f "$f" -t 2 mixed.txt
    done
}

t_solve_samples() {
    SUDOKUBENCH_MPI_SEGMENT=2097152 same "solve top1465, default segment size" solve -t 2 \
        "$SAMPLES/top1465.txt"
    SUDOKUBENCH_MPI_SEGMENT=65536 NPS=3 same "solve all samples, csv" solve -t 1 -f csv \
        "$SAMPLES"/*.txt
}

t_grids() {
    SUDOKUBENCH_MPI_SEGMENT=300 NPS="2 3" same "nine-line grids, 300-byte segments" \
        solve -t 1 -f csv grids.txt
    # grids back to back, no blank lines: no cut point, so one segment far larger than the
    # segment size (streamed from the file rather than read into memory)
    grep -E '^[0-9.]{81}$' "$SAMPLES/top1465.txt" | head -n 40 | fold -w 9 >packed.txt
    SUDOKUBENCH_MPI_SEGMENT=300 NPS="2 3" same "grids without cut points" solve -t 1 -f csv \
        packed.txt
    "$BIN" solve -t 1 -f json <grids.txt >p.out 2>p.err
    SUDOKUBENCH_MPI_SEGMENT=500 mrun 3 solve -t 1 -f json <grids.txt >m.out 2>m.err
    cmp -s p.out m.out || echo "grids on stdin: stdout differs: $(diff p.out m.out | head -3)"
    cmp -s p.err m.err || echo "grids on stdin: stderr differs: $(diff p.err m.err | head -3)"
}

t_several_files() {
    # a missing file between two good ones: reported in place, the others still run
    NPS="1 3" same "solve csv, three files" solve -t 1 -f csv small.txt missing.txt mixed.txt
    "$BIN" solve -t 1 -f json small.txt - mixed.txt <mixed.txt >p.out 2>p.err
    mrun 2 solve -t 1 -f json small.txt - mixed.txt <mixed.txt >m.out 2>m.err
    cmp -s p.out m.out || echo "stdin between files: stdout differs: $(diff p.out m.out | head -3)"
    cmp -s p.err m.err || echo "stdin between files: stderr differs: $(diff p.err m.err | head -3)"
}

t_stdin() {
    local np prc mrc
    "$BIN" solve -t 1 -f json <mixed.txt >p.out 2>p.err
    prc=$?
    for np in 1 2 3; do
        mrun "$np" solve -t 1 -f json <mixed.txt >m.out 2>m.err
        mrc=$?
        cmp -s p.out m.out || echo "stdin -np $np: stdout differs: $(diff p.out m.out | head -3)"
        cmp -s p.err m.err || echo "stdin -np $np: stderr differs: $(diff p.err m.err | head -3)"
        [ "$prc" = "$mrc" ] || echo "stdin -np $np: exit $mrc, plain $prc"
        # the MPI run's own stderr, so a failure that leaves no output says why
        cmp -s p.out m.out || echo "stdin -np $np: its stderr: $(head -n 5 m.err)"
    done
    "$BIN" solve -t 2 - <mixed.txt >p2.out 2>p2.err
    cat mixed.txt | mrun 3 solve -t 2 - >m.out 2>m.err
    cmp -s p2.out m.out || echo "pipe -np 3: stdout differs"
    cmp -s p2.err m.err || echo "pipe -np 3: stderr differs"
}

t_validate_rate() {
    same "validate" validate -t 2 mixed.txt
    NPS=2 same "validate proper" validate -t 1 small.txt
    NPS="1 3" same "rate csv" rate -t 2 mixed.txt
    NPS=2 same "rate json, two files" rate -t 1 -f json small.txt mixed.txt
}

t_generate_augment() {
    local f
    same "generate" generate -n 500 --seed 7 -t 2
    for f in csv json kaggle pretty; do
        NPS=3 same "generate -f $f" generate -n 300 --seed 7 -t 1 -f "$f"
    done
    NPS=2 same "generate --first" generate -n 300 --first 1000 --seed 3 -t 1
    # a give-up: --clues 17 in one attempt fails at once; exit 1 after the records before
    NPS="2 3" same "generate give-up" generate -n 50 --seed 1 --clues 17 --attempts 1 -t 1
    NPS="1 3" same "augment" augment -n 1000 --seed 9 small.txt
    NPS=2 same "augment, invalid lines in the input" augment -n 700 --seed 2 mixed.txt
    # -o FILE: every rank writes its own ranges of indices, by pwrite and by MPI-IO
    same_o "generate -o" generate -n 500 --seed 7 -t 1 -f csv
    SUDOKUBENCH_MPI_IO=1 NPS=3 same_o "generate -o, MPI-IO" generate -n 300 --seed 5 -t 1 -f json
    NPS=3 same_o "generate give-up -o" generate -n 50 --seed 1 --clues 17 --attempts 1 -t 1
    NPS=2 same_o "augment -o" augment -n 700 --seed 2 mixed.txt
}

# Other geometries (input.c's geometry source: a record per line, so a segment may end after any
# line): solve, validate and rate of 16x16 (--grid 4x4 from the cell count), 4x4 (--grid
# 2x2) and a 6x6 jigsaw (--geometry), split over the ranks in small segments.
t_geometry() {
    "$BIN" generate --grid 4x4 -n 120 --seed 3 -t 1 >g16.txt
    "$BIN" generate --grid 2x2 -n 400 --seed 3 -t 1 >g4.txt
    cp "$ROOT/tests/data/jigsaw6.txt" jigsaw6.txt
    "$BIN" generate --geometry jigsaw6.txt -n 200 --seed 2 -t 1 >j6.txt
    { head -n 50 g16.txt; echo "bad line"; echo; echo "# a comment"; sed -n 51,120p g16.txt
        echo "1234"; head -n 1 g16.txt | cut -c1-100 | tr -d '\n'; } >g16m.txt
    NPS="2 3" same "16x16 solve csv" solve -t 1 -f csv g16m.txt
    NPS=3 same "16x16 solve -t 2" solve -t 2 g16m.txt
    NPS=2 same "16x16 validate" validate -t 1 g16m.txt
    NPS=3 same "16x16 rate" rate -t 1 g16m.txt
    SUDOKUBENCH_MPI_SEGMENT=300 NPS=3 same "4x4 --grid 2x2 json" solve --grid 2x2 -t 1 \
        -f json g4.txt
    SUDOKUBENCH_MPI_SEGMENT=500 NPS=2 same "jigsaw --geometry" solve --geometry jigsaw6.txt \
        -t 1 -f csv j6.txt
    # standard input: only rank 0 can look at it to pick the geometry (the others follow);
    # over 64 KiB, so that rank 0 reads it in several pieces and deals some to each rank
    cat g16.txt g16.txt g16.txt g16m.txt >g16s.txt
    "$BIN" solve -t 1 -f csv <g16s.txt >p.out 2>p.err
    mrun 3 solve -t 1 -f csv <g16s.txt >m.out 2>m.err
    cmp -s p.out m.out || echo "16x16 on stdin: stdout differs: $(diff p.out m.out | head -3)"
    cmp -s p.err m.err || echo "16x16 on stdin: stderr differs: $(diff p.err m.err | head -3)"
    # --all is not split (every rank runs it, rank 0 prints): the same bytes, on stdin too
    NPS=2 same "4x4 solve --all" solve --all g4.txt
    "$BIN" solve --all <g4.txt >p.out 2>p.err
    mrun 2 solve --all <g4.txt >m.out 2>m.err
    cmp -s p.out m.out && cmp -s p.err m.err || echo "4x4 solve --all on stdin differs"
    NPS=3 same_o "16x16 solve -o" solve -t 1 -f csv g16m.txt
    NPS=2 same_o "generate --grid 2x2 -o" generate --grid 2x2 -n 300 --seed 3 -t 1 -f csv
    NPS=3 same_o "augment 16x16 -o" augment -n 300 --seed 2 g16m.txt
    SUDOKUBENCH_MPI_IO=1 NPS=2 same_o "16x16 solve -o, MPI-IO" solve -t 1 g16m.txt
}

# bench_check.py PLAIN_TABLE MPI_TABLE PLAIN_JSON MPI_JSON NP: the MPI bench (one table:
# totals then one row per rank) against the plain one, on the fields that do not depend on
# timing: every failure printed.
cat >bench_check.py <<'PY'
import json, sys
pt, mt, pj, mj, np = sys.argv[1:5] + [int(sys.argv[5])]
def cells(path):
    lines = open(path).read().splitlines()
    return lines[0], [[c.strip() for c in l.strip('|').split('|')] for l in lines[3:]]
_, prow = cells(pt)
head, mrow = cells(mt)
if not head.endswith('| ranks %d (threads per rank)' % np):
    print('table head: ' + head)
if len(mrow) != len(prow) * (np + 1):
    print('table: %d rows for %d plain rows and %d ranks' % (len(mrow), len(prow), np))
for i, p in enumerate(prow):
    block = mrow[i * (np + 1):(i + 1) * (np + 1)]
    tot, ranks = block[0], block[1:]
    # plain: dataset pipeline puzzles pps usec %no_guess guesses/puzzle [%paired] ±MAD%
    # mpi:   rank dataset pipeline puzzles seconds pps usec %no_guess guesses/puzzle [...] ±MAD%
    if tot[0] != 'all' or tot[1:4] + tot[7:-1] != p[:3] + p[5:-1]:
        print('totals row %s, plain row %s' % (tot, p))
    if [r[0] for r in ranks] != [str(k) for k in range(np)] or any(r[1:3] != p[:2] for r in ranks):
        print('per-rank rows of %s: %s' % (p[:2], ranks))
    if sum(int(r[3]) for r in ranks) != int(tot[3]):
        print('per-rank puzzles do not sum to the total: %s' % block)
    if max(float(r[4]) for r in ranks) != float(tot[4]):
        print('total seconds is not the longest rank\'s: %s' % block)
P, M = json.load(open(pj)), json.load(open(mj))
if M['build'] != dict(P['build'], ranks=np):
    print('json build %s, plain %s' % (M['build'], P['build']))
if len(M['rows']) != len(P['rows']):
    print('json: %d rows, plain %d' % (len(M['rows']), len(P['rows'])))
same = ['dataset', 'pipeline', 'threads', 'simd', 'puzzles', 'no_guess_pct',
        'guesses_per_puzzle', 'solved', 'unsolvable', 'multiple', 'techniques']
for p, m in zip(P['rows'], M['rows']):
    if not set(p) <= set(m):
        print('json row lacks %s' % (set(p) - set(m)))
    for k in same:
        if p[k] != m[k]:
            print('json %s/%s %s: %s, plain %s' % (p['dataset'], p['pipeline'], k, m[k], p[k]))
    per = m.get('per_rank', [])
    if [r['rank'] for r in per] != list(range(np)):
        print('json per_rank: %s' % per)
    for k in ['puzzles', 'solved', 'unsolvable', 'multiple']:
        if sum(r[k] for r in per) != m[k]:
            print('json per_rank %s do not sum to %s' % (k, m[k]))
    guesses = sum(r['guesses_per_puzzle'] * r['puzzles'] for r in per)
    if abs(guesses - p['guesses_per_puzzle'] * p['puzzles']) > 0.5:
        print('json per_rank guesses %.1f, plain %.1f' % (guesses, p['guesses_per_puzzle'] * p['puzzles']))
PY

# bench_same LABEL ARGS...: bench ARGS plain and on -np 1, 2, 3 (standard input from
# $BENCH_IN, default none): the same stderr and exit code, and bench_check.py on the tables
# and --json files.
bench_same() {
    local label=$1 np prc mrc msg
    shift
    "$BIN" bench "$@" --json p.json <"${BENCH_IN:-/dev/null}" >p.out 2>p.err
    prc=$?
    for np in 1 2 3; do
        rm -f m.json
        mrun "$np" bench "$@" --json m.json <"${BENCH_IN:-/dev/null}" >m.out 2>m.err
        mrc=$?
        [ "$prc" = "$mrc" ] || echo "$label -np $np: exit $mrc, plain $prc"
        cmp -s p.err m.err || echo "$label -np $np: stderr differs: $(diff p.err m.err | head -3)"
        msg=$(python3 bench_check.py p.out m.out p.json m.json "$np" 2>&1)
        [ -z "$msg" ] || echo "$label -np $np: $msg"
    done
}

t_bench() {
    # invalid lines (exit 1), an unsolvable puzzle (noted with its number in the file)
    bench_same "bench mixed.txt" -t 1 --seconds 0 --pipeline fast mixed.txt
    # two pipelines (the second checked against the first's verdicts), two files
    { head -n 100 small.txt; echo "bad line"; sed -n 101,250p small.txt; } >small_bad.txt
    bench_same "bench -t 2, two files" -t 2 --seconds 0 --pipelines fast,restart small.txt \
        small_bad.txt
    # the first N puzzles of the file, whichever ranks hold them
    bench_same "bench -n 333" -t 1 --seconds 0 --pipeline fast -n 333 mixed.txt
    BENCH_IN=mixed.txt bench_same "bench stdin" -t 1 --seconds 0 --pipeline fast -
    NPS="1 3" same "bench missing file" bench --seconds 0 nothere.txt
    NPS=2 same "bench bad --json path" bench --seconds 0 --json no/such/dir/b.json small.txt
    # other geometries: the same loop on each rank's share (small segments, so every rank
    # gets some), the build block naming the grid; an invalid line (exit 1) reported once
    "$BIN" generate --grid 2x2 -n 400 --seed 1 >g4.txt
    { head -n 150 g4.txt; echo "bad line"; sed -n 151,400p g4.txt; } >g4_bad.txt
    SUDOKUBENCH_MPI_SEGMENT=400 bench_same "bench 2x2 (detected)" -t 1 --seconds 0 \
        --pipelines fast,list g4_bad.txt
    python3 -c "import json, sys
d = json.load(open('m.json'))
if d['build'].get('grid') != '2x2': print('bench 2x2 -np 3: build block %s' % d['build'])
shares = [r['puzzles'] for r in d['rows'][0]['per_rank']]
if sum(1 for n in shares if n) < 2: print('bench 2x2 -np 3: not split over the ranks: %s' % shares)"
    grep -q '^sudokubench: g4_bad.txt:151:1: invalid puzzle' m.err ||
        echo "bench 2x2 -np 3: the invalid line's message: $(head -2 m.err)"
    "$BIN" generate --grid 2x3 -n 300 --seed 2 >g6.txt
    SUDOKUBENCH_MPI_SEGMENT=600 bench_same "bench --grid 2x3 -n 250 -t 2" -t 2 --seconds 0 \
        --grid 2x3 -n 250 g6.txt
}

t_plugins() {
    [ -f "$PL/xwing.so" ] || { echo "no $PL/xwing.so: make plugins builds it"; return; }
    head -n 60 small.txt >plug.txt
    NPS="1 2" same "solve --plugin naive" solve --plugin "$PL/naive.so" -s naive -t 1 plug.txt
    NPS="2 3" same "solve --plugin xwing -s fast+xwing" solve --plugin "$PL/xwing.so" \
        -s fast+xwing -t 2 mixed.txt
    NPS=2 same "validate --plugin xwing" validate --plugin "$PL/xwing.so" -t 1 mixed.txt
    NPS=2 same "a failing technique" solve --plugin "$PL/test-tech-fail.so" \
        -s restart:ns,hs,faulty -t 1 plug.txt
    # rate: a technique plug-in is a rung of the ladder after chains, reached only by puzzles
    # the built-ins leave to search, so hard puzzles are needed for the rung to be seen
    grep -v '^#' "$SAMPLES/top1465.txt" | head -n 150 >rhard.txt
    NPS="1 3" same "rate --plugin forcing" rate --plugin "$PL/forcing.so" -t 2 rhard.txt
    grep -q ',forcing,' p.out || echo "rate --plugin forcing: no puzzle was rated forcing"
    NPS=2 same "rate --plugin forcing -f json" rate --plugin "$PL/forcing.so" -t 1 -f json \
        rhard.txt
    NPS=2 same "rate --plugin, a technique that lies" rate --plugin "$PL/test-tech-lie.so" -t 1 \
        rhard.txt
    grep -q "rhard.txt:[0-9]*: technique plug-in 'faulty' removed digit" p.err ||
        echo "rate --plugin lie: no message names the plug-in and the line: $(head -2 p.err)"
}

t_output_file() {
    local np
    "$BIN" solve -t 1 -f csv mixed.txt >p.out 2>p.err
    "$BIN" solve -t 2 -f csv -o plain.csv mixed.txt 2>p2.err
    cmp -s p.out plain.csv || echo "plain -o: file differs from stdout"
    cmp -s p.err p2.err || echo "plain -o: stderr differs"
    for np in 1 3; do
        rm -f m.csv
        mrun "$np" solve -t 1 -f csv --output m.csv mixed.txt >m.out 2>m.err
        cmp -s p.out m.csv || echo "-np $np -o: file differs from plain stdout"
        [ -s m.out ] && echo "-np $np -o: wrote to stdout too"
        cmp -s p.err m.err || echo "-np $np -o: stderr differs"
    done
    "$BIN" validate -o plain.txt small.txt
    mrun 2 validate -o m.txt small.txt
    cmp -s plain.txt m.txt || echo "validate -o: summary differs"
}

# same_o LABEL ARGS...: ARGS with -o FILE, plain and on -np N for each N of $NPS (default
# 2 3), standard input from $SAME_IN (default none): the file's bytes, stderr and exit code
# equal, nothing on stdout.
same_o() {
    local label=$1 np prc mrc
    shift
    rm -f p.o m.o
    "$BIN" "$@" -o p.o <"${SAME_IN:-/dev/null}" >p.out 2>p.err
    prc=$?
    for np in ${NPS:-2 3}; do
        rm -f m.o
        mrun "$np" "$@" -o m.o <"${SAME_IN:-/dev/null}" >m.out 2>m.err
        mrc=$?
        cmp -s p.o m.o || echo "$label -np $np: file differs: $(cmp p.o m.o 2>&1 | head -1)"
        cmp -s p.err m.err || echo "$label -np $np: stderr differs: $(diff p.err m.err | head -3)"
        [ -s m.out ] && echo "$label -np $np: wrote to stdout too"
        [ "$prc" = "$mrc" ] || echo "$label -np $np: exit $mrc, plain $prc"
    done
}

# direct_cases LABEL: solve in each format of $FORMATS (default all five), -t 2, several
# files, standard input among files, validate and rate, each with -o FILE.
direct_cases() {
    local f pre=$1
    for f in ${FORMATS:-solution tdoku csv json pretty}; do
        same_o "${pre}solve -f $f -o" solve -f "$f" -t 1 mixed.txt
    done
    NPS=2 same_o "${pre}solve -t 2 -o" solve -t 2 -f csv mixed.txt
    NPS=3 same_o "${pre}three files, one missing, -o" solve -t 1 -f csv small.txt missing.txt \
        mixed.txt
    SAME_IN=mixed.txt NPS=2 same_o "${pre}stdin among files, -o" solve -t 1 -f json small.txt - \
        mixed.txt
    NPS=2 same_o "${pre}validate -o" validate -t 1 mixed.txt
    NPS=3 same_o "${pre}rate -o" rate -t 1 -f json mixed.txt
}

t_output_direct() {
    direct_cases ""
    SUDOKUBENCH_MPI_DIRECT=0 NPS=2 same_o "solve -o, rank 0 writing" solve -f csv -t 1 mixed.txt
}

# The same through MPI-IO (SUDOKUBENCH_MPI_IO=1: what ranks on several nodes use).
t_output_mpiio() {
    export SUDOKUBENCH_MPI_IO=1
    FORMATS="csv json" direct_cases "MPI-IO "
    # no records at all: the check token written at the records' offset must not stay
    printf '# nothing\n' >empty.txt
    NPS=3 same_o "MPI-IO no records" solve -t 1 -f csv empty.txt
    export SUDOKUBENCH_MPI_IO=
}

# A rank that cannot write (its file size limit, with SIGXFSZ ignored, makes its writes past
# 50 KiB fail with EFBIG; mpirun itself needs larger files): every rank stops, one message,
# exit 2, and the file is a prefix of the whole output ending on a record boundary.
# With SUDOKUBENCH_MPI_IO=1 the same through MPI-IO, also with rank 0 the one limited.
t_write_error_rank() {
    local np rc io lim what run
    head -n 3000 "$SAMPLES/top1465.txt" >big.txt
    "$BIN" solve -t 1 big.txt >full.out
    # (MPI-IO, ranks, limited rank)
    for run in ",2,1" ",3,1" "1,2,1" "1,3,0"; do
        IFS=, read -r io np lim <<<"$run"
        what="-np $np${io:+, MPI-IO}, rank $lim limited"
        rm -f m.o
        SUDOKUBENCH_MPI_IO=$io LIM=$lim timeout "$TIMEOUT" "$MPIRUN" "${MPI_FLAGS[@]}" -x LIM \
            -np "$np" bash -c \
            'trap "" XFSZ; [ "$OMPI_COMM_WORLD_RANK" = "$LIM" ] && ulimit -f 50; exec "$0" "$@"' \
            "$MBIN" solve -t 1 -o m.o big.txt >m.out 2>m.err
        rc=$?
        [ "$rc" = 2 ] || echo "$what: exit $rc, want 2"
        # (its own mpirun, for the rank's file limit: EPOLL_NOISE dropped here as mrun does)
        [ "$(grep -v -e "$EPOLL_NOISE" m.err)" = "sudokubench: write error: m.o: File too large" ] ||
            echo "$what: stderr: $(head -3 m.err)"
        [ -s m.o ] && [ "$(stat -c %s m.o)" -lt "$(stat -c %s full.out)" ] ||
            echo "$what: file of $(stat -c %s m.o 2>&1) bytes"
        [ "$(tail -c 1 m.o | od -An -c | tr -d ' ')" = '\n' ] ||
            echo "$what: the file ends inside a record"
        cmp -s m.o <(head -c "$(stat -c %s m.o)" full.out) ||
            echo "$what: the file is not a prefix of the output"
    done
}

t_full_disk() {
    local np rc cmd
    for cmd in "$BIN" "mrun 1" "mrun 3" "mrun_io 2"; do
        $cmd solve -t 1 -o /dev/full mixed.txt >out 2>err
        rc=$?
        [ "$rc" = 2 ] || echo "$cmd -o /dev/full: exit $rc, want 2"
        grep -qx 'sudokubench: write error: /dev/full: No space left on device' err ||
            echo "$cmd -o /dev/full: message: $(cat err)"
        [ "$(grep -c 'write error' err)" = 1 ] || echo "$cmd -o /dev/full: not one message"
    done
    for cmd in "$BIN" "mrun 2"; do
        for g in "" "--grid 2x2"; do
            $cmd generate $g -n 500 --seed 1 -t 1 -o /dev/full >out 2>err
            rc=$?
            [ "$rc" = 2 ] && [ "$(cat err)" = 'sudokubench: write error: /dev/full: No space left on device' ] ||
                echo "$cmd generate $g -o /dev/full: exit $rc: $(cat err)"
        done
    done
}

t_unreadable() {
    local np rc
    mkdir adir
    NPS=2 same "missing file" solve -t 1 missing.txt
    NPS="1 3" same "a directory" solve -t 1 adir
    for np in 3; do
        mrun "$np" solve nothere.txt >out 2>err
        rc=$?
        [ "$rc" = 2 ] || echo "-np $np missing: exit $rc"
        grep -qx "sudokubench: cannot open 'nothere.txt': No such file or directory" err ||
            echo "-np $np missing: message: $(cat err)"
    done
}

# An -o FILE that cannot be opened, or opened but not written (a /proc file: EIO on write,
# ESPIPE on a positional one): every command gives one process's one message, nothing on
# stdout and its exit code (MPI added "the ranks took different paths", and named
# another reason for /proc/version).
t_output_unopenable() {
    local o
    "$BIN" generate --grid 2x2 -n 50 --seed 3 -t 1 >u4.txt
    for o in no/such/dir/x.txt /proc/version .; do
        NPS="1 2" same "solve -o $o" solve -t 2 -o "$o" small.txt
        NPS="2 3" same "validate -o $o" validate -o "$o" small.txt
        NPS="2" same "rate -o $o" rate -o "$o" small.txt
        NPS="3" same "generate -o $o" generate -n 200 --seed 3 -o "$o"
        NPS="2" same "solve 4x4 -o $o" solve -o "$o" u4.txt
        NPS="2" SUDOKUBENCH_MPI_IO=1 same "solve (MPI-IO) -o $o" solve -o "$o" small.txt
    done
    "$BIN" solve -o no/such/dir/x.txt small.txt >p.out 2>p.err
    [ "$(wc -l <p.err)" = 2 ] ||
        echo "plain -o missing dir: want the message and its Try line: $(cat p.err)"
    grep -q "the ranks took different paths" m.err && echo "a rank took another path: $(cat m.err)"
}

t_plain_output() {
    local rc
    "$BIN" solve -t 1 -f csv mixed.txt >p.out 2>p.err
    "$BIN" solve -t 2 -f csv -o plain.csv mixed.txt >p2.out 2>p2.err
    cmp -s p.out plain.csv || echo "-o: file differs from stdout"
    [ -s p2.out ] && echo "-o: wrote to stdout too"
    cmp -s p.err p2.err || echo "-o: stderr differs"
    "$BIN" rate -t 2 --output r.csv small.txt 2>/dev/null
    "$BIN" rate -t 1 small.txt 2>/dev/null | cmp -s - r.csv || echo "rate --output: file differs"
    "$BIN" validate -o v.txt small.txt
    "$BIN" validate small.txt | cmp -s - v.txt || echo "validate -o: summary differs"
    "$BIN" generate -n 300 --seed 4 -t 2 -f csv -o g.csv 2>/dev/null
    "$BIN" generate -n 300 --seed 4 -t 1 -f csv | cmp -s - g.csv || echo "generate -o: file differs"
    "$BIN" augment -n 300 --seed 4 --output a.txt small.txt 2>/dev/null
    "$BIN" augment -n 300 --seed 4 small.txt | cmp -s - a.txt || echo "augment -o: file differs"
    "$BIN" solve -t 2 -o /dev/full mixed.txt >out 2>err
    rc=$?
    [ "$rc" = 2 ] || echo "-o /dev/full: exit $rc, want 2"
    grep -qx 'sudokubench: write error: /dev/full: No space left on device' err ||
        echo "-o /dev/full: message: $(cat err)"
    "$BIN" solve -o no/such/dir/x.txt small.txt >out 2>err
    rc=$?
    [ "$rc" = 2 ] || echo "-o into a missing directory: exit $rc, want 2"
    grep -q "cannot open 'no/such/dir/x.txt' for -o: No such file or directory" err ||
        echo "-o into a missing directory: message: $(cat err)"
}

# sourced by tests/cli/hosts.sh for its inputs and helpers (it runs its own cases across hosts)
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0
# Open MPI's session directories in this run's own directory (as slurm.sh keeps them): the
# shards of this suite run side by side, and an mpirun that ends removes the top directory
# they share by default (/tmp/ompi.HOST.UID) while another is creating its own inside it,
# which fails that mpirun at its start (ORTE_ERROR_LOG in session_dir.c, exit 1).
mkdir -p "$T/tmp" && export TMPDIR=$T/tmp
tcase "plain -o FILE: same bytes as stdout; full disk and bad path exit 2" t_plain_output
if [ "$PLAIN_ONLY" = 1 ]; then
    echo "$NPASS passed, $NFAIL failed (plain binary only)"
    [ "$NFAIL" = 0 ]
    exit
fi
tcase "solve: every format, -t 1/2, -np 1/2/3, invalid lines" t_solve_formats
tcase "solve: the samples" t_solve_samples
tcase "solve: nine-line grids never cut by a segment boundary" t_grids
tcase "solve: several files, a missing one, stdin among files" t_several_files
tcase "solve: standard input dealt by rank 0" t_stdin
tcase "validate and rate: summaries over all ranks" t_validate_rate
tcase "generate and augment: index ranges, same bytes, -o FILE" t_generate_augment
tcase "other geometries (16x16, 4x4, jigsaw): split over ranks, same bytes" t_geometry
tcase "bench: totals equal one process's, one row per rank, JSON" t_bench
tcase "plug-ins (a solver, a technique, a failing technique; rate with a rung and with a lie): same bytes as one process" t_plugins
tcase "-o FILE: plain and MPI" t_output_file
tcase "-o FILE written by every rank: every format and command, same bytes" t_output_direct
tcase "-o FILE through MPI-IO (SUDOKUBENCH_MPI_IO=1): same bytes" t_output_mpiio
tcase "-o /dev/full: exit 2, one message" t_full_disk
tcase "-o FILE: a write error on one rank stops all, one message, no torn record" t_write_error_rank
tcase "unreadable inputs: exit 2, message" t_unreadable
tcase "-o FILE that cannot be opened or written: one process's message and exit code" t_output_unopenable

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
