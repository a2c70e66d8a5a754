package dev.cutover.ui.plan;

import dev.cutover.engine.api.PreflightReport;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dependents (materialized views and other readers) the preflight's side-effects check names, as
 * {@code db.table}: the names the engine accepts as acknowledgements. The check lists them in its
 * finding as {@code db.table (reads table)}.
 */
final class Dependents {

  static final String CHECK = "side effects";
  private static final Pattern NAMED = Pattern.compile("([^\\s,:(]+) \\(reads ([^)]+)\\)");

  private Dependents() {}

  /** A dependent of the target or of v1: its name and the table it reads. */
  record Dependent(String name, String reads) {}

  static List<Dependent> of(PreflightReport report) {
    List<Dependent> out = new ArrayList<>();
    report.checks().stream().filter(c -> c.name().equals(CHECK)).forEach(c -> {
      Matcher m = NAMED.matcher(c.finding());
      while (m.find()) {
        Dependent d = new Dependent(m.group(1), m.group(2));
        if (!out.contains(d)) {
          out.add(d);
        }
      }
    });
    return out;
  }
}
