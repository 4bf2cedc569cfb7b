#!/usr/bin/env bash
# tests/cli/hosts.sh — build/sudokubench-mpi across 3 "hosts" on one machine (
# docs/scale.md "Across hosts (namespaces)"): each host is a network namespace on a veth pair
# to a private bridge, with a private /24 address inside the namespace only, and every process
# started in its own UTS namespace with its own hostname; mpirun runs on host 1 and reaches the
# others through a launch agent (in place of ssh) that enters their namespaces. Ranks on
# different hosts talk TCP only, and MPI_Get_processor_name differs, so -o FILE goes through
# MPI-IO as across real nodes. Every command must give one plain process's stdout, stderr,
# exit code and -o file bytes. Then a host that fails: host 2 killed, or its
# link taken down, mid-run (from a point in its rank's work: the fault shim), and a host that
# cannot write -o FILE; seconds from the failure to mpirun's exit are printed as "# " lines.
#
# Usage: tests/cli/hosts.sh [PLAIN_BINARY [MPI_BINARY]]   (run from the repo root, as root;
#        SHIM=the fault shim, default next to MPI_BINARY: fault/shim.so; HOSTS_CASES="t_a t_b"
#        runs only those cases after t_hosts)
# Skips (exit 0, one "hosts.sh: skipped: ..." line) without root, ip netns, unshare or mpirun,
# and when any host set-up step fails (no CAP_NET_ADMIN in a container, say), naming the step.
# Names carry this shell's PID, so parallel runs never collide; leftovers of runs that died
# (their PID gone) are removed first; the hosts are always torn down on exit.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

skip() {
    echo "hosts.sh: skipped: $*"
    exit 0
}
[ "$(id -u)" = 0 ] || skip "not root (network namespaces need it)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) not found"
command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) not found"
command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1 ||
    skip "${MPIRUN:-mpirun} not found (make deps-all installs openmpi-bin)"
[ -x "${2:-build/sudokubench-mpi}" ] || skip "${2:-build/sudokubench-mpi} not built (make mpi)"

# mpi.sh, sourced (it returns before its own cases): BIN, MBIN, MPIRUN, TIMEOUT (120 s per
# mpirun), the scratch directory (under /tmp: every namespace shares the file system) and its
# inputs, MPI_FLAGS, and its helpers same, same_o, bench_same and t_stdin, which run the MPI
# binary through mrun, redefined below for the hosts
. "$ROOT/tests/cli/mpi.sh" "${1:-build/sudokubench}" "${2:-build/sudokubench-mpi}"
# Across hosts the job's other processes keep Open MPI's 1 s between SIGTERM and SIGKILL:
# killed at once, a rank on another host can leave its daemon a PMIx "UNREACHABLE" error to
# print, which is not the program's stderr.
for i in "${!MPI_FLAGS[@]}"; do
    if [ "${MPI_FLAGS[i]}" = odls_base_sigkill_timeout ]; then
        unset 'MPI_FLAGS[i-1]' 'MPI_FLAGS[i]' 'MPI_FLAGS[i+1]'
        break
    fi
done
MPI_FLAGS=("${MPI_FLAGS[@]}")
ONE_HOST_FLAGS=("${MPI_FLAGS[@]}")

# the hosts (hosts_lib.sh): ID, NET, PFX, ns, teardown, hosts_up and hostrun (mpirun on host 1,
# Open MPI's own harmless setpgid and epoll warnings dropped from its stderr)
. "$ROOT/tests/cli/hosts_lib.sh"
trap 'teardown "$ID"; rm -rf "$T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
hosts_up 3

# A host whose link goes down is silent, not closed: mpirun notices it only when its idle
# connection to that host's daemon fails TCP keepalive, 300 + 9 x 20 s by default. Probes
# after 1 s of silence, every 1 s, 3 missed: about 4 s (docs/scale.md).
LINK_MCA="--mca oob_tcp_keepalive_time 1 --mca oob_tcp_keepalive_intvl 1 --mca oob_tcp_keepalive_probes 3"

# mrun NP ARGS...: the MPI binary across hosts (what mpi.sh's helpers call)
mrun() {
    local np=$1
    shift
    hostrun "$np" "$MBIN" "$@"
}

# ---- inputs: mpi.sh's (mixed.txt: invalid, blank and comment lines, an unsolvable puzzle, a
# last line without its newline; small.txt; grids.txt), and a 16x16 file
"$BIN" generate --grid 4x4 -n 120 --seed 3 -t 1 >g16.txt

# ---- cases --------------------------------------------------------------------------------
eval "harness_$(declare -f tcase)" # tcase as the harness defines it (wrapped below)

t_hosts() {
    local names
    names=$(hostrun 3 hostname 2>&1)
    [ "$(printf '%s\n' "$names" | sort -u | wc -l)" = 3 ] ||
        echo "hostname on 3 ranks: want 3 distinct names: $names"
    for h in 1 2 3; do
        printf '%s\n' "$names" | grep -qx "sbhost$h-$ID" || echo "host $h missing: $names"
    done
}

t_solve() {
    NPS=3 same "solve csv" solve -t 1 -f csv mixed.txt
    NPS=2 same "solve json -t 2" solve -t 2 -f json mixed.txt
    NPS=3 same "several files, one missing" solve -t 1 small.txt missing.txt mixed.txt
    SUDOKUBENCH_MPI_SEGMENT=300 NPS=3 same "nine-line grids" solve -t 1 -f csv grids.txt
}

t_validate_rate() {
    NPS=3 same "validate" validate -t 1 mixed.txt
    NPS=3 same "rate" rate -t 1 mixed.txt
}

t_generate_augment() {
    NPS=3 same "generate" generate -n 300 --seed 7 -t 1 -f csv
    NPS=3 same "generate give-up (exit 1)" generate -n 50 --seed 1 --clues 17 --attempts 1 -t 1
    NPS=3 same "augment" augment -n 500 --seed 9 mixed.txt
}

t_geometry() {
    NPS=3 same "16x16 --grid 4x4" solve --grid 4x4 -t 1 -f csv g16.txt
    NPS=2 same "16x16 rate" rate -t 1 g16.txt
}

t_exit_codes() {
    NPS=3 same "missing file (exit 2)" solve -t 1 nothere.txt
    NPS=3 same "bad -o directory (exit 2)" solve -t 1 -o no/such/dir/x.txt small.txt
    NPS=3 same "bad option" solve --no-such-option small.txt
}

# bench on -np 1, 2, 3 hosts: the same stderr and exit code, totals equal to one process's on
# the fields that do not depend on timing, one row per rank (mpi.sh's bench_check.py)
t_bench() {
    bench_same "bench mixed.txt" -t 1 --seconds 0 --pipeline fast mixed.txt
}

# -o FILE across hosts: MPI-IO is the path taken (ranks on other hosts: processor names
# differ). mpi.c prints no write-mode report, so Open MPI's io framework verbosity is what shows
# it: its io component is selected (MPI_File_open) across hosts, and not on one host.
t_output() {
    NPS=3 same_o "solve -o" solve -t 1 -f csv mixed.txt
    NPS=2 same_o "solve -o json -t 2" solve -t 2 -f json mixed.txt
    NPS=3 same_o "validate -o" validate -t 1 mixed.txt
    NPS=3 same_o "generate -o" generate -n 300 --seed 5 -t 1 -f json
    NPS=3 same_o "augment -o" augment -n 500 --seed 2 mixed.txt
    NPS=3 same_o "16x16 -o" solve -t 1 g16.txt
    printf '# nothing\n' >empty.txt
    NPS=3 same_o "no records -o" solve -t 1 -f csv empty.txt
    rm -f m.o
    hostrun 3 --mca io_base_verbose 100 "$MBIN" solve -t 1 -o m.o small.txt >m.out 2>m.err
    grep -q "io:base:file_select" m.err ||
        echo "-o across hosts: no MPI-IO file open seen: $(head -3 m.err)"
    "$BIN" solve -t 1 small.txt | cmp -s - m.o || echo "-o across hosts, verbose run: file differs"
    rm -f m.o
    timeout "$TIMEOUT" "$MPIRUN" "${ONE_HOST_FLAGS[@]}" -np 3 --mca io_base_verbose 100 \
        "$MBIN" solve -t 1 -o m.o small.txt >m.out 2>m.err
    grep -q "io:base:file_select" m.err &&
        echo "-o on one host: MPI-IO used (pwrite expected), so the check above proves nothing"
}

# ---- a host that fails ----------------------------------------------------------------------
# The failures come from the fault shim (tests/fault/shim.c, SB_FAULT_EXEC) preloaded into host
# 2's rank: from a point in its work, never from a clock.
SHIM=${SHIM:-$(dirname "$MBIN")/fault/shim.so}

# on_host2 VAR=VALUE... -- CMD...: CMD on 3 hosts (hostrun), with the fault shim and VAR=VALUE
# (its plan) in the environment of host 2's rank only (rank 1)
on_host2() {
    local set=""
    while [ "$1" != -- ]; do
        set+=" $(printf '%q' "$1")"
        shift
    done
    shift
    hostrun 3 bash -c "if [ \"\$(hostname)\" = sbhost2-$ID ]; then
        export LD_PRELOAD=$(printf '%q' "$SHIM")$set; fi; exec \"\$0\" \"\$@\"" "$@"
}

# host_fails LABEL CMD MCA...: solve -f csv -o f.o --resume over big.txt on 3 hosts (Open MPI's
# own messages on: no -q; MCA: more mpirun flags) while host 2's rank runs CMD once it has
# written 30,000 bytes of f.o (the shim; about a quarter of its share, so mid-run on any
# machine). The job must end (timeout only guards a hang) with a non-zero exit and Open MPI's
# one message naming host 2; f.o up to its first NUL byte (a hole: host 2's segment lost
# while host 3 wrote the next) and its last newline must be a prefix of the whole output;
# then --resume on the 3 hosts must finish it: the plain run's bytes and exit code. CMD writes
# the time of the failure to failed.at: the seconds from it to mpirun's exit go to figures.
host_fails() {
    local what=$1 cmd=$2 rc t1 keep f flags=()
    shift 2
    for f in "${MPI_FLAGS[@]}"; do [ "$f" = -q ] || flags+=("$f"); done
    local MPI_FLAGS=("${flags[@]}" "$@")
    rm -f f.o f.o.resume failed.at
    on_host2 SB_FAULT_PATH=/f.o SB_FAULT_SIGNAL_WRITE=30000 \
        "SB_FAULT_EXEC=$cmd" -- "$MBIN" solve -t 1 -f csv -o f.o --resume big.txt >f.out 2>f.err
    rc=$?
    t1=$(date +%s.%N)
    [ -s failed.at ] || { echo "$what: host 2 never reached its point (exit $rc)"; head f.err; return; }
    echo "$what: $(awk -v a="$(cat failed.at)" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s" \
        "from the failure to mpirun's exit ($rc)" >>figures
    [ "$rc" != 0 ] && [ "$rc" != 124 ] || echo "$what: exit $rc, want non-zero and no timeout"
    [ "$(grep -c 'ORTE has lost communication with a remote daemon' f.err)" = 1 ] &&
        grep -q "Remote daemon: .* on node $PFX\.2\$" f.err ||
        echo "$what: want Open MPI's one message naming host 2 ($PFX.2): $(head -12 f.err)"
    grep -q "^sudokubench" f.err && echo "$what: a message of ours too: $(grep '^sudokubench' f.err)"
    keep=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); z = d.find(b"\0")
d = d if z < 0 else d[:z]; print(d.rfind(b"\n") + 1)' f.o)
    [ "$keep" -gt 0 ] && [ "$keep" -lt "$(stat -c %s full.csv)" ] &&
        cmp -s <(head -c "$keep" f.o) <(head -c "$keep" full.csv) ||
        echo "$what: f.o's $keep bytes up to its hole and last newline are not a prefix of the output"
    cmp -s f.o <(head -c "$(stat -c %s f.o)" full.csv) ||
        echo "$what: (f.o has a hole or a torn tail: $(stat -c %s f.o) bytes, $keep whole)" >>figures
    ip netns pids "$(ns 2)" | xargs -r kill -9 # what is left of host 2 is gone for good
    ${RECOVER:-} # host 2 back (a new machine in its place) for the resume
    hostrun 3 "$MBIN" solve -t 1 -f csv -o f.o --resume big.txt >f.out 2>f.err
    rc=$?
    [ "$rc" = "$full_rc" ] || echo "$what: --resume exit $rc, plain $full_rc: $(head -3 f.err)"
    cmp -s f.o full.csv || echo "$what: after --resume: $(cmp f.o full.csv 2>&1)"
}

# big.txt: 4,469 puzzles and an invalid line (exit 1), full.csv: the plain run's output
fail_input() {
    { cat "$SAMPLES/top1465.txt"; echo "bad line"
        cat "$SAMPLES/17_clue_2000.txt" "$SAMPLES/hardest_11plus_1000.txt"; } >big.txt
    "$BIN" solve -t 1 -f csv big.txt >full.csv 2>/dev/null
    full_rc=$?
}

# Every process of host 2 SIGKILLed from rank 1's point: its orted first, then the rank (the
# shim's sh's parent), so no daemon is left to report the rank's death: the host is gone.
t_kill_host() {
    fail_input
    host_fails "host 2 killed" "date +%s.%N >$T/failed.at
        for p in \$(ip netns pids $(ns 2)); do
            [ \$p = \$\$ ] || [ \$p = \$PPID ] || kill -9 \$p; done; kill -9 \$PPID"
}

# Host 2's link down (its veth's bridge end, in the test's own network namespace), at rank
# 1's point: nothing is closed, every peer just stops hearing from it.
t_link_down() {
    fail_input
    RECOVER=link_up host_fails "host 2's link down" "date +%s.%N >$T/failed.at
        nsenter --net=/proc/$ID/ns/net ip link set sbv${ID}a2 down" $LINK_MCA
    link_up # whatever happened above
}

# link_up: host 2's link up again, polled until its bridge port forwards (bounded), then every
# host's neighbour cache flushed. Host 2's address lookups begun while its link was down are
# still spending their last probes: a connection queued behind one fails with EHOSTUNREACH
# when they run out (seen: the resume's daemon on host 2 died so, unseen, and mpirun waited
# for it until the timeout). A machine put in host 2's place starts with an empty cache.
link_up() {
    local limit=$((SECONDS + 10)) h
    ip link set "sbv${ID}a2" up
    until bridge link show dev "sbv${ID}a2" | grep -q "state forwarding"; do
        [ "$SECONDS" -le "$limit" ] || { echo "host 2's link not back up"; return; }
    done
    for h in 1 2 3; do ip -n "$(ns "$h")" neigh flush all; done
}

# --resume under MPI from runs cut at several points: a plain run of solve/rate -o FILE
# --resume killed by the shim after K bytes of FILE (mid-record mostly), then that state
# resumed twice, by one plain process (dir p) and on the 3 hosts (dir m): the same FILE as an
# uninterrupted run, and the plain resume's stderr and exit code. Small segments, so the
# records to drop end inside some rank's segment of some round (mpi.c's skip_count), across
# two inputs, with an invalid line in the dropped part or after it, and for 16x16 records.
t_resume() {
    local k run rc prc
    fail_input
    head -n 300 "$SAMPLES/top1465.txt" >"$T/small.txt"
    for run in "12000 solve -t 1 -f csv" "200000 solve -t 1 -f csv" "30000 rate -t 1 -f json" \
        "9000 solve -t 1 --grid 4x4"; do
        read -r k run <<<"$run"
        local inputs=("$T/small.txt" "$T/big.txt")
        [[ $run == *4x4* ]] && inputs=("$T/g16.txt")
        rm -rf p m && mkdir p m
        (cd p && "$BIN" $run "${inputs[@]}" >full 2>/dev/null)
        # (a shell of its own, whose "Killed" notice goes to /dev/null)
        LD_PRELOAD=$SHIM SB_FAULT_PATH=/p/r.o SB_FAULT_SIGNAL=KILL SB_FAULT_SIGNAL_WRITE="$k" \
            bash -c 'cd p && timeout "$0" "$@"; exit $?' "$TIMEOUT" "$BIN" $run -o r.o --resume \
            "${inputs[@]}" 2>/dev/null
        rc=$?
        [ "$rc" = 137 ] || echo "$run, kill at $k: exit $rc, want 137 (killed mid-run)"
        cp p/r.o p/r.o.resume m/
        (cd p && "$BIN" $run -o r.o --resume "${inputs[@]}" >out 2>err)
        prc=$?
        (cd m && SUDOKUBENCH_MPI_SEGMENT=2000 hostrun 3 "$MBIN" $run -o r.o --resume \
            "${inputs[@]}" >out 2>err)
        rc=$?
        cmp -s p/r.o p/full || echo "$run, kill at $k: the plain resume differs from the full run"
        cmp -s m/r.o p/full || echo "$run, kill at $k: MPI --resume: $(cmp m/r.o p/full 2>&1)"
        cmp -s m/err p/err || echo "$run, kill at $k: stderr: $(diff p/err m/err | head -3)"
        [ "$rc" = "$prc" ] || echo "$run, kill at $k: exit $rc, plain resume $prc"
    done
}

# Host 3 sees the scratch directory read-only (its agent bind-mounts it so), so its rank cannot
# open -o FILE, which rank 0 made on host 1. Open MPI's MPI_File_open is collective inside and
# hung here when one rank's open failed; mpi.c now opens the file on every rank first: one
# message naming the file, the rank and its host, exit 2, no record in the file (rank 0 wrote
# the csv header before the ranks open it), for solve and generate.
t_output_readonly() {
    local rc cmd
    touch readonly.3
    for cmd in "solve -t 1 -f csv small.txt" "generate -n 300 --seed 5 -t 1 -f csv"; do
        rm -f r.o
        hostrun 3 "$MBIN" $cmd -o r.o >r.out 2>r.err
        rc=$?
        [ "$rc" = 2 ] || echo "$cmd: exit $rc, want 2 (124: a hang)"
        [ "$(cat r.err)" = "sudokubench: cannot open 'r.o' for -o on rank 2 (host sbhost3-$ID): Read-only file system" ] ||
            echo "$cmd: stderr: $(head -5 r.err)"
        [ -s r.out ] && echo "$cmd: wrote to stdout"
        [ "$(wc -l <r.o)" -le 1 ] || echo "$cmd: r.o holds records: $(wc -l <r.o) lines"
    done
    rm -f readonly.3
}

# HOSTS_CASES="t_a t_b": only those cases (after t_hosts), to look at one by hand
want() { [ -z "${HOSTS_CASES:-}" ] || [[ " $HOSTS_CASES " == *" $1 "* ]]; }
tcase() {
    want "$2" && harness_tcase "$@"
}
# the hosts are every shard's precondition (SB_SHARD, harness.sh): checked outside the count
SB_SHARD='' tcase "3 hosts: mpirun runs hostname on each, 3 distinct names" t_hosts
TCASE_NO=0
[ "$NFAIL" = 0 ] || { echo "$NPASS passed, $NFAIL failed (hosts not usable)"; exit 1; }
tcase "solve across hosts: csv, json -t 2, several files, invalid lines, grids" t_solve
tcase "validate and rate across hosts" t_validate_rate
tcase "generate and augment across hosts" t_generate_augment
tcase "16x16 (--grid 4x4) across hosts" t_geometry
tcase "standard input across hosts (mpi.sh's t_stdin: -np 1, 2, 3, a pipe)" t_stdin
tcase "exit codes across hosts: missing file, bad -o, bad option" t_exit_codes
tcase "bench across hosts, -np 1, 2, 3: timing-free totals equal one process's, a row per rank" t_bench
tcase "-o FILE across hosts through MPI-IO: same bytes" t_output
if [ -f "$SHIM" ]; then
    tcase "a host killed mid-run: the job ends, exit non-zero, Open MPI names the host, -o a prefix --resume finishes" t_kill_host
    tcase "a host's link down mid-run: the same" t_link_down
    tcase "--resume on 3 hosts from plain runs killed at 4 points: the plain resume's bytes, stderr, exit" t_resume
else
    echo "# a host that fails: skipped: no fault shim $SHIM (make $SHIM)"
fi
tcase "-o FILE that one host cannot write: one message naming it, the rank and host, exit 2, no hang" t_output_readonly
[ -s figures ] && sed 's/^/# /' figures

echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
