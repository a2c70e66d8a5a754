package dev.cutover.ui.common;

import java.util.Comparator;
import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;

/**
 * Columns as wide as what they show, so that a figure is read whole, never cut to "-1,602,681…" or a header to
 * "Δ notional…": each column is widened (never narrowed below the width it was made with) to its header, in bold,
 * and to its widest cell, in the table's font, whenever the rows change. A number column measures its smallest and
 * largest value (the widest figures) and its first rows; a text column its longest texts. Only the first
 * {@link #SCANNED} rows are read, and a few hundred strings measured, so that a table of thousands of rows fills
 * without a stall.
 */
public final class ColumnFit {

  /** The texts measured per text column: the longest ones. */
  static final int MEASURED = 200;
  /** The rows read per column: the first ones, so that a table of ten thousand keys fills without a stall. */
  static final int SCANNED = 3_000;
  /** Room for the cell's padding and the header's sort arrow. */
  static final double PAD = 26;
  /** No column grows wider than this: a sentence wraps in its tooltip rather than pushing the others away. */
  static final double WIDEST = 640;

  private static final String DECLARED = "column-fit-declared";
  private static final String NUMBER = "column-fit-number";

  private ColumnFit() {}

  /** Marks a number column, made {@code width} wide: measured by its extremes, shown as {@link Formats#number}. */
  static void number(TableColumn<?, ?> c, double width) {
    c.getProperties().put(DECLARED, width);
    c.getProperties().put(NUMBER, Boolean.TRUE);
  }

  /** Marks a text column, made {@code width} wide. */
  static void text(TableColumn<?, ?> c, double width) {
    c.getProperties().put(DECLARED, width);
  }

  /** Fits {@code table}'s columns now and whenever its rows change. */
  public static <S> void follow(TableView<S> table) {
    table.getItems().addListener((ListChangeListener<S>) change -> fit(table));
    fit(table);
  }

  /** Fits every column of {@code table} to its header and its widest cell. */
  public static <S> void fit(TableView<S> table) {
    Text body = new Text();
    body.setFont(Font.font(Font.getDefault().getFamily(), 13));
    Text header = new Text();
    header.setFont(Font.font(Font.getDefault().getFamily(), FontWeight.BOLD, 13));
    List<S> rows = table.getItems();
    for (TableColumn<S, ?> c : table.getColumns()) {
      Object declared = c.getProperties().get(DECLARED);
      if (!(declared instanceof Double least)) {
        continue;
      }
      double widest = width(header, c.getText());
      if (Boolean.TRUE.equals(c.getProperties().get(NUMBER))) {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < Math.min(rows.size(), SCANNED); i++) {
          if (c.getCellObservableValue(i).getValue() instanceof Double d) {
            low = Math.min(low, d);
            high = Math.max(high, d);
            if (i < MEASURED) {
              widest = Math.max(widest, width(body, Formats.number(d)));
            }
          }
        }
        if (low <= high) {
          widest = Math.max(widest, Math.max(width(body, Formats.number(low)), width(body, Formats.number(high))));
        }
      } else {
        List<String> longest = rows.stream().limit(SCANNED).map(r -> c.getCellObservableValue(r).getValue())
            .map(v -> v == null ? "" : v.toString()).sorted(Comparator.comparingInt(String::length).reversed())
            .limit(MEASURED).toList();
        for (String s : longest) {
          widest = Math.max(widest, width(body, s));
        }
      }
      c.setPrefWidth(Math.min(WIDEST, Math.max(least, Math.ceil(widest) + PAD)));
    }
  }

  private static double width(Text probe, String s) {
    probe.setText(s == null ? "" : s);
    return probe.getLayoutBounds().getWidth();
  }
}
