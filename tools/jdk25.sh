# Sourced by the tools' scripts: sets JAVA_HOME (and PATH) to a JDK 25, or stops with a sentence.
# The caller names itself first: `tool=refresh-screenshots; . tools/jdk25.sh`.

find_jdk25() {
  if [ -n "${JAVA_HOME:-}" ] && "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
    echo "$JAVA_HOME"; return
  fi
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*25*; do
    if [ -x "$candidate/bin/java" ] && "$candidate/bin/java" -version 2>&1 | grep -q 'version "25'; then
      echo "$candidate"; return
    fi
  done
  echo "${tool:-this script} needs a JDK 25: install one (for example Temurin 25 under /usr/lib/jvm) or set JAVA_HOME." >&2
  exit 2
}
JAVA_HOME="$(find_jdk25)"
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
