#!/bin/sh
# scripts/measure/tdoku-plugin.sh — build tdoku (../shared/peers) as a sudokubench solver plug-in.
# usage: scripts/measure/tdoku-plugin.sh OUTDIR [native|avx512|avx2|sse4.2]   (default native)
# Prints the path of the plug-in. Compiles tdoku's solver sources with the flags its own CMake
# build uses (-O3, then -march=native or the level's -m flags), plus examples/plugins/tdoku.c,
# into OUTDIR/tdoku-plugin-LEVEL.so. A runtime build: nothing of tdoku enters this tree.
# Needs g++ and cc. PEERS overrides where tdoku's source is (default ../shared/peers).
set -e
out=${1:?usage: tdoku-plugin.sh OUTDIR [native|avx512|avx2|sse4.2]}; level=${2:-native}
here=$(cd "$(dirname "$0")/../.." && pwd)
peers=${PEERS:-$here/../shared/peers}
src=$peers/tdoku/src
[ -f "$src/solver_dpll_triad_simd.cc" ] || { echo "tdoku-plugin.sh: no tdoku source in $peers/tdoku" >&2; exit 2; }
case $level in
  native) arch=-march=native ;; avx512) arch="-mavx512vl -mavx512bitalg" ;;
  avx2) arch=-mavx2 ;; sse4.2) arch=-msse4.2 ;;
  *) echo "tdoku-plugin.sh: unknown level $level" >&2; exit 2 ;;
esac
mkdir -p "$out"; out=$(cd "$out" && pwd)
work=$out/tdoku-plugin-$level.d
mkdir -p "$work"
so=$out/tdoku-plugin-$level.so
# built already, and newer than the shim and the ABI header: reused (rm it to rebuild)
if [ "$so" -nt "$here/examples/plugins/tdoku.c" ] && [ "$so" -nt "$here/include/sudokubench_plugin.h" ]; then
    echo "$so"
    exit 0
fi
# shellcheck disable=SC2086 # $arch is a list of flags
{
  ${CXX:-g++} -O3 $arch -fPIC -c "$src/solver_dpll_triad_simd.cc" -o "$work/solver.o" &&
  ${CXX:-g++} -O3 $arch -fPIC -c "$src/util.cc" -o "$work/util.o" &&
  ${CC:-cc} -O3 $arch -fPIC -I"$here/include" -c "$here/examples/plugins/tdoku.c" -o "$work/shim.o" &&
  ${CXX:-g++} -shared -o "$so.tmp" "$work/shim.o" "$work/solver.o" "$work/util.o" &&
  mv "$so.tmp" "$so"
} >"$work/build.log" 2>&1 || { echo "tdoku-plugin.sh: build failed, see $work/build.log" >&2; exit 1; }
echo "$so"
