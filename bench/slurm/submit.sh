#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Submit a pipeline: its array job (one task per shard) and its merge job,
# which starts when every task has succeeded (--dependency=afterok).
#   bench/slurm/submit.sh datagen|match|perft [SBATCH OPTIONS...] [-- ARRAY-ONLY SBATCH OPTIONS...]
# The pipeline's parameters come from the environment (TUONG_BIN, RUN_DIR,
# SHARDS and the pipeline's own: see bench/slurm/<pipeline>.sbatch and
# docs/cluster.md). Options before `--` go to both jobs (--partition,
# --account, --time ...), options after it to the array only
# (--cpus-per-task, --mem, --time ...). Prints "ARRAY_JOB_ID MERGE_JOB_ID".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pipeline=${1:-}
case $pipeline in
  datagen | match | perft) shift ;;
  *)
    sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
: "${SHARDS:?set SHARDS (docs/cluster.md)}" "${TUONG_BIN:?set TUONG_BIN}" "${RUN_DIR:?set RUN_DIR}"
both=() array=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then
    shift
    array=("$@")
    break
  fi
  both+=("$1")
  shift
done
mkdir -p "$RUN_DIR"
export TUONG_SLURM_DIR=$here SHARDS TUONG_BIN RUN_DIR
# Logs beside the results; the job scripts are read from here.
array_id=$(sbatch --parsable --chdir="$RUN_DIR" --array="0-$((SHARDS - 1))" "${both[@]}" "${array[@]}" \
  "$here/$pipeline.sbatch")
array_id=${array_id%%;*}
merge_id=$(sbatch --parsable --chdir="$RUN_DIR" --dependency="afterok:$array_id" --kill-on-invalid-dep=yes \
  "${both[@]}" "$here/$pipeline-merge.sbatch")
echo "${array_id} ${merge_id%%;*}"
