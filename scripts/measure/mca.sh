#!/bin/sh
# mca.sh — where a kernel's hot loop spends its cycles on CPUs we do not have:
# llvm-mca's static model of one loop body per stamp, per microarchitecture.
#
#   scripts/measure/mca.sh [BUILD]        (BUILD: a build dir whose gen/ holds the tables; default build)
#
# Regions (marked in temporary copies of the kernel headers; the tree is never touched):
#   avx512-round  one whole-board round of the AVX-512 kernel's settle (kernel.h), stamped
#                 with VBMI (avx512: byte permutes) and without (avx512bw: word permutes)
#   band-hidden   one digit vector of the band kernel's hidden-singles pass (kernel_band.h),
#                 stamped at avx2 (32-byte) and sse4 (16-byte)
#   band-naked    one naked-singles iteration of the band kernel that places one single (the
#                 cell count, the index planes, the single's digit and its peers' update),
#                 at avx2 and sse4: the chain a settle waits on, each iteration on the last
# CPUs: LLVM 14's sapphirerapids and icelake-server (both run its Skylake-server port model),
# cascadelake (the avx512bw level's CPUs: no VBMI), znver3 (its newest AMD model: no AVX-512,
# so only the band stamps run there).
# Prints per region and CPU: cycles per iteration (steady state of 200 back-to-back bodies,
# an upper bound on throughput since a settle round depends on the one before), uops, and the
# busiest port with its cycles. A model, not a measurement: docs/performance.md says which
# figures were checked against `sudokubench bench` on a real CPU.
set -eu
BUILD=${1:-build}
MCA=${MCA:-llvm-mca}
CC=${CC:-gcc}
command -v "$MCA" >/dev/null || { echo "mca.sh: $MCA not found (Debian package llvm)" >&2; exit 2; }
[ -d "$BUILD/gen" ] || { echo "mca.sh: $BUILD/gen missing: run make BUILD=$BUILD first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One copy of the kernel sources per set of marks (a region is the first marked one a stamp
# compiles to): naked/ holds the naked-singles marks, the top copy the others.
cp src/kernel/*.h src/kernel/*.c "$tmp"/
mkdir "$tmp/naked"
cp src/kernel/*.h src/kernel/*.c "$tmp/naked"/

# mark FILE START END: put LLVM-MCA markers before the first line containing START and after
# the first later line containing END (both must exist: a moved loop fails loudly). FILE is
# relative to $tmp.
mark() {
    python3 - "$tmp/$1" "$2" "$3" <<'EOF'
import sys
path, start, end = sys.argv[1:]
lines = open(path).read().split('\n')
i = next(k for k, l in enumerate(lines) if start in l)
j = next(k for k in range(i + 1, len(lines)) if end in lines[k])
lines.insert(j + 1, '__asm volatile("# LLVM-MCA-END");')
lines.insert(i, '__asm volatile("# LLVM-MCA-BEGIN");')
open(path, 'w').write('\n'.join(lines))
EOF
}
mark kernel.h "/* Per house: once (digits with a place)" "changed |= _mm512_cmpneq_epi16_mask(nv, v[j]);"
mark kernel_band.h "hid[k] = sbb_hidden_of(bv[k], &none);" "hid1 |= hid[k];"
mark naked/kernel_band.h "sbv4 once, twice;" "dirty |= SBB_HIDDEN_DIRTY(d);"

x86="-mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt"
avx512bw="-mavx512f -mavx512bw -mavx512vl $x86"
avx512="$avx512bw -mavx512vpopcntdq -mavx512vbmi -mavx512bitalg"
# region NAME STAMP FLAGS CPUS...: compile STAMP's .c, cut the first marked region, model it
# (from the naked/ copy when NAME starts with band-naked).
region() {
    name=$1 stamp=$2 flags=$3
    shift 3
    src=$tmp
    case $name in band-naked*) src=$tmp/naked ;; esac
    $CC -std=c11 -D_GNU_SOURCE -DSB_EXPERT -O3 -Iinclude -Isrc -I"$src" -I"$BUILD/gen" $flags -S \
        -o "$tmp/$name.s" "$src/kernel_$stamp.c"
    awk '/LLVM-MCA-BEGIN/{f=1} f{print} /LLVM-MCA-END/{exit}' "$tmp/$name.s" |
        grep -v '^[[:space:]]*\.' >"$tmp/$name.r.s"
    for cpu in "$@"; do
        "$MCA" -mcpu="$cpu" -iterations=200 -resource-pressure "$tmp/$name.r.s" 2>/dev/null |
            awk -v name="$name" -v cpu="$cpu" '
                /^Instructions:/ { n = $2 / 200 }
                /^Total Cycles:/ { c = $3 / 200 }
                /^Total uOps:/ { u = $3 / 200 }
                /^\[[0-9.]+\] +- / { res[nres++] = $3 }  # in column order: units of a
                                                         # group ([12.0], [12.1]) count too
                /^Resource pressure per iteration:/ { getline; getline; for (i = 1; i <= NF; i++)
                    if ($i != "-" && $i + 0 > best) { best = $i + 0; port = res[i - 1] } }
                END { printf "%-13s %-15s %7.1f cycles %6.1f instr %6.1f uops  busiest %s %.1f\n",
                      name, cpu, c, n, u, port, best }'
    done
}
region avx512-round avx512 "$avx512" sapphirerapids icelake-server
region avx512bw-round avx512bw "$avx512bw" sapphirerapids cascadelake
region band-hidden-avx2 avx2 "$x86" sapphirerapids znver3
region band-hidden-sse4 sse4 "-msse4.1 -mpopcnt" sapphirerapids znver3
region band-naked-avx2 avx2 "$x86" sapphirerapids znver3
region band-naked-sse4 sse4 "-msse4.1 -mpopcnt" sapphirerapids znver3
