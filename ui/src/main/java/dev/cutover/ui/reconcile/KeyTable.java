package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.DiffTables;
import java.util.function.Predicate;
import javafx.collections.ListChangeListener;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * The keys of the hour in view on the reconcile screen: the shared key table without its hour column
 * (every row is of the chosen hour, which the panel beside it names), with rows of a fixed height and
 * a key column as wide as the widest key it shows, so that keys are never cut; over a sharded table, a
 * column names the shard that holds each key.
 */
final class KeyTable {

  /** The height of a row, in pixels. */
  static final double ROW = 24;
  /** The header, the horizontal scroll bar and the borders, in pixels. */
  static final double CHROME = 26 + 16 + 4;
  /** How many of the longest keys are measured when the rows change: the widest is among them. */

  private KeyTable() {}

  static TableView<Diff.KeyDiff> of(TableSpec spec, Predicate<Diff.KeyDiff> acknowledged) {
    TableView<Diff.KeyDiff> t = DiffTables.keys("reconcile-keys", spec, acknowledged);
    t.getColumns().removeIf(c -> c.getText().startsWith("Hour"));
    t.setFixedCellSize(ROW);
    TableColumn<Diff.KeyDiff, ?> key = t.getColumns().stream().filter(c -> c.getText().equals("Key")).findFirst()
        .orElseThrow();
    // Over a sharded table each key lies on one shard: the column names it, and shows only there.
    TableColumn<Diff.KeyDiff, String> shard = DiffTables.text("Shard", 200, k -> k.shard().map(Object::toString)
        .orElse(""));
    shard.setVisible(false);
    t.getColumns().add(t.getColumns().indexOf(key) + 1, shard);
    t.getItems().addListener((ListChangeListener<Diff.KeyDiff>) c ->
        shard.setVisible(t.getItems().stream().anyMatch(k -> k.shard().isPresent())));
    return t;
  }

  static String key(Diff.KeyDiff k) {
    return String.join(" / ", k.key());
  }
}
