#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPRT of a patch against a base, both built from git refs of this repository.
#
#   bench/scripts/sprt.sh BASE_REF [PATCH_REF] [-- extra tuong-match options]
#
# PATCH_REF defaults to HEAD. Each ref is built (Release) in its own
# temporary worktree under ${TUONG_SPRT_DIR:-/tmp/tuong-sprt}; tuong-match
# comes from the patch build. Defaults: 10+0.1, xiangqi.epd in random order,
# elo0=0 elo1=5 alpha=beta=0.05, concurrency 2, up to 20000 games. Anything
# after `--` is appended, so later options override these. The worktrees
# stay registered for the next run; remove them with
#   git worktree remove --force $TUONG_SPRT_DIR/base (and .../patch).
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
base_ref=$1; shift
patch_ref=HEAD
if [ $# -ge 1 ] && [ "$1" != "--" ]; then patch_ref=$1; shift; fi
[ $# -ge 1 ] && [ "$1" = "--" ] && shift

repo=$(git rev-parse --show-toplevel)
work=${TUONG_SPRT_DIR:-/tmp/tuong-sprt}
mkdir -p "$work"

build() { # ref name -> prints the build directory
  local ref=$1 name=$2 tree="$work/$2"
  local sha
  sha=$(git -C "$repo" rev-parse --verify "$ref^{commit}")
  if [ -d "$tree" ]; then
    git -C "$tree" checkout -q --detach "$sha"
  else
    git -C "$repo" worktree add -q --detach "$tree" "$sha"
  fi
  cmake -S "$tree" -B "$tree/build" -DCMAKE_BUILD_TYPE=Release -DTUONG_TESTS=OFF >/dev/null
  cmake --build "$tree/build" -j2 >/dev/null
  echo "$tree/build"
}

echo "building base $base_ref and patch $patch_ref in $work" >&2
base_build=$(build "$base_ref" base)
patch_build=$(build "$patch_ref" patch)

exec "$patch_build/tuong-match" \
  -engine name=patch cmd="$patch_build/tuong" \
  -engine name=base cmd="$base_build/tuong" \
  -each proto=ucci option.hashsize=16 \
  -openings "$repo/tests/data/openings/xiangqi.epd" -order random -seed "${TUONG_SPRT_SEED:-1}" \
  -games 20000 -tc 10+0.1 -concurrency 2 \
  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
  -pgnout "$work/sprt.pgn" "$@"
