#!/usr/bin/env bash
# tests/cli/outputs.sh — output files against the inputs and the file size limit:
#   - an output that is one of the inputs (-o FILE of solve, validate, rate, generate and
#     augment, with and without --resume; bench --json OUT) is refused with exit 2 before it
#     is opened, whichever name reaches it: the same name, ./NAME, a hard link, a symbolic
#     link, standard input redirected from it, a --geometry FILE;
#   - a write past `ulimit -f` is a write error (exit 2, `write error: NAME: File too large`,
#     the output cut back to whole records), not a SIGXFSZ kill mid-record;
#   - generate --grid's --clues message speaks of that geometry, not of 9x9's 17 clues.
# Sourced by tests/cli/run.sh (its harness and puzzles); run alone, it runs its own
# cases. No case depends on machine speed: the limits are in bytes.

# Run alone (tests/cli/outputs.sh BINARY), it sets up the harness itself and runs its own cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # shellcheck source=tests/cli/run_lib.sh
    . "$(dirname "$0")/run_lib.sh" "$@"
fi

OUT_DIR=$T/outputs
mkdir -p "$OUT_DIR" && cd "$OUT_DIR" || exit 1

# ---- helpers -------------------------------------------------------------------------------
# intact FILE COPY: FILE still holds exactly COPY's bytes (else it is restored in place, its
# links kept, so that the next run sees the input again).
intact() {
    cmp -s "$1" "$2" && return
    fail "$1 was changed: now $(stat -c %s "$1") bytes, was $(stat -c %s "$2")"
    cat "$2" >"$1"
}
# refused CMD OPT OUTNAME INNAME: the run was refused as a usage error of CMD naming OUTNAME
# (the option OPT's value) and the input INNAME it is.
refused() {
    expect_usage_error "$1"
    expect_err_line "sudokubench: cannot open '$3' for $2: it is also the input '$4'"
}

# ---- 1. an output that is one of the inputs is refused before it is opened -----------------
printf '%s\n' "$P1" "$P2" "$MULTI" >in.txt
cp in.txt in.orig
ln in.txt hard.txt
ln -s in.txt sym.txt
printf '%s\n' "$P2" >second.txt
cp second.txt second.orig

# Every command that takes -o, and every way to name the input's file.
while IFS='|' read -r cmd args; do
    begin "same file: $cmd -o the input (same name, ./name, hard link, symlink): exit 2, input intact"
    for name in in.txt ./in.txt hard.txt sym.txt; do
        # shellcheck disable=SC2086 # args is a word list on purpose
        run $cmd $args -o "$name" in.txt
        refused "$cmd" -o "$name" in.txt
        intact in.txt in.orig
    done
    # the other way round: the input reached through the link, the output by its own name
    # shellcheck disable=SC2086
    run $cmd $args -o in.txt sym.txt
    refused "$cmd" -o in.txt sym.txt
    intact in.txt in.orig
    end
done <<EOF
solve|-t 2
validate|
rate|-f json
augment|-n 2
EOF

begin "same file: -o after the inputs, and the second of two inputs: that one named"
run solve in.txt -o ./in.txt
refused solve -o ./in.txt in.txt
run solve -f csv -o second.txt in.txt second.txt
refused solve -o second.txt second.txt
intact in.txt in.orig
intact second.txt second.orig
end

for cmd in solve validate rate; do
    begin "same file: $cmd --resume -o the input (every name): exit 2, input intact, no side file"
    for name in in.txt ./in.txt hard.txt sym.txt; do
        run "$cmd" --resume -o "$name" in.txt
        refused "$cmd" -o "$name" in.txt
        intact in.txt in.orig
        [ ! -e "$name.resume" ] || fail "--resume -o $name wrote the side file $name.resume"
        rm -f "$name.resume"
    done
    end
done

begin "same file: standard input redirected from -o FILE ('-' or no FILE) is refused"
# shellcheck disable=SC2094 # reading and writing one file is the case under test
run solve -o in.txt <in.txt
refused solve -o in.txt '<stdin>'
run validate -o sym.txt - <in.txt
refused validate -o sym.txt '<stdin>'
run augment -n 2 -o ./in.txt <hard.txt
refused augment -o ./in.txt '<stdin>'
intact in.txt in.orig
end

cp "$HERE/../data/jigsaw6.txt" geo.txt
cp geo.txt geo.orig
begin "same file: --geometry FILE as -o FILE (generate, solve): exit 2, geometry intact"
run generate --geometry geo.txt -n 1 -o geo.txt
refused generate -o geo.txt geo.txt
run solve --geometry geo.txt -o ./geo.txt in.txt
refused solve -o ./geo.txt geo.txt
intact geo.txt geo.orig
end

begin "same file: bench --json the input (every name): exit 2 before measuring, input intact"
for name in in.txt ./in.txt hard.txt sym.txt; do
    run bench --pipelines fast --seconds 0 --json "$name" in.txt
    refused bench --json "$name" in.txt
    intact in.txt in.orig
done
end

begin "same file: not refused: another file, a copy, /dev/null, generate with stdin from -o FILE"
run solve -o copy.txt in.txt
expect_rc 0
cp in.txt copy.txt
run solve -o copy.txt in.txt
expect_rc 0
printf '%s\n' "$S1" "$S2" multiple >expected.txt
expect_file expected.txt copy.txt
intact in.txt in.orig
run solve -o /dev/null </dev/null
expect_rc 0
expect_err_empty
run solve -o /dev/null - </dev/null
expect_rc 0
# generate reads no input: standard input coming from its -o FILE is no clash
printf 'old\n' >gen.txt
# shellcheck disable=SC2094 # on purpose: generate does not read stdin
run generate -n 2 -o gen.txt <gen.txt
expect_rc 0
expect_records 2 gen.txt
end

# ---- 1b. a usage error leaves -o FILE as it was -----------------------------------------
# Every check of the options comes before -o FILE is opened (and so truncated): a bad --grid,
# a missing --geometry FILE, a SIMD level this CPU lacks (by --simd and by SUDOKUBENCH_SIMD),
# and the options refused on the geometry picked (generate --symmetry/--class/-f kaggle on
# 2x3, solve --search bfs on 2x3). A FILE that did not exist is not created.
NOSIMD=
for level in neon avx512 avx2 sse4; do # the first level the CPU lacks (neon on x86-64)
    timeout "$TIMEOUT" "$BIN" solve --simd "$level" in.txt >/dev/null 2>&1
    [ $? -eq 2 ] && { NOSIMD=$level; break; }
done
begin "a usage error leaves -o FILE as it was (solve, validate, rate, generate, augment)"
printf 'precious\n' >keep.orig
check_kept() { # CMD ARGS...: exit 2, keep.txt intact, fresh.txt not created
    local cmd=$1
    cp keep.orig keep.txt
    rm -f fresh.txt
    run "$@" -o keep.txt
    expect_usage_error "$cmd"
    intact keep.txt keep.orig
    run "$@" -o fresh.txt
    expect_usage_error "$cmd"
    [ ! -e fresh.txt ] || fail "$* -o fresh.txt created fresh.txt"
}
for cmd in solve validate rate; do
    check_kept $cmd --grid 3y in.txt
    check_kept $cmd --geometry no-such.geo in.txt
    [ -z "$NOSIMD" ] || check_kept $cmd --simd "$NOSIMD" in.txt
done
check_kept solve --grid 2x3 --search bfs in.txt
[ -z "$NOSIMD" ] || SUDOKUBENCH_SIMD=$NOSIMD check_kept solve in.txt
check_kept augment -n 1 --grid 3y in.txt
check_kept generate -n 1 --grid 3y
check_kept generate -n 1 --grid 2x3 --symmetry rot90
check_kept generate -n 1 --grid 2x3 --class singles
check_kept generate -n 1 --grid 2x3 -f kaggle
[ -z "$NOSIMD" ] || check_kept generate -n 1 --simd "$NOSIMD"
[ -z "$NOSIMD" ] || check_kept generate -n 1 --grid 2x3 --simd "$NOSIMD"
end

begin "same file: --resume's side file FILE.resume as an input: exit 2 naming it, no FILE made"
rm -f side.out side.out.resume
cp in.txt side.out.resume
run solve -o side.out --resume side.out.resume
expect_usage_error solve
expect_err_line "sudokubench: cannot open 'side.out.resume' for --resume: it is also the input 'side.out.resume'"
[ ! -e side.out ] || fail "side.out was created"
intact side.out.resume in.orig
end

begin "bench --json: a dataset name with a control byte is the name itself, JSON-escaped (the table shows \\xHH)"
if [ "$HAVE_PY" = 1 ]; then
    cp in.txt $'ctl\x01.txt'
    run bench --seconds 0 --pipelines fast --json ctl.json $'ctl\x01.txt'
    expect_rc 0 # in.txt holds a puzzle with several solutions: noted on stderr
    grep -q '| ctl\\x01.txt | fast |' out || fail "table row: $(grep fast out)"
    python3 -c "import json,sys; d=json.load(open('ctl.json'))['rows'][0]['dataset']; sys.exit(0 if d=='ctl\x01.txt' else 'dataset %r' % d)" ||
        fail "bench --json dataset is not the file's name"
else
    skip "python3 not available"
fi
end

# ---- 2. generate on another geometry: --clues is spoken of in that geometry's terms ---------
begin "generate --grid 2x2 --clues: the bounds are 2x2's (3..16), not 9x9's 17..81"
for order in "--grid 2x2 --clues 2" "--clues 2 --grid 2x2"; do
    # shellcheck disable=SC2086 # order is a word list on purpose
    run generate $order -n 1
    expect_usage_error generate
    expect_err_line "sudokubench: --clues 2 is infeasible on 2x2: a puzzle with fewer than 3 clues lacks two digits, which could swap"
    ! grep -q '17\|81' err || fail "a 9x9 fact in the message: $(head -n 1 err)"
done
run generate --grid 5x5 --clues 900 -n 1
expect_usage_error generate
expect_err_line "sudokubench: bad --clues '900' (24..625 on 5x5)"
run generate --geometry "$HERE/../data/jigsaw6.txt" --clues 40 -n 1
expect_usage_error generate
expect_err_line "sudokubench: bad --clues '40' (5..36 on jigsaw:6)"
run generate --clues 16 -n 1 # 9x9 keeps its own fact
expect_usage_error generate
expect_err_line "sudokubench: --clues 16 is infeasible: no puzzle with fewer than 17 clues has exactly one solution"
end

# ---- 3. a file size limit is a write error, not a SIGXFSZ kill ------------------------------
# The limit runs the plain binary with SIGXFSZ at its default action: a disposition ignored
# by whatever started the tests would be inherited and hide a missing fix, so it is reset
# (env --default-signal) where coreutils can, and the case is skipped where it stays ignored.
XFSZ_ENV=(env)
env --default-signal=XFSZ true 2>/dev/null && XFSZ_ENV=(env --default-signal=XFSZ)
XFSZ_BIT=$(($(kill -l XFSZ) - 1))
# xfsz_default: a process started through limited gets SIGXFSZ at its default action.
xfsz_default() {
    # shellcheck disable=SC2016 # the script expands its own arguments
    "${XFSZ_ENV[@]}" bash -c '
        m=$(awk "/^SigIgn:/ { print \$2 }" /proc/self/status 2>/dev/null)
        [ -z "$m" ] || (( ((16#$m >> $0) & 1) == 0 ))' "$XFSZ_BIT"
}
# limited KIB STDOUT ARGS...: runs the binary with a file size limit of KIB KiB, stdout to
# STDOUT, stderr to err through a pipe (the limit applies to every file the process writes,
# and the message must get out); sets RC.
limited() {
    local kib=$1 to=$2
    shift 2
    # shellcheck disable=SC2016 # the script expands its own arguments
    timeout "$TIMEOUT" "${XFSZ_ENV[@]}" bash -c 'ulimit -f "$0" && exec "$@"' "$kib" "$BIN" "$@" \
        2>&1 >"$to" | cat >err
    # shellcheck disable=SC2034 # read by the harness's expect_rc
    RC=${PIPESTATUS[0]}
}
# cut_prefix FULL GOT: GOT is non-empty, shorter than FULL, ends with a newline and is FULL's
# first bytes: whole records of the full output.
cut_prefix() {
    local n
    n=$(stat -c %s "$2")
    [ "$n" -gt 0 ] || fail "$2 is empty: the records before the limit were lost"
    [ "$n" -lt "$(stat -c %s "$1")" ] || fail "$2 holds $n bytes: the limit did not bite"
    [ "$(tail -c 1 "$2" | od -An -c | tr -d ' ')" = '\n' ] || fail "$2 ends inside a record"
    cmp -s -n "$n" "$1" "$2" || fail "$2 is not a prefix of the full output"
}
XFBIG='File too large'
# xfsz_cases: the cases, run only where SIGXFSZ can be at its default action.
xfsz_cases() {
    for _ in $(seq 1500); do printf '%s\n%s\n' "$P1" "$P2"; done >big.txt # 246000 bytes

    begin "file size limit: solve -t 2 -o FILE: exit 2, the message names FILE, whole records kept"
    "$BIN" solve -t 2 big.txt >full.out
    limited 64 out solve -t 2 -o f.out big.txt
    expect_rc 2
    expect_err_line "sudokubench: write error: f.out: $XFBIG"
    cut_prefix full.out f.out
    end

    begin "file size limit: solve -t 2 >FILE (stdout): 'standard output' named, whole records kept"
    limited 64 s.out solve -t 2 big.txt
    expect_rc 2
    expect_err_line "sudokubench: write error: standard output: $XFBIG"
    cut_prefix full.out s.out
    end

    begin "file size limit: solve --resume -o FILE stops on a record; a resume without it completes"
    limited 64 out solve -t 2 --resume -o r.out big.txt
    expect_rc 2
    expect_err_line "sudokubench: write error: r.out: $XFBIG"
    cut_prefix full.out r.out
    run solve -t 2 --resume -o r.out big.txt
    expect_rc 0
    expect_file full.out r.out
    end

    while IFS='|' read -r name args; do
        begin "file size limit: $name -o FILE: exit 2, the message names FILE, whole records kept"
        # shellcheck disable=SC2086 # args is a word list on purpose
        "$BIN" $args >full.out 2>/dev/null
        # shellcheck disable=SC2086
        limited 64 out $args -o x.out
        expect_rc 2
        expect_err_line "sudokubench: write error: x.out: $XFBIG"
        cut_prefix full.out x.out
        end
    done <<EOF
generate|generate -n 2000 -t 2
rate|rate -t 2 big.txt
augment|augment -n 3000 big.txt
EOF

    begin "file size limit: generate -t 2 >FILE (stdout): 'standard output' named, whole records kept"
    "$BIN" generate -n 2000 -t 2 >full.out
    limited 64 g.out generate -n 2000 -t 2
    expect_rc 2
    expect_err_line "sudokubench: write error: standard output: $XFBIG"
    cut_prefix full.out g.out
    end

    begin "file size limit: validate -o FILE and >FILE at limit 0: exit 2, the summary's file named"
    if ldd "$BIN" 2>/dev/null | grep -q 'libomp\.so'; then
        # LLVM's OpenMP runtime sizes a shared-memory file when it starts and dies (exit 135,
        # "Can't set size of SHM") under a zero file-size limit, before the program runs
        skip "LLVM's libomp cannot start under ulimit -f 0 (its start-up shared-memory file)"
    else
        limited 0 out validate -o v.out big.txt
        expect_rc 2
        expect_err_line "sudokubench: write error: v.out: $XFBIG"
        [ ! -s v.out ] || fail "v.out holds $(stat -c %s v.out) bytes"
        limited 0 v2.out validate big.txt
        expect_rc 2
        expect_err_line "sudokubench: write error: standard output: $XFBIG"
    fi
    end
}
if xfsz_default; then
    xfsz_cases
else
    begin "file size limit: a write past ulimit -f is a write error, not a SIGXFSZ kill"
    skip "SIGXFSZ is ignored in this shell and env --default-signal is missing"
    end
fi

# Run alone: the total of this part's cases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
fi
