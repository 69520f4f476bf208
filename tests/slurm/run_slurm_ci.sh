#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The sharded pipelines on a real Slurm (issue 31, docs/cluster.md): start
# a single-node Slurm on this machine (tests/slurm/slurm_local.sh; installs
# slurm-wlm and munge when missing, needs root), submit datagen, match and
# perft through bench/slurm/submit.sh at tiny sizes with 3-4 shards, and
# check each merged result against the same run on one machine, byte for
# byte. Then run each pipeline again, requeue one task in the middle of its
# run (scontrol requeue kills it and queues it again), and check that the
# result is still the same. The daemons are stopped at the end whatever
# happens. About 50 seconds on two cores.
#   tests/slurm/run_slurm_ci.sh [BUILD_DIR]       (default: build)
# TUONG_SLURM_CI_KEEP=1 keeps the work directory (its path is printed).
# shellcheck disable=SC2086 # the tools' flag lists are held in strings
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
build=$(cd "${1:-build}" && pwd)
for tool in tuong tuong-match tuong-datagen; do
  [ -x "$build/$tool" ] || { echo "run_slurm_ci: $build/$tool is missing (build first)"; exit 1; }
done
source tests/slurm/slurm_local.sh
slurm_local_install

work=$(mktemp -d "${TMPDIR:-/tmp}/tuong-slurm-ci.XXXXXX")
finish() {
  local rc=$?
  slurm_local_stop
  if [ "${TUONG_SLURM_CI_KEEP:-0}" = 1 ] || [ $rc -ne 0 ]; then
    echo "run_slurm_ci: work directory kept: $work"
  else
    rm -rf "$work"
  fi
  exit $rc
}
trap finish EXIT
trap 'exit 130' INT TERM
started=$SECONDS
TIMEOUT=${TUONG_SLURM_CI_TIMEOUT:-240} # the whole script, seconds

fail() {
  echo "run_slurm_ci: FAIL: $*"
  for f in "$work"/run*/*.log "$SLURM_LOCAL_DIR"/log/slurmctld.log; do
    [ -e "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
  done
  exit 1
}

# Wait until none of the jobs is pending or running; fail at the timeout.
wait_jobs() {
  while [ -n "$(squeue -h -j "$(IFS=,; echo "$*")" -t pending,running,configuring,completing,requeued 2>/dev/null)" ]; do
    [ $((SECONDS - started)) -lt "$TIMEOUT" ] || fail "timeout after $TIMEOUT s waiting for jobs $*"
    sleep 1
  done
}

# State of a job (array tasks: one line each).
job_states() { squeue -h -j "$1" -t all -o '%i %T'; }

expect_completed() {
  local bad
  bad=$(job_states "$1" | grep -v ' COMPLETED$' || true)
  [ -z "$bad" ] || fail "jobs not completed: $bad"
}

# Submit a pipeline; sets ARRAY_ID and MERGE_ID.
submit() {
  local ids
  ids=$(bench/slurm/submit.sh "$@") || fail "submit $*"
  read -r ARRAY_ID MERGE_ID <<<"$ids"
}

# The state letter of process PID (T: stopped), from /proc (procps may be
# missing on a bare Debian).
proc_state() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  stat=${stat##*) }
  echo "${stat%% *}"
}

# Requeue array task K of ARRAY_ID in the middle of its run: it is killed
# and runs again from the start of its shard (after cred_expire,
# slurm_local.sh). A shard of these sizes lasts a fraction of a second,
# too short to be caught by polling on a busy machine: in the CI of
# 2026-12-04 one ended between the poll and the requeue, and the test saw
# no kill. So the pipelines run through stand-ins (make_stand_ins) with
# the array submitted held: the task's stand-in stops itself (SIGSTOP)
# before it runs the tool, and the tool is then let run in slices of a few
# milliseconds until its shard file (FILE.part) is begun, and requeued
# while stopped. Slurm's kill ends a stopped process all the same (SIGKILL
# after KillWait, slurm_local.sh).
requeue_mid_run() {
  local k=$1 part=$2 tool=$3 key pid="" polls=0
  key="$STAND_IN_DIR/$tool-${ARRAY_ID}_$k"
  touch "$key.hold"
  scontrol release "$ARRAY_ID" || fail "scontrol release $ARRAY_ID"
  # the stand-in has written its pid and stopped itself
  until [ -s "$key.pid" ] && pid=$(cat "$key.pid") && [ "$(proc_state "$pid")" = T ]; do
    [ $((SECONDS - started)) -lt "$TIMEOUT" ] || fail "timeout waiting for task $k to start"
    sleep 0.05
  done
  until [ -e "$part" ]; do
    [ $((++polls)) -lt 10000 ] || fail "task ${ARRAY_ID}_$k ($tool) did not begin $part"
    if ! { kill -CONT "$pid" && sleep 0.005 && kill -STOP "$pid"; } 2>/dev/null; then
      fail "task ${ARRAY_ID}_$k ($tool) ended before it could be requeued mid-run"
    fi
  done
  scontrol requeue "${ARRAY_ID}_$k" || fail "scontrol requeue ${ARRAY_ID}_$k"
  echo "  requeued task ${ARRAY_ID}_$k mid-run ($(stat -c %s "$part" 2>/dev/null || echo 0) bytes in $(basename "$part"))"
  REQUEUED_LOGS+=("$RUN_DIR/$4-${ARRAY_ID}_$k.log")
}

# PGN without the clock's readings (the Date tag, the seconds of each move).
pgn_norm() { sed -E -e '/^\[Date /d' -e 's/ [0-9]+\.[0-9]+s\}/}/g' "$1" | tr -s ' \n' '  '; }

slurm_local_start "$work/slurm" || fail "slurm did not start"
echo "run_slurm_ci: single-node Slurm up ($(sinfo -h -o '%N %c CPUs'))"
export TUONG_BIN=$build
ref=$work/ref
mkdir -p "$ref"

# ---- the pipelines' tiny sizes and their one-machine references --------
openings=$repo/tests/data/openings/xiangqi.epd
datagen_args="--nodes 300 --max-plies 120 --hash 1 --openings $openings"
datagen_games=16
match_args="-engine name=a cmd=$build/tuong -engine name=b cmd=$build/tuong option.Hash=8 -each proto=uci \
option.Hash=16 -openings $openings -order random -seed 3 -games 12 -depth 3 -maxplies 120 \
-sprt elo0=0 elo1=300 alpha=0.2 beta=0.2"
perft_depth=5

"$build/tuong-datagen" --out "$ref/datagen.bin" --games $datagen_games --seed 11 --threads 2 --progress 0 \
  $datagen_args 2>/dev/null
"$build/tuong-match" $match_args -quiet -concurrency 1 -pgnout "$ref/match.pgn" >"$ref/match.out"
sed -n '/^=== /,$p' "$ref/match.out" >"$ref/match-report.txt"
"$build/tuong" perft $perft_depth | sed '/^Time (ms)/,$d' >"$ref/perft.txt"
echo "run_slurm_ci: one-machine references made ($((SECONDS - started)) s)"

# Compare RUN_DIR's merged results with the references.
check_results() {
  local dir=$1
  cmp "$ref/datagen.bin" "$dir/datagen.bin" || fail "datagen: merged file differs from the one-machine run"
  # tuong-match merge prints the report after a blank line, as tuong-match does
  sed -n '/^=== /,$p' "$dir/match-report.txt" | cmp - "$ref/match-report.txt" ||
    fail "match: merged report differs"
  [ "$(pgn_norm "$ref/match.pgn")" = "$(pgn_norm "$dir/match.pgn")" ] || fail "match: merged PGN games differ"
  cmp "$ref/perft.txt" "$dir/perft.txt" || fail "perft: merged counts differ"
}

# Stand-ins for the tools in STAND_IN_DIR: each runs its tool from the
# build, but array task K of job A first writes its pid to
# TOOL-A_K.pid and stops itself when TOOL-A_K.hold is there (once: the
# requeued run goes straight through).
make_stand_ins() {
  local tool
  export STAND_IN_DIR=$work/stand-in REAL_BIN=$build
  mkdir -p "$STAND_IN_DIR"
  for tool in tuong tuong-match tuong-datagen; do
    cat >"$STAND_IN_DIR/$tool" <<'STAND_IN'
#!/usr/bin/env bash
key="$STAND_IN_DIR/$(basename "$0")-${SLURM_ARRAY_JOB_ID:-}_${SLURM_ARRAY_TASK_ID:-}"
if [ -e "$key.hold" ] && [ ! -e "$key.pid" ]; then
  echo $$ >"$key.pid"
  kill -STOP $$
fi
exec "$REAL_BIN/$(basename "$0")" "$@"
STAND_IN
    chmod +x "$STAND_IN_DIR/$tool"
  done
}

# Submit the three pipelines into RUN_DIR; with `requeue`, requeue one
# task of each in the middle of its run (through the stand-ins, each
# array submitted held so that no task can start before requeue_mid_run
# marks it).
run_pipelines() {
  local dir=$1 mode=${2:-} ids=() hold=()
  export RUN_DIR=$dir TUONG_BIN=$build
  if [ "$mode" = requeue ]; then
    make_stand_ins
    TUONG_BIN=$STAND_IN_DIR
    hold=(--hold)
  fi
  SHARDS=4 GAMES=$datagen_games SEED=11 DATAGEN_ARGS=$datagen_args PROGRESS=0 submit datagen -- --cpus-per-task=1 "${hold[@]}"
  ids+=("$ARRAY_ID" "$MERGE_ID")
  [ "$mode" = requeue ] && requeue_mid_run 1 "$dir/datagen-1-of-4.bin.part" tuong-datagen tuong-datagen
  SHARDS=3 MATCH_ARGS=$match_args submit match -- --cpus-per-task=1 "${hold[@]}"
  ids+=("$ARRAY_ID" "$MERGE_ID")
  [ "$mode" = requeue ] && requeue_mid_run 0 "$dir/match-0-of-3.txt.part" tuong-match tuong-match
  SHARDS=4 DEPTH=$perft_depth SPLIT=2 submit perft -- --cpus-per-task=1 "${hold[@]}"
  ids+=("$ARRAY_ID" "$MERGE_ID")
  [ "$mode" = requeue ] && requeue_mid_run 2 "$dir/perft-2-of-4.txt.part" tuong tuong-perft
  wait_jobs "${ids[@]}"
  for id in "${ids[@]}"; do expect_completed "$id"; done
}

run_pipelines "$work/run1"
check_results "$work/run1"
echo "run_slurm_ci: datagen (4 shards), match (3), perft (4) merged = one machine, byte for byte ($((SECONDS - started)) s)"

REQUEUED_LOGS=()
run_pipelines "$work/run2" requeue
check_results "$work/run2"
for log in "${REQUEUED_LOGS[@]}"; do
  grep -q 'DUE TO JOB REQUEUE' "$log" || fail "$(basename "$log"): no sign that the task was killed by the requeue"
done
echo "run_slurm_ci: again with a task of each pipeline requeued mid-run: still identical ($((SECONDS - started)) s)"
echo "run_slurm_ci: PASS"
