package dev.cutover.ui.common;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Pos;
import javafx.scene.control.Control;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Text;

/** Tables of hours and keys that differ between v1 and v2, shared by the sample and reconcile screens. */
public final class DiffTables {

  private DiffTables() {}

  /** One row per hour: rows and each measure's totals in v1 and v2, and the difference. */
  public static TableView<Diff.HourDiff> hours(String id, TableSpec spec) {
    TableView<Diff.HourDiff> t = new TableView<>();
    t.setId(id);
    t.getColumns().add(text("Hour (UTC)", 130, h -> h.hour().toString()));
    t.getColumns().add(number("Rows v1", 66, h -> (double) h.rowsV1()));
    t.getColumns().add(number("Rows v2", 66, h -> (double) h.rowsV2()));
    t.getColumns().add(text("Same", 50, h -> h.identical() ? "yes" : "no"));
    for (int i = 0; i < spec.measures().size(); i++) {
      int m = i;
      Identifier measure = spec.measures().get(i);
      double width = Math.max(96, 8 * measure.name().length() + 40);
      t.getColumns().add(number(measure + " v1", width, h -> total(h, m).v1()));
      t.getColumns().add(number(measure + " v2", width, h -> total(h, m).v2()));
      t.getColumns().add(number("Δ " + measure, width, h -> total(h, m).delta()));
    }
    t.setPlaceholder(Widgets.muted("No hours compared yet."));
    t.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
    ColumnFit.follow(t);
    return t;
  }

  /**
   * One row per differing key: its hour, key, how it differs, each measure's v2 − v1, and the rule
   * that explains it, or "unexpected" (or "acknowledged" where {@code acknowledged} says so).
   */
  public static TableView<Diff.KeyDiff> keys(String id, TableSpec spec, Predicate<Diff.KeyDiff> acknowledged) {
    TableView<Diff.KeyDiff> t = new TableView<>();
    t.setId(id);
    t.getColumns().add(text("Hour (UTC)", 130, k -> k.hour().toString()));
    t.getColumns().add(text("Key", 110, k -> String.join(" / ", k.key())));
    t.getColumns().add(text("Kind", 120, k -> k.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')));
    t.getColumns().add(number("Rows v1", 66, k -> (double) k.rowsV1()));
    t.getColumns().add(number("Rows v2", 66, k -> (double) k.rowsV2()));
    for (Identifier measure : spec.measures()) {
      t.getColumns().add(number("Δ " + measure, 100, k -> k.delta(measure)));
    }
    t.getColumns().add(text("Explained by", 190, k -> explanation(k, acknowledged)));
    t.setRowFactory(v -> new TableRow<>() {
      @Override
      protected void updateItem(Diff.KeyDiff item, boolean empty) {
        super.updateItem(item, empty);
        getStyleClass().removeAll("row-expected", "row-unexpected", "row-acknowledged");
        if (item != null && !empty) {
          getStyleClass().add(item.expected() ? "row-expected" : acknowledged.test(item) ? "row-acknowledged"
              : "row-unexpected");
        }
      }
    });
    t.setPlaceholder(Widgets.muted("No differing keys."));
    t.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
    ColumnFit.follow(t);
    return t;
  }

  public static String explanation(Diff.KeyDiff k, Predicate<Diff.KeyDiff> acknowledged) {
    return k.rule().map(r -> "rule " + r).orElse(acknowledged.test(k) ? "acknowledged" : "UNEXPECTED");
  }

  private static Diff.Total total(Diff.HourDiff h, int measure) {
    return measure < h.totals().size() ? h.totals().get(measure) : new Diff.Total(null, 0, 0);
  }

  /**
   * A text column whose cells show their whole text in a tooltip when it does not fit; a table that {@link
   * ColumnFit#follow}s its rows widens it to its longest text first.
   */
  public static <S> TableColumn<S, String> text(String title, double width, Function<S, String> value) {
    TableColumn<S, String> c = new TableColumn<>(title);
    c.setPrefWidth(width);
    ColumnFit.text(c, width);
    c.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
    c.setCellFactory(col -> new TableCell<>() {
      private final Tooltip tip = new Tooltip();

      @Override
      protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty ? null : item);
        tip.setText(item);
        setTooltip(empty || item == null || item.isEmpty() ? null : tip);
      }
    });
    return c;
  }

  /**
   * A column of prose (an audit line's detail): each cell wraps its whole text to the column's width and its row grows
   * to hold it, so nothing an operator reads is cut short.
   */
  public static <S> TableColumn<S, String> prose(String title, double width, Function<S, String> value) {
    TableColumn<S, String> c = new TableColumn<>(title);
    c.setPrefWidth(width);
    c.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
    c.setCellFactory(col -> new TableCell<>() {
      private final Text text = new Text();

      {
        text.getStyleClass().add("prose-cell");
        text.wrappingWidthProperty().bind(col.widthProperty().subtract(12));
        setPrefHeight(Control.USE_COMPUTED_SIZE);
      }

      @Override
      protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        // A long name (`db`.`table`) may break after its dots and quotes, not only at spaces.
        text.setText(empty || item == null ? "" : item.replaceAll("([.`/,])(?=\\S)", "$1\u200B"));
        setGraphic(empty || item == null ? null : text);
      }
    });
    return c;
  }

  /**
   * Keeps {@code column} as wide as {@code table} leaves beside its other shown columns, and at least {@code least}
   * pixels: a {@link #prose} column wraps in the room there is instead of running past the table's edge.
   */
  public static <S> void fillRest(TableView<S> table, TableColumn<S, ?> column, double least) {
    List<Observable> inputs = new ArrayList<>(List.of(table.widthProperty()));
    for (TableColumn<S, ?> c : table.getColumns()) {
      if (c != column) {
        inputs.add(c.widthProperty());
        inputs.add(c.visibleProperty());
      }
    }
    column.prefWidthProperty().bind(Bindings.createDoubleBinding(() -> Math.max(least,
        table.getWidth() - 20 - table.getColumns().stream().filter(c -> c != column && c.isVisible())
            .mapToDouble(TableColumn::getWidth).sum()), inputs.toArray(Observable[]::new)));
  }

  public static <S> TableColumn<S, Double> number(String title, double width, Function<S, Double> value) {
    TableColumn<S, Double> c = new TableColumn<>(title);
    c.setPrefWidth(width);
    ColumnFit.number(c, width);
    c.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
    c.setCellFactory(col -> new TableCell<>() {
      @Override
      protected void updateItem(Double item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty || item == null ? null : Formats.number(item));
        setAlignment(Pos.CENTER_RIGHT);
      }
    });
    return c;
  }
}
