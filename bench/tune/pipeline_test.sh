#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tune_pipeline test: the tuner's whole path on a few quick games.
# usage: pipeline_test.sh TUONG_TUNE ENGINE_EVAL_WEIGHTS_C WORKDIR
set -eu
tool=$1 weights=$2 dir=$3
mkdir -p "$dir"
# 1. The writer reproduces the committed weights file (comments aside), so
#    the tuner's output is what the engine compiles.
"$tool" write "$dir/written.c"
grep -v '^ *\(/\*\|\*\)' "$weights" > "$dir/a.txt"
grep -v '^ *\(/\*\|\*\)' "$dir/written.c" > "$dir/b.txt"
diff "$dir/a.txt" "$dir/b.txt"
# 2. Self-play with a fixed seed is reproducible.
"$tool" selfplay --games 3 --depth 1 --seed 7 --out "$dir/g1.pgn" 2>/dev/null
"$tool" selfplay --games 3 --depth 1 --seed 7 --out "$dir/g2.pgn" 2>/dev/null
cmp "$dir/g1.pgn" "$dir/g2.pgn"
# 3. PGN to labelled positions, every line readable.
"$tool" pgn2fen --skip 2 --out "$dir/data.txt" "$dir/g1.pgn"
test "$(grep -c ' | ' "$dir/data.txt")" -gt 20
# 4. tuong-match's PGN (FEN and SetUp tags, Black first, move comments):
#    every move of the game is read.
here=$(dirname "$0")
"$tool" pgn2fen --skip 0 --keep-checks --out "$dir/match.txt" "$here/testdata/match_sample.pgn" 2>"$dir/match.log"
grep -q '1 games, 57 positions, 0 games cut short' "$dir/match.log"
grep -q ' | 0-1$' "$dir/match.txt"
# 5. A few tuning steps write a complete weights file.
"$tool" tune "$dir/data.txt" --iterations 5 --out "$dir/tuned.c" 2>"$dir/tune.log"
grep -q 'iteration 5 error' "$dir/tune.log"
grep -q '^    .Tempo = {' "$dir/tuned.c"
# 5b. The header records the data file and the whole command line, quoted
#     as a shell reads it, and a `*/` in an argument does not end the
#     comment early (the first `*/` in the file closes the header).
(cd "$dir" && "$tool" tune data.txt --iterations 1 --freeze 'Psqt*,Tempo,no*/such' --out cmdline.c 2>/dev/null)
grep -qF ' * Texel-tuned on data.txt from the compiled-in weights: ' "$dir/cmdline.c"
grep -qxF " * command: tuong-tune tune data.txt --iterations 1 --freeze 'Psqt*,Tempo,no*''/such' --out cmdline.c" \
  "$dir/cmdline.c"
test "$(grep -n '\*/' "$dir/cmdline.c" | head -n 1)" = "$(grep -n '^ \*/$' "$dir/cmdline.c" | head -n 1)"
# 6. --start reads a weights file back exactly (zero steps = unchanged).
"$tool" tune "$dir/data.txt" --iterations 0 --start "$weights" --out "$dir/roundtrip.c" 2>/dev/null
grep -v '^ *\(/\*\|\*\)' "$dir/roundtrip.c" > "$dir/c.txt"
diff "$dir/a.txt" "$dir/c.txt"
# 7. The speed probe runs.
"$tool" speed --reps 5 | grep -q ' ns each'
echo "tune pipeline: 1 passed, 0 failed"
