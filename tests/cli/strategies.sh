#!/usr/bin/env bash
# shellcheck disable=SC2154 # BIN, HERE, P1, S1, P2, MULTI, NOSOL, RC come from tests/cli/run.sh
# tests/cli/strategies.sh — black-box cases for pipelines, custom specs, BFS and `rate`
# (docs/cli.md, docs/strategies.md), sourced by tests/cli/run.sh: they use its harness and
# report in its total. Run directly, this file runs tests/cli/run.sh.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    exec bash "$(dirname "$0")/run.sh" "$@"
fi

STRAT_DIR=$PWD/strategies
mkdir -p "$STRAT_DIR" && cd "$STRAT_DIR" || exit 1
printf '%s\n' "$P1" "$MULTI" "$NOSOL" "oops" "$P2" >mix.txt

# Every registry pipeline and a few custom specs give the same tdoku records (counts and
# unique solutions do not depend on the order).
"$BIN" solve -s fast -l 0 -f tdoku mix.txt >ref.tdoku 2>/dev/null
for spec in list array restart singles none "array:ns,hs,lc,nt" "list:hs" "restart:ns,ht" "restart:"; do
    begin "pipelines: -s $spec -l 0 gives the fast records"
    run solve -s "$spec" -l 0 -f tdoku mix.txt
    expect_rc 1
    expect_file ref.tdoku out
    end
    begin "pipelines: --search bfs -s $spec -l 0 gives the fast records"
    run solve --search bfs -s "$spec" -l 0 -f tdoku mix.txt
    expect_rc 1
    expect_file ref.tdoku out
    end
done

for bad in "bogus" "list:xx" "array:ns," "fast:ns" "list;ns"; do
    begin "pipelines: bad spec '$bad' is a usage error"
    run solve -s "$bad" mix.txt
    expect_rc 2
    expect_err_line "sudokubench: unknown pipeline '$bad'"
    end
done

begin "search: unknown mode and bad --bfs-cap are usage errors"
run solve --search dive mix.txt
expect_rc 2
expect_err_line "sudokubench: unknown search 'dive' (dfs, bfs)"
run solve --bfs-cap 0 mix.txt
expect_rc 2
expect_err_line "sudokubench: bad --bfs-cap '0' (1..2^32)"
end

begin "search: a frontier over --bfs-cap is reported, not guessed at (exit 2)"
run solve --search bfs --bfs-cap 1 -l 0 -f csv mix.txt
expect_rc 2
expect_err_line "sudokubench: mix.txt:2: BFS frontier outgrew its cap (raise --bfs-cap)"
expect_records 6
end

begin "bench: --pipeline SPEC rows, -n slices, technique counters in JSON"
run bench --seconds 0 -n 3 --pipeline list --pipeline "array:ns,hs" --json b.json mix.txt
expect_rc 1 # the invalid line
expect_out_re '^\| mix.txt \| list \| 3 \|'
expect_out_re '^\| mix.txt \| array:ns,hs \| 3 \|'
if [ "${HAVE_PY:-0}" = 1 ]; then
    python3 - b.json <<'PY' || fail "bench JSON lacks technique counters"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["pipeline"] for r in rows] == ["list", "array:ns,hs"], rows
for r in rows:
    t = r["techniques"]
    assert set(t) == {"ns","hs","lc","nt2","nt3","nt4","ht2","ht3","ht4"}, t
    assert t["ns"]["eliminations"] > 0
assert rows[1]["techniques"]["lc"]["eliminations"] == 0
PY
fi
end

begin "rate: csv records, classes and the per-file summary"
run rate -t 2 mix.txt
expect_rc 1
expect_records 6
expect_out_re '^line,status,class,ns,hs,lc,nt2,nt3,nt4,ht2,ht3,ht4$'
expect_out_re '^1,solved,singles,[0-9]+,0,0,0,0,0,0,0,0$'
expect_out_re '^2,multiple,,,,,,,,,,$'
expect_out_re '^3,unsolvable,,,,,,,,,,$'
expect_out_re '^4,invalid,,,,,,,,,,$'
expect_err_line "sudokubench: mix.txt:4:1: invalid puzzle: unexpected character 'o'"
expect_err_line "rate: mix.txt: 4 puzzles: singles 2 (100.0%), hidden 0 (0.0%), locked 0 (0.0%), tuples 0 (0.0%), search 0 (0.0%); unsolvable 1, multiple 1, invalid lines 1"
end

begin "rate: same bytes for -t 1 and -t 2, json parses"
"$BIN" rate -t 1 -f json mix.txt >r1.json 2>/dev/null
run rate -t 2 -f json mix.txt
expect_file r1.json out
if [ "${HAVE_PY:-0}" = 1 ]; then
    python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' out ||
        fail "rate json does not parse"
fi
end

cd .. || exit 1
