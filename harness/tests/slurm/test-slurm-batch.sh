#!/usr/bin/env bash
# scripts/slurm/submit and merge end to end on a one-node Slurm cluster started here from
# Debian's slurm-wlm and munge, on a machine without a GPU: a job array of one task per
# solution, no GPU asked for (JUDGE_SLURM_GRES=""), every task judged by ./judge batch;
# the task of a solution that does not compile finds its CE, the other reports "no GPU",
# and the merge folds the rows into the table ./judge batch prints. Skipped (exit 77) with
# the reason where the cluster cannot start here: not root, no slurm-wlm or munge, no nvcc.
# Usage: test-slurm-batch.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
source_dir="$1"
build_dir="$2"
skip() {
    echo "skipped: $*"
    exit 77
}
[ "$(id -u)" = 0 ] || skip "slurmctld and slurmd run as root here, and this is not root"
for program in slurmctld slurmd sbatch sinfo squeue munged; do
    command -v "$program" >/dev/null || skip "no $program (Debian's slurm-wlm and munge)"
done
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || skip "no nvcc: a task could not compile"

work="$(mktemp -d /tmp/gemm-slurm-test.XXXXXX)"
chmod 0755 "$work"
pids=()
cleanup() {
    local pid
    for file in "$work"/slurmd.pid "$work"/slurmctld.pid "$work"/munged.pid; do
        [ -f "$file" ] && pid="$(cat "$file")" && [ -n "$pid" ] && kill "$pid" 2>/dev/null
    done
    sleep 0.5
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "FAILED: $*"
    for log in slurmctld.log slurmd.log munged.log; do
        [ -f "$work/$log" ] && { echo "== $log (last lines)"; tail -n 15 "$work/$log"; }
    done
    for log in "$work"/results/slurm-*.log; do
        [ -f "$log" ] && { echo "== $(basename "$log")"; cat "$log"; }
    done
    exit 1
}
# Waits up to $1 seconds for the command that follows to succeed.
wait_for() {
    local limit="$1" start=$SECONDS
    shift
    until "$@" >/dev/null 2>&1; do
        [ $((SECONDS - start)) -lt "$limit" ] || return 1
        sleep 0.5
    done
}

# munge: a key of its own and a socket in the test's folder.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/munge.socket" --pid-file="$work/munged.pid" \
    --log-file="$work/munged.log" --seed-file="$work/munged.seed" ||
    skip "munged would not start: $(tail -n 1 "$work/munged.log" 2>/dev/null)"
wait_for 10 test -S "$work/munge.socket" || skip "munged made no socket"

# Slurm: this host as controller and only node, on ports of its own, no cgroups, no accounting.
# MinJobAge=4: sbatch --wait sleeps 2 s, then 8 s, then 32 s between its polls, as long as
# its sleep is shorter than half of how long an ended job is kept (MinJobAge, 300 s by
# default; Debian's Slurm 22.05 halves it, some versions quarter it): with 4 it polls every
# 2 s, and an ended job is kept longer than a poll. With 300, tasks that took 11 s under load
# were waited for 42 s; with 6, tasks of 3 s for 10 s (a poll at 2 s, the next at 10).
host="$(hostname -s)"
port=$((20000 + RANDOM % 20000))
node_line="$(slurmd -C 2>/dev/null | head -n 1)"
[ -n "$node_line" ] || skip "slurmd -C does not describe this node"
mkdir -p "$work/state" "$work/spool" "$work/results"
cat >"$work/slurm.conf" <<CONF
ClusterName=gemmjudgetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=4
MpiDefault=none
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -c -f "$SLURM_CONF" || skip "slurmctld would not start: $(tail -n 1 "$work/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" || skip "slurmd would not start: $(tail -n 1 "$work/slurmd.log" 2>/dev/null)"
wait_for 30 sh -c 'sinfo -h -o %t | grep -q idle' || fail "the node never became idle: $(sinfo 2>&1)"
echo "a one-node Slurm cluster is up on $host (port $port)"

# Two solutions: one that does not compile, one that does (and finds no GPU).
mkdir -p "$work/subs"
cp "$source_dir/harness/tests/known-bad/compile-error.cu" "$work/subs/compile-error.cu"
cp "$source_dir/solutions/01-naive.cu" "$work/subs/naive.cu"
export GEMM_JUDGE_BUILD_DIR="$build_dir" PATH="/usr/local/cuda/bin:$PATH"
cache="$build_dir/test-compile-cache"
JUDGE_SLURM_GRES="" JUDGE_SLURM_WAIT=1 timeout 150 "$source_dir/scripts/slurm/submit" "$work/results" "$work/subs" \
    -- --no-history --cache-dir "$cache" >"$work/submit.out" 2>&1 || fail "submit: $(cat "$work/submit.out")"
cat "$work/submit.out"
grep -q "submitted job" "$work/submit.out" || fail "submit said no job"

"$source_dir/scripts/slurm/merge" "$work/results" --json "$work/merged.json" >"$work/table.txt" 2>&1
status=$?
cat "$work/table.txt"
[ "$status" = 0 ] || fail "merge exited $status"
grep -Eq "compile-error\.cu +CE " "$work/table.txt" || fail "no CE row for compile-error.cu"
grep -Eq "naive\.cu +no GPU " "$work/table.txt" || fail "no 'no GPU' row for naive.cu"
grep -q "^2 submissions (worst verdict: 1 CE)" "$work/table.txt" || fail "the totals line is not right"
grep -q "^no GPU for 1 submission: compiled, not run" "$work/table.txt" || fail "no line saying why naive.cu was not run"
# The leaderboard's order: a verdict about the solution (CE) before no verdict (no GPU).
[ "$(grep -c '"submission"' "$work/merged.json")" = 2 ] || fail "merged.json does not hold two rows"
python3 - "$work/merged.json" <<'PY' || fail "merged.json is not the table"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["worst"] for r in rows] == ["CE", None] and [r["no_gpu"] for r in rows] == [False, True], rows
assert rows[0]["submission"].endswith("compile-error.cu") and rows[0]["counts"].get("CE", 0) > 0, rows[0]
assert rows[1]["submission"].endswith("naive.cu"), rows[1]
PY
echo "passed: the array's two tasks ran, found the CE and no GPU, and the merge gives the table"
