#!/bin/sh
# scripts/guards/omp-litter.sh — removes the start-up files of LLVM's OpenMP runtime (libomp, the
# runtime of clang builds) that processes which no longer run left in /dev/shm.
#
# Why: libomp registers every process in /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid> and trusts
# a file already there. A process that died while making it (under `ulimit -f 0` its ftruncate
# fails and libomp exits, leaving the file empty) poisons its pid: every later process that
# gets the same pid dies of SIGBUS on its first parallel region, before doing any work. Pids
# wrap (pid_max is often 32768), so a long test run meets them; one failed a CI run this way.
# The program drops its own pid's file before its first OpenMP call (src/cli/main.c); this
# covers the test binaries too. A file whose pid still runs is left alone.
#
# Usage: scripts/guards/omp-litter.sh   (prints how many it removed when it removed any)
n=0
for f in /dev/shm/__KMP_REGISTERED_LIB_*; do
    [ -e "$f" ] || continue
    pid=${f#/dev/shm/__KMP_REGISTERED_LIB_}
    pid=${pid%%_*}
    case $pid in '' | *[!0-9]*) continue ;; esac
    [ -d "/proc/$pid" ] && continue
    rm -f "$f" 2>/dev/null && n=$((n + 1))
done
[ "$n" = 0 ] || echo "omp-litter: removed $n stale OpenMP start-up file(s) of finished processes from /dev/shm"
