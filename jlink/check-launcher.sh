#!/bin/sh
# A launcher as an operator first meets it, run by the build after packaging (and by hand:
# jlink/check-launcher.sh LAUNCHER WORK AOT_FOLDER [NAME]), for the runtime image's bin/cutover and for ./cutover
# in a checkout: with no JDK on the PATH and no AOT cache yet, 'cutover check' prints exactly one line,
# 'ok: ClickHouse 26.7…', and nothing else; the AOT cache is then trained in the background (into AOT_FOLDER,
# which the check empties first; WORK/cache/cutover/aot is the image's own under the check's XDG_CACHE_HOME), and
# the next check, started from it, prints the same single line.
set -eu
launcher="$1"
work="$2"
aot_dir="$3"
name="${4:-$launcher}"
rm -rf "$work"
mkdir -p "$work/cache/cutover" "$work/warm/cutover"
work="$(cd "$work" && pwd)"
case "$aot_dir" in
  "$work"/*) ;;
  *) rm -rf "$aot_dir" ;;
esac
# The engine (178 MB) is fetched once per user, not per check: both caches share the user's engine folder.
engine="${XDG_CACHE_HOME:-$HOME/.cache}/cutover/engine"
mkdir -p "$engine"
ln -s "$engine" "$work/cache/cutover/engine"
ln -s "$engine" "$work/warm/cutover/engine"

check() { # check CACHE_HOME NAME: one 'cutover check' with a clean environment (a JAVA_HOME stays: ./cutover takes it)
  env -i PATH=/usr/bin:/bin HOME="$HOME" XDG_CACHE_HOME="$1" CUTOVER_SERVER_IDLE=0 \
    ${CUTOVER_LIBCHDB:+CUTOVER_LIBCHDB="$CUTOVER_LIBCHDB"} ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} \
    "$launcher" check --data-dir "$work/data" >"$work/$2.out" 2>"$work/$2.err" || {
      echo "$name check ($2) exited $?: $(cat "$work/$2.out" "$work/$2.err")" >&2; exit 1; }
}
quiet() { # quiet NAME: stdout is exactly the ok line, stderr is empty
  if [ "$(wc -l <"$work/$1.out")" -ne 1 ] || ! grep -q '^ok: ClickHouse 26\.7' "$work/$1.out" \
      || [ -s "$work/$1.err" ]; then
    echo "$name check ($1) must print exactly one line, 'ok: ClickHouse 26.7…', and nothing else; it printed:" >&2
    echo "--- stdout" >&2; cat "$work/$1.out" >&2; echo "--- stderr" >&2; cat "$work/$1.err" >&2
    exit 1
  fi
}

if ! ls "$engine"/*/libchdb.so >/dev/null 2>&1 && [ -z "${CUTOVER_LIBCHDB:-}" ]; then
  check "$work/warm" fetch # fetching the engine says so on stderr, once per user; not the run checked here
fi
check "$work/cache" first
quiet first
echo "$name check, first run: $(cat "$work/first.out")"

waited=0
while [ -z "$(find "$aot_dir" -maxdepth 1 -name 'cutover-*.aot' 2>/dev/null)" ] \
    || [ -n "$(find "$aot_dir" -maxdepth 1 -name '*.lock' 2>/dev/null)" ]; do
  if [ "$waited" -ge 600 ]; then
    echo "$name: the AOT cache was not trained within 10 minutes (see $aot_dir)" >&2
    exit 1
  fi
  sleep 2
  waited=$((waited + 2))
done
echo "$name check: AOT cache trained in the background within ${waited} s"
check "$work/cache" cached
quiet cached
echo "$name check, from the AOT cache: $(cat "$work/cached.out")"
