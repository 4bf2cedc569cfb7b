#!/bin/sh
# mca.sh — where a kernel's hot loop spends its cycles on CPUs we do not have:
# llvm-mca's static model of one loop body per stamp, per microarchitecture.
#
#   scripts/measure/mca.sh [BUILD]        (BUILD: a build dir whose gen/ holds the tables; default build)
#
# Environment: MCA_CPUS, the CPUs to model (LLVM -mcpu names; default below); MCA, the llvm-mca
# to run; CC; MCA_FLAGS_<stamp> (sse4, avx2, avx512bw, avx512), the stamp's -m flags (make mca
# passes the Makefile's KERNEL_FLAGS_<stamp>; the defaults here are a copy for a direct run).
#
# Regions (marked in temporary copies of the kernel sources; the tree is never touched):
#   avx512-round  one whole-board round of the AVX-512 kernel's settle (kernel.h), stamped
#                 with VBMI (avx512: byte permutes) and without (avx512bw: word permutes)
#   band-hidden   one unit of the band kernel's hidden-singles pass (kernel_band.h): a
#                 changed digit's words (two digits' at 32 bytes), their hidden cells and the
#                 pass's sums, stamped at avx2 (32-byte) and sse4 (16-byte)
#   band-count    the cell count of one naked-singles iteration of the band kernel (cells
#                 with one digit left, two or more, an empty cell, the fresh singles), at avx2
#                 and sse4: the chain a settle waits on, each iteration on the last
#   band-walk     the rest of an iteration that places one single: the index planes, the
#                 single's digit and its peers out of the board's vectors (the count and the
#                 walk are marked apart: gcc lays the loop out rotated, the walk before the
#                 count). llvm-mca assumes no load depends on a store, so the index planes'
#                 store-to-load forwarding (about 5 cycles on these cores) is not in its figure
# A region runs on each CPU of MCA_CPUS whose -march (asked of CC) has the region's
# instructions: the AVX-512 rounds only on AVX-512 CPUs (the avx512 one needs VBMI).
# LLVM 14 (Debian 12) has no model of its own for every CPU it names: sapphirerapids runs its
# Skylake-server model, alderlake its Skylake-client one, icelake-server its Ice Lake one
# (the busiest port's prefix says which: SKX, SKL, ICX; Zn3 for znver3).
# Prints per region and CPU: cycles per iteration (steady state of 200 back-to-back bodies,
# an upper bound on throughput since a settle round depends on the one before), uops, and the
# busiest port with its cycles; then the cycles as a Markdown table, a row per region and a
# column per CPU. A model, not a measurement: docs/performance.md says which figures were
# checked against `sudokubench bench` on a real CPU.
#
# MCA_CHECK=1 only marks and compiles: it checks that every region's markers are still found
# in the sources and enclose instructions in the assembly (a moved or restructured loop fails
# it), without llvm-mca. make test runs it (make test-mca-marks).
set -eu
BUILD=${1:-build}
MCA=${MCA:-llvm-mca}
CC=${CC:-gcc}
MCA_CPUS=${MCA_CPUS:-sapphirerapids alderlake icelake-server cascadelake znver3}
MCA_FLAGS_sse4=${MCA_FLAGS_sse4:--msse4.1 -mpopcnt}
MCA_FLAGS_avx2=${MCA_FLAGS_avx2:--mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt}
MCA_FLAGS_avx512bw=${MCA_FLAGS_avx512bw:--mavx512f -mavx512bw -mavx512vl $MCA_FLAGS_avx2}
MCA_FLAGS_avx512=${MCA_FLAGS_avx512:-$MCA_FLAGS_avx512bw -mavx512vpopcntdq -mavx512vbmi \
-mavx512bitalg}
MCA_CHECK=${MCA_CHECK:-0}
[ "$MCA_CHECK" = 1 ] || command -v "$MCA" >/dev/null ||
    { echo "mca.sh: $MCA not found (Debian package llvm)" >&2; exit 2; }
[ -d "$BUILD/gen" ] || { echo "mca.sh: $BUILD/gen missing: run make BUILD=$BUILD" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One copy of the kernel sources per set of marks, since a region is the first marked one a
# stamp compiles to: top/ (the rounds and the hidden body), count/ and walk/. The copies are
# compiled in place of src/kernel/: their includes of their own folder ("kernel_band.h")
# find the marked copy, those by path from src/ ("search/search.h") the tree's (-Isrc).
for set in top count walk; do
    mkdir "$tmp/$set"
    cp src/kernel/*.h src/kernel/*.c "$tmp/$set"/
done

# mark FILE START END: put LLVM-MCA markers before the first line containing START and after
# the first later line containing END (both must exist: a moved loop fails loudly). FILE is
# relative to $tmp.
mark() {
    python3 - "$tmp/$1" "$2" "$3" <<'PY'
import sys
path, start, end = sys.argv[1:]
lines = open(path).read().split('\n')
name = 'src/kernel/' + path.rsplit('/', 1)[1]
i = next((k for k, l in enumerate(lines) if start in l), None)
if i is None:
    sys.exit('mca.sh: no line of %s holds the region start %r: move the marks' % (name, start))
j = next((k for k in range(i + 1, len(lines)) if end in lines[k]), None)
if j is None:
    sys.exit('mca.sh: no line of %s after %r holds the region end %r' % (name, start, end))
lines.insert(j + 1, '__asm volatile("# LLVM-MCA-END");')
lines.insert(i, '__asm volatile("# LLVM-MCA-BEGIN");')
open(path, 'w').write('\n'.join(lines))
PY
}
mark top/kernel.h "/* Per house: once (digits with a place)" \
    "return 0; /* an empty cell in the round's new board */"
mark top/kernel_band.h "const sbv h = sbb_hidden_of(sbb_unit_at(x, d1, d2), &none);" \
    "hid1 |= h;"
mark count/kernel_band.h "sbv4 once, twice;" "const sbv4 fresh = once & ~twice & ~done;"
mark walk/kernel_band.h "done |= fresh;" "SBB_NAKED_WALK(v);"

# has CPU MACRO: CC's -march=CPU defines MACRO (the CPU has the region's instructions).
has() {
    $CC -march="$1" -dM -E - </dev/null 2>/dev/null | grep -q "^#define $2 "
}

table="$tmp/table"
: >"$table"
# region NAME SET STAMP MACRO: compile STAMP's .c from copy SET with its flags, cut the first
# marked region, model it on each CPU of MCA_CPUS that has MACRO.
region() {
    name=$1 set=$2 stamp=$3 macro=$4
    case $stamp in
    sse4) flags=$MCA_FLAGS_sse4 ;;
    avx2) flags=$MCA_FLAGS_avx2 ;;
    avx512bw) flags=$MCA_FLAGS_avx512bw ;;
    *) flags=$MCA_FLAGS_avx512 ;;
    esac
    # shellcheck disable=SC2086 # flags are words
    $CC -std=c11 -D_GNU_SOURCE -DSB_EXPERT -O3 -Iinclude -Isrc -I"$BUILD/gen" $flags -S \
        -o "$tmp/$name.s" "$tmp/$set/kernel_$stamp.c"
    # The first marked region, without directives; n counts its instructions. Where gcc lays
    # a loop out rotated, the region's end marker comes before its start: the region then runs
    # from the start to the first jump back to a label above the end marker, and on from that
    # label to the marker.
    python3 - "$tmp/$name.s" <<'PY' | grep -v '^[[:space:]]*\.' >"$tmp/$name.r.s" || true
import re, sys
lines = open(sys.argv[1]).read().split('\n')
b = next((i for i, l in enumerate(lines) if 'LLVM-MCA-BEGIN' in l), None)
e = next((i for i, l in enumerate(lines) if 'LLVM-MCA-END' in l), None)
out = []
if b is not None and e is not None:
    if e > b:
        out = lines[b:e + 1]
    else:
        labels = {l[:-1]: i for i, l in enumerate(lines) if re.match(r'^\.L\w+:$', l)}
        for l in lines[b:]:
            out.append(l)
            m = re.match(r'\s*j\w*\s+(\.L\w+)$', l)
            if m and labels.get(m.group(1), e) < e:
                out += lines[labels[m.group(1)]:e + 1]
                break
print('\n'.join(out))
PY
    n=$(grep -c '^[[:space:]][[:space:]]*[a-z]' "$tmp/$name.r.s" || true)
    if [ "$n" -lt 10 ]; then
        echo "mca.sh: region $name has $n instructions in $stamp's assembly: its markers" \
            "(mark, below) no longer enclose the loop body" >&2
        exit 1
    fi
    if [ "$MCA_CHECK" = 1 ]; then
        echo "mca.sh: region $name: $n instructions"
        return
    fi
    row="| $name |"
    for cpu in $MCA_CPUS; do
        if ! has "$cpu" "$macro"; then
            row="$row - |"
            continue
        fi
        line=$("$MCA" -mcpu="$cpu" -iterations=200 -resource-pressure "$tmp/$name.r.s" 2>/dev/null |
            awk -v name="$name" -v cpu="$cpu" '
                /^Instructions:/ { n = $2 / 200 }
                /^Total Cycles:/ { c = $3 / 200 }
                /^Total uOps:/ { u = $3 / 200 }
                /^\[[0-9.]+\] +- / { res[nres++] = $3 }  # in column order: units of a
                                                         # group ([12.0], [12.1]) count too
                /^Resource pressure per iteration:/ { getline; getline; for (i = 1; i <= NF; i++)
                    if ($i != "-" && $i + 0 > best) { best = $i + 0; port = res[i - 1] } }
                END { printf "%-16s %-15s %7.1f cycles %6.1f instr %6.1f uops  busiest %s %.1f\n",
                      name, cpu, c, n, u, port, best }')
        echo "$line"
        row="$row $(echo "$line" | awk '{ print $3 }') |"
    done
    echo "$row" >>"$table"
}
region avx512-round top avx512 __AVX512VBMI__
region avx512bw-round top avx512bw __AVX512BW__
region band-hidden-avx2 top avx2 __AVX2__
region band-hidden-sse4 top sse4 __SSE4_1__
region band-count-avx2 count avx2 __AVX2__
region band-count-sse4 count sse4 __SSE4_1__
region band-walk-avx2 walk avx2 __AVX2__
region band-walk-sse4 walk sse4 __SSE4_1__
[ "$MCA_CHECK" = 1 ] && exit 0

version=$("$MCA" --version | awk '/LLVM version/ { print "llvm-mca", $NF; exit }')
echo
echo "cycles per iteration ($version; - : the CPU lacks the region's instructions)"
echo
printf '| region |'
for cpu in $MCA_CPUS; do printf ' %s |' "$cpu"; done
printf '\n|---|'
for cpu in $MCA_CPUS; do printf -- '---:|'; done
echo
cat "$table"
