#!/usr/bin/env bash
# The console section of the benchmarks (section 5) with and without a JDK 25 AOT cache, in turns.
#
# A JVM records an AOT cache only from a class path of jars, and the benchmark module's Maven run puts its
# classes directory first; so this script packages the modules, runs the benchmarks from their jars, trains
# one cache in a first run of the section, then runs the section with the cache and without it, in turns.
# Each run prints the FX thread's longest stall beside a backfill and the first measure switches of the
# Reconcile screen; the whole output of run N is in bench/target/aot-ui-N.log.
#
#   DISPLAY=:99 tools/bench-ui-aot.sh          three pairs after the training run
#   DISPLAY=:99 tools/bench-ui-aot.sh 5 -o     five pairs, Maven offline (options after the count go to Maven)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tool=bench-ui-aot
. tools/jdk25.sh
pairs="${1:-3}"
shift || true
[ -n "${DISPLAY:-}" ] || { echo "bench-ui-aot needs a display: start Xvfb :99 & and run with DISPLAY=:99." >&2; exit 2; }

mvn -B -q "$@" install -DskipTests -pl engine,ui,app
mvn -B -q "$@" package -DskipTests -pl bench
classpath="$root/bench/target/$(ls bench/target | grep -E '^cutover-bench-.*\.jar$' | head -n 1)"
mvn -B -q "$@" dependency:build-classpath -pl bench -Dmdep.outputFile="$root/bench/target/aot-ui.classpath"
classpath="$classpath:$(cat bench/target/aot-ui.classpath)"
cache="$root/bench/target/aot-ui.aot"
rm -f "$cache" "$cache.config"

run() { # $1: the run's number, $2: one JVM option
  java --enable-native-access=ALL-UNNAMED -Xmx2g "$2" -Dbench.sections=ui -Dbench.out="$root/bench/target/aot-ui-$1.md" \
    -cp "$classpath" dev.cutover.bench.Benchmarks > "$root/bench/target/aot-ui-$1.log" 2>&1
  echo "run $1 ($2):"
  grep -E '^Backfill screen' "$root/bench/target/aot-ui-$1.log" | grep -oE 'less one frame \(16.7 ms\): [0-9]+ ms' \
    | sed 's/^/  longest stall of the FX thread, the longest gap /'
  grep -E '^Reconcile screen' "$root/bench/target/aot-ui-$1.log" \
    | grep -oE 'first [0-9]+ ms, then over 10 switches p50 [0-9]+ ms, max [0-9]+ ms|To pixels[^.]*' | sed 's/^/  /'
}

run 0 "-XX:AOTCacheOutput=$cache"
for i in $(seq 1 "$pairs"); do
  run "$((2 * i - 1))" "-XX:AOTCache=$cache"
  run "$((2 * i))" "-Dbench.aot=none"
done
