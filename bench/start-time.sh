#!/usr/bin/env bash
# Start-time benchmark: `npm start` from a fresh clone until GET /api/health answers 200, install and
# builds included. Clones committed code only (the working tree's uncommitted changes are not in it).
#
#   bench/start-time.sh [repository to clone, default: this one]
#
# Non-default ports and data directory (PORT, ID_PORT, WALLET_PORT, SMTP_CATCHER_PORT, DATA_DIR; override
# any of them through the environment), so it runs next to a product already on 3000-3002/2525. The clone
# runs in its own process group, stopped (SIGTERM, then SIGKILL) and removed at the end. `npm ci` uses the
# npm cache of this user when it holds the packages, else the registry.
set -euo pipefail

SOURCE=${1:-$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)}
export PORT=${PORT:-3410} ID_PORT=${ID_PORT:-3411} WALLET_PORT=${WALLET_PORT:-3412}
export SMTP_CATCHER_PORT=${SMTP_CATCHER_PORT:-2535}
WORK=$(mktemp -d /tmp/cp-start-time-XXXXXX)
export DATA_DIR=${DATA_DIR:-$WORK/data}
unset DATABASE_URL PUBLIC_URL ID_PUBLIC_URL WALLET_PUBLIC_URL
LOG=$WORK/start.log
LIMIT_SECONDS=${LIMIT_SECONDS:-900}
PID=

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
cleanup() {
  if [[ -n $PID ]] && kill -0 "$PID" 2>/dev/null; then
    kill -TERM -- "-$PID" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "commit: $(git -C "$SOURCE" rev-parse --short HEAD) ($SOURCE)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
START=$(now)
git clone --quiet "$SOURCE" "$WORK/repo"
echo "clone: $(since "$START") s"

cd "$WORK/repo"
# Its own session and process group (PID = group id): the whole tree is stopped by id at the end.
setsid npm start >"$LOG" 2>&1 </dev/null &
PID=$!
declare -A SEEN=()
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/health"; do
  if ! kill -0 "$PID" 2>/dev/null; then
    echo "npm start exited before it was healthy; last lines of its output:" >&2
    tail -n 30 "$LOG" >&2
    exit 1
  fi
  for phase in 'Installing dependencies' 'Building apps/console' 'Building apps/wallet'; do
    if [[ -z ${SEEN[$phase]:-} ]] && grep -q "$phase" "$LOG"; then
      SEEN[$phase]=1
      echo "  $(since "$START") s: $phase…"
    fi
  done
  if awk -v s="$(since "$START")" -v l="$LIMIT_SECONDS" 'BEGIN { exit !(s > l) }'; then
    echo "not healthy after $LIMIT_SECONDS s" >&2
    exit 1
  fi
  sleep 0.5
done
TOTAL=$(since "$START")
echo "healthy: http://127.0.0.1:$PORT/api/health answered 200 after $TOTAL s (clone + npm ci + builds + start)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v t="$TOTAL" 'BEGIN { printf "target ≤ 180 s: %s\n", (t <= 180 ? "met" : "NOT met") }'
