#!/usr/bin/env bash
# Refreshes the three screenshots of the console's real window (screenshots/00-console-window.png,
# 18-backfill-six-months-window.png, 19-cutover-six-months-window.png): ./cutover opened under Xvfb on six months
# of the demo world, after the README's procedure from the command line up to an open cutover gate.
#
# Everything happens in a folder of its own (its data, config and state directories, its embedded server, its
# display), removed at the end: the operator's own embedded server and profiles are not touched. About 5 minutes.
#
# Needs a display server, a way to press keys in it, a screen grabber and the console's GTK:
#   apt-get install xvfb xdotool imagemagick libgtk-3-0
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for tool in Xvfb xdotool import; do
  command -v "$tool" > /dev/null || { echo "error: $tool is missing: apt-get install xvfb xdotool imagemagick libgtk-3-0" >&2; exit 2; }
done

# Short paths: the status bar names the data directory and the spec file, and on one line they must fit as a
# user's own (~/.local/share/cutover/…) do.
work="$(mktemp -d /tmp/cw.XXXX)"
export XDG_DATA_HOME="$work/share" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"
cutover() { "$root/cutover" "$@"; }
console=""
xvfb=""
finish() {
  [ -n "$console" ] && kill "$console" 2> /dev/null && wait "$console" 2> /dev/null || true
  cutover server stop > /dev/null 2>&1 || true
  [ -n "$xvfb" ] && kill "$xvfb" 2> /dev/null || true
  rm -rf "$work"
}
trap finish EXIT

step() { echo "== $*" >&2; }
reason="it fires on inserts into pnl_v1 only, which the backfill never writes"

step "the demo world: six months of trades and a buggy pnl_v1"
cutover demo seed > /dev/null
step "the backfill of six months into pnl_v2 (about two minutes at the spec's throttle)"
cutover backfill --spec demo --acknowledge trading.pnl_alerts_mv --reason "$reason" > /dev/null
step "the corrected live writer from B, and 30 hours of the live job"
cutover demo deploy-v2 > /dev/null
cutover demo live --speed 200ms --steps 180 > /dev/null
step "the reconciliation, the incident acknowledged, reconciled again"
cutover reconcile --spec demo > /dev/null || [ $? -eq 6 ]   # red: the seeded incident
cutover ack --spec demo --hour "$(cutover demo incident)" --reason "retried append; its alerts were re-sent by hand" > /dev/null
cutover reconcile --spec demo > /dev/null
cutover cutover --spec demo --check > /dev/null

step "the console under Xvfb"
exec 3> "$work/display"
Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.2; done
export DISPLAY=":$(head -n 1 "$work/display")"
cutover > "$work/console.log" 2>&1 &
console=$!
window=""
for _ in $(seq 120); do
  window="$(xdotool search --name '^Cutover' 2> /dev/null | head -n 1 || true)"
  [ -n "$window" ] && break
  sleep 0.5
done
[ -n "$window" ] || { echo "error: the console's window did not open; its log:" >&2; cat "$work/console.log" >&2; exit 1; }

shoot() {   # shoot NAME SECONDS: waits for the screen's reads, then grabs the whole display
  sleep "$2"
  import -window root "$root/screenshots/$1.png"
  echo "wrote screenshots/$1.png" >&2
}
shoot 00-console-window 20
xdotool windowfocus --sync "$window"
xdotool key --window "$window" ctrl+3
shoot 18-backfill-six-months-window 8
xdotool key --window "$window" ctrl+5
shoot 19-cutover-six-months-window 12
