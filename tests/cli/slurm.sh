#!/usr/bin/env bash
# tests/cli/slurm.sh — build/sudokubench-mpi under a real Slurm on one machine (
# docs/scale.md "Slurm"): Debian's slurm-wlm and munge, started here with a private munged,
# slurmctld and two slurmd (two node names on one machine: `slurmd -N NAME`, each node's own
# port, each slurmd in its own UTS namespace so its node has its own hostname, and so its
# ranks see another processor name and -o FILE goes through MPI-IO as across real nodes).
# The job script of docs/scale.md is submitted with sbatch (its text taken from the doc, only
# its paths replaced; node and task counts given on sbatch's command line, which overrides
# #SBATCH lines), the doc's interactive srun line runs, and mpirun runs inside an allocation:
# every output must be one plain process's bytes (stdout, stderr, exit code, -o file).
#
# Usage: tests/cli/slurm.sh [PLAIN_BINARY [MPI_BINARY]]   (run from the repo root, as root)
# Skips (exit 0, one "slurm.sh: skipped: ..." line) without root, the Slurm or munge daemons,
# unshare or mpirun, and when the daemons cannot start or their nodes never come up (a
# container that refuses them), naming the step. Once the nodes are up, a wrong result fails
# (exit 1). Every daemon and job process carries SB_SLURM_RUN=PID:DIR in its environment: they
# are all killed on exit, and those of runs whose shell is gone are killed first.
# Config: proctrack/linuxproc and task/affinity (no cgroups needed), no accounting, state,
# spool, logs and TmpFS (PMIx's per-node directories) under the scratch directory.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

skip() {
    echo "slurm.sh: skipped: $*"
    exit 0
}
[ "$(id -u)" = 0 ] || skip "not root (the daemons run as root here)"
for c in munged slurmctld slurmd sbatch srun sinfo scancel; do
    command -v "$c" >/dev/null 2>&1 || skip "$c not found (make deps-all installs slurm-wlm and munge)"
done
command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) not found"
command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1 ||
    skip "${MPIRUN:-mpirun} not found (make deps-all installs openmpi-bin)"
[ -x "${2:-build/sudokubench-mpi}" ] || skip "${2:-build/sudokubench-mpi} not built (make mpi)"

# mpi.sh, sourced (it returns before its own cases): BIN, MBIN, TIMEOUT (120 s per command),
# the scratch directory T (the harness: tcase, sb) and its inputs (mixed.txt: invalid, blank
# and comment lines, an unsolvable puzzle, a last line without its newline), and the
# SUDOKUBENCH_MPI_* settings (3000-byte segments), which srun and sbatch pass on to the ranks
. "$ROOT/tests/cli/mpi.sh" "${1:-build/sudokubench}" "${2:-build/sudokubench-mpi}"

ID=$$
export SB_SLURM_RUN="$ID:$T"
# run_pids: the processes of run PID (daemons, job steps, tasks), never this shell
run_pids() {
    grep -lz "^SB_SLURM_RUN=$1:" /proc/[0-9]*/environ 2>/dev/null |
        sed 's#^/proc/\([0-9]*\)/environ$#\1#' | grep -vx "$$"
}
# teardown PID: kills the processes of run PID (TERM, then KILL what is left after 10 s;
# zombies count as gone: nothing here reaps the daemons' double-forked parents)
teardown() {
    local p pids limit=$((SECONDS + 10))
    pids=$(run_pids "$1")
    [ -n "$pids" ] && kill $pids 2>/dev/null
    while [ "$SECONDS" -le "$limit" ]; do
        pids=$(for p in $(run_pids "$1"); do
            [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" = Z ] || echo "$p"
        done)
        [ -z "$pids" ] && return
        sleep 0.2
    done
    kill -9 $pids 2>/dev/null
}
trap 'teardown "$ID"; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# leftovers of runs that ended without tearing down (their shell is gone)
for p in $(grep -az '^SB_SLURM_RUN=' /proc/[0-9]*/environ 2>/dev/null | tr '\0' '\n' |
    sed -n 's/^.*SB_SLURM_RUN=\([0-9]*\):.*/\1/p' | sort -u); do
    [ "$p" != "$ID" ] && ! kill -0 "$p" 2>/dev/null && teardown "$p"
done

# ---- the cluster -----------------------------------------------------------------------------
# Ports from this shell's PID, so parallel runs (other BUILDs) never share one.
PORT=$((20000 + (ID % 10000) * 4))
NODES=("sb${ID}n1" "sb${ID}n2")
mkdir -p munge munge-key state log tmp
chmod 755 munge
chmod 700 munge-key
for n in "${NODES[@]}"; do mkdir -p "spool/$n" "tmp/$n"; done
head -c 1024 /dev/urandom >munge-key/key
chmod 400 munge-key/key
cat >slurm.conf <<EOF
ClusterName=sb$ID
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$PORT
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
TmpFS=$T/tmp/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=${NODES[0]} NodeHostname=%n NodeAddr=127.0.0.1 Port=$((PORT + 1)) CPUs=2 State=UNKNOWN
NodeName=${NODES[1]} NodeHostname=%n NodeAddr=127.0.0.1 Port=$((PORT + 2)) CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf
# Open MPI's session directories and PMIx's client files stay in this run's directory
export TMPDIR=$T/tmp
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Open MPI 4.1's TCP BTL, which ranks on different nodes talk through, can kill a rank with
# SIGSEGV inside MPI_Init: a peer's connection arrives before MPI_Init has added that peer (a
# NULL call under mca_btl_tcp.so in the core's backtrace; open-mpi/ompi#3035). Here it hit
# about one multi-node job in ten under load, with one address or several. That is Open MPI's
# start-up failing, not the program: with the shim (tests/cli/mpi_ready.c, the third argument)
# every rank that returns from MPI_Init leaves a file, and a job that ends with fewer files
# than ranks is run again (at most twice more, said on stderr). A crash after MPI_Init, the
# program's, is never run again.
READY_SHIM=${3:-}
READY=$T/ready
exec 3>&2 # the notes of mpi_job: the script's stderr, not a case's output (tcase fails on that)
# mpi_job RANKS OUT ERR CMD...: runs CMD (an srun) with stdout to OUT and stderr to ERR, and
# again when fewer than RANKS ranks got through MPI_Init. @return CMD's exit code.
mpi_job() {
    local ranks=$1 out=$2 err=$3 try rc
    shift 3
    for try in 1 2 3; do
        rm -rf "$READY" && mkdir -p "$READY"
        if [ -n "$READY_SHIM" ]; then
            LD_PRELOAD=$READY_SHIM SB_MPI_READY_DIR=$READY "$@" >"$out" 2>"$err"
        else
            "$@" >"$out" 2>"$err"
        fi
        rc=$?
        [ -z "$READY_SHIM" ] || [ "$(ls "$READY" | wc -l)" -ge "$ranks" ] && return "$rc"
        echo "# note: $(ls "$READY" | wc -l) of $ranks ranks got through MPI_Init (exit $rc):" \
            "Open MPI's start-up failed; running the job again" >&3
    done
    return "$rc"
}

# step WHAT CMD...: one start-up step; a failure skips the whole script with its reason
step() {
    local what=$1 err
    shift
    err=$("$@" 2>&1) || skip "daemon start failed at '$what': ${err:-exit $?}"
}
step "munged" munged -f --socket="$T/munge/socket" --key-file="$T/munge-key/key" \
    --pid-file="$T/munge/pid" --log-file="$T/log/munged.log" --seed-file="$T/munge/seed"
step "slurmctld" slurmctld -f "$SLURM_CONF"
for n in "${NODES[@]}"; do
    step "slurmd $n" unshare --uts sh -c 'hostname "$1" && exec slurmd -N "$1" -f "$2"' \
        sh "$n" "$SLURM_CONF"
done
# both nodes idle before the first job (bounded poll: they register asynchronously)
limit=$((SECONDS + 30))
until [ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" = 2 ]; do
    [ "$SECONDS" -le "$limit" ] || skip "daemons up, but the nodes not idle in 30 s: \
$(sinfo -h -N -o '%N %t' 2>&1 | tr '\n' ' ')$(tail -q -n 2 log/slurmd-*.log 2>/dev/null || echo '(no slurmd log)')"
    sleep 0.2
done
echo "slurm.sh: $(sinfo --version), $(munged --version 2>&1 | cut -d' ' -f1), \
Open MPI $(mpirun --version | sed -n 's/.*(Open MPI) //p'): nodes ${NODES[*]} up after $SECONDS s"

# ---- inputs ----------------------------------------------------------------------------------
# puzzles.txt (the doc's job): the samples (comment lines among them) and 20k generated puzzles,
# in 64 KiB segments (SEGMENT_BIG) so that its 2 MB span many rounds of every rank
cat "$ROOT"/datasets/samples/*.txt >puzzles.txt
"$BIN" generate -n 20000 --seed 27 -t 1 >>puzzles.txt
SEGMENT_BIG=65536

# same_run WHAT OUT ERR RC PLAIN_ARGS...: the run's stdout, stderr and exit code against one
# plain process's with PLAIN_ARGS (harness.sh's sb)
same_run() {
    local what=$1 o=$2 e=$3 rc=$4 prc
    shift 4
    prc=$(sb p.out p.err "$@")
    cmp -s p.out "$o" || echo "$what: stdout differs from one process ($(wc -c <"$o") vs $(wc -c <p.out) bytes)"
    cmp -s p.err "$e" || echo "$what: stderr differs: $(diff p.err "$e" | head -n 5)"
    [ "$rc" = "$prc" ] || echo "$what: exit $rc, one process $prc"
}

# io_seen LOG FILE: LOG's lines of Open MPI's io framework verbosity (OMPI_MCA_io_base_verbose,
# rank 0's) moved out of it into LOG.io; true when they show MPI_File_open of FILE, which only
# ranks on two nodes do for -o (mpi.c prints no write-mode report of its own).
IO_LINE='^\[sb[0-9]*n[0-9]:[0-9]*\] \(mca: base: \|io:\)'
io_seen() {
    grep "$IO_LINE" "$1" >"$1.io"
    grep -v "$IO_LINE" "$1" >"$1.rest"
    mv "$1.rest" "$1"
    grep -q "io:base:file_select: new file: \(.*/\)\?$2\$" "$1.io"
}

# ---- cases -----------------------------------------------------------------------------------
t_nodes() {
    local names
    names=$(timeout "$TIMEOUT" srun -N 2 -n 2 hostname 2>&1 | sort)
    [ "$names" = "$(printf '%s\n' "${NODES[@]}" | sort)" ] ||
        echo "srun -N 2 hostname: want ${NODES[*]}: $names"
}

# The job script of docs/scale.md ("### Slurm", its first sh block), paths replaced: the
# binary by $MBIN, /scratch/$USER/ by this run's directory. Its #SBATCH counts are for a real
# cluster; sbatch's options override them for two 2-CPU nodes.
t_sbatch_doc() {
    local rc prc
    sed -n '/^### Slurm/,/^```$/p' "$ROOT/docs/scale.md" | sed '1,/^```sh$/d; $d' >doc-job.sh
    grep -q '^#SBATCH' doc-job.sh && grep -q 'build/sudokubench-mpi' doc-job.sh &&
        grep -q '/scratch/\$USER/puzzles.txt' doc-job.sh ||
        { echo "docs/scale.md: no job script with build/sudokubench-mpi and /scratch/\$USER/puzzles.txt"; return; }
    sed "s#build/sudokubench-mpi#$MBIN#; s#/scratch/\$USER/#$T/#g" doc-job.sh >job.sh
    SUDOKUBENCH_MPI_SEGMENT=$SEGMENT_BIG OMPI_MCA_io_base_verbose=100 \
        timeout "$TIMEOUT" sbatch --wait --chdir="$T" --nodes=2 \
        --ntasks-per-node=2 --cpus-per-task=1 --output="$T/solve-%j.log" job.sh >sbatch.out 2>sbatch.err
    rc=$?
    grep -q '^Submitted batch job' sbatch.out || { echo "sbatch: $(cat sbatch.err)"; return; }
    [ -s sbatch.err ] && echo "sbatch printed: $(head -n 3 sbatch.err)"
    io_seen solve-*.log solved.csv || echo "job: no MPI-IO open of solved.csv (not MPI ranks on 2 nodes?)"
    prc=$(sb p.out p.err solve -t 1 -f csv -o plain.csv puzzles.txt)
    cmp -s plain.csv solved.csv || echo "job's solved.csv differs from one process's"
    cmp -s p.err solve-*.log || echo "job log differs from one process's stderr: $(head -n 5 solve-*.log)"
    [ "$rc" = "$prc" ] || echo "job exit $rc, one process $prc"
}

# The doc's interactive line: srun --mpi=pmix over both nodes, 2 ranks each, to stdout, with
# invalid lines (messages in order, exit 1: srun then adds its own line per task, which is
# srun's, not the program's, so it is dropped).
SRUN_EXIT='^srun: error: sb[0-9]*n[0-9]: tasks\? [0-9,-]*: Exited with exit code [0-9]*$'
t_srun() {
    local rc
    mpi_job 4 s.out s.raw timeout "$TIMEOUT" srun --mpi=pmix -N 2 -n 4 -c 1 "$MBIN" solve -t 1 \
        -f csv mixed.txt
    rc=$?
    grep -v "$SRUN_EXIT" s.raw >s.err
    same_run "srun solve csv" s.out s.err "$rc" solve -t 1 -f csv mixed.txt
    mpi_job 4 s.out s.raw timeout "$TIMEOUT" srun --mpi=pmix -N 2 -n 4 -c 1 "$MBIN" validate \
        mixed.txt
    rc=$?
    grep -v "$SRUN_EXIT" s.raw >s.err
    same_run "srun validate" s.out s.err "$rc" validate mixed.txt
}

# -o FILE with ranks on both nodes: MPI-IO is the path taken (other processor names); mpi.c
# prints no write-mode report, so Open MPI's io framework verbosity shows it (as hosts.sh).
t_mpiio() {
    rm -f m.o
    SUDOKUBENCH_MPI_SEGMENT=$SEGMENT_BIG OMPI_MCA_io_base_verbose=100 \
        mpi_job 2 m.out m.err timeout "$TIMEOUT" srun --mpi=pmix -N 2 -n 2 "$MBIN" \
        solve -t 1 -f json -o m.o puzzles.txt
    io_seen m.err m.o || echo "-o across nodes: no MPI-IO open of m.o: $(head -n 3 m.err)"
    if [ -s m.out ] || [ -s m.err ]; then
        echo "-o across nodes: output besides the file: $(head -c 300 m.out m.err)"
    fi
    sb p.out p.err solve -t 1 -f json -o plain.json puzzles.txt >/dev/null
    cmp -s plain.json m.o || echo "-o across nodes through MPI-IO: file differs"
}

# mpirun inside an allocation (Open MPI's slurm launcher starts its daemons with srun)
t_mpirun() {
    local rc prc
    rm -f r.csv
    OMPI_MCA_io_base_verbose=100 timeout "$TIMEOUT" sbatch --wait --chdir="$T" -N 2 \
        --ntasks-per-node=2 --output="$T/r.log" \
        --wrap "mpirun -q $MBIN solve -t 1 -f csv -o r.csv mixed.txt" >sbatch.out 2>sbatch.err
    rc=$?
    grep -q '^Submitted batch job' sbatch.out || { echo "sbatch: $(cat sbatch.err)"; return; }
    io_seen r.log r.csv || echo "mpirun in sbatch: no MPI-IO open of r.csv (not ranks on 2 nodes?)"
    prc=$(sb p.out p.err solve -t 1 -f csv -o plain.csv mixed.txt)
    cmp -s plain.csv r.csv || echo "mpirun in sbatch: -o file differs from one process's"
    grep -v -e "$EPOLL_NOISE" r.log >r.err # the runtime's warning, never the program's
    cmp -s p.err r.err || echo "mpirun in sbatch: log differs from one process's stderr: $(diff p.err r.err | head -n 5)"
    [ "$rc" = "$prc" ] || echo "mpirun in sbatch: job exit $rc, one process $prc"
}

tcase "2 nodes: srun -N 2 runs hostname on each, with its node's name" t_nodes
[ "$NFAIL" = 0 ] || { echo "$NPASS passed, $NFAIL failed (nodes not usable)"; exit 1; }
tcase "docs/scale.md's job script under sbatch (2 nodes x 2 ranks): same -o bytes, empty log" t_sbatch_doc
tcase "srun --mpi=pmix -N 2 -n 4: solve and validate, same stdout, stderr, exit code" t_srun
tcase "-o across nodes through MPI-IO: same bytes" t_mpiio
tcase "mpirun inside an sbatch allocation: same -o bytes, log, exit code" t_mpirun
echo "$NPASS passed, $NFAIL failed"
[ "$NFAIL" = 0 ]
