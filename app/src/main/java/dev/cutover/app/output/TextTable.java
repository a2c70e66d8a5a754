package dev.cutover.app.output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Aligned columns for people: each column as wide as its widest cell, numbers to the right, the
 * last column left as it is (a sentence may follow).
 *
 * <pre>{@code
 * TextTable t = new TextTable("  ", TextTable.Align.LEFT, TextTable.Align.RIGHT);
 * t.row("trades", Text.count(2411388));
 * t.lines().forEach(out::println);
 * }</pre>
 */
public final class TextTable {

  /** Where a column's cells sit. */
  public enum Align {
    LEFT,
    RIGHT
  }

  private final String indent;
  private final Align[] aligns;
  private final List<String[]> rows = new ArrayList<>();

  public TextTable(String indent, Align... aligns) {
    this.indent = indent;
    this.aligns = aligns.clone();
  }

  /** A row of as many cells as the table has columns; null prints as nothing. */
  public TextTable row(Object... cells) {
    if (cells.length != aligns.length) {
      throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + aligns.length
          + " columns");
    }
    rows.add(Arrays.stream(cells).map(c -> c == null ? "" : c.toString()).toArray(String[]::new));
    return this;
  }

  public List<String> lines() {
    int[] widths = new int[aligns.length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    List<String> out = new ArrayList<>();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int i = 0; i < row.length; i++) {
        boolean last = i == row.length - 1;
        String pad = " ".repeat(widths[i] - row[i].length());
        if (aligns[i] == Align.RIGHT) {
          line.append(pad).append(row[i]);
        } else {
          line.append(row[i]).append(last ? "" : pad);
        }
        if (!last) {
          line.append("  ");
        }
      }
      out.add(line.toString().stripTrailing());
    }
    return out;
  }
}
