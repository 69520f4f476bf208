#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Release archives, built and checked (CI runs this from .ci/run):
#
#   bench/scripts/package.sh [PRESET ...]
#
# PRESETs are CMakePresets.json names; the default is all four release
# flavours: x86-64 avx2 (Linux, .tar.gz) windows windows-avx2 (mingw-w64,
# .zip). Each is configured without tests, tuong and tuong-match are built,
# and CPack writes build-<preset>/packages/tuong-<version>-<os>-<cpu>.<ext>.
# Then every archive is opened and checked: tuong, tuong-match, README.md,
# LICENSE and docs/gui-setup.md are in it, and the tuong inside says the
# right flavour in --version (the Windows one under wine when it is
# installed; a build the CPU cannot run must refuse in one line instead),
# and an avx2 one refuses when TUONG_HIDE_CPU_FEATURES hides AVX2.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/../.."
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(x86-64 avx2 windows windows-avx2)
export WINEDEBUG=-all
wine=$(command -v wine64 || command -v wine || true)

fail() { echo "package: FAIL: $*" >&2; exit 1; }

# archive os flavour: the contents and the version line of the tuong inside.
check() {
  local archive=$1 os=$2 flavour=$3 top exe="" list
  top=$(basename "$archive" | sed 's/\.\(tar\.gz\|zip\)$//')
  list=$(cmake -E tar tf "$archive")
  local want=(tuong tuong-match README.md LICENSE docs/gui-setup.md)
  for f in "${want[@]}"; do
    [ "$os" = windows ] && case $f in tuong | tuong-match) f=$f.exe ;; esac
    grep -qE "^$top/(bin/|share/doc/tuong/)?$f\$" <<<"$list" || fail "$archive has no $f"
  done
  local dir
  dir=$(mktemp -d)
  (cd "$dir" && cmake -E tar xf "$archive")
  exe=$(find "$dir/$top" -type f \( -name tuong -o -name tuong.exe \) | head -n 1)
  local run=("$exe")
  if [ "$os" = windows ]; then
    if [ -z "$wine" ]; then
      echo "package: $archive: contents ok (no wine: tuong.exe not started)"
      rm -rf "$dir"
      return
    fi
    run=("$wine" "$exe")
  fi
  local out rc=0
  out=$("${run[@]}" --version 2>&1 | tr -d '\r') || rc=$?
  if [ $rc -eq 0 ]; then
    [[ $out == *", $flavour, $os)" || $out == *", $flavour, $os) nnue "* ]] || fail "$archive: --version says '$out', not $flavour on $os"
  else
    [[ $out == "tuong: error: this build needs "* ]] || fail "$archive: tuong --version exited $rc: '$out'"
  fi
  if [ "$flavour" = avx2 ]; then # the refusal on a CPU without AVX2 (the test hook hides it)
    local refusal
    rc=0
    refusal=$(TUONG_HIDE_CPU_FEATURES=avx2 "${run[@]}" --version 2>&1 | tr -d '\r') || rc=$?
    [ $rc -eq 1 ] && [ "$refusal" = "tuong: error: this build needs AVX2; use the x86-64 build" ] ||
      fail "$archive: without AVX2 tuong exited $rc saying '$refusal'"
    out="$out; without AVX2: '$refusal', status 1"
  fi
  echo "package: $archive: contents ok; $out"
  rm -rf "$dir"
}

for p in "${presets[@]}"; do
  echo "== package $p"
  cmake --preset "$p" -DTUONG_TESTS=OFF >/dev/null
  cmake --build --preset "$p" -j2 --target tuong tuong-match >/dev/null
  rm -rf "build-$p/packages"
  cpack --preset "$p" >/dev/null
  made=("$PWD/build-$p"/packages/tuong-*.tar.gz "$PWD/build-$p"/packages/tuong-*.zip)
  [ ${#made[@]} -eq 1 ] || fail "CPack made ${#made[@]} archives for $p, not one"
  archive=${made[0]}
  case $p in windows*) os=windows ;; *) os=linux ;; esac
  case $p in *avx2) flavour=avx2 ;; *) flavour=x86-64 ;; esac
  check "$archive" $os $flavour
done
