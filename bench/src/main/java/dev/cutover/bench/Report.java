package dev.cutover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Collects the figures as Markdown, printing each line as it comes. */
final class Report {

  private final List<String> lines = new ArrayList<>();

  void line(String text) {
    System.out.println(text);
    lines.add(text);
    lines.add("");
  }

  /** A section of lines only. */
  void heading(String title) {
    System.out.println();
    System.out.println("## " + title);
    lines.add("### " + title);
    lines.add("");
  }

  /** A section whose rows are throughput rows. */
  void section(String title) {
    section(title, "what", "seconds", "hours", "hours/s", "rows/s", "ratio");
  }

  /** A section with a table of the given columns; the first is left-aligned, the rest right-aligned. */
  void section(String title, String... columns) {
    System.out.println();
    System.out.println("## " + title);
    lines.add("### " + title);
    lines.add("");
    table(columns);
  }

  /** A table of the given columns below the lines before it, without a heading of its own; aligned as a section's. */
  void table(String... columns) {
    String header = "| " + String.join(" | ", columns) + " |";
    String alignment = "| --- |" + " ---: |".repeat(columns.length - 1);
    System.out.println(header);
    System.out.println(alignment);
    lines.add(header);
    lines.add(alignment);
  }

  /** A table row of already formatted cells. */
  void cells(String... cells) {
    tableRow("| " + String.join(" | ", cells) + " |");
  }

  void row(String what, double seconds, long hours, long rows, double ratio) {
    String row = String.format("| %s | %.2f | %,d | %.0f | %s | %s |", what, seconds, hours, hours / seconds,
        rows == 0 ? "" : String.format("%,.0f", rows / seconds), ratio == 0 ? "" : String.format("%.2f×", ratio));
    tableRow(row);
  }

  private void tableRow(String row) {
    System.out.println(row);
    // Table rows sit before the blank line that ends the section's table.
    if (!lines.isEmpty() && lines.getLast().isEmpty() && lines.size() > 1 && lines.get(lines.size() - 2).startsWith("|")) {
      lines.removeLast();
    }
    lines.add(row);
    lines.add("");
  }

  void latency(String what, List<Double> millis, List<Double> baseline) {
    if (millis.isEmpty()) {
      line(what + ": no samples");
      return;
    }
    double p50 = percentile(millis, 50);
    double p99 = percentile(millis, 99);
    String ratio = baseline == null || baseline.isEmpty() ? ""
        : String.format("; p99 ratio %.2f× (90%% of resamples %s), p50 ratio %.2f×", p99 / percentile(baseline, 99),
            RatioInterval.ofP99(millis, baseline), p50 / percentile(baseline, 50));
    line(String.format("%s: %d samples, p50 %.1f ms, p99 %.1f ms, max %.1f ms%s", what, millis.size(), p50, p99,
        millis.stream().mapToDouble(Double::doubleValue).max().orElse(0), ratio));
  }

  static double percentile(List<Double> values, int p) {
    List<Double> sorted = values.stream().sorted().toList();
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  void write(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, String.join("\n", lines) + "\n");
    System.out.println("results written to " + file);
  }
}
