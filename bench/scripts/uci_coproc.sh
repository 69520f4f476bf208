# SPDX-License-Identifier: GPL-3.0-or-later
# A UCI engine as a bash coprocess, for the scripts that drive one
# (mates_at.sh, depth_at.sh); sourced, not run. The sourcing script sets
# `script` (its name, for error lines) and may define `on_engine_line`,
# called with every engine line that wait_for does not stop at.
#
#   engine_start ENGINE [ARG...]    start it; it is killed when the script exits
#   engine_handshake [NAME=VALUE]... uci, each setoption, isready
#   to_engine LINE                  send a line
#   wait_for WORD                   read until a line starts with WORD (kept in REPLY)

engine_start() {
  coproc ENGINE { "$@" 2>/dev/null; }
  engine_pid=$ENGINE_PID # bash unsets ENGINE_PID once the engine has quit
  trap 'kill "$engine_pid" 2>/dev/null || true' EXIT
}

to_engine() { printf '%s\n' "$1" >&"${ENGINE[1]}"; }

# Fails after 60 s of silence: a hung engine must not hang the script.
wait_for() {
  local line
  while IFS= read -r -t 60 line <&"${ENGINE[0]}"; do
    line=${line%$'\r'}
    [ "${line%% *}" = "$1" ] && { REPLY=$line; return 0; }
    if declare -F on_engine_line >/dev/null; then on_engine_line "$line"; fi
  done
  echo "$script: error: the engine stopped answering (waiting for '$1')" >&2
  exit 1
}

engine_handshake() {
  local o
  to_engine uci
  wait_for uciok
  for o in "$@"; do to_engine "setoption name ${o%%=*} value ${o#*=}"; done
  to_engine isready
  wait_for readyok
}
