#!/usr/bin/env bash
# Refreshes the tracked PNGs in screenshots/ from the UI tests.
#
# The UI tests write their screenshots into ui/target/screenshots/ on every `mvn verify`, so that a test
# run never changes tracked files. This script runs the tests that take screenshots (any test class under
# ui/src/test that calls fx.shot or Screenshots.write) against the real embedded ClickHouse, then copies
# every PNG they wrote into screenshots/. The shots of the console's real window on six months of the demo
# (00-…, 18-…, 19-…) are not produced by tests and are left as they are: tools/shoot-window.sh refreshes them.
#
#   tools/refresh-screenshots.sh              run the tests, then copy
#   tools/refresh-screenshots.sh -o           the same, Maven offline (any Maven option is passed on)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

tool=refresh-screenshots
. tools/jdk25.sh

tests="$(grep -rl --include='*Test.java' -e 'fx\.shot(' -e 'fx()\.shot(' -e 'Screenshots\.write(' -e 'Screenshots\.dialog(' ui/src/test/java \
  | xargs -n1 basename | sed 's/\.java$//' | sort | paste -sd, -)"
if [ -z "$tests" ]; then
  echo "No UI test takes a screenshot; nothing to refresh." >&2
  exit 1
fi

shots="ui/target/screenshots"
rm -rf "$shots"
echo "Running $tests ..." >&2
mvn -B "$@" verify -pl engine,ui -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false

shopt -s nullglob
pngs=("$shots"/*.png)
if [ ${#pngs[@]} -eq 0 ]; then
  echo "The tests wrote no screenshot into $shots." >&2
  exit 1
fi
cp "${pngs[@]}" screenshots/
echo "Copied ${#pngs[@]} screenshot(s) from $shots into screenshots/:" >&2
git -C "$root" status --short -- screenshots >&2 || true
