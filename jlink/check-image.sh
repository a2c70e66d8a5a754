#!/bin/sh
# The runtime image as an operator first meets it, run by the build after packaging (and by hand:
# jlink/check-image.sh jlink/target/cutover jlink/target/check): with no JDK on the PATH and no AOT cache yet,
# 'bin/cutover check' prints exactly one line, 'ok: ClickHouse 26.7…', and nothing else; the AOT cache is then
# trained in the background, and the next check, started from it, prints the same single line.
set -eu
image="$(cd "$1" && pwd)"
work="$2"
rm -rf "$work"
mkdir -p "$work/cache/cutover" "$work/warm/cutover"
work="$(cd "$work" && pwd)"
# The engine (178 MB) is fetched once per user, not per check: both caches share the user's engine folder.
engine="${XDG_CACHE_HOME:-$HOME/.cache}/cutover/engine"
mkdir -p "$engine"
ln -s "$engine" "$work/cache/cutover/engine"
ln -s "$engine" "$work/warm/cutover/engine"

check() { # check CACHE_HOME NAME: one 'bin/cutover check' with a clean environment
  env -i PATH=/usr/bin:/bin HOME="$HOME" XDG_CACHE_HOME="$1" CUTOVER_SERVER_IDLE=0 \
    ${CUTOVER_LIBCHDB:+CUTOVER_LIBCHDB="$CUTOVER_LIBCHDB"} \
    "$image/bin/cutover" check --data-dir "$work/data" >"$work/$2.out" 2>"$work/$2.err" || {
      echo "bin/cutover check ($2) exited $?: $(cat "$work/$2.out" "$work/$2.err")" >&2; exit 1; }
}
quiet() { # quiet NAME: stdout is exactly the ok line, stderr is empty
  if [ "$(wc -l <"$work/$1.out")" -ne 1 ] || ! grep -q '^ok: ClickHouse 26\.7' "$work/$1.out" \
      || [ -s "$work/$1.err" ]; then
    echo "bin/cutover check ($1) must print exactly one line, 'ok: ClickHouse 26.7…', and nothing else; it printed:" >&2
    echo "--- stdout" >&2; cat "$work/$1.out" >&2; echo "--- stderr" >&2; cat "$work/$1.err" >&2
    exit 1
  fi
}

if ! ls "$engine"/*/libchdb.so >/dev/null 2>&1 && [ -z "${CUTOVER_LIBCHDB:-}" ]; then
  check "$work/warm" fetch # fetching the engine says so on stderr, once per user; not the run checked here
fi
check "$work/cache" first
quiet first
echo "image check, first run: $(cat "$work/first.out")"

aot_dir="$work/cache/cutover/aot"
waited=0
while [ -z "$(find "$aot_dir" -maxdepth 1 -name 'cutover-*.aot' 2>/dev/null)" ] \
    || [ -n "$(find "$aot_dir" -maxdepth 1 -name '*.lock' 2>/dev/null)" ]; do
  if [ "$waited" -ge 600 ]; then
    echo "the image's AOT cache was not trained within 10 minutes (see $aot_dir)" >&2
    exit 1
  fi
  sleep 2
  waited=$((waited + 2))
done
echo "image check: AOT cache trained in the background within ${waited} s"
check "$work/cache" cached
quiet cached
echo "image check, from the AOT cache: $(cat "$work/cached.out")"
