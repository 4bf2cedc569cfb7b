#!/usr/bin/env bash
# shellcheck disable=SC2154 # BIN, HERE, T, TIMEOUT, RC, P1.. come from tests/cli/run.sh
# tests/cli/outputs.sh — output files against the inputs:
#   - an output that is one of the inputs (-o FILE of solve, validate, rate, generate and
#     augment, with and without --resume; bench --json OUT) is refused with exit 2 before it
#     is opened, whichever name reaches it: the same name, ./NAME, a hard link, a symbolic
#     link, standard input redirected from it, a --geometry FILE.
# Sourced by tests/cli/run.sh (its harness and puzzles); run directly, it runs
# tests/cli/run.sh. No case depends on machine speed.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    exec bash "$(dirname "$0")/run.sh" "$@"
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
