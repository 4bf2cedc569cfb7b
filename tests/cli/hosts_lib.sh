# shellcheck shell=bash
# tests/cli/hosts_lib.sh — the namespace "hosts" of tests/cli/hosts.sh, sourced by it and by
# scripts/measure/hosts_bench.sh (docs/scale.md "Across hosts (namespaces)"): N hosts, each a
# network namespace on a veth pair to this run's own bridge, with a private /24 address inside the
# namespace only, every process started in its own UTS namespace with the host's hostname;
# mpirun runs on host 1 and reaches the others through a launch agent in place of ssh.
#
# The caller defines skip (prints its reason and exits 0), T (the scratch directory: hostfile,
# agent and hostrun.err go there; under /tmp, as every namespace shares the file system),
# MPIRUN, TIMEOUT (per mpirun: a hang guard) and the MPI_FLAGS array, then calls hosts_up N
# after setting its EXIT trap (which must call teardown "$ID"). Names carry this shell's PID
# (ID), so parallel runs never collide; leftovers of runs that died (their PID gone) are
# removed first.

ID=$$
NET=10.77.$((ID % 250)).0/24 # on this run's own bridge only; never routed or given to the host
PFX=${NET%.0/24}
ns() { echo "sbh$ID-$1"; }

# teardown PID: removes the namespaces, veth pairs and bridge of run PID (veth ends go with
# their namespace or their peer).
teardown() {
    local p=$1 n l
    for n in $(ip netns list 2>/dev/null | awk '{ print $1 }' | grep "^sbh$p-"); do
        ip netns pids "$n" 2>/dev/null | xargs -r kill -9 2>/dev/null
        ip netns delete "$n" 2>/dev/null
    done
    for l in $(ip -o link show 2>/dev/null | awk -F': ' '{ print $2 }' | sed 's/@.*//' |
        grep -E "^sb(br|v)$p(a[0-9]+)?$"); do
        ip link delete "$l" 2>/dev/null
    done
}

# step WHAT CMD...: one set-up step; a failure skips the whole script with its reason
step() {
    local what=$1 err
    shift
    err=$("$@" 2>&1) || skip "host set-up failed at '$what' ($*): ${err:-exit $?}"
}

# hosts_up N: removes dead runs' leftovers, makes hosts 1..N (hostfile: one slot each),
# waits for their links, writes the launch agent, and adds the across-hosts flags to MPI_FLAGS.
hosts_up() {
    local nh=$1 h p limit
    # leftovers of runs that ended without tearing down (their shell is gone)
    for p in $( { ip netns list 2>/dev/null | sed -n 's/^sbh\([0-9]*\)-.*/\1/p'
        ip -o link show 2>/dev/null | sed -n 's/^[0-9]*: sb\(br\|v\)\([0-9]*\).*/\2/p'; } | sort -u); do
        [ "$p" != "$ID" ] && ! kill -0 "$p" 2>/dev/null && teardown "$p"
    done

    step "bridge" ip link add "sbbr$ID" type bridge
    step "bridge up" ip link set "sbbr$ID" up
    for h in $(seq 1 "$nh"); do
        step "namespace $h" ip netns add "$(ns "$h")"
        step "veth $h" ip link add "sbv${ID}a$h" type veth peer name eth0 netns "$(ns "$h")"
        step "veth $h on the bridge" ip link set "sbv${ID}a$h" master "sbbr$ID" up
        step "address of host $h" ip -n "$(ns "$h")" addr add "$PFX.$h/24" dev eth0
        step "link of host $h" ip -n "$(ns "$h")" link set eth0 up
        step "loopback of host $h" ip -n "$(ns "$h")" link set lo up
        step "hostname of host $h" ip netns exec "$(ns "$h")" unshare --uts \
            sh -c "hostname sbhost$h-$ID"
        echo "$PFX.$h slots=1" >>"$T/hostfile"
    done
    # every link up at both ends before the first launch (bounded poll: links come up
    # asynchronously; no ping here, and mpirun's own connection is the real check)
    for h in $(seq 1 "$nh"); do
        limit=$((SECONDS + 10))
        until ip -n "$(ns "$h")" -o link show eth0 | grep -q LOWER_UP &&
            ip -o link show "sbv${ID}a$h" | grep -q LOWER_UP; do
            [ "$SECONDS" -le "$limit" ] ||
                skip "host set-up failed at 'link of host $h up': no carrier in 10 s"
        done
    done

    # the launch agent in place of ssh: AGENT [options] HOST COMMAND... runs COMMAND on HOST
    # (PFX.N: namespace N, hostname sbhostN-ID; while $T/readonly.N exists, host N sees the
    # scratch directory read-only: hosts.sh's t_output_readonly)
    cat >"$T/agent" <<AG
#!/bin/sh
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
h=\${1##*.}
shift
exec ip netns exec sbh$ID-\$h unshare --uts --mount sh -c "hostname sbhost\$h-$ID
    [ -e $T/readonly.\$h ] && mount --bind $T $T && mount -o remount,bind,ro $T; exec \$*"
AG
    chmod +x "$T/agent"
    MPI_FLAGS+=(--hostfile "$T/hostfile" --mca plm_rsh_agent "$T/agent" --mca plm_rsh_no_tree_spawn 1
        --mca btl tcp,self --mca btl_tcp_if_include "$NET" --mca oob_tcp_if_include "$NET")
}

# hostrun NP CMD...: CMD on NP ranks, one per host, mpirun on host 1 (stdin to rank 0).
# Open MPI 4.1's rsh launcher races its own child: when the agent has exec'd before the parent
# calls setpgid on it, that fails with EACCES and mpirun prints a warning (harmless: the child
# set its own group first). That line is mpirun's, never the program's, so it is dropped.
SETPGID_NOISE='^\[[^]]*\] plm:rsh: Warning: setpgid([0-9]*,[0-9]*) failed in parent'
# (EPOLL_NOISE, mpi.sh: Open MPI's libevent warning about a descriptor, dropped as well.)
hostrun() {
    local np=$1 rc
    shift
    timeout -k 10 "$TIMEOUT" ip netns exec "$(ns 1)" unshare --uts sh -c 'hostname "$0"; exec "$@"' \
        "sbhost1-$ID" "$MPIRUN" "${MPI_FLAGS[@]}" -np "$np" "$@" 2>"$T/hostrun.err"
    rc=$?
    grep -v -e "$SETPGID_NOISE with errno=Permission denied(13)" -e "$EPOLL_NOISE" \
        "$T/hostrun.err" >&2
    return $rc
}
