#!/usr/bin/env python3
"""Writes each module's src/test/run-order/.surefire-run-times from the test reports of the last run.

Surefire starts the test classes with the longest recorded run time first (runOrder=balanced, see the root
pom.xml), so that no long class starts last while the other test JVM has nothing left to do. The build copies
each module's file beside its pom.xml before the tests, where Surefire reads it (and rewrites it; git ignores
that copy). Refresh the recorded times after a run of the whole build, when classes were added or changed much:

    mvn -B verify && tools/test-run-times.py

With a folder, it reads the reports of that checkout instead (a clean clone's CI run, say) and still writes here.
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    source = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    written = 0
    for module in ("engine", "ui", "app"):
        reports = sorted(glob.glob(os.path.join(source, module, "target", "surefire-reports", "TEST-*.xml")))
        if not reports:
            print(f"{module}: no test reports under {module}/target/surefire-reports; run the tests first",
                  file=sys.stderr)
            continue
        times = {}
        for report in reports:
            suite = ET.parse(report).getroot()
            times[suite.get("name")] = round(float(suite.get("time", "0")) * 1000)
        # Surefire's statistics format: successful builds, run time in ms, class (no method: the whole class).
        lines = [f"1,{ms},{name}" for name, ms in sorted(times.items(), key=lambda item: (-item[1], item[0]))]
        out = os.path.join(ROOT, module, "src", "test", "run-order", ".surefire-run-times")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        written += 1
        print(f"{module}: {len(lines)} classes, the longest {lines[0].split(',')[2]} ({times[lines[0].split(',')[2]] / 1000:.0f} s)")
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
