# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the bench/slurm job scripts (sourced, not run): the shard this
# array task is, and the checks of the parameters every job needs.
# Parameters come from the environment of `sbatch` (docs/cluster.md):
#   TUONG_BIN   directory holding tuong, tuong-match and tuong-datagen
#   RUN_DIR     shared directory for the shards' files and the merged result
#   SHARDS      number of shards N (the array is 0..N-1)

need() {
  local name
  for name; do
    [ -n "${!name:-}" ] || { echo "tuong slurm: error: set $name (docs/cluster.md)" >&2; exit 2; }
  done
}

# K and N of this array task; exits with a message outside an array job.
shard_of_task() {
  need TUONG_BIN RUN_DIR SHARDS
  [ -n "${SLURM_ARRAY_TASK_ID:-}" ] || { echo "tuong slurm: error: not an array task (sbatch --array=0-$((SHARDS - 1)))" >&2; exit 2; }
  # shellcheck disable=SC2034 # K and N are for the job script
  K=$SLURM_ARRAY_TASK_ID
  N=$SHARDS
  if [ -n "${SLURM_ARRAY_TASK_COUNT:-}" ] && [ "$SLURM_ARRAY_TASK_COUNT" != "$N" ]; then
    echo "tuong slurm: error: the array has $SLURM_ARRAY_TASK_COUNT tasks but SHARDS=$N" >&2
    exit 2
  fi
  mkdir -p "$RUN_DIR"
}

# CPUs this task may use.
task_cpus() { echo "${SLURM_CPUS_PER_TASK:-1}"; }

# The shard files of a pipeline that exist, in shard order, into SHARD_FILES
# (a merge names any that is missing).
shard_files() {
  local prefix=$1 ext=$2 k
  SHARD_FILES=()
  for ((k = 0; k < SHARDS; k++)); do
    [ -e "$RUN_DIR/$prefix-$k-of-$SHARDS.$ext" ] && SHARD_FILES+=("$RUN_DIR/$prefix-$k-of-$SHARDS.$ext")
  done
  [ ${#SHARD_FILES[@]} -gt 0 ] || { echo "tuong slurm: error: no $prefix-*-of-$SHARDS.$ext in $RUN_DIR" >&2; exit 1; }
}
