#!/usr/bin/env bash
# tests/cli/benchstats.sh — bench's samples and exports (docs/cli.md, "bench"): --repeat and
# the statistics of each row (table and --json), the header's CPU and load, notes and
# warnings after the table, a pipeline named twice as one row, and --export in each format
# (gbench, bmf, github) checked key by key, bmf and github also against the schemas
# perf-check's exports share (bench/bmf.schema.json, bench/github-benchmark.schema.json),
# gbench also through Google Benchmark's own compare.py when libbenchmark-tools and SciPy
# are installed. Timings are never asserted on: runs are a few hundredths of a second, on a
# machine that may be busy.
#
# Usage: tests/cli/benchstats.sh [BINARY]    (default build/sudokubench; run from the repo root)
set -u
BIN=${1:-build/sudokubench}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TIMEOUT=${SUDOKUBENCH_TEST_TIMEOUT:-120}
. "$ROOT/tests/cli/harness.sh" benchstats
# Google Benchmark's comparison tool (Debian: libbenchmark-tools) and a Python that has SciPy
COMPARE=${GBENCH_COMPARE:-/usr/share/benchmark/compare.py}
CMP_PY=
for py in /usr/bin/python3 python3; do
    if "$py" -c 'import scipy' 2>/dev/null; then CMP_PY=$py; break; fi
done

# puzzles: two proper ones (singles), then a file with one unsolvable puzzle
P1=530070000600195000098000060800060003400803001700020006060000280000419005000080079
P2=000000010400000000020000000000050407008000300001090000300400200050100000000806000
NOSOL=000000000000000000000000000000000000000000000000000000000000000000000000000000012
printf '%s\n' "$P1" "$P2" >two.txt
printf '%s\n' "$P1" "$NOSOL" >nosol.txt

# table_end FILE: the number of FILE's last table line ('| ...')
table_end() { grep -n '^|' "$1" | tail -n 1 | cut -d: -f1; }

t_repeat() {
    local rc
    rc=$(sb o e bench -t 1 --pipelines fast --seconds 0.02 --repeat 3 --json b.json two.txt)
    [ "$rc" = 0 ] || { echo "exit $rc"; cat e; }
    grep -qE '^# sudokubench .* \| cpu [^|]+ \| load ([0-9]+\.[0-9]+|unknown) \| repeat 3 \| simd [a-z0-9]+ \| threads 1 \| limit 2' o ||
        { echo "header:"; head -n 1 o; }
    grep -qE '\| guesses/puzzle \|( %paired \|)? ±MAD% \|$' o || { echo "no ±MAD% column:"; sed -n 2p o; }
    python3 - b.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["build"]["repeat"] == 3, d["build"]
h = d["host"]
assert set(h) == {"cpu", "cores", "load"} and h["cpu"] and h["cores"] >= 1, h
assert h["load"] is None or (len(h["load"]) == 3 and min(h["load"]) >= 0), h
(r,) = d["rows"]
s = r["samples"]
assert len(s) == 3 and all(isinstance(x, (int, float)) and x > 0 for x in s), s
srt = sorted(s)
assert r["median"] == srt[1] == r["puzzles_per_sec"], r
assert r["min"] == srt[0] and r["max"] == srt[2], r
mad = sorted(abs(x - srt[1]) for x in s)[1]
assert abs(r["mad"] - mad) <= 0.11, (r["mad"], mad)
PY
}
tcase "bench --repeat 3: three samples, median = puzzles_per_sec, min, max, MAD; header names cpu, load, repeat" t_repeat

t_repeat_bad() {
    local v rc
    for v in 0 101 -1 abc 1.5 ''; do
        rc=$(sb o e bench --repeat "$v" --seconds 0 two.txt)
        [ "$rc" = 2 ] && grep -q "bad --repeat" e && [ ! -s o ] || echo "--repeat '$v': exit $rc, $(head -n 1 e)"
    done
    rc=$(sb o e bench --repeat 1 --pipelines fast --seconds 0 --json one.json two.txt)
    [ "$rc" = 0 ] || echo "--repeat 1: exit $rc"
    python3 -c 'import json; r = json.load(open("one.json"))["rows"][0]; assert len(r["samples"]) == 1 and r["mad"] == 0 and r["min"] == r["max"] == r["median"], r' ||
        echo "--repeat 1: one sample, no spread"
}
tcase "bench --repeat: 1..100, anything else a usage error; one sample has no spread" t_repeat_bad

t_dup() {
    local rc n all
    rc=$(sb o e bench -t 1 --pipelines fast,fast --pipeline fast --seconds 0 two.txt)
    n=$(grep -c '^| two\.txt |' o)
    [ "$rc" = 0 ] && [ "$n" = 1 ] || { echo "fast,fast + --pipeline fast: exit $rc, $n rows"; cat o; }
    rc=$(sb o e bench -t 1 --pipelines all --seconds 0 two.txt)
    all=$(grep '^| two\.txt |' o | cut -d'|' -f3 | tr -d ' ' | tr '\n' ,)
    rc=$(sb o e bench -t 1 --pipelines all,fast,list --seconds 0 two.txt)
    [ "$(grep '^| two\.txt |' o | cut -d'|' -f3 | tr -d ' ' | tr '\n' ,)" = "$all" ] ||
        echo "all,fast,list: rows $(grep '^| two' o | cut -d'|' -f3 | tr '\n' ,), want $all"
    rc=$(sb o e bench -t 1 --pipelines list,fast,list --seconds 0 two.txt)
    [ "$(grep '^| two\.txt |' o | cut -d'|' -f3 | tr -d ' ' | tr '\n' ,)" = "list,fast," ] ||
        echo "list,fast,list: rows $(grep '^| two' o | cut -d'|' -f3 | tr '\n' ,)"
}
tcase "bench: a pipeline named twice is one row, at its first place" t_dup

t_notes_after() {
    local rc last first
    timeout "$TIMEOUT" "$BIN" bench -t 1 --pipelines fast,list --seconds 0 nosol.txt two.txt nosol.txt >both 2>&1
    rc=$?
    [ "$rc" = 0 ] || echo "exit $rc"
    [ "$(grep -c 'puzzles have no solution' both)" = 2 ] || { echo "want 2 notes:"; cat both; }
    last=$(table_end both)
    first=$(grep -n '^sudokubench' both | head -n 1 | cut -d: -f1)
    [ -n "$first" ] && [ "$first" -gt "$last" ] || { echo "a note inside the table:"; cat both; }
}
tcase "bench: notes come after the table, never between its rows" t_notes_after

t_warnings() {
    local rc last
    # --seconds 0: a smoke run, no warnings whatever the load
    rc=$(sb o e bench -t 1 --pipelines fast --seconds 0 two.txt)
    [ "$rc" = 0 ] && [ ! -s e ] || { echo "--seconds 0: exit $rc, stderr:"; cat e; }
    # 0.5 s: warnings may come (a busy machine), only after the table, each one line
    timeout "$TIMEOUT" "$BIN" bench -t 1 --pipelines fast --seconds 0.5 two.txt >both 2>&1
    rc=$?
    [ "$rc" = 0 ] || echo "--seconds 0.5: exit $rc"
    last=$(table_end both)
    awk -v last="$last" 'NR > last && !/^sudokubench: bench: warning: / { print "not a warning after the table: " $0 }
        NR <= last && /^sudokubench/ { print "a message inside the table: " $0 }' both
}
tcase "bench: warnings only from --seconds 0.5, on stderr after the table" t_warnings

# The exports of one run, each checked key by key.
t_exports() {
    local rc
    rc=$(sb o e bench -t 1 --pipelines fast,list --seconds 0.02 --repeat 3 --json j.json \
        --export gbench:g.json --export bmf:b.json --export github:gh.json two.txt nosol.txt)
    [ "$rc" = 0 ] || { echo "exit $rc"; cat e; }
    PYTHONPATH="$ROOT/scripts" PYTHONDONTWRITEBYTECODE=1 python3 - j.json g.json b.json gh.json "$ROOT" <<'PY'
import json, sys
from sbperf import json_schema
j, g, b, gh = (json.load(open(p)) for p in sys.argv[1:5])
# bmf and github against the schemas perf-check's exports are held to too
for doc, schema in ((b, "bmf"), (gh, "github-benchmark")):
    with open("%s/bench/%s.schema.json" % (sys.argv[5], schema)) as f:
        errs = json_schema.validate(doc, json.load(f))
    assert not errs, (schema, errs)
rows = j["rows"]
names = ["%s/%s" % (r["dataset"], r["pipeline"]) for r in rows]
assert names == ["two.txt/fast", "two.txt/list", "nosol.txt/fast", "nosol.txt/list"], names
# gbench: Google Benchmark's JSON
assert set(g) == {"context", "benchmarks"}, list(g)
ctx = g["context"]
for k in ["date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled",
          "caches", "load_avg", "library_build_type"]:
    assert k in ctx, k
it_keys = {"name", "run_name", "family_index", "per_family_instance_index", "run_type",
           "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
           "time_unit", "items_per_second"}
agg_keys = it_keys - {"repetition_index"} | {"aggregate_name", "aggregate_unit"}
want = []
for fi, r in enumerate(rows):
    n = "%s/%s" % (r["dataset"], r["pipeline"])
    want += [(n, "iteration", k) for k in range(3)]
    want += [(n + "_" + a, "aggregate", a) for a in ("mean", "median", "stddev")]
got = []
for e in g["benchmarks"]:
    if e["run_type"] == "iteration":
        assert set(e) == it_keys, sorted(set(e) ^ it_keys)
        got.append((e["name"], "iteration", e["repetition_index"]))
        r = rows[e["family_index"]]
        assert e["items_per_second"] == r["samples"][e["repetition_index"]], e
        assert e["iterations"] > 0 and e["iterations"] % r["puzzles"] == 0, e
    else:
        assert e["run_type"] == "aggregate" and set(e) == agg_keys, sorted(set(e) ^ agg_keys)
        got.append((e["name"], "aggregate", e["aggregate_name"]))
    assert e["run_name"] == names[e["family_index"]] and e["repetitions"] == 3, e
    assert e["time_unit"] == "ns" and e["real_time"] > 0 and e["cpu_time"] == e["real_time"], e
    assert e["threads"] == 1, e
assert got == want, (got, want)
med = [e for e in g["benchmarks"] if e.get("aggregate_name") == "median"]
assert [e["items_per_second"] for e in med] == [r["median"] for r in rows], med
# bmf: Bencher Metric Format
assert list(b) == names, list(b)
for n, r in zip(names, rows):
    assert list(b[n]) == ["throughput"], b[n]
    t = b[n]["throughput"]
    assert set(t) == {"value", "lower_value", "upper_value"}, t
    assert (t["value"], t["lower_value"], t["upper_value"]) == (r["median"], r["min"], r["max"]), (t, r)
# github: github-action-benchmark's customBiggerIsBetter
assert isinstance(gh, list) and [e["name"] for e in gh] == names, gh
for e, r in zip(gh, rows):
    assert set(e) == {"name", "unit", "value", "range", "extra"}, e
    assert e["unit"] == "puzzles/s" and e["value"] == r["median"], (e, r)
    assert isinstance(e["range"], str) and e["range"].startswith("\u00b1 "), e
    assert isinstance(e["extra"], str), e
PY
}
tcase "bench --export gbench, bmf, github: each format's keys, the rows' names and values" t_exports

t_compare() {
    # without the tool (make deps-all installs libbenchmark-tools and python3-scipy) nothing to run
    [ -f "$COMPARE" ] && [ -n "$CMP_PY" ] || return 0
    local rc
    for k in 1 2; do
        rc=$(sb o e bench -t 1 --pipelines fast,list --seconds 0.02 --export "gbench:run$k.json" two.txt)
        [ "$rc" = 0 ] || echo "bench $k: exit $rc"
    done
    timeout "$TIMEOUT" "$CMP_PY" "$COMPARE" benchmarks run1.json run2.json >cmp.txt 2>&1
    rc=$?
    [ "$rc" = 0 ] || { echo "compare.py: exit $rc"; tail -n 5 cmp.txt; }
    for n in two.txt/fast two.txt/list two.txt/fast_median two.txt/list_mean; do
        grep -qF "$n" cmp.txt || { echo "compare.py does not name $n:"; head -n 8 cmp.txt; }
    done
}
tcase "bench --export gbench: Google Benchmark's compare.py reads two runs" t_compare

t_export_paths() {
    local rc
    cp two.txt in.txt
    rc=$(sb o e bench --seconds 0 --export gbench:in.txt in.txt)
    [ "$rc" = 2 ] && grep -qF "cannot open 'in.txt' for --export: it is also the input 'in.txt'" e ||
        { echo "export over the input: exit $rc"; cat e; }
    cmp -s in.txt two.txt || echo "the input was touched"
    rc=$(sb o e bench --seconds 0 --json x.json --export bmf:x.json in.txt)
    [ "$rc" = 2 ] && [ ! -e x.json ] || { echo "--json and --export on one file: exit $rc"; cat e; }
    rc=$(sb o e bench --seconds 0 --export bmf:y.json --export github:./y.json in.txt)
    [ "$rc" = 2 ] && [ ! -e y.json ] || { echo "two exports on one file: exit $rc"; cat e; }
    rc=$(sb o e bench --seconds 100000 --export github:no/such/dir/g.json in.txt)
    [ "$rc" = 2 ] && grep -qF "cannot open 'no/such/dir/g.json' for --export" e && [ ! -s o ] ||
        { echo "unwritable export: exit $rc"; cat e; }
    for v in xml:f.json gbench: gbench f.json :f.json; do
        rc=$(sb o e bench --seconds 0 --export "$v" in.txt)
        [ "$rc" = 2 ] && grep -q "bad --export" e || echo "--export '$v': exit $rc, $(head -n 1 e)"
    done
    ls -a | grep -q '\.tmp' && echo "a temporary left: $(ls -a)"
    return 0
}
tcase "bench --export: paths refused like --json (an input, another output), bad FORMAT:FILE" t_export_paths

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
