#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The suite of endgame start positions for the SPRT of Tuong with its
# endgame tables against Tuong without (issue 32; docs/egtb.md, "Tables
# against none: the SPRT"). Builds the tables it needs into TBDIR (only
# those not there yet; tables are never committed), then draws the
# positions from them with `tuong-egtb sample`, seeded, and writes them to
# OUT (an EPD: a FEN, then a comment naming the table and the value).
#
#   bench/scripts/egtb_suite.sh [-s SEED] [-t THREADS] [-g GIB] TUONG TBDIR OUT
#
# SEED defaults to 1, THREADS (the build's) to 1, GIB (the build's memory
# limit) to 3. TUONG is the engine; tuong-egtb is taken from its
# directory. The positions are of two kinds: in the tables (drawn
# defences the search alone can lose, long wins, signatures where both
# sides attack), and one capture before them (`sample --en-prise`: a piece
# put where the other side can take it into a table position), where the
# engine's root is not in the tables and only its WDL probes after a
# capture can see the way. tuong-match plays each position twice with the
# colours swapped, so every position counts for both engines.
set -euo pipefail

usage() { sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "egtb_suite.sh: error: $*" >&2; exit 2; }

seed=1 threads=1 gib=3
while getopts "s:t:g:h" opt; do
  case $opt in
    s) seed=$OPTARG ;;
    t) threads=$OPTARG ;;
    g) gib=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || usage
tuong=$1 tb=$2 out=$3
for n in "seed:$seed" "threads:$threads" "memory:$gib"; do
  [[ ${n#*:} =~ ^[0-9]+$ ]] || die "${n%%:*} wants a number, not '${n#*:}'"
done
[ "$seed" -lt 90000000000000000 ] || die "seed wants a number below 9 * 10^16"
[ "$threads" -gt 0 ] || die "threads wants at least 1"
[ "$gib" -gt 0 ] || die "memory wants at least 1 GiB"
[ -x "$tuong" ] || die "no engine '$tuong'"
egtb=$(dirname "$tuong")/tuong-egtb
[ -x "$egtb" ] || die "no tuong-egtb next to $tuong"
[ -e "$tb" ] && [ ! -d "$tb" ] && die "'$tb' is not a directory"
[ -d "$(dirname "$out")" ] || die "no directory for '$out'"

# The groups: table, value for the side to move, count, and either the
# side to move (strong, weak, any) or `+X`, a piece put en prise (FEN
# letter in the table's frame: upper case the stronger side's; the side
# to move is the other, and the value is what taking it leads to).
groups=(
  # Drawn full-guard defences: without the tables the defender lost half
  # of these with the chariot to move (section "Converting won positions").
  "KRKAABB draw 30 strong"
  "KRKAABB draw 10 weak"
  # Long wins (up to 74 plies to conversion) and the defences against them.
  "KNPKAB win 20 any"
  "KNPKAB draw 10 weak"
  "KNPKAABB win 20 any"
  "KNPKAABB draw 10 weak"
  "KCPKAABB win 20 any"
  "KCPKAABB draw 10 weak"
  # Both sides attack: either can lose; rule-settled values (KRKN, KRKNC).
  "KRKNC draw 20 strong"
  "KRKNC win 10 any"
  "KCPKN win 10 any"
  "KCPKN draw 10 any"
  "KRKN win 10 any"
  # One capture before the tables.
  "KRKAABB draw 20 +P"
  "KRKAABB win 10 +n"
  "KCPKAABB draw 10 +N"
  "KNPKAB win 10 +c"
  "KRKNC draw 20 +P"
)

# Build what is missing (the largest tables bring their smaller ones).
need=()
for g in "${groups[@]}"; do
  read -r sig _ <<<"$g"
  [ -f "$tb/$sig.lzdtc" ] && [ -f "$tb/$sig.lzw" ] && continue
  [[ " ${need[*]-} " == *" $sig "* ]] || need+=("$sig")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "building ${need[*]} into $tb" >&2
  "$egtb" build --out "$tb" --threads "$threads" --max-memory "$gib" "${need[@]}" >"$out.build.log" ||
    die "tuong-egtb build failed (see $out.build.log)"
fi

# Each group draws with its own seed (SEED * 100 + its number), so a
# group en prise does not start from the same table positions as the
# group of the same table and value.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
i=0
for g in "${groups[@]}"; do
  read -r sig value count how <<<"$g"
  s=$((seed * 100 + i)) i=$((i + 1))
  if [[ $how == +* ]]; then
    "$egtb" sample "$tb" "$sig" --value "$value" --count "$count" --en-prise "${how#+}" --seed "$s" >>"$tmp" ||
      die "sampling $g failed"
  else
    "$egtb" sample "$tb" "$sig" --value "$value" --count "$count" --side-to-move "$how" --seed "$s" >>"$tmp" ||
      die "sampling $g failed"
  fi
done
mv "$tmp" "$out"
trap - EXIT
echo "$(wc -l <"$out") positions in $out (seed $seed); per table and value:" >&2
awk -F' ; ' '{ split($2, c, " "); n[c[1] " " c[2]]++ } END { for (k in n) printf "  %-12s %3d\n", k, n[k] }' "$out" |
  sort >&2
