#!/usr/bin/env bash
# tests/cli/strategies.sh — black-box cases for pipelines, custom specs, BFS, bench verdicts
# and `rate` (docs/cli.md, docs/strategies.md), sourced by tests/cli/run.sh: they use its
# harness and report in its total. Run alone, it runs its own cases.

# Run alone (tests/cli/strategies.sh BINARY), it sets up the harness itself and runs its own cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # shellcheck source=tests/cli/run_lib.sh
    . "$(dirname "$0")/run_lib.sh" "$@"
fi

STRAT_DIR=$PWD/strategies
mkdir -p "$STRAT_DIR" && cd "$STRAT_DIR" || exit 1
printf '%s\n' "$P1" "$MULTI" "$NOSOL" "oops" "$P2" >mix.txt

# Every registry pipeline and a few custom specs give the same tdoku records (counts and
# unique solutions do not depend on the order).
"$BIN" solve -s fast -l 0 -f tdoku mix.txt >ref.tdoku 2>/dev/null
for spec in list array restart singles none "array:ns,hs,lc,nt" "list:hs" "restart:ns,ht" "restart:" \
    "restart:ns,hs,lc,xw,xy" "list:ns,sf,jf,sky,kite" "array:ns,hs,xyz,ww,col,xc"; do
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

# Each message names what is wrong and what would be right.
NAMES='fast, list, array, restart, singles, none; or a spec ORDER:T1,T2,...'
TECHS="ns, hs, lc, nt2, nt3, nt4, ht2, ht3, ht4, xw, sf, jf, xy, xyz, ww, sky, kite, col, xc; nt, ht = all three sizes; or a technique plug-in's name"
EMPTY='empty technique name (a comma with no token before or after it)'
SPEC33="list:$(printf 'ns,%.0s' $(seq 32))ns"
while IFS='|' read -r bad want; do
    begin "pipelines: bad spec '${bad:0:20}' is a usage error naming the fault"
    run solve -s "$bad" mix.txt
    expect_rc 2
    expect_err_line "sudokubench: $want"
    expect_err_line "Try 'sudokubench solve --help'."
    end
done <<EOF
bogus|unknown pipeline 'bogus' ($NAMES)
list;ns|unknown pipeline 'list;ns' ($NAMES)
list:xx|bad pipeline spec 'list:xx': unknown technique 'xx' ($TECHS)
array:xx|bad pipeline spec 'array:xx': unknown technique 'xx' ($TECHS)
array:ns,|bad pipeline spec 'array:ns,': $EMPTY
list:ns,,hs|bad pipeline spec 'list:ns,,hs': $EMPTY
list:,ns|bad pipeline spec 'list:,ns': $EMPTY
fast:ns|bad pipeline spec 'fast:ns': unknown order 'fast' (list, array, restart)
$SPEC33|bad pipeline spec '$SPEC33': more than 32 technique steps (nt and ht count three)
fast+lc|bad pipeline spec 'fast+lc': technique 'lc' is not implemented on the fused kernel (its propagation does ns, hs, lc; fast+ takes nt2, nt3, nt4, ht2, ht3, ht4, xw, sf, jf, sky, kite, xy, xyz, ww, col, xc; nt, ht)
EOF

begin "pipelines: 'ORDER:' with no technique is a pipeline without propagation (documented)"
run solve -s none -f tdoku mix.txt
cp out none.out
run solve -s array: -f tdoku mix.txt
expect_rc 1
expect_file none.out out
end

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
    assert set(t) == {"ns","hs","lc","nt2","nt3","nt4","ht2","ht3","ht4","xw","sf","jf","xy","xyz",
                      "ww","sky","kite","col","xc"}, t
    assert t["ns"]["eliminations"] > 0
    assert all(set(c) == {"applications", "placements", "eliminations", "calls"}
               for c in t.values()), t
assert rows[1]["techniques"]["lc"]["eliminations"] == 0
# calls: list and array run the spec's steps in order once per round, a round cut short only
# by a contradiction, so no step runs more often than the one before it; a technique outside
# the spec never runs
for r, spec in zip(rows, (["ns", "hs", "lc", "nt2", "nt3", "nt4", "ht2", "ht3", "ht4"], ["ns", "hs"])):
    calls = {k: v["calls"] for k, v in r["techniques"].items()}
    seq = [calls[k] for k in spec]
    assert seq[-1] > 0 and seq == sorted(seq, reverse=True), calls
    assert all(v == 0 for k, v in calls.items() if k not in spec), calls
PY
fi
end

begin "bench: --pipelines takes fast+T rows beside registry names; fast+ with several goes to --pipeline"
run bench --seconds 0 -t 1 --pipelines fast,fast+sky --pipeline fast+xw,kite mix.txt
expect_rc 1 # the invalid line
expect_out_re '^\| mix.txt \| fast \| '
expect_out_re '^\| mix.txt \| fast\+sky \| '
expect_out_re '^\| mix.txt \| fast\+xw,kite \| '
run bench --seconds 0 --pipelines fast+zz mix.txt
expect_rc 2
expect_err_line "sudokubench: unknown pipeline 'fast+zz' in --pipelines (fast, list, array, restart, singles, none, fast+T, all; custom specs go to --pipeline)"
end

begin "pipelines: solve --help lists fast+T with exactly the techniques -s fast+T runs"
run solve --help
expect_rc 0
listed=" $(sed -n 's/^ *fast+T  *.*; T: //p' out) "
[ "$listed" != "  " ] || fail "no fast+T row in solve --help"
for t in ns hs lc nt2 nt3 nt4 ht2 ht3 ht4 xw sf jf xy xyz ww sky kite col xc; do
    if printf '%s\n' "$P1" | "$BIN" solve -s "fast+$t" >/dev/null 2>&1; then
        case $listed in *" $t "*) ;; *) fail "fast+$t runs but --help does not list $t" ;; esac
    else
        case $listed in *" $t "*) fail "--help lists $t but fast+$t is refused" ;; esac
    fi
done
end

# Verdicts in bench: the warm-up takes each puzzle's verdict; puzzles without exactly one
# solution are noted (not an error), and every pipeline must give the first one's verdicts.
# C17 is the first puzzle of datasets/samples/17_clue_2000.txt; C16 is C17 without its r2c9
# given (17,204 solutions); TOP and HARD open top1465.txt and hardest_11plus_1000.txt.
C17='.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...'
C16='.......................2.3......3.2...1.4......5....6..3......4.7..8...962...7...'
TOP='4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........'
HARD='98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6'
printf '%s\n' "# one puzzle of each verdict" "$P1" "$NOSOL" "$MULTI" >verdicts.txt
printf '%s\n' "$P1" "$NOSOL" "$MULTI" "$CONF" "$C17" "$C16" "$TOP" "$HARD" >agree.txt

begin "bench: puzzles without one solution are noted on stderr with exact counts (exit 0)"
run solve -f csv verdicts.txt # the fixture's verdicts, as solve reports them
expect_out_re '^2,solved,1,'
expect_out_re '^3,unsolvable,0,'
expect_out_re '^4,multiple,2,'
run bench --seconds 0 --pipelines fast --json v.json verdicts.txt
expect_rc 0
expect_out_re '^\| verdicts.txt \| fast \| 3 \|'
# K counts the loaded puzzles (the comment line is not one): NOSOL is puzzle 2.
expect_err_line "sudokubench: bench: verdicts.txt: 1 of 3 puzzles have no solution, 1 more than one (first: puzzle 2)"
expect_err_count 1
if [ "${HAVE_PY:-0}" = 1 ]; then
    python3 - v.json <<'PY' || fail "bench JSON verdict counts"
import json, sys
r = json.load(open(sys.argv[1]))["rows"][0]
assert (r["solved"], r["unsolvable"], r["multiple"]) == (1, 1, 1), r
keys = list(r)
assert keys.index("guesses_per_puzzle") + 1 == keys.index("solved"), keys
assert keys.index("multiple") + 1 == keys.index("techniques"), keys
PY
fi
run bench --seconds 0 --pipelines fast -l 1 --json v1.json verdicts.txt # first solution: no "multiple"
expect_rc 0
expect_err_line "sudokubench: bench: verdicts.txt: 1 of 3 puzzles have no solution, 0 more than one (first: puzzle 2)"
expect_err_count 1
if [ "${HAVE_PY:-0}" = 1 ]; then
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["rows"][0]
assert (r["solved"], r["unsolvable"], r["multiple"]) == (2, 1, 0), r' v1.json || fail "bench -l 1 JSON verdict counts"
fi
run bench --seconds 0 --pipelines fast,list "$STRAT_DIR/verdicts.txt" # one note per dataset, base name
expect_rc 0
expect_err_line "sudokubench: bench: verdicts.txt: 1 of 3 puzzles have no solution, 1 more than one (first: puzzle 2)"
expect_err_count 1
printf '%s\n' "$P1" "$P2" >proper2.txt
run bench --seconds 0 --pipelines fast proper2.txt # only proper puzzles: no note
expect_rc 0
expect_err_empty
end

begin "bench: --pipelines all agree on every verdict of a small mixed file (exit 0)"
run bench --seconds 0 -l 2 --pipelines all --json agree.json agree.txt
expect_rc 0
grep -q 'disagree' err && fail "pipelines disagree:"$'\n'"$(show err)"
expect_err_line "sudokubench: bench: agree.txt: 2 of 8 puzzles have no solution, 2 more than one (first: puzzle 2)"
expect_err_count 1
if [ "${HAVE_PY:-0}" = 1 ]; then
    python3 - agree.json "$(grep -c '^| agree.txt |' out)" <<'PY' || fail "bench --pipelines all JSON verdict counts"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == int(sys.argv[2]) and len(rows) >= 6, (len(rows), sys.argv[2])
assert rows[0]["pipeline"] == "fast", rows[0]["pipeline"]
for r in rows:
    assert (r["solved"], r["unsolvable"], r["multiple"]) == (4, 2, 2), (r["pipeline"], r)
PY
fi
end

begin "pipelines: fish, sky and kite are skipped with a note where there are no rows and columns"
printf '00000000\n' >cube2.txt
run solve --grid cube:2 -s restart:ns,xw,sky,xy,kite -l 0 cube2.txt
expect_rc 0
expect_err_line "sudokubench: solve: note: restart:ns,xw,sky,xy,kite skips xw sky kite on cube:2: they need rows and columns (two families of lines crossing once), and it has none"
end

begin "rate: csv records, classes and the per-file summary"
run rate -t 2 mix.txt
expect_rc 1
expect_records 6
expect_out_re '^line,status,class,ns,hs,lc,nt2,nt3,nt4,ht2,ht3,ht4,xw,sf,jf,xy,xyz,ww,sky,kite,col,xc,ns_calls,hs_calls,lc_calls,nt2_calls,nt3_calls,nt4_calls,ht2_calls,ht3_calls,ht4_calls,xw_calls,sf_calls,jf_calls,xy_calls,xyz_calls,ww_calls,sky_calls,kite_calls,col_calls,xc_calls$'
expect_out_re '^1,solved,singles,[0-9]+,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,[1-9][0-9]*,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0$'
expect_out_re '^2,multiple,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,$'
expect_out_re '^3,unsolvable,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,$'
expect_out_re '^4,invalid,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,$'
expect_err_line "sudokubench: mix.txt:4:1: invalid puzzle: unexpected character 'o'"
expect_err_line "rate: mix.txt: 4 puzzles: singles 2 (100.0%), hidden 0 (0.0%), locked 0 (0.0%), tuples 0 (0.0%), fish 0 (0.0%), wings 0 (0.0%), chains 0 (0.0%), search 0 (0.0%); unsolvable 1, multiple 1, invalid lines 1"
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

begin "rate: the whole-board classes fish, wings and chains, with their counters in csv and json"
# top1465 puzzles 338, 43 and 92 (0-based): the unit tests (tests/test_pipelines.c, rating)
# check each needs exactly its class: the class before it makes a guess, this one none.
printf '%s\n' \
    2..6.34..17.....9............64....59...................53..6...8..7..1.....1.... \
    5.7....3.....61...1.8......62..4.......7...8...........1....6.43..5...........2.. \
    1.37....5...6.4...8...........81.....9....7...6.....9..2....4..5...3...........2. >wb.txt
run rate wb.txt
expect_rc 0
expect_records 4
# fish: an X-wing eliminated, no wing or chain worked; wings: xy/xyz/ww, no chain; chains: some
# of sky, kite, col, xc. Then the calls: every technique of the class ran (each runs at least
# at the last fixpoint), none outside it
expect_out_re '^1,solved,fish,([0-9]+,){9}[1-9][0-9]*,[0-9]+,[0-9]+,0,0,0,0,0,0,0,([1-9][0-9]*,){12}0,0,0,0,0,0,0$'
expect_out_re '^2,solved,wings,([0-9]+,){12}[0-9]+,[0-9]+,[0-9]+,0,0,0,0,([1-9][0-9]*,){15}0,0,0,0$'
expect_out_re '^3,solved,chains,([0-9]+,){15}[0-9]+,[0-9]+,[0-9]+,[0-9]+(,[1-9][0-9]*){19}$'
expect_err_line "rate: wb.txt: 3 puzzles: singles 0 (0.0%), hidden 0 (0.0%), locked 0 (0.0%), tuples 0 (0.0%), fish 1 (33.3%), wings 1 (33.3%), chains 1 (33.3%), search 0 (0.0%); unsolvable 0, multiple 0, invalid lines 0"
if [ "${HAVE_PY:-0}" = 1 ]; then
    "$BIN" rate -f json wb.txt >wb.json 2>/dev/null
    python3 - wb.json >py.txt 2>&1 <<'PYEOF' || fail "$(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
fam = {"fish": ["xw", "sf", "jf"], "wings": ["xy", "xyz", "ww"],
       "chains": ["sky", "kite", "col", "xc"]}
got = [r["class"] for r in recs]
if got != ["fish", "wings", "chains"]:
    sys.exit("classes %r" % got)
for r in recs:
    n = sum(r["counts"][t]["eliminations"] for t in fam[r["class"]])
    if n <= 0:
        sys.exit("%s: its own techniques eliminated nothing: %r" % (r["class"], r["counts"]))
    for later in list(fam)[list(fam).index(r["class"]) + 1:]:
        for t in fam[later]:
            if r["counts"][t]["applications"]:
                sys.exit("%s: %s worked outside its class" % (r["class"], t))
PYEOF
fi
end

cd .. || exit 1

# Run alone: the total of this part's cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
fi
