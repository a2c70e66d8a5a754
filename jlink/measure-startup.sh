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
failures="$(mktemp)"
trap 'rm -rf "$data" "$aot" "$failures" "$failures".*' EXIT

dev() { "$JAVA_HOME/bin/java" "$@" @"$root/app/src/main/launcher/jvm.options" --module-path "$app/javafx" --add-modules javafx.controls,javafx.swing \
  --enable-native-access=javafx.graphics,ALL-UNNAMED -Dcutover.startup.probe=true \
  -cp "$app/cutover-app.jar:$app/lib/*" dev.cutover.app.Main --data-dir "$data"; }
img() { env -i PATH=/usr/bin:/bin HOME="$HOME" DISPLAY="$DISPLAY" "$image/bin/java" "$@" \
  @"$image/app/jvm.options" --enable-native-access=javafx.graphics,ALL-UNNAMED -Dcutover.startup.probe=true \
  -cp "$image/app/*" dev.cutover.app.Main --data-dir "$data"; }

# One training run each writes an AOT cache (JEP 514/515).
dev -XX:AOTCacheOutput="$aot/dev.aot" >/dev/null 2>&1 || true
img -XX:AOTCacheOutput="$aot/img.aot" >/dev/null 2>&1 || true
# The cache the image's launcher trains by itself, in the background: AotTraining, no window.
env -i PATH=/usr/bin:/bin HOME="$HOME" "$image/bin/java" -XX:AOTCacheOutput="$aot/launcher.aot" \
  @"$image/app/jvm.options" --enable-native-access=javafx.graphics,ALL-UNNAMED -Djava.awt.headless=true -cp "$image/app/*" \
  dev.cutover.app.AotTraining >/dev/null 2>&1 || true

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# One launch: its milliseconds to the first frame, or nothing; a launch that fails (no frame, or an exit
# other than 0) is counted and its last lines kept, so that a run says why a figure is missing.
one() {
  local variant="$1" out status
  shift
  out="$("$@" 2>&1)" && status=0 || status=$?
  local ms
  ms="$(printf '%s\n' "$out" | sed -n 's/first window after \([0-9]*\) ms/\1/p' | head -1)"
  if [ -z "$ms" ] || [ "$status" -ne 0 ]; then
    echo "$variant" >> "$failures"
    # The first failure of each variant is kept whole; the others are counted.
    [ -e "$failures.$variant" ] || printf '%s exited %s; its last lines:\n%s\n' "$variant" "$status" \
      "$(printf '%s\n' "$out" | tail -5)" > "$failures.$variant"
  fi
  printf '%s' "$ms"
}

# Interleave the variants so that background load affects them alike.
declare -A results
for variant in dev dev-aot image image-aot image-launcher; do results[$variant]=""; done
for _ in $(seq "$runs"); do
  results[dev]+="$(one dev dev) "
  results[dev-aot]+="$(one dev-aot dev -XX:AOTCache="$aot/dev.aot") "
  results[image]+="$(one image img) "
  results[image-aot]+="$(one image-aot img -XX:AOTCache="$aot/img.aot") "
  results[image-launcher]+="$(one image-launcher img -XX:AOTCache="$aot/launcher.aot") "
done
base=$(echo ${results[dev]} | tr ' ' '\n' | median)
printf '%-10s %8s %8s   (median of %s runs, ms from JVM start to first frame)\n' variant median ratio "$runs"
for variant in dev dev-aot image image-aot image-launcher; do
  m=$(echo ${results[$variant]} | tr ' ' '\n' | median)
  if [ -n "$m" ] && [ -n "$base" ]; then
    printf '%-10s %8s %8.2f   runs: %s\n' "$variant" "$m" "$(echo "$m / $base" | bc -l)" "${results[$variant]}"
  else
    printf '%-10s %8s %8s   runs: %s\n' "$variant" "${m:--}" - "${results[$variant]}"
  fi
done
if [ -s "$failures" ]; then
  echo "Failed launches: $(sort "$failures" | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}'); the first of each:"
  cat "$failures".*
fi
