#!/usr/bin/env bash
# Writes the reconciliation report of a repaired test world and screenshots it with headless Chromium.
#
# The world (engine/src/test/.../reconcile/FeeWorld.java) is a fee fix on a trading table: six months
# of hours by default, backfilled below the boundary B, written live from it on, with one unexpected
# incident of 707 keys and one acknowledged hour. It runs on the real embedded ClickHouse, like the
# tests. The page and its CSV go to a new temporary folder (the script names it), the screenshot to
# screenshots/report.png. The tests never need Chromium; only this script does.
#
#   tools/report-screenshot.sh            six months, then the screenshot
#   REPORT_DAYS=3 tools/report-screenshot.sh -o    three days, Maven offline (any Maven option is passed on)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

tool=report-screenshot
. tools/jdk25.sh

find_chromium() {
  for name in chromium chromium-browser; do
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"; return
    fi
  done
}
chromium="$(find_chromium || true)"
if [ -z "$chromium" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing the Debian package chromium ..." >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
    chromium="$(find_chromium)"
  else
    echo "Headless Chromium is missing. Install it, then run this script again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
    exit 2
  fi
fi

days="${REPORT_DAYS:-183}"
# Other builds may rebuild engine/target while the world is repaired: the program runs from its own copy.
work="$(mktemp -d "${TMPDIR:-/tmp}/cutover-report.XXXXXX")"
mkdir -p screenshots

echo "Compiling the engine and its tests ..." >&2
mvn -B -q "$@" test-compile -pl engine
mvn -B -q "$@" dependency:build-classpath -pl engine -Dmdep.includeScope=test -Dmdep.outputFile="$work/classpath" \
  >/dev/null
cp -r engine/target/classes "$work/classes"
cp -r engine/target/test-classes "$work/test-classes"

echo "Repairing a world of $days days and writing its report into $work ..." >&2
# The embedded server stops as soon as the program lets go of it, not after the usual idle period.
CUTOVER_SERVER_IDLE=0 java --enable-native-access=ALL-UNNAMED \
  -cp "$work/test-classes:$work/classes:$(cat "$work/classpath")" \
  dev.cutover.engine.reconcile.ReportSample "$work/report.html" "$days"
rm -rf "$work/classes" "$work/test-classes" "$work/classpath"

echo "Taking the screenshot ..." >&2
# --no-sandbox: Chromium refuses to run as root with its sandbox; the page is our own file.
sandbox=()
if [ "$(id -u)" = 0 ]; then sandbox=(--no-sandbox); fi
"$chromium" --headless "${sandbox[@]}" --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=1400,2400 --screenshot="$root/screenshots/report.png" "file://$work/report.html" 2>/dev/null

echo "Wrote screenshots/report.png from $work/report.html (and its CSV, report.csv)" >&2
