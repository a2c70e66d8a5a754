#!/usr/bin/env bash
# Cold start to first window, measured side by side in one run: the development launch (class path +
# JavaFX module path on the JDK) and the runtime image, each with and without a JDK 25 AOT cache.
# Needs a display (for example: Xvfb :99 & DISPLAY=:99). Usage: jlink/measure-startup.sh [runs]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-7}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
image="$root/jlink/target/cutover"
app="$root/app/target"
data="$(mktemp -d)"
aot="$(mktemp -d)"
trap 'rm -rf "$data" "$aot"' EXIT

dev() { "$JAVA_HOME/bin/java" "$@" --module-path "$app/javafx" --add-modules javafx.controls,javafx.swing \
  --enable-native-access=javafx.graphics,ALL-UNNAMED -Dcutover.startup.probe=true \
  -cp "$app/cutover-app.jar:$app/lib/*" dev.cutover.app.Main --data-dir "$data"; }
img() { env -i PATH=/usr/bin:/bin HOME="$HOME" DISPLAY="$DISPLAY" "$image/bin/java" "$@" \
  --enable-native-access=javafx.graphics,ALL-UNNAMED -Dcutover.startup.probe=true \
  -cp "$image/app/*" dev.cutover.app.Main --data-dir "$data"; }

# One training run each writes an AOT cache (JEP 514/515).
dev -XX:AOTCacheOutput="$aot/dev.aot" >/dev/null 2>&1 || true
img -XX:AOTCacheOutput="$aot/img.aot" >/dev/null 2>&1 || true
# The cache the image's launcher trains by itself, in the background: AotTraining, no window.
env -i PATH=/usr/bin:/bin HOME="$HOME" "$image/bin/java" -XX:AOTCacheOutput="$aot/launcher.aot" \
  --enable-native-access=javafx.graphics,ALL-UNNAMED -Djava.awt.headless=true -cp "$image/app/*" \
  dev.cutover.app.AotTraining >/dev/null 2>&1 || true

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() { for _ in $(seq "$runs"); do "$@" 2>/dev/null | sed -n 's/first window after \([0-9]*\) ms/\1/p'; done | median; }

# Interleave the variants so that background load affects them alike.
declare -A results
for variant in dev dev-aot image image-aot image-launcher; do results[$variant]=""; done
for _ in $(seq "$runs"); do
  results[dev]+="$(dev 2>/dev/null | sed -n 's/first window after \([0-9]*\) ms/\1/p') "
  results[dev-aot]+="$(dev -XX:AOTCache="$aot/dev.aot" 2>/dev/null | sed -n 's/first window after \([0-9]*\) ms/\1/p') "
  results[image]+="$(img 2>/dev/null | sed -n 's/first window after \([0-9]*\) ms/\1/p') "
  results[image-aot]+="$(img -XX:AOTCache="$aot/img.aot" 2>/dev/null | sed -n 's/first window after \([0-9]*\) ms/\1/p') "
  results[image-launcher]+="$(img -XX:AOTCache="$aot/launcher.aot" 2>/dev/null | sed -n 's/first window after \([0-9]*\) ms/\1/p') "
done
base=$(echo ${results[dev]} | tr ' ' '\n' | median)
printf '%-10s %8s %8s   (median of %s runs, ms from JVM start to first frame)\n' variant median ratio "$runs"
for variant in dev dev-aot image image-aot image-launcher; do
  m=$(echo ${results[$variant]} | tr ' ' '\n' | median)
  printf '%-10s %8s %8.2f   runs: %s\n' "$variant" "$m" "$(echo "$m / $base" | bc -l)" "${results[$variant]}"
done
