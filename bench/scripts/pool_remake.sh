#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Remake or resume a self-play file of the NNUE data pool from its manifest
# line (issue 29; docs/nnue.md, "The data pool"): the one command a new
# machine needs when the pool was lost with the old one.
#
#   bench/scripts/pool_remake.sh [-m MANIFEST] [-p POOL] [-d DATAGEN] [-t THREADS] [-r [-N]] FILE [-- FLAG...]
#
# FILE is a selfplay line of MANIFEST (default docs/nnue-pool-manifest.tsv,
# the copy committed at the end of every session). Its settings column is
# turned back into tuong-datagen's flags. The datagen binary is DATAGEN, or
# BIN/tuong-datagen-COMMIT (BIN = POOL/../bin), built from `git archive
# COMMIT` of this checkout when missing; the opening book is
# POOL/../openings/NAME, taken from COMMIT when missing; its sha256 must
# match the settings' NAME@SHA.
#
# Without -r: plays the line's games in the foreground into POOL (default
# $TUONG_DATA_DIR or ${XDG_DATA_HOME:-~/.local/share}/tuong/data), runs
# `pool verify`, and compares the new manifest line with MANIFEST's
# (positions, games, sha256, commit, net): "remade FILE: ... same" and exit 0, or
# "error: ... differs" and exit 1. A pool that already holds part of FILE
# is resumed up to the line's games.
# With -r: goes on without a game limit in the background, at idle CPU
# priority (chrt --idle 0, nice 19; -N: nice 19 only), appending to
# POOL/FILE's .log; prints the process id (stop it with SIGTERM).
# FLAGs after -- go to tuong-datagen as they are (e.g. --new-commit, or
# with -r, --games N to stop there). THREADS defaults to the number of cores.
set -euo pipefail

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "pool_remake.sh: error: $*" >&2; exit 1; }

root=$(cd "$(dirname "$0")/../.." && pwd)
manifest=$root/docs/nnue-pool-manifest.tsv
pool=${TUONG_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/tuong/data}
datagen='' threads=$(nproc 2>/dev/null || echo 2) resume=0 sched_idle=1
while getopts "m:p:d:t:rNh" opt; do
  case $opt in
    m) manifest=$OPTARG ;;
    p) pool=$OPTARG ;;
    d) datagen=$OPTARG ;;
    t) threads=$OPTARG ;;
    r) resume=1 ;;
    N) sched_idle=0 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
file=$1
shift
if [ $# -gt 0 ]; then
  [ "$1" = "--" ] || usage
  shift
fi
extra=("$@")
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "-t wants a number of worker processes, not '$threads'"
[ -r "$manifest" ] || die "cannot read the manifest $manifest"

# The manifest's columns: file kind positions games next sha256 commit net nodes seed settings source created updated.
line=$(awk -F'\t' -v f="$file" '$1 == f { print; exit }' "$manifest")
[ -n "$line" ] || die "$file is not in $manifest"
IFS=$'\t' read -r _ kind positions games _ sha commit net nodes seed settings _ <<<"$line"
[ "$kind" = selfplay ] || die "$file is a $kind line: remake it with tuong-datagen rescore (docs/nnue.md)"
[[ $games =~ ^[0-9]+$ ]] || die "$file has no game count ('$games'): a pool run cannot stop where it did"

# A binary or a book taken from the line's commit needs a commit git knows:
# a build from a changed tree ("-dirty") cannot be made again.
need_commit() {
  [[ $commit =~ ^[0-9a-f]{7,40}$ ]] || die "$file's commit '$commit' is not a git commit: give its book and -d DATAGEN"
}

# The settings column back into flags (bench/nnue/generate.c, settings_text).
flags=() book=
IFS=',' read -ra pairs <<<"$settings"
for kv in "${pairs[@]}"; do
  key=${kv%%=*} val=${kv#*=}
  case $key in
    hard) flags+=(--hard-nodes "$val") ;;
    random-plies | skip-plies | score-cap | max-plies | hash) flags+=("--$key" "$val") ;;
    resign) [[ $val =~ ^(-?[0-9]+)x([0-9]+)$ ]] || die "bad resign setting '$val'"
      flags+=(--resign-score "${BASH_REMATCH[1]}" --resign-moves "${BASH_REMATCH[2]}") ;;
    draw) [[ $val =~ ^(-?[0-9]+)x([0-9]+)from([0-9]+)$ ]] || die "bad draw setting '$val'"
      flags+=(--draw-score "${BASH_REMATCH[1]}" --draw-plies "${BASH_REMATCH[2]}" --draw-from "${BASH_REMATCH[3]}") ;;
    openings) book=$val ;;
    *) die "unknown setting '$key' in $file's line" ;;
  esac
done
[[ $book =~ ^([^@/]+)@([0-9a-f]+)$ ]] || die "$file's settings name no opening book as NAME@SHA"
book_name=${BASH_REMATCH[1]} book_sha=${BASH_REMATCH[2]}

home=$(dirname "$pool")
mkdir -p "$pool" "$home/bin" "$home/openings"

# The opening book of the commit, checked against its hash.
book_path=$home/openings/$book_name
if [ ! -e "$book_path" ]; then
  need_commit
  git -C "$root" show "$commit:tests/data/openings/$book_name" >"$book_path.tmp" ||
    { rm -f "$book_path.tmp"; die "no $book_name at $commit, and none in $home/openings"; }
  mv "$book_path.tmp" "$book_path"
fi
case $(sha256sum "$book_path") in
  "$book_sha"*) ;;
  *) die "$book_path does not have the sha256 $book_sha... of the line" ;;
esac

# The datagen binary of the commit, built once and kept beside the pool.
if [ -z "$datagen" ]; then
  datagen=$home/bin/tuong-datagen-${commit:0:7}
  if [ ! -x "$datagen" ]; then
    need_commit
    src=$(mktemp -d)
    trap 'rm -rf "$src"' EXIT
    echo "pool_remake.sh: building tuong-datagen at $commit" >&2
    git -C "$root" archive "$commit" | tar -x -C "$src" || die "cannot take $commit out of $root"
    # The archive has no .git: name the commit, or the manifest would say "unknown".
    if ! { cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
      TUONG_GIT_COMMIT=$(git -C "$root" rev-parse --short=8 "$commit") \
        cmake --build "$src/build" -j"$threads" --target tuong-datagen >/dev/null; }; then
      die "tuong-datagen of $commit did not build"
    fi
    cp "$src/build/tuong-datagen" "$datagen"
  fi
fi
[ -x "$datagen" ] || die "no datagen binary $datagen"

run=("$datagen" pool run --pool "$pool" --seed "$seed" --nodes "$nodes" "${flags[@]}" --threads "$threads"
  --openings "$book_path")
if [ "$resume" = 1 ]; then
  log=$pool/${file%.bin}.log
  idle=()
  [ "$sched_idle" = 1 ] && chrt --idle 0 true 2>/dev/null && idle=(chrt --idle 0)
  nohup "${idle[@]}" nice -n 19 "${run[@]}" --progress 600 "${extra[@]}" >>"$log" 2>&1 &
  echo "pool_remake.sh: $file goes on in the background, process $!, log $log"
  exit 0
fi

"${run[@]}" --games "$games" --progress 0 "${extra[@]}" || die "the pool run of $file failed"
"$datagen" pool verify --pool "$pool" >/dev/null || die "pool verify failed in $pool"
got=$(awk -F'\t' -v f="$file" '$1 == f { print $3, $4, $6, $7, $8; exit }' "$pool/manifest.tsv")
want="$positions $games $sha $commit $net"
[ "$got" = "$want" ] ||
  die "$file differs from the line: positions games sha256 commit net are '$got', the manifest says '$want'"
echo "remade $file: $positions positions, $games games, sha256 ${sha:0:8}..., net $net: same as the manifest"
