# shellcheck shell=bash
# tests/cli/contract.sh — the CLI's contract (docs/cli.md) case by case: the golden outputs of
# every format, malformed and accepted input lines, records that never shift, standard input
# and several files, usage errors, --help and --version, validate and bench. Sourced by
# tests/cli/run.sh; the puzzles, fixtures and helpers (begin, run, expect_*, end) are
# tests/cli/run_lib.sh's, which it sources itself when run alone.
# Run alone (tests/cli/contract.sh BINARY), it sets up the harness itself and runs its own cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # shellcheck source=tests/cli/run_lib.sh
    . "$(dirname "$0")/run_lib.sh" "$@"
fi
# ------------------------------------------------------------------------------------------
# 0. The solution checker used by later cases
# ------------------------------------------------------------------------------------------
begin "checker: valid_solution accepts S1 and rejects broken solutions"
valid_solution "$P1" "$S1" || fail "rejects the real solution of P1"
valid_solution "$P2" "$S2" || fail "rejects the real solution of P2"
valid_solution "$P2" "$S1" && fail "accepts S1 for P2 (givens not kept)"
valid_solution "$P1" "${S1:1:1}${S1:0:1}${S1:2}" && fail "accepts a solution with two cells swapped"
valid_solution "$P1" "${S1:0:80}" && fail "accepts 80 digits"
end

# ------------------------------------------------------------------------------------------
# 1. Golden output for every format
# ------------------------------------------------------------------------------------------
for fmt in solution tdoku csv json pretty; do
    begin "golden: solve -f $fmt mixed.txt"
    run solve -f "$fmt" mixed.txt
    expect_rc 1
    case $fmt in
        csv) norm_csv out >got.txt ;;
        json) norm_json out >got.txt ;;
        pretty) norm_pretty out >got.txt ;;
        *) cp out got.txt ;;
    esac
    expect_file "$GOLDEN/mixed.$fmt.out" got.txt
    cp err got.err
    expect_file "$GOLDEN/mixed.solve.err" got.err
    end
done

begin "golden: default format is solution"
run solve mixed.txt
expect_rc 1
expect_file "$GOLDEN/mixed.solution.out" out
expect_file "$GOLDEN/mixed.solve.err" err
end

begin "golden: -f json lines are valid JSON with keys in the documented order"
if [ "$HAVE_PY" = 1 ]; then
    run solve -f json mixed.txt
    expect_rc 1
    expect_records 7
    python3 - out >py.txt 2>&1 <<'EOF' || fail "$(cat py.txt)"
import json, sys
want_ok = ["file", "line", "status", "count", "guesses", "puzzle", "solution"]
want_bad = ["file", "line", "status", "error", "column"]
for n, l in enumerate(open(sys.argv[1]), 1):
    o = json.loads(l)
    keys = list(o)
    want = want_bad if o.get("status") == "invalid" else want_ok
    if keys != want:
        sys.exit("record %d: keys %s, want %s" % (n, keys, want))
    if o["status"] != "invalid" and not (isinstance(o["guesses"], int) and o["guesses"] >= 0):
        sys.exit("record %d: guesses is not a non-negative integer" % n)
EOF
else
    skip "python3 not available"
fi
end

# ------------------------------------------------------------------------------------------
# 2. Malformed input: each class reported with FILE:LINE:COL, one `invalid` record, exit 1
# ------------------------------------------------------------------------------------------
# check_bad NAME BADLINE COL WHY: file = P1, BADLINE, P2
check_bad() {
    begin "malformed: $1"
    printf '%s\n%s\n%s\n' "$P1" "$2" "$P2" >bad.txt
    run solve bad.txt
    expect_rc 1
    expect_out "$S1"$'\n'"invalid"$'\n'"$S2"
    expect_records 3
    expect_err_line "sudokubench: bad.txt:2:$3: invalid puzzle: $4"
    end
}
# Column = 1-based column of the first offending byte (sudokubench.h, sb_parse_line); for a
# line that ends early, the column where the missing cell should be (line length + 1).
check_bad "too few cells (80 cells)" "${P1:0:80}" 81 "too few cells (80 of 81)"
check_bad "too few cells (3 cells)" "1.3" 4 "too few cells (3 of 81)"
check_bad "too many cells" "${P1}5" 82 "too many cells"
check_bad "unexpected character" "${P1:0:4}x${P1:5}" 5 "unexpected character 'x'"
check_bad "unexpected character after 81 cells" "${P1}!" 82 "unexpected character '!'"
check_bad "bad Kaggle solution column (bad first byte)" "$(zeros "$P1"),.${S1:1}" 83 "bad solution column"
check_bad "bad Kaggle solution column (non-digit inside)" "$(zeros "$P1"),${S1:0:40}x${S1:41}" 123 "bad solution column"

# Forms where the offending column is not pinned down by the contract: the message, the line
# and a numeric column are checked.
check_bad_anycol() {
    begin "malformed: $1"
    printf '%s\n%s\n%s\n' "$P1" "$2" "$P2" >bad.txt
    run solve bad.txt
    expect_rc 1
    expect_out "$S1"$'\n'"invalid"$'\n'"$S2"
    expect_err_re "^sudokubench: bad\\.txt:2:[0-9]+: invalid puzzle: $3\$"
    end
}
check_bad_anycol "bad Kaggle solution column (too short)" "$(zeros "$P1"),123" "bad solution column"
check_bad_anycol "bad Kaggle solution column (82 digits)" "$(zeros "$P1"),${S1}1" "bad solution column"
check_bad_anycol "bad Kaggle solution column (empty)" "$(zeros "$P1")," "bad solution column"

begin "malformed: invalid line echoed in tdoku with non-printables and ':' as '?'"
printf '1234\x015:7\x7f%s\n' "${P1:9}" >np.txt
run solve -f tdoku np.txt
expect_rc 1
expect_out "1234?5?7?${P1:9}:invalid:"
expect_err_re '^sudokubench: np\.txt:1:5: invalid puzzle: unexpected character '
end

begin "malformed: 10 MiB line without newline -> line too long, no crash"
run solve long_only.txt
expect_rc 1
expect_out "invalid"
expect_err_line "sudokubench: long_only.txt:1:1025: invalid puzzle: line too long"
expect_err_count 1
end

begin "malformed: 10 MiB line between two puzzles keeps records and line numbers"
run solve -f tdoku long_mid.txt
expect_rc 1
expect_out "$P1:1:$S1"$'\n'"$LONG_TEXT:invalid:"$'\n'"$P2:1:$S2"
expect_err_line "sudokubench: long_mid.txt:2:1025: invalid puzzle: line too long"
expect_err_count 1
end

begin "malformed: 10 MiB line, csv line numbers after it"
run solve -f csv long_mid.txt
expect_rc 1
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "1,solved,1,G,$S1" "2,invalid,,," "3,solved,1,G,$S2" >expected.txt
expect_file expected.txt got.txt
end

begin "malformed: a 10 MiB line is not buffered (max RSS grows < 4 MiB vs a small file)"
if [ "$HAVE_PY" = 1 ]; then
    rss() {
        python3 -c 'import os, resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=int(os.environ.get("SUDOKUBENCH_TEST_TIMEOUT", "120")))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$BIN" solve -t 1 "$1"
    }
    small=$(rss p1.txt) && big=$(rss long_only.txt) || fail "could not measure"
    if [ -n "${small:-}" ] && [ -n "${big:-}" ] && [ $((big - small)) -ge 4096 ]; then
        fail "max RSS ${big} KiB on the 10 MiB line vs ${small} KiB on one puzzle"
    fi
else
    skip "python3 not available"
fi
end

begin "malformed: 1024-byte line is accepted, 1025-byte line is too long"
pad943=$(repeat ' ' 943)
printf '%s%s\n%s%s \n%s\n' "$P1" "$pad943" "$P1" "$pad943" "$P2" >edge.txt
run solve edge.txt
expect_rc 1
expect_out "$S1"$'\n'"invalid"$'\n'"$S2"
expect_err_line "sudokubench: edge.txt:2:1025: invalid puzzle: line too long"
expect_err_count 1
end

# Accepted forms: exit 0, nothing on stderr
check_ok() { # check_ok NAME EXPECTED_STDOUT [solve args...] (input file ok.txt written by caller)
    local name=$1 want=$2
    shift 2
    begin "accepted: $name"
    run solve "$@" ok.txt
    expect_rc 0
    expect_out "$want"
    expect_err_empty
    end
}
printf '%s\r\n\r\n# comment\r\n%s\r\n' "$P1" "$P2" >ok.txt
check_ok "CRLF line ends" "$S1"$'\n'"$S2"
check_ok "CRLF line ends (tdoku has no CR)" "$P1:1:$S1"$'\n'"$P2:1:$S2" -f tdoku
printf '\357\273\277%s\n%s\n' "$P1" "$P2" >ok.txt
check_ok "UTF-8 BOM" "$S1"$'\n'"$S2"
begin "accepted: UTF-8 BOM at the start of each file and of stdin"
printf '\357\273\277%s\n' "$P1" >bom1.txt
printf '\357\273\277%s\n' "$P2" >bom2.txt
run solve bom1.txt - bom2.txt <bom1.txt
expect_rc 0
expect_out "$S1"$'\n'"$S1"$'\n'"$S2"
expect_err_empty
end
printf '\357\273\277# comment after a BOM\n%s\n' "$P1" >ok.txt
begin "accepted: UTF-8 BOM before a comment, line numbers unchanged"
run solve -f csv ok.txt
expect_rc 0
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "2,solved,1,G,$S1" >expected.txt
expect_file expected.txt got.txt
expect_err_empty
end
printf '%s\n%s' "$P1" "$P2" >ok.txt
check_ok "missing final newline" "$S1"$'\n'"$S2"
printf '%s\n' "$P1" "$(zeros "$P1")" "$(printf '%s' "$P1" | tr . -)" "$(printf '%s' "$P1" | tr . _)" "$P2MIX" >ok.txt
check_ok "blanks as . 0 - _" "$S1"$'\n'"$S1"$'\n'"$S1"$'\n'"$S1"$'\n'"$S2"
check_ok "blanks normalised to . in tdoku" "$P1:1:$S1"$'\n'"$P1:1:$S1"$'\n'"$P1:1:$S1"$'\n'"$P1:1:$S1"$'\n'"$P2:1:$S2" -f tdoku
printf '%s\n' "quizzes,solutions" "$(zeros "$P1"),$S1" "$(zeros "$P2"),$S2" >ok.txt
check_ok "Kaggle CSV with quizzes,solutions header" "$S1"$'\n'"$S2"
printf '%s\r\n' "quizzes,solutions" "$(zeros "$P1"),$S1" >ok.txt
check_ok "Kaggle CSV with CRLF" "$S1"
printf '%s\n' "$(zeros "$P1"),$(repeat 1 81)" >ok.txt
check_ok "Kaggle solution column read only for its form" "$S1"
printf '   %s\n\t%s\t \n  %s  \n' "$P1" "$P2" "$NOSOL" >ok.txt
check_ok "leading/trailing spaces and tabs" "$S1"$'\n'"$S2"$'\n'"unsolvable"
printf '# first\n\n   # indented\n\n%s\n# last\n\n' "$P1" >ok.txt
check_ok "comments and blank lines give no records" "$S1"
begin "accepted: comments and blank lines keep csv line numbers"
run solve -f csv ok.txt
expect_rc 0
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "5,solved,1,G,$S1" >expected.txt
expect_file expected.txt got.txt
end
: >ok.txt
check_ok "empty file gives no records" ""
printf '# only\n# comments\n' >ok.txt
check_ok "comments-only file gives no records" ""
printf '%s\n' "$MULTI" "$CONF" "$NOSOL" >ok.txt
check_ok "unsolvable and multiple are results (exit 0)" "multiple"$'\n'"unsolvable"$'\n'"unsolvable"

# ------------------------------------------------------------------------------------------
# 3. Good records never shift
# ------------------------------------------------------------------------------------------
printf '%s\n' "$P1" "xyz" "$P2" "" "${P1}9" "# c" "$MULTI" "12" "$NOSOL" "$P2" >shift.txt
begin "no shift: invalid lines interleaved keep record positions"
run solve shift.txt
expect_rc 1
expect_out "$S1"$'\n'invalid$'\n'"$S2"$'\n'invalid$'\n'multiple$'\n'invalid$'\n'unsolvable$'\n'"$S2"
expect_records 8
expect_err_line "sudokubench: shift.txt:2:1: invalid puzzle: unexpected character 'x'"
expect_err_line "sudokubench: shift.txt:5:82: invalid puzzle: too many cells"
expect_err_re "^sudokubench: shift\\.txt:8:[0-9]+: invalid puzzle: too few cells \\(2 of 81\\)\$"
expect_err_count 3
end

begin "no shift: tdoku echoes each invalid line's text in place"
run solve -f tdoku shift.txt
expect_rc 1
printf '%s\n' "$P1:1:$S1" "xyz:invalid:" "$P2:1:$S2" "$P1:invalid:" "$MULTI:2:" "12:invalid:" "$NOSOL:0:" "$P2:1:$S2" >expected.txt
expect_file expected.txt out
end

begin "no shift: csv line numbers with interleaved invalid lines"
run solve -f csv shift.txt
expect_rc 1
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "1,solved,1,G,$S1" "2,invalid,,," "3,solved,1,G,$S2" \
    "5,invalid,,," "7,multiple,2,G," "8,invalid,,," "9,unsolvable,0,G," "10,solved,1,G,$S2" >expected.txt
expect_file expected.txt got.txt
end

# Many records over several threads: output still in input order
: >many.txt
: >many.want
for i in $(seq 1 120); do
    printf '%s\n%s\n%s\n%s\n%s\n' "$P1" "$P2" "$MULTI" "bad$i" "$NOSOL" >>many.txt
    printf '%s\n%s\n%s\n%s\n%s\n' "$S1" "$S2" multiple invalid unsolvable >>many.want
done
for th in 1 2 4; do
    begin "no shift: 600 records with -t $th stay in input order"
    run solve -t "$th" many.txt
    expect_rc 1
    expect_file many.want out
    n=$(grep -c ': invalid puzzle: ' err)
    [ "$n" = 120 ] || fail "want 120 invalid-puzzle messages on stderr, got $n"
    expect_err_count 120 # the messages and nothing else: -t N runs N threads, no note
    expect_err_line "sudokubench: many.txt:599:1: invalid puzzle: unexpected character 'b'"
    grep -o 'many\.txt:[0-9]*' err | cut -d: -f2 | sort -nc 2>/dev/null ||
        fail "invalid-puzzle messages are not in input order"
    end
done

# ------------------------------------------------------------------------------------------
# 4. stdin and several files
# ------------------------------------------------------------------------------------------
begin "stdin: no FILE reads stdin, messages name <stdin>"
run solve <mixed.txt
expect_rc 1
expect_file "$GOLDEN/mixed.solution.out" out
sed 's/mixed\.txt/<stdin>/' "$GOLDEN/mixed.solve.err" >expected.err
expect_file expected.err err
end

begin "stdin: '-' reads stdin"
run solve -f tdoku - <mixed.txt
expect_rc 1
expect_file "$GOLDEN/mixed.tdoku.out" out
expect_err_line "sudokubench: <stdin>:7:10: invalid puzzle: unexpected character ':'"
end

begin "stdin: json and pretty name <stdin>"
run solve -f json <mixed.txt
norm_json out >got.txt
sed 's/"file":"mixed\.txt"/"file":"<stdin>"/' "$GOLDEN/mixed.json.out" >expected.txt
expect_file expected.txt got.txt
run solve -f pretty - <mixed.txt
norm_pretty out >got.txt
sed 's/^# mixed\.txt:/# <stdin>:/' "$GOLDEN/mixed.pretty.out" >expected.txt
expect_file expected.txt got.txt
end

printf '%s\n%s\n' "$P1" "oops" >a.txt
printf '# b\n%s\n' "$P2" >b.txt
printf '%s\n' "$MULTI" >c.txt
begin "files: several files concatenate records in order"
run solve a.txt b.txt c.txt
expect_rc 1
expect_out "$S1"$'\n'invalid$'\n'"$S2"$'\n'multiple
expect_err_line "sudokubench: a.txt:2:1: invalid puzzle: unexpected character 'o'"
end

begin "files: csv header once with a file column, LINE restarts per file"
run solve -f csv a.txt b.txt c.txt
expect_rc 1
norm_csv out >got.txt
printf '%s\n' "file,line,status,count,guesses,solution" "a.txt,1,solved,1,G,$S1" "a.txt,2,invalid,,," "b.txt,2,solved,1,G,$S2" "c.txt,1,multiple,2,G," >expected.txt
expect_file expected.txt got.txt
end

begin "files: json names each file"
run solve -f json a.txt b.txt
expect_rc 1
norm_json out >got.txt
printf '%s\n' \
    "{\"file\":\"a.txt\",\"line\":1,\"status\":\"solved\",\"count\":1,\"guesses\":G,\"puzzle\":\"$P1\",\"solution\":\"$S1\"}" \
    "{\"file\":\"a.txt\",\"line\":2,\"status\":\"invalid\",\"error\":\"unexpected character 'o'\",\"column\":1}" \
    "{\"file\":\"b.txt\",\"line\":2,\"status\":\"solved\",\"count\":1,\"guesses\":G,\"puzzle\":\"$P2\",\"solution\":\"$S2\"}" >expected.txt
expect_file expected.txt got.txt
end

begin "files: '-' among files reads stdin in its place"
run solve -f csv a.txt - b.txt <c.txt
expect_rc 1
norm_csv out >got.txt
printf '%s\n' "file,line,status,count,guesses,solution" "a.txt,1,solved,1,G,$S1" "a.txt,2,invalid,,," "<stdin>,1,multiple,2,G," "b.txt,2,solved,1,G,$S2" >expected.txt
expect_file expected.txt got.txt
end

begin "files: missing file is reported, other files still run, exit 2"
run solve p1.txt missing.txt p2.txt
expect_rc 2
expect_out "$S1"$'\n'"$S2"
expect_err_re '^sudokubench: .*missing\.txt'
end

begin "files: unreadable file (a directory) is reported, other files still run, exit 2"
mkdir -p adir
run solve p1.txt adir p2.txt
expect_rc 2
expect_out "$S1"$'\n'"$S2"
expect_err_re '^sudokubench: .*adir'
end

begin "files: validate with a missing file exits 2 and names it"
run validate proper.txt missing.txt
expect_rc 2
expect_err_re '^sudokubench: .*missing\.txt'
end

# ------------------------------------------------------------------------------------------
# 5. Usage errors, --help, --version
# ------------------------------------------------------------------------------------------
usage_case() { # usage_case NAME COMMAND-FOR-TRY ARGS...
    local name=$1 cmd=$2
    shift 2
    begin "usage: $name"
    run "$@" </dev/null
    expect_usage_error "$cmd"
    end
}
usage_case "solve unknown option" solve solve --bogus p1.txt
usage_case "solve -l abc" solve solve -l abc p1.txt
usage_case "solve -l 3x" solve solve -l 3x p1.txt
usage_case "solve -l -1" solve solve -l -1 p1.txt
usage_case "solve -l ''" solve solve -l '' p1.txt
usage_case "solve -l overflowing 2^64" solve solve -l 99999999999999999999999 p1.txt
usage_case "solve -l without value" solve solve -l
usage_case "solve unknown -f format" solve solve -f xml p1.txt
usage_case "solve -f without value" solve solve -f
usage_case "solve unknown -s pipeline" solve solve -s no-such-pipeline p1.txt
usage_case "solve -t abc" solve solve -t abc p1.txt
usage_case "solve unknown short option" solve solve -x p1.txt
usage_case "solve unknown --simd level" solve solve --simd bogus p1.txt
usage_case "validate unknown option" validate validate --bogus p1.txt
usage_case "bench without FILE" bench bench --seconds 0.01
usage_case "bench unknown option" bench bench --bogus p1.txt
usage_case "bench --seconds abc" bench bench --seconds abc p1.txt
usage_case "bench unknown pipeline" bench bench --pipelines no-such-pipeline --seconds 0.01 p1.txt
usage_case "bench -l abc" bench bench -l abc --seconds 0.01 p1.txt

# No command: the Try line may name the top-level help.
begin "usage: unknown command"
run frobnicate p1.txt </dev/null
expect_rc 2
expect_out_empty
expect_err_re '^sudokubench: .*frobnicate'
expect_err_re "^Try 'sudokubench( [a-z]+)? --help'\\.\$"
end

begin "usage: unknown top-level option"
run --bogus </dev/null
expect_rc 2
expect_out_empty
expect_err_re '^sudokubench: .+'
expect_err_re "^Try 'sudokubench( [a-z]+)? --help'\\.\$"
end

# mentions OPT...: stdout mentions each option as a word
mentions() {
    local o
    for o in "$@"; do
        grep -qE -- "(^|[^-[:alnum:]])$o([^-[:alnum:]]|\$)" out || fail "help does not mention $o"
    done
}
begin "help: sudokubench --help"
run --help
expect_rc 0
expect_err_empty
mentions solve validate bench --help --version
end
begin "help: solve --help"
run solve --help
expect_rc 0
expect_err_empty
mentions -s -l -t -f --simd --progress --stats
end
begin "help: validate --help"
run validate --help
expect_rc 0
expect_err_empty
mentions -t --simd --progress
end
begin "help: bench --help"
run bench --help
expect_rc 0
expect_err_empty
mentions --pipelines -l -t --seconds --repeat --simd --json --export
end
begin "version: sudokubench --version"
run --version
expect_rc 0
grep -qF '1.0.0' out || fail "stdout does not show version 1.0.0:"$'\n'"$(show out)"
end
begin "version: the simd line names the level a run uses, and every level solve accepts"
run bench -t 1 --pipelines fast --seconds 0 p1.txt
used=$(sed -n '1s/.*| simd \([a-z0-9]*\) |.*/\1/p' out)
run --version
expect_rc 0
grep -qx "simd: $used (auto: the best this CPU supports); supported:.*" out ||
    fail "--version does not name bench's level '$used':"$'\n'"$(show out)"
for lvl in scalar sse4 avx2 avx512bw avx512 neon; do
    listed=no
    grep -q "supported:.* $lvl\( \|\$\)" out && listed=yes
    accepted=no
    "$BIN" solve --simd "$lvl" p1.txt >/dev/null 2>&1 && accepted=yes
    [ "$listed" = "$accepted" ] || fail "$lvl: listed by --version: $listed, accepted by solve: $accepted"
done
SUDOKUBENCH_SIMD=scalar run --version
grep -qx "simd: scalar (SUDOKUBENCH_SIMD); supported: scalar.*" out ||
    fail "SUDOKUBENCH_SIMD=scalar not shown:"$'\n'"$(show out)"
SUDOKUBENCH_SIMD=bogus run --version
expect_rc 0
grep -qx "simd: SUDOKUBENCH_SIMD=bogus is not a level this CPU supports; supported: scalar.*" out ||
    fail "SUDOKUBENCH_SIMD=bogus not shown:"$'\n'"$(show out)"
end

# ------------------------------------------------------------------------------------------
# 6. validate
# ------------------------------------------------------------------------------------------
begin "validate: proper file -> exit 0 and summary"
run validate proper.txt
expect_rc 0
expect_out "3 puzzles: 3 unique, 0 multiple, 0 unsolvable, 0 invalid lines"
expect_err_empty
end

begin "validate: proper puzzles from stdin"
run validate - <proper.txt
expect_rc 0
expect_out "3 puzzles: 3 unique, 0 multiple, 0 unsolvable, 0 invalid lines"
end

begin "validate: mixed file -> every problem on stderr, exact summary, exit 1"
run validate mixed.txt
expect_rc 1
expect_file "$GOLDEN/mixed.validate.out" out
expect_file "$GOLDEN/mixed.validate.err" err
end

begin "validate: messages name <stdin>"
run validate <mixed.txt
expect_rc 1
expect_file "$GOLDEN/mixed.validate.out" out
sed 's/mixed\.txt/<stdin>/' "$GOLDEN/mixed.validate.err" >expected.err
expect_file expected.err err
end

begin "validate: conflicting givens in a row, a column and a box"
printf '%s\n' "$CONF" "$CONF_COL" "$P1" "$CONF_BOX" >conf.txt
run validate conf.txt
expect_rc 1
expect_out "4 puzzles: 1 unique, 0 multiple, 3 unsolvable, 0 invalid lines"
printf '%s\n' "sudokubench: conf.txt:1: conflicting givens: r1c1 and r1c3 are both 5" \
    "sudokubench: conf.txt:2: conflicting givens: r6c7 and r9c7 are both 5" \
    "sudokubench: conf.txt:4: conflicting givens: r7c8 and r9c9 are both 9" >expected.err
expect_file expected.err err
end

begin "validate: several files, counts summed"
run validate proper.txt multi.txt nosol.txt a.txt
expect_rc 1
expect_out "6 puzzles: 4 unique, 1 multiple, 1 unsolvable, 1 invalid lines"
printf '%s\n' "sudokubench: multi.txt:1: multiple solutions" "sudokubench: nosol.txt:1: no solution" \
    "sudokubench: a.txt:2:1: invalid puzzle: unexpected character 'o'" >expected.err
expect_file expected.err err
end

begin "validate: only invalid lines -> exit 1"
printf '%s\n%s\n' "${P1:0:80}" "${P2}12" >inv.txt
run validate inv.txt
expect_rc 1
expect_out "0 puzzles: 0 unique, 0 multiple, 0 unsolvable, 2 invalid lines"
expect_err_re '^sudokubench: inv\.txt:1:[0-9]+: invalid puzzle: too few cells \(80 of 81\)$'
expect_err_line "sudokubench: inv.txt:2:82: invalid puzzle: too many cells"
end

# ------------------------------------------------------------------------------------------
# 7. Limits
# ------------------------------------------------------------------------------------------
begin "limit: -l 1 on a multiple puzzle reports a valid solution as solved"
run solve -l 1 -f tdoku multi.txt
expect_rc 0
line=$(head -n 1 out)
case $line in
    "$MULTI:1:"*) sol=${line#"$MULTI:1:"}
        valid_solution "$MULTI" "$sol" || fail "not a valid solution of MULTI: $sol" ;;
    *) fail "expected '$MULTI:1:SOLUTION', got: $line" ;;
esac
expect_records 1
run solve -l 1 multi.txt
expect_rc 0
valid_solution "$MULTI" "$(head -n 1 out)" || fail "-f solution: not a valid solution: $(head -n 1 out)"
run solve -l 1 -f csv multi.txt
norm_csv out | tail -n 1 | grep -qE "^1,solved,1,G,[1-9]{81}\$" || fail "-f csv: expected 1,solved,1,G,SOLUTION, got: $(tail -n 1 out)"
end

begin "limit: -l 1 on unique and unsolvable puzzles"
printf '%s\n' "$P1" "$NOSOL" "$CONF" >l1.txt
run solve -l 1 -f tdoku l1.txt
expect_rc 0
expect_out "$P1:1:$S1"$'\n'"$NOSOL:0:"$'\n'"$CONF:0:"
end

for spec in "0:$MULTI_COUNT" "2:2" "5:5" "11:11" "12:11" "100:$MULTI_COUNT"; do
    lim=${spec%%:*}
    want=${spec#*:}
    begin "limit: -l $lim on MULTI ($MULTI_COUNT solutions) counts $want"
    run solve -l "$lim" -f tdoku multi.txt
    expect_rc 0
    expect_out "$MULTI:$want:"
    end
done

begin "limit: -l 0 and -l 100 agree; -l 5 csv is multiple,5"
run solve -l 0 -f tdoku multi.txt
c0=$(cut -d: -f2 out)
run solve -l 100 -f tdoku multi.txt
c100=$(cut -d: -f2 out)
[ "$c0" = "$c100" ] || fail "-l 0 count $c0 != -l 100 count $c100"
run solve -l 5 -f csv multi.txt
norm_csv out >got.txt
printf '%s\n' "line,status,count,guesses,solution" "1,multiple,5,G," >expected.txt
expect_file expected.txt got.txt
end

begin "limit: -l 0 on a unique and an unsolvable puzzle"
run solve -l 0 -f tdoku l1.txt
expect_rc 0
expect_out "$P1:1:$S1"$'\n'"$NOSOL:0:"$'\n'"$CONF:0:"
end

# ------------------------------------------------------------------------------------------
# 8. bench (tiny: a few hundredths of a second per row)
# ------------------------------------------------------------------------------------------
NUM='[0-9]+(\.[0-9]+)?'
begin "bench: table header, columns and a fast row"
run bench -t 1 --seconds 0.05 bench.txt
expect_rc 0
expect_out_re "^# sudokubench 1\\.0\\.0 \\| compiler .+ \\| flags .* \\| simd (scalar|sse4|avx2|avx512bw|avx512|neon) \\| threads 1 \\| limit 2( \\| pair auto)?\$"
expect_out_re "^# sudokubench .* \\| flags .* \\| cpu [^|]+ \\| load ($NUM|unknown) \\| repeat 5 \\| simd "
# Where auto is avx2 the build line names the pair policy and the table has %paired before
# the spread (MAD as a % of the median puzzles/s).
head_row='| dataset | pipeline | puzzles | puzzles/sec | usec/puzzle | %no_guess | guesses/puzzle |'
sep_row='|---|---|---:|---:|---:|---:|---:|'
row_re="^\\| [^|]*bench[^|]* \\| fast \\| 3 \\| $NUM \\| $NUM \\| $NUM \\| $NUM \\|"
if grep -q ' | pair auto$' out; then
    head_row="$head_row %paired |" sep_row="$sep_row---:|" row_re="$row_re $NUM \\|"
fi
head_row="$head_row ±MAD% |" sep_row="$sep_row---:|" row_re="$row_re $NUM \\|"
grep -qxF "$head_row" out || fail "table header row missing:"$'\n'"$(show out)"
grep -qxF "$sep_row" out || fail "table separator row missing"
expect_out_re "$row_re\$"
end

begin "bench: --json OUT is valid JSON with every documented key"
if [ "$HAVE_PY" = 1 ]; then
    run bench --pipelines fast -l 1 --seconds 0.05 --json bench.json bench.txt
    expect_rc 0
    expect_out_re "\\| limit 1( \\| pair auto)?\$"
    if [ ! -s bench.json ]; then
        fail "bench.json not written"
    else
        python3 -m json.tool bench.json >/dev/null 2>py.txt || fail "not valid JSON: $(head -c 300 py.txt)"
        python3 - bench.json >py.txt 2>&1 <<'EOF' || fail "$(cat py.txt)"
import json, sys
d = json.load(open(sys.argv[1]))
if not isinstance(d, dict) or not isinstance(d.get("build"), dict) or not isinstance(d.get("rows"), list):
    sys.exit('want {"build":{...},"rows":[...]}, got keys %s' % (list(d) if isinstance(d, dict) else type(d)))
keys = ["dataset", "pipeline", "threads", "simd", "puzzles", "seconds", "puzzles_per_sec",
        "usec_per_puzzle", "no_guess_pct", "guesses_per_puzzle"]
if len(d["rows"]) != 1:
    sys.exit("want 1 row (one file, one pipeline), got %d" % len(d["rows"]))
r = d["rows"][0]
missing = [k for k in keys if k not in r]
if missing:
    sys.exit("row lacks keys %s" % missing)
if r["pipeline"] != "fast" or r["puzzles"] != 3:
    sys.exit("want pipeline fast with 3 puzzles, got %s / %s" % (r["pipeline"], r["puzzles"]))
for k in ["threads", "puzzles", "seconds", "puzzles_per_sec", "usec_per_puzzle", "no_guess_pct", "guesses_per_puzzle"]:
    if not isinstance(r[k], (int, float)) or isinstance(r[k], bool) or r[k] < 0:
        sys.exit("row key %s is not a non-negative number: %r" % (k, r[k]))
if r["seconds"] <= 0 or r["puzzles_per_sec"] <= 0:
    sys.exit("seconds and puzzles_per_sec must be positive")
if not 0 <= r["no_guess_pct"] <= 100:
    sys.exit("no_guess_pct out of range: %r" % r["no_guess_pct"])
if r["simd"] not in ("scalar", "sse4", "avx2", "avx512bw", "avx512", "neon"):
    sys.exit("simd is %r" % r["simd"])
EOF
    fi
else
    skip "python3 not available"
fi
end

begin "bench: --seconds 0 still makes one full pass"
run bench --pipelines fast --seconds 0 bench.txt
expect_rc 0
expect_out_re "^\\| [^|]*bench[^|]* \\| fast \\| 3 \\| $NUM \\| $NUM \\| $NUM \\| $NUM \\|( $NUM \\|)? $NUM \\|\$"
end

begin "bench: missing FILE is an I/O error (exit 2) naming it"
run bench --pipelines fast --seconds 0.01 missing.txt
expect_rc 2
expect_err_re '^sudokubench: .*missing\.txt'
end

# The exit-code table is not command specific: 0 means every line was a well-formed puzzle,
# 1 that some lines were invalid. bench loads the valid puzzles only (one row with 3 puzzles).
begin "bench: an invalid line is reported with FILE:LINE:COL and gives exit 1"
printf '%s\n' "$P1" "oops" "$P2" "$P2MIX" >bench_bad.txt
run bench --pipelines fast --seconds 0.01 bench_bad.txt
expect_rc 1
expect_err_line "sudokubench: bench_bad.txt:2:1: invalid puzzle: unexpected character 'o'"
expect_out_re "^\\| [^|]*bench_bad[^|]* \\| fast \\| 3 \\|"
end

begin "bench: one row per file and pipeline"
cp bench.txt second.txt
run bench --pipelines fast --seconds 0.01 bench.txt second.txt
expect_rc 0
n=$(grep -cE "^\\| [^|]+ \\| fast \\| 3 \\|" out)
[ "$n" = 2 ] || fail "want 2 fast rows (one per file), got $n:"$'\n'"$(show out)"
expect_out_re "^\\| [^|]*second[^|]* \\| fast \\|"
end

# ------------------------------------------------------------------------------------------
# 9. --stats, SIMD levels, pipelines
# ------------------------------------------------------------------------------------------
begin "stats: --stats prints the summary on stderr after the run"
run solve --stats mixed.txt
expect_rc 1
expect_file "$GOLDEN/mixed.solution.out" out
re="^stats: 5 puzzles \\(2 solved, 2 unsolvable, 1 multiple\\), 2 invalid lines, [0-9]+ guesses, $NUM s, $NUM puzzles/s\$"
tail -n 1 err | grep -qE -- "$re" || fail "last stderr line is not the stats line:"$'\n'"$(show err)"
expect_err_count 3
end

begin "stats: --stats with -l 1 counts the multiple puzzle as solved"
run solve --stats -l 1 proper.txt multi.txt nosol.txt
expect_rc 0
tail -n 1 err | grep -qE -- "^stats: 5 puzzles \\(4 solved, 1 unsolvable, 0 multiple\\), 0 invalid lines, [0-9]+ guesses, " ||
    fail "stats line:"$'\n'"$(show err)"
end

for cmd in "solve p1.txt" "validate p1.txt" "bench --seconds 0.01 p1.txt"; do
    begin "simd: SUDOKUBENCH_SIMD=bogus $cmd -> exit 2 with a message"
    # shellcheck disable=SC2086
    SUDOKUBENCH_SIMD=bogus run $cmd
    expect_rc 2
    expect_err_re '^sudokubench: .*(bogus|SUDOKUBENCH_SIMD)'
    end
done

begin "simd: bench --simd scalar reports simd scalar in the header and the JSON rows"
run bench --simd scalar --pipelines fast --seconds 0.01 --json scalar.json p1.txt
expect_rc 0
expect_out_re '^# sudokubench .* \| simd scalar \| '
if [ "$HAVE_PY" = 1 ]; then
    python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
sys.exit(0 if rows and all(r["simd"] == "scalar" for r in rows) else "rows: %r" % rows)' scalar.json >py.txt 2>&1 ||
        fail "$(cat py.txt)"
fi
end

# Reference outputs at the scalar level (always available).
run solve --simd scalar -f csv mixed.txt
cp out simd_ref.csv
run solve --simd scalar -l 0 -f tdoku multi.txt l1.txt many.txt
cp out simd_ref.tdoku
run validate --simd scalar mixed.txt
cp out simd_ref.val
cp err simd_ref.valerr
for lvl in scalar sse4 avx2 avx512bw avx512 neon; do
    begin "simd: --simd $lvl gives identical output"
    run solve --simd "$lvl" -f csv mixed.txt
    if [ "$RC" = 2 ] && [ "$lvl" != scalar ]; then
        skip "binary rejects $lvl here: $(head -n 1 err)"
    else
        expect_rc 1
        expect_file simd_ref.csv out
        run solve --simd "$lvl" -l 0 -f tdoku multi.txt l1.txt many.txt
        expect_file simd_ref.tdoku out
        run validate --simd "$lvl" mixed.txt
        expect_file simd_ref.val out
        expect_file simd_ref.valerr err
        SUDOKUBENCH_SIMD=$lvl run solve -f csv mixed.txt
        expect_rc 1
        expect_file simd_ref.csv out
    fi
    end
done
begin "pair: every SUDOKUBENCH_PAIR policy gives identical output at avx2"
run solve --simd avx2 -f csv mixed.txt
if [ "$RC" = 2 ]; then
    skip "binary rejects avx2 here: $(head -n 1 err)"
else
    # Ten copies of bench.txt's three easy puzzles.
    for i in 1 2 3 4 5 6 7 8 9 10; do cat bench.txt; done >bench30.txt
    for policy in on off auto; do
        SUDOKUBENCH_PAIR=$policy run solve --simd avx2 -f csv mixed.txt
        expect_rc 1
        expect_file simd_ref.csv out
        SUDOKUBENCH_PAIR=$policy run solve --simd avx2 -l 0 -f tdoku multi.txt l1.txt many.txt
        expect_file simd_ref.tdoku out
        SUDOKUBENCH_PAIR=$policy run bench --simd avx2 -t 1 --pipelines fast --seconds 0 --json pair.json bench30.txt
        expect_rc 0
        expect_out_re "\\| simd avx2 \\| threads 1 \\| limit 2 \\| pair $policy\$"
        grep -qxF '| dataset | pipeline | puzzles | puzzles/sec | usec/puzzle | %no_guess | guesses/puzzle | %paired | ±MAD% |' out ||
            fail "no %paired column at avx2:"$'\n'"$(show out)"
        # On pairs all 30 puzzles; off and auto (one board: docs/performance.md) none.
        case $policy in on) want=100.0 wantj=100 ;; off|auto) want=0.0 wantj=0 ;; esac
        expect_out_re "^\\| bench30\\.txt \\| fast \\| 30 \\| $NUM \\| $NUM \\| $NUM \\| $NUM \\| $want \\| $NUM \\|\$"
        if [ "$HAVE_PY" = 1 ]; then
            python3 -c 'import json,sys; d=json.load(open("pair.json")); b=d["build"]; p=d["rows"][0].get("paired_pct"); sys.exit(None if b.get("pair")==sys.argv[1] and p==float(sys.argv[2]) else "build pair %r, paired_pct %r" % (b.get("pair"), p))' "$policy" "$wantj" 2>py.txt ||
                fail "$(cat py.txt)"
        fi
    done
    run bench --simd sse4 -t 1 --pipelines fast --seconds 0 --json pair.json bench.txt
    expect_out_re "\\| simd sse4 \\| threads 1 \\| limit 2\$"
    grep -qxF '| dataset | pipeline | puzzles | puzzles/sec | usec/puzzle | %no_guess | guesses/puzzle | ±MAD% |' out ||
        fail "a %paired column where no kernel pairs:"$'\n'"$(show out)"
    if [ "$HAVE_PY" = 1 ]; then
        python3 -c 'import json,sys; r=json.load(open("pair.json"))["rows"][0]; sys.exit("paired_pct at sse4" if "paired_pct" in r else None)' 2>py.txt ||
            fail "$(cat py.txt)"
    fi
fi
end
begin "pair: --version names the policy, a bad SUDOKUBENCH_PAIR stops every command"
run --version
expect_rc 0
grep -qxF "pair: auto (one search a puzzle; SUDOKUBENCH_PAIR=on searches two side by side at avx2)" out ||
    fail "--version does not show the auto policy:"$'\n'"$(show out)"
SUDOKUBENCH_PAIR=off run --version
grep -qx "pair: off (SUDOKUBENCH_PAIR)" out || fail "SUDOKUBENCH_PAIR=off not shown:"$'\n'"$(show out)"
SUDOKUBENCH_PAIR=bogus run --version
expect_rc 0
grep -qx "pair: SUDOKUBENCH_PAIR=bogus is not a policy (auto, on, off)" out ||
    fail "SUDOKUBENCH_PAIR=bogus not shown:"$'\n'"$(show out)"
for cmd in solve validate bench; do
    SUDOKUBENCH_PAIR=bogus run $cmd mixed.txt
    expect_rc 2
    expect_out_empty
    expect_err_line "sudokubench: SUDOKUBENCH_PAIR=bogus: not a pair policy (auto, on, off)"
done
end
begin "simd: scalar reference matches the golden csv"
norm_csv simd_ref.csv >got.txt
expect_file "$GOLDEN/mixed.csv.out" got.txt
end

begin "pipelines: -s fast is accepted"
run solve -s fast -f tdoku mixed.txt
expect_rc 1
expect_file "$GOLDEN/mixed.tdoku.out" out
end

begin "pipelines: every pipeline bench lists gives the golden tdoku output"
if [ "$HAVE_PY" = 1 ]; then
    run bench --pipelines all --seconds 0.01 --json all.json p1.txt
    expect_rc 0
    names=$(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["rows"]: print(r["pipeline"])' all.json 2>/dev/null)
    [ -n "$names" ] || fail "no pipelines listed by bench --pipelines all --json"
    printf '%s\n' "$names" | grep -qx fast || fail "pipeline list lacks fast: $names"
    # 'all' inside a list: every registry pipeline at its place, after others; one named
    # again later (list) keeps its first place, one row
    run bench --pipelines fast+xw,all,list --seconds 0.01 --json mix.json p1.txt
    expect_rc 0
    mix=$(python3 -c 'import json, sys
print(" ".join(r["pipeline"] for r in json.load(open(sys.argv[1]))["rows"]))' mix.json 2>/dev/null)
    [ "$mix" = "fast+xw $(echo $names)" ] || fail "--pipelines fast+xw,all,list gives: $mix"
    for p in $names; do
        run solve -s "$p" -f tdoku mixed.txt
        cmp -s "$GOLDEN/mixed.tdoku.out" out || fail "pipeline $p: tdoku output differs:"$'\n'"$(diff "$GOLDEN/mixed.tdoku.out" out | head -n 6)"
        run solve -s "$p" -l 0 -f tdoku multi.txt
        [ "$(cat out)" = "$MULTI:$MULTI_COUNT:" ] || fail "pipeline $p: -l 0 on MULTI gives $(cat out)"
    done
else
    skip "python3 not available"
fi
end

begin "json: weird characters and file names are escaped"
if [ "$HAVE_PY" = 1 ]; then
    printf '12"4\n12\\4\n' >'we"ird.txt'
    run solve -f json 'we"ird.txt'
    expect_rc 1
    python3 - out >py.txt 2>&1 <<'EOF' || fail "$(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
want = [("we\"ird.txt", 1, "unexpected character '\"'", 3), ("we\"ird.txt", 2, "unexpected character '\\'", 3)]
got = [(r["file"], r["line"], r["error"], r["column"]) for r in recs]
if got != want:
    sys.exit("got %r\nwant %r" % (got, want))
EOF
else
    skip "python3 not available"
fi
end

# Run alone: the total of this part's cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
fi
