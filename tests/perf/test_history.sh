#!/usr/bin/env bash
# tests/perf/test_history.sh — perf-history and perf-bisect end to end (part of `make test`).
#
# On a throwaway clone of this repository (its committed HEAD) the test adds four commits:
#   A  a harmless change (a README line)
#   B  slows sb_solve on purpose: a busy loop of $HISTORY_TEST_TURNS volatile turns at the
#      top of the 9x9 entry point, as tests/perf/slowdown.c does it in a test-only build
#   C  does not compile (an #error line)
#   D  reverts C (builds again, still slow)
# and leaves uncommitted work in the clone's checkout (a modified tracked file, an untracked
# file), as a user would have. Then, with scripts from this tree pointed at the clone:
#   - perf-history over the four commits records A, B and D for every planned entry and C
#     as build_failed; B rises above the 2% threshold, A does not; history.png is a PNG of
#     the size of three corpora's rows; headless Chromium loads history.html and finds a
#     chart per corpus (inline SVG of the set size, a tooltip per point: B's names its
#     subject), a table per corpus, nothing fetched, no script and no console message (a
#     page that logs an error is caught, so the check can fail); a second run measures
#     nothing (the cache);
#   - every record validates against bench/history.schema.json;
#   - perf-bisect GOOD=base BAD=D names B (C, which does not build, is skipped), with and
#     without ENTRY=;
#   - the clone's checkout is unchanged: HEAD, branch, status, no bisection in progress;
#     and this repository's branch and bisect state are untouched too.
# The counts are callgrind's, so nothing here depends on the machine's speed; the slices are
# small (HISTORY_TEST_PUZZLES, default 64 puzzles of pipeline fast at scalar on the three
# samples of unique puzzles), about a minute.
#
# Usage: tests/perf/test_history.sh   (from the repository root; PYTHON: an interpreter with
# matplotlib, as make test-history passes it; skips without valgrind, git, chromium or
# matplotlib)

set -u
ROOT=$(pwd)
PUZZLES=${HISTORY_TEST_PUZZLES:-64}
TURNS=${HISTORY_TEST_TURNS:-20000}
PASS=0
FAIL=0

PYTHON=${PYTHON:-python3}
for tool in valgrind git chromium; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "perf history test: skipped ($tool not installed: make deps-all)"
        exit 0
    fi
done
if ! "$PYTHON" -c 'import matplotlib' 2>/dev/null; then
    echo "perf history test: skipped ($PYTHON has no matplotlib: make deps)"
    exit 0
fi
TMP=$(mktemp -d)
# Builds share a compiler cache with the other history runs (content-addressed: safe).
export CCACHE_DIR=${CCACHE_DIR:-$ROOT/build/history/ccache}
trap 'rm -rf "$TMP"' EXIT
ok() { PASS=$((PASS + 1)); echo "ok   $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1"; [ -f "$TMP/out" ] && sed 's/^/     /' "$TMP/out" | tail -25; }

REAL_BRANCH=$(git -C "$ROOT" symbolic-ref -q HEAD || echo detached)
REAL_BISECT=$(test -e "$(git -C "$ROOT" rev-parse --git-path BISECT_LOG)" && echo bisecting || echo none)

# The throwaway repository and its four commits.
R=$TMP/repo
git clone -q "$ROOT" "$R" || { echo "FAIL cannot clone $ROOT"; exit 1; }
g() { git -C "$R" -c user.name=perf-test -c user.email=perf-test@invalid -c commit.gpgsign=false "$@"; }
BASE=$(g rev-parse HEAD)
echo "history test: harmless change" >>"$R/README.md"
g commit -q -m "A: a harmless change" -- README.md
SRC=$(grep -l '^int sb_solve(sb_solver' "$R"/src/*/*.c | head -n 1)
if [ -z "$SRC" ] || ! grep -A1 '^int sb_solve(sb_solver' "$SRC" | grep -q '^{$'; then
    echo "FAIL cannot find the definition of sb_solve to slow (int sb_solve(sb_solver ... then {)"
    exit 1
fi
sed -i "/^int sb_solve(sb_solver/,/^{\$/ s/^{\$/{\n    for (volatile long sb_history_test = 0; sb_history_test < $TURNS; sb_history_test++)\n        ;/" "$SRC"
g commit -q -m "B: slow sb_solve on purpose" -- "${SRC#"$R"/}"
A=$(g rev-parse HEAD~1)
B=$(g rev-parse HEAD)
echo '#error "perf history test: this commit does not build"' >>"$SRC"
g commit -q -m "C: does not build" -- "${SRC#"$R"/}"
C=$(g rev-parse HEAD)
g revert --no-edit HEAD >/dev/null
D=$(g rev-parse HEAD)
# The user's uncommitted work, which nothing may touch.
echo "uncommitted" >>"$R/README.md"
echo "untracked" >"$R/untracked.txt"
state() { printf '%s\n' "$(g rev-parse HEAD)" "$(g symbolic-ref -q HEAD)" \
    "$(test -e "$(g rev-parse --git-path BISECT_LOG)" && echo bisecting || echo none)"; \
    g status --porcelain; }
state >"$TMP/before"

PY=(env PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 "$PYTHON" -m)
PH=("${PY[@]}" sbperf.history)
PB=("${PY[@]}" sbperf.bisect run)
# fast at scalar on three corpora: the counts below (3 entries a commit, 3 charts) do not
# move when the baseline gains a corpus.
ONLY=fast/scalar/17_clue_2000,fast/scalar/top1465,fast/scalar/hardest_11plus_1000
OPTS=(--repo "$R" --only "$ONLY" --puzzles "$PUZZLES" --baseline bench/baseline.json --no-wall)
HIST=$R/build/reports/history.jsonl
count() { "$PYTHON" - "$HIST" "$@" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
commit, status = sys.argv[2], sys.argv[3]
print(sum(1 for r in recs if r["commit"] == commit and r["status"] == status))
EOF
}

"${PH[@]}" run "${OPTS[@]}" --rev "$BASE..$D" >"$TMP/out" 2>&1
RC=$?
if [ $RC -eq 0 ] && [ "$(count "$A" ok)" = 3 ] && [ "$(count "$B" ok)" = 3 ] && \
        [ "$(count "$D" ok)" = 3 ]; then
    ok "perf-history records every entry of the commits that build (A, B, D: 3 entries each)"
else bad "perf-history records every entry of the commits that build (exit $RC)"; fi
if [ "$(count "$C" build_failed)" = 1 ] && grep -q "build failed" "$TMP/out"; then
    ok "a commit that does not build is recorded as build_failed and skipped"
else bad "a commit that does not build is recorded as build_failed and skipped"; fi
if "$PYTHON" - "$HIST" "$A" "$B" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ir = {(r["commit"], r["entry"]): r["solve_ir"] for r in recs if r["status"] == "ok"}
a, b = sys.argv[2], sys.argv[3]
entries = {e for c, e in ir if c == a}
up = [(ir[(b, e)] - ir[(a, e)]) * 100.0 / ir[(a, e)] for e in entries]
print("B over A:", ["%+.1f%%" % d for d in up])
sys.exit(0 if entries and all(d > 2.0 for d in up) else 1)
EOF
then ok "the slowing commit rises above the 2% threshold on every entry"
else bad "the slowing commit rises above the 2% threshold on every entry"; fi
H=$R/build/reports
if "${PY[@]}" sbperf.charts check "$H/history.png" history 3 >"$TMP/out" 2>&1; then
    ok "history.png is a whole PNG of the size of three corpora's rows"
else bad "history.png is a whole PNG of the size of three corpora's rows"; fi

# chromium_load PAGE DIR: headless Chromium's DOM of PAGE after loading in DIR/dom, its log
# in DIR/log; no network (every host name fails to resolve), so a page that fetched
# anything would show it.
chromium_load() {
    mkdir -p "$2/profile"
    timeout "${SUDOKUBENCH_TEST_TIMEOUT:-120}" chromium --headless --disable-gpu --no-sandbox \
        --user-data-dir="$2/profile" --host-resolver-rules="MAP * ~NOTFOUND" \
        --enable-logging=stderr --v=0 --dump-dom "file://$1" >"$2/dom" 2>"$2/log"
}
# The console check, on a page that logs an error: it must be seen.
mkdir -p "$TMP/bad"
echo '<!doctype html><p>x</p><script>console.error("history test: an error")</script>' \
    >"$TMP/bad/page.html"
chromium_load "$TMP/bad/page.html" "$TMP/bad"
if grep -q 'CONSOLE.*history test: an error' "$TMP/bad/log"; then
    ok "headless Chromium's log shows a page's console error (the check below can fail)"
else cp "$TMP/bad/log" "$TMP/out"; bad "headless Chromium's log shows a page's console error"; fi
mkdir -p "$TMP/page"
chromium_load "$H/history.html" "$TMP/page"
RC=$?
grep 'CONSOLE' "$TMP/page/log" >"$TMP/out"
# three corpora (fast:scalar on each), three points a line (A, B, D: C does not build)
if [ $RC -eq 0 ] && [ ! -s "$TMP/out" ] && PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 \
        "$PYTHON" "$ROOT/tests/perf/history_page.py" "$TMP/page/dom" --charts 3 --points 3 \
        --tip "#2 ${B:0:10}" --tip "B: slow sb_solve on purpose" >"$TMP/out" 2>&1; then
    ok "Chromium shows history.html: a chart per corpus (SVG of its size, a tooltip per point), a table per corpus, nothing fetched, no console message"
else bad "Chromium shows history.html: a chart per corpus, a table per corpus, no console message (exit $RC)"; fi

"${PH[@]}" run "${OPTS[@]}" --rev "$BASE..$D" --no-chart >"$TMP/out" 2>&1
if [ $? -eq 0 ] && grep -q "0 records written" "$TMP/out" && grep -q "already measured" "$TMP/out"; then
    ok "a second run reuses every measured commit (0 records written)"
else bad "a second run reuses every measured commit (0 records written)"; fi

"${PB[@]}" "${OPTS[@]}" --good "$BASE" --bad "$D" >"$TMP/out" 2>&1
RC=$?
if [ $RC -eq 0 ] && grep -q "^  $B B: slow sb_solve on purpose" "$TMP/out" && \
        grep -q "first commit above +2.0%" "$TMP/out"; then
    ok "perf-bisect names the slowing commit (worst entry), skipping the one that does not build"
else bad "perf-bisect names the slowing commit (worst entry) (exit $RC)"; fi

# From A, git bisect tests C first (the middle of B, C, D): the step must skip it (125).
"${PB[@]}" "${OPTS[@]}" --good "$A" --bad "$D" --entry fast/scalar/top1465 \
    >"$TMP/out" 2>&1
RC=$?
if [ $RC -eq 0 ] && grep -q "^  $B " "$TMP/out" && grep -q "for fast/scalar/top1465:" "$TMP/out"; then
    ok "perf-bisect with ENTRY= names the slowing commit"
else bad "perf-bisect with ENTRY= names the slowing commit (exit $RC)"; fi
cp "$R/build/history/bisect.log" "$TMP/out" 2>/dev/null
if grep -q "^perf-bisect: ${C:0:8} .*skip (build_failed)" "$TMP/out"; then
    ok "the commit that does not build is skipped by the bisection (exit 125)"
else bad "the commit that does not build is skipped by the bisection (exit 125)"; fi

"${PB[@]}" "${OPTS[@]}" --good "$BASE" --bad "$A" >"$TMP/out" 2>&1
if [ $? -eq 0 ] && grep -q "nothing to bisect" "$TMP/out"; then
    ok "perf-bisect over a range without a regression says so"
else bad "perf-bisect over a range without a regression says so"; fi

"${PH[@]}" validate "$HIST" --schema "$ROOT/bench/history.schema.json" \
    >"$TMP/out" 2>&1
if [ $? -eq 0 ] && grep -q " records, 0 schema errors" "$TMP/out" && \
        [ "$(grep -c . "$HIST")" -ge 13 ]; then
    ok "every record (A, B, D, the base, the baseline's revision; C) validates against bench/history.schema.json"
else bad "every record validates against bench/history.schema.json"; fi

state >"$TMP/after"
if cmp -s "$TMP/before" "$TMP/after" && grep -q "^ M README.md" "$TMP/after" && \
        grep -q "^?? untracked.txt" "$TMP/after"; then
    ok "the checkout is unchanged: HEAD, branch, status (uncommitted work kept), no bisection"
else
    diff "$TMP/before" "$TMP/after" >"$TMP/out"
    bad "the checkout is unchanged: HEAD, branch, status, no bisection"
fi
NOW_BRANCH=$(git -C "$ROOT" symbolic-ref -q HEAD || echo detached)
NOW_BISECT=$(test -e "$(git -C "$ROOT" rev-parse --git-path BISECT_LOG)" && echo bisecting || echo none)
if [ "$REAL_BRANCH/$REAL_BISECT" = "$NOW_BRANCH/$NOW_BISECT" ]; then
    ok "this repository's branch and bisect state are untouched ($NOW_BRANCH, $NOW_BISECT)"
else bad "this repository's branch and bisect state are untouched"; fi

echo "perf history test: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
