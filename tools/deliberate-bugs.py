#!/usr/bin/env python3
"""Plants deliberate bugs in the engine, one at a time, and runs the tests that must catch each.

Every bug below once passed the whole suite. Each is applied to a scratch copy of this checkout
(a git worktree under target/, removed afterwards), the named tests run against the real embedded
ClickHouse, and the bug is "killed" when they fail. The checkout itself is never touched.

    tools/deliberate-bugs.py            # every bug
    tools/deliberate-bugs.py M3 M7      # some of them

Exit status 0 when every bug planted was killed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ENGINE = "engine/src/main/java/dev/cutover/engine/"

BUGS = {
    "M1": ("an hour whose corrected result is empty keeps its old v2 rows (only hours with staged rows are replaced)",
           ENGINE + "backfill/BatchWriter.java",
           """      sql.execute("replace hours " + first + " to " + end + " of " + spec.targetTable(),
          replaceStatement(spec, stagingName, hours));""",
           """      List<HourPartition> staged = sql.query("staged hours", "SELECT DISTINCT toUnixTimestamp(toStartOfHour("
          + spec.timeColumn().quoted() + ")) FROM " + stagingName + window,
          rs -> HourPartition.ofEpochSecond(rs.getLong(1)), first.epochSecond(), end.epochSecond());
      if (!staged.isEmpty()) {
        sql.execute("replace hours " + first + " to " + end + " of " + spec.targetTable(),
            replaceStatement(spec, stagingName, staged));
      }""",
           "BackfillTest"),
    "M2": ("a rule's conditions joined with OR instead of AND",
           ENGINE + "reconcile/Rules.java",
           """out.append(String.join(" AND ", conditions))""",
           """out.append(String.join(" OR ", conditions))""",
           "ComparisonTest,GateTest"),
    "M3": ("every tolerance multiplied by 10^9",
           ENGINE + "reconcile/Rules.java",
           """  static final String FLOAT_RELATIVE = "1e-9";""",
           """  static final String FLOAT_RELATIVE = "1";""",
           "ComparisonTest",
           [("stated.toPlainString()", "stated.multiply(java.math.BigDecimal.valueOf(1_000_000_000L)).toPlainString()"),
            ("tolerance.toPlainString()", "tolerance.multiply(java.math.BigDecimal.valueOf(1_000_000_000L)).toPlainString()")]),
    "M4": ("an hour below B missing from the ledger is not reported as a gap",
           ENGINE + "repair/Coverage.java",
           """        if (entry == null || !entry.complete()) {""",
           """        if (entry != null && !entry.complete()) {""",
           "GateTest"),
    "M5": ("the gate's 'no backfill running' condition is always met",
           ENGINE + "cutover/Gates.java",
           """    boolean none = active.isEmpty() && op.isEmpty();""",
           """    boolean none = true;""",
           "GateTest"),
    "M6": ("the post-swap verification compares the view's checksum with itself",
           ENGINE + "cutover/SwapVerification.java",
           """OUTER JOIN (" + side.formatted(expectedFrom) + ") AS b ON a.h = b.h",""",
           """OUTER JOIN (" + side.formatted(spec.qualified(spec.consumerView())) + ") AS b ON a.h = b.h",""",
           "GateTest"),
    "M7": ("a resume skips the hours the ledger marks failed",
           ENGINE + "backfill/BackfillRun.java",
           """      return e == null || !e.complete();""",
           """      return e == null;""",
           "ResumeTest"),
    "M8": ("a resume starts after the ledger's last hour, although batches finish out of order",
           ENGINE + "backfill/BackfillRun.java",
           """    return of.stream().filter(h -> {
      LedgerEntry e = done.get(h);
      return e == null || !e.complete();
    }).toList();""",
           """    return of.stream().filter(h -> done.isEmpty() || done.lastKey().isBefore(h)).toList();""",
           "ResumeTest"),
    "M9": ("the batch writer's own boundary check is removed (the planner's is still there)",
           ENGINE + "backfill/BatchWriter.java",
           """      if (!h.isBefore(boundary)) { // the live writer owns this hour: refuse, whatever the caller planned""",
           """      if (false) { // the live writer owns this hour: refuse, whatever the caller planned""",
           "FenceTest"),
}


def main(args):
    root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    chosen = args or sorted(BUGS)
    java_home = os.environ.get("JAVA_HOME") or "/usr/lib/jvm/temurin-25-jdk-amd64"
    env = dict(os.environ, JAVA_HOME=java_home, PATH=java_home + "/bin:" + os.environ["PATH"])
    results = []
    for key in chosen:
        description, path, old, new, tests, *more = BUGS[key]
        scratch = tempfile.mkdtemp(prefix="deliberate-bug-", dir=os.path.join(root, "target") if os.path.isdir(
            os.path.join(root, "target")) else None)
        subprocess.run(["git", "worktree", "add", "--detach", scratch, "HEAD"], cwd=root, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            file = os.path.join(scratch, path)
            text = open(file).read()
            for a, b in [(old, new)] + (more[0] if more else []):
                if a not in text:
                    raise SystemExit(f"{key}: the code to change is not in {path}; update this script")
                text = text.replace(a, b)
            open(file, "w").write(text)
            run = subprocess.run(["mvn", "-B", "-o", "-q", "test", "-pl", "engine", "-Dtest=" + tests,
                                  "-Dsurefire.failIfNoSpecifiedTests=false"], cwd=scratch, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            failed = [line.strip() for line in run.stdout.splitlines() if "<<< FAIL" in line or "<<< ERROR" in line]
            killed = run.returncode != 0 and (failed or "COMPILATION ERROR" not in run.stdout)
            results.append((key, description, killed, failed[:3] if failed else [run.stdout[-400:]]))
            print(f"{key} {'killed' if killed else 'SURVIVED'}: {description}", flush=True)
            for line in (failed[:3] if killed else []):
                print("    " + line, flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", scratch], cwd=root, check=False)
            shutil.rmtree(scratch, ignore_errors=True)
    survivors = [r for r in results if not r[2]]
    print(f"{len(results) - len(survivors)} of {len(results)} deliberate bugs killed")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
