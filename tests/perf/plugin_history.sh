#!/usr/bin/env bash
# tests/perf/plugin_history.sh — perf-history and perf-bisect over a solver plug-in's own
# commits, real callgrind runs (part of `make test`, through test-perf).
#
# A throwaway git repository holds a plug-in author's solver: examples/plugins/naive.c, built
# by `cc -shared -fPIC` against this tree's include/ into naive.so at the repository's root.
# Its commits:
#   BASE  the solver as it is
#   A     a harmless change (a comment)
#   B     deliberate extra work: $TURNS volatile turns at each call of solve()
#   C     does not compile (an #error line)
#   D     reverts C (builds again, still slow)
# The plug-in's baseline is recorded at BASE (the gate's `baseline --plugin`, $PUZZLES
# puzzles of the two corpora of multi-solution puzzles, where naive is fast). Then, through
# make with PERF_PLUGIN_REPO, PERF_PLUGIN_BUILD, PERF_PLUGIN and PERF_BASELINE:
#   - perf-history records one record per commit x entry for BASE, A, B and D, and C once as
#     build_failed; A counts what BASE counts, B at least $TURNS instructions a puzzle more
#     (above the 2% threshold), D what B counts; every record names the plug-in and carries
#     this tree's revision; the chart and page are named after the history file;
#   - a second run measures nothing (the cache);
#   - every record validates against bench/history.schema.json;
#   - perf-bisect GOOD=A BAD=D names B (C, which does not build, is skipped);
#   - the plug-in repository's checkout is unchanged;
#   - without PERF_PLUGIN_REPO the plug-in's baseline is refused, naming the variables.
# The counts are callgrind's, so nothing depends on the machine's speed; each slice is a few
# puzzles, so the whole takes seconds.
#
# Usage: tests/perf/plugin_history.sh DRIVER MAKE   (from the repository root; PYTHON: an
# interpreter with matplotlib, as make test-perf passes it; skips without valgrind, git or
# matplotlib)

set -u
DRIVER=$1
MAKE=$2
ROOT=$(pwd)
PUZZLES=${PLUGIN_HISTORY_PUZZLES:-16}
TURNS=${PLUGIN_HISTORY_TURNS:-10000}
DUG=datasets/multi/dug_2000_seed1.txt
MULTI=datasets/multi/multi_2000_seed1.txt
PYTHON=${PYTHON:-python3}
. tests/perf/check_lib.sh "perf plug-in history"
if ! command -v git >/dev/null 2>&1; then
    echo "perf plug-in history: skipped (git not installed: make deps-perf)"
    exit 0
fi
if ! "$PYTHON" -c 'import matplotlib' 2>/dev/null; then
    echo "perf plug-in history: skipped ($PYTHON has no matplotlib: make deps-all)"
    exit 0
fi

# The plug-in author's repository and its commits.
R=$TMP/naive-repo
mkdir -p "$R"
g() { git -C "$R" -c user.name=perf-test -c user.email=perf-test@invalid -c commit.gpgsign=false "$@"; }
g init -q
cp examples/plugins/naive.c "$R/naive.c"
g add naive.c
g commit -q -m "naive: plain backtracking"
BASE=$(g rev-parse HEAD)
sed -i '1s|^/\*|/* (a plug-in author'"'"'s copy)|' "$R/naive.c"
g commit -q -am "A: a comment"
A=$(g rev-parse HEAD)
if ! grep -q '^    s->count = s->guesses = 0;$' "$R/naive.c"; then
    echo "FAIL cannot find the start of naive's solve() (s->count = s->guesses = 0;) to slow"
    exit 1
fi
sed -i "s|^    s->count = s->guesses = 0;\$|    for (volatile int w = 0; w < $TURNS; w++)\n        ;\n&|" \
    "$R/naive.c"
g commit -q -am "B: extra work at each solve"
B=$(g rev-parse HEAD)
echo '#error "perf plug-in history test: this commit does not build"' >>"$R/naive.c"
g commit -q -am "C: does not build"
C=$(g rev-parse HEAD)
g revert --no-edit HEAD >/dev/null
D=$(g rev-parse HEAD)
state() { printf '%s\n' "$(g rev-parse HEAD)" "$(g symbolic-ref -q HEAD)"; g status --porcelain; }
state >"$TMP/before"

BUILD_CMD="cc -O2 -fPIC -shared -I$ROOT/include -o naive.so naive.c"
# The baseline, recorded at BASE as its author would: make perf-baseline PERF_PLUGIN=...
WT=$TMP/base-build
git -C "$R" worktree add -q --detach "$WT" "$BASE" && (cd "$WT" && sh -c "$BUILD_CMD") &&
    "${GATE[@]}" baseline --driver "$DRIVER" --plugin "$WT/naive.so" --out "$TMP/naive.json" \
        --puzzles "$PUZZLES" --datasets "$DUG" "$MULTI" >"$TMP/out" 2>&1
RC=$?
git -C "$R" worktree remove --force "$WT"
if [ $RC -ne 0 ]; then
    bad "the plug-in's baseline at BASE (exit $RC)"
    echo "perf plug-in history: $PASS passed, $FAIL failed"
    exit 1
fi

HIST=$TMP/reports/history-naive.jsonl
VARS=(PERF_PLUGIN_REPO="$R" PERF_PLUGIN_BUILD="$BUILD_CMD" PERF_PLUGIN=naive.so
      PERF_BASELINE="$TMP/naive.json" HISTORY_DIR="$TMP/work" HISTORY_FILE="$HIST"
      HISTORY_DIVIDE=1 HISTORY_PUZZLES=0)
history() { $MAKE -s --no-print-directory perf-history "${VARS[@]}" "$@" >"$TMP/out" 2>&1; }

history
RC=$?
if [ $RC -eq 0 ] && "$PYTHON" - "$HIST" "$BASE" "$A" "$B" "$C" "$D" "$R" "$PUZZLES" "$TURNS" \
        >>"$TMP/out" 2>&1 <<'PY'
import json, sys
path, base, a, b, c, d, repo = sys.argv[1:8]
puzzles, turns = int(sys.argv[8]), int(sys.argv[9])
recs = [json.loads(l) for l in open(path) if l.strip()]
entries = ["naive/plugin/dug_2000_seed1@sb_engine_solve",
           "naive/plugin/multi_2000_seed1@sb_engine_solve"]
got = sorted((r["commit"], r["entry"] or "", r["status"]) for r in recs)
want = sorted([(x, e, "ok") for x in (base, a, b, d) for e in entries] + [(c, "", "build_failed")])
assert got == want, got
assert {r["plugin"]["name"] for r in recs} == {"naive"}, recs
assert {r["plugin"]["repo"] for r in recs} == {repo}, recs
assert len({r["toolchain"]["harness"] for r in recs}) == 1, recs
ir = {(r["commit"], r["entry"]): r["solve_ir"] for r in recs if r["status"] == "ok"}
for e in entries:
    print(e, [ir[x, e] for x in (base, a, b, d)])
    assert ir[base, e] == ir[a, e], "a comment changed the count"
    assert ir[b, e] - ir[a, e] >= turns * puzzles, "B's extra work is not counted"
    assert (ir[b, e] - ir[a, e]) * 100.0 / ir[a, e] > 2.0, "B is within the threshold"
    assert ir[d, e] == ir[b, e], "reverting C changed the count"
PY
then
    ok "perf-history over the plug-in's commits: one record per commit x entry, the count rises at the commit that added work"
else bad "perf-history over the plug-in's commits: one record per commit x entry, the count rises at B (exit $RC)"; fi

if grep -q "^perf-history: \[[0-9]/[0-9]\] ${C:0:8} build failed: the plug-in's build command exited" \
        "$TMP/out" && grep -q "this commit does not build" "$HIST"; then
    ok "the commit that does not compile is recorded once as build_failed, with the compiler's error"
else bad "the commit that does not compile is recorded once as build_failed"; fi

if grep -q "<h1>Performance history of plug-in naive</h1>" "$TMP/reports/history-naive.html" && \
        env PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 "$PYTHON" -m sbperf.charts \
            check "$TMP/reports/history-naive.png" history 2 >"$TMP/out" 2>&1; then
    ok "the page and chart are named after the history file (history-naive.html, .png: two corpora)"
else bad "the page and chart are named after the history file"; fi

history
if [ $? -eq 0 ] && grep -q "0 records written" "$TMP/out" && grep -q "5 of 5 commits already measured" \
        "$TMP/out"; then
    ok "a second run measures nothing new (the cache)"
else bad "a second run measures nothing new (the cache)"; fi

env PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 "$PYTHON" -m sbperf.history validate \
    "$HIST" >"$TMP/out" 2>&1
if [ $? -eq 0 ] && grep -q "^perf-history: 9 records, 0 schema errors$" "$TMP/out"; then
    ok "every record validates against bench/history.schema.json"
else bad "every record validates against bench/history.schema.json"; fi

# From A, git bisect tests C first (the middle of B, C, D): the step must skip it (125).
$MAKE -s --no-print-directory perf-bisect "${VARS[@]}" GOOD="$A" BAD="$D" >"$TMP/out" 2>&1
RC=$?
cat "$TMP/work/bisect.log" >>"$TMP/out" 2>/dev/null
if [ $RC -eq 0 ] && grep -q "^  $B B: extra work at each solve$" "$TMP/out" && \
        grep -q "^perf-bisect: ${C:0:8} .*skip (build_failed)" "$TMP/out"; then
    ok "perf-bisect over the plug-in's commits names B, skipping the one that does not build"
else bad "perf-bisect over the plug-in's commits names B (exit $RC)"; fi

state >"$TMP/after"
if cmp -s "$TMP/before" "$TMP/after"; then
    ok "the plug-in repository's checkout is unchanged"
else diff "$TMP/before" "$TMP/after" >"$TMP/out"; bad "the plug-in repository's checkout is unchanged"; fi

$MAKE -s --no-print-directory perf-history PERF_BASELINE="$TMP/naive.json" \
    HISTORY_DIR="$TMP/work" HISTORY_FILE="$TMP/tree.jsonl" >"$TMP/out" 2>&1
RC=$?
if [ $RC -ne 0 ] && grep -q "is the baseline of plug-in 'naive': the history measures this repository's commits; to chart the plug-in's own commits, name its repository: make perf-history PERF_PLUGIN_REPO=DIR PERF_PLUGIN_BUILD='CMD' PERF_PLUGIN=REL/PATH.so" \
        "$TMP/out" && [ ! -e "$TMP/tree.jsonl" ]; then
    ok "without PERF_PLUGIN_REPO a plug-in's baseline is refused, naming the variables"
else bad "without PERF_PLUGIN_REPO a plug-in's baseline is refused, naming the variables (exit $RC)"; fi

echo "perf plug-in history: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
