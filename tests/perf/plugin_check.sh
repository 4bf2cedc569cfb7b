#!/usr/bin/env bash
# tests/perf/plugin_check.sh — the perf gate on a solver plug-in, real callgrind runs (part of
# `make test`, through test-perf).
#
# The example plug-in examples/plugins/naive.c gets a scratch baseline on the first 64
# puzzles of the two committed corpora of multi-solution puzzles (naive solves those in
# about 200,000 instructions each; a 17-clue puzzle costs it a thousand times more). Then:
#   - the baseline records the plug-in, sb_engine_solve and one entry per corpus named after
#     the plug-in, with the verdicts the library's own solver finds on the same slices;
#   - the check passes with identical counts, directly and through
#     `make perf-check PERF_PLUGIN=... PERF_BASELINE=...`, whose summary and Bencher export
#     name the plug-in's entries and hold the baseline's counts;
#   - the baseline with one count made 10% smaller fails with exit 1, naming that entry;
#   - faulty plug-ins (tests/plugins/faulty.c) fail with exit 2 before any counting, naming
#     the plug-in and the puzzle: a count of 1 where there are two solutions, a solution with
#     two cells swapped, a crash on the third call; so do a technique plug-in and a library
#     baseline given to a plug-in, and make perf-baseline refuses to write a plug-in's counts
#     over bench/baseline.json.
#
# Usage: tests/perf/plugin_check.sh DRIVER PLUGIN_DIR MAKE   (run from the repository root)

set -u
DRIVER=$1
PLUGINS=$(cd "$2" && pwd)
MAKE=$3
DUG=datasets/multi/dug_2000_seed1.txt
MULTI=datasets/multi/multi_2000_seed1.txt
. tests/perf/check_lib.sh "perf plug-in check"

# Runs the gate's check of plug-in $1 against baseline $2, extra arguments after; sets RC,
# output in $TMP/out.
check() {
    local plugin=$1 base=$2
    shift 2
    "${GATE[@]}" check --driver "$DRIVER" --plugin "$plugin" --baseline "$base" "$@" \
        >"$TMP/out" 2>&1
    RC=$?
}

# Writes $3 from baseline $1 through the Python expression $2 over the document d.
doctor() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[3], "w"))
PY
}

if ! "${GATE[@]}" baseline --driver "$DRIVER" --plugin "$PLUGINS/naive.so" \
        --out "$TMP/base.json" --puzzles 64 --datasets "$DUG" "$MULTI" >"$TMP/out" 2>&1; then
    bad "baseline of naive on two 64-puzzle slices"
    echo "perf plug-in check: $PASS passed, $FAIL failed"
    exit 1
fi
E_DUG=naive/plugin/dug_2000_seed1
E_MULTI=naive/plugin/multi_2000_seed1

# The verdicts of the baseline against the library's own fused kernel on the same slices.
"$DRIVER" fast scalar 64 "$DUG" >"$TMP/lib_dug" 2>&1
"$DRIVER" fast scalar 64 "$MULTI" >"$TMP/lib_multi" 2>&1
if python3 - "$TMP/base.json" "$TMP/lib_dug" "$TMP/lib_multi" >"$TMP/out" 2>&1 <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
lib = [json.loads(open(p).read().splitlines()[-1]) for p in sys.argv[2:]]
ids = [e["id"] for e in b["entries"]]
print(b.get("plugin"), b["function"], ids)
assert b["plugin"] == "naive" and b["function"] == "sb_engine_solve", b
assert ids == ["naive/plugin/dug_2000_seed1", "naive/plugin/multi_2000_seed1"], ids
for e, own in zip(b["entries"], lib):
    print(e["id"], [e[k] for k in ("puzzles", "solved", "unsolvable", "multiple")], own)
    assert e["pipeline"] == "naive" and e["simd"] == "plugin" and e["solve_ir"] > 0, e
    assert e["puzzles"] == own["puzzles"] == 64, (e, own)
    assert [e[k] for k in ("solved", "unsolvable", "multiple")] == \
        [own[k] for k in ("solved", "unsolvable", "multiple")] == [0, 0, 64], (e, own)
PY
then ok "the baseline names the plug-in's entries, with the verdicts of the library's kernel"
else bad "the baseline names the plug-in's entries, with the verdicts of the library's kernel"; fi

check "$PLUGINS/naive.so" "$TMP/base.json"
if [ $RC -eq 0 ] && grep -q "^| $E_DUG .* +0.00% .* ok " "$TMP/out" && \
        grep -q "^| $E_MULTI .* +0.00% .* ok " "$TMP/out" && \
        grep -q "inside sb_engine_solve: the harness and plug-in 'naive'" "$TMP/out" && \
        grep -q "^perf-check: 2 entries, 0 regressions above +2.0%, 0 not measured: PASS$" \
            "$TMP/out"; then
    ok "the unchanged plug-in passes with identical counts"
else bad "the unchanged plug-in passes with identical counts (exit $RC)"; fi

# Through make, with the summary and a Bencher export (the counts must be the baseline's).
$MAKE -s perf-check PERF_PLUGIN="$PLUGINS/naive.so" PERF_BASELINE="$TMP/base.json" \
    PERF_SUMMARY="$TMP/sum.md" PERF_EXPORT="bmf:$TMP/bmf.json" >"$TMP/out" 2>&1
RC=$?
if [ $RC -eq 0 ] && grep -q "^### perf-check sb_engine_solve, plug-in naive (\`$TMP/base.json\`): PASS, exit code 0$" \
        "$TMP/sum.md" && [ "$(grep -c '^### ' "$TMP/sum.md")" = 1 ] && \
        python3 - "$TMP/base.json" "$TMP/bmf.json" >>"$TMP/out" 2>&1 <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
got = json.load(open(sys.argv[2]))
want = {e["id"] + "@sb_engine_solve": {"instructions": {"value": e["solve_ir"]}}
        for e in b["entries"]}
print(got)
sys.exit(0 if got == want else 1)
PY
then ok "make perf-check PERF_PLUGIN=... passes; summary and export name the plug-in's entries"
else cat "$TMP/sum.md" >>"$TMP/out" 2>/dev/null; bad "make perf-check PERF_PLUGIN=... passes (exit $RC)"; fi

doctor "$TMP/base.json" \
    'e = next(e for e in d["entries"] if e["id"].endswith("/dug_2000_seed1")); e["solve_ir"] = e["solve_ir"] * 9 // 10' \
    "$TMP/doctored.json"
check "$PLUGINS/naive.so" "$TMP/doctored.json"
if [ $RC -eq 1 ] && grep -q "^| $E_DUG .* +11.1[0-9]% .* REGRESSION |$" "$TMP/out" && \
        grep -q "^| $E_MULTI .* +0.00% .* ok " "$TMP/out" && \
        grep -q "^perf-check: 2 entries, 1 regression above +2.0%, 0 not measured: FAIL$" "$TMP/out"; then
    ok "a baseline with one count made 10% smaller fails with exit 1, naming that entry"
else bad "a baseline with one count made 10% smaller fails with exit 1, naming that entry (exit $RC)"; fi

# The faulty plug-ins all call themselves 'faulty': their baseline is naive's, renamed.
doctor "$TMP/base.json" \
    'd["plugin"] = "faulty"; [e.update(id=e["id"].replace("naive/", "faulty/"), pipeline="faulty") for e in d["entries"]]' \
    "$TMP/faulty.json"
# Answer check: $1 the fault, $2 the message expected from the driver (a regex).
faulty() {
    check "$PLUGINS/test-$1.so" "$TMP/faulty.json" --current-out "$TMP/current-$1.json"
    if [ $RC -eq 2 ] && grep -q "plug-in 'faulty' answered wrongly (every answer is checked before any counting; nothing was measured)" "$TMP/out" && \
            grep -Eq "$2" "$TMP/out" && [ ! -e "$TMP/current-$1.json" ]; then
        ok "plug-in fault '$1' fails with exit 2 before any counting, naming the plug-in and the puzzle"
    else bad "plug-in fault '$1' fails with exit 2 before any counting, naming the plug-in and the puzzle (exit $RC)"; fi
}
faulty count "^perf_driver: plug-in 'faulty': $DUG:3: counts 1 solution\(s\) at limit 2, the library's own solver 2$"
faulty wrong "^perf_driver: plug-in 'faulty': $DUG:3: wrong solution \(it breaks the givens or the rules\)$"
faulty crash "^perf_driver: plug-in 'faulty' crashed during its call on $DUG:5$"

"${GATE[@]}" baseline --driver "$DRIVER" --plugin "$PLUGINS/test-wrong.so" \
    --out "$TMP/wrong.json" --puzzles 8 --datasets "$MULTI" >"$TMP/out" 2>&1
RC=$?
if [ $RC -eq 2 ] && grep -q "^perf_driver: plug-in 'faulty': $MULTI:3: wrong solution" "$TMP/out" && \
        [ ! -e "$TMP/wrong.json" ]; then
    ok "perf-baseline of a plug-in with wrong answers fails with exit 2 and writes nothing"
else bad "perf-baseline of a plug-in with wrong answers fails with exit 2 and writes nothing (exit $RC)"; fi

check "$PLUGINS/xwing.so" "$TMP/base.json"
if [ $RC -eq 2 ] && grep -q "plug-in 'xwing' is a technique plug-in, not a solver" "$TMP/out"; then
    ok "a technique plug-in is refused with exit 2"
else bad "a technique plug-in is refused with exit 2 (exit $RC)"; fi

check "$PLUGINS/naive.so" bench/baseline.json
if [ $RC -eq 2 ] && grep -q "bench/baseline.json holds the baseline of the library's sb_solve, not of plug-in 'naive'" "$TMP/out"; then
    ok "the library's baseline is not checked against a plug-in (exit 2)"
else bad "the library's baseline is not checked against a plug-in (exit 2, exit $RC)"; fi

before=$(sha256sum bench/baseline.json)
$MAKE -s perf-baseline PERF_PLUGIN="$PLUGINS/naive.so" >"$TMP/out" 2>&1
RC=$?
if [ $RC -ne 0 ] && grep -q "bench/baseline.json holds the baseline of the library's sb_solve, not of plug-in 'naive': it is not overwritten" "$TMP/out" && \
        [ "$(sha256sum bench/baseline.json)" = "$before" ]; then
    ok "make perf-baseline PERF_PLUGIN=... without its own PERF_BASELINE leaves bench/baseline.json alone"
else bad "make perf-baseline PERF_PLUGIN=... without its own PERF_BASELINE leaves bench/baseline.json alone (exit $RC)"; fi

echo "perf plug-in check: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
