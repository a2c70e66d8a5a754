package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ShardReading;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.ui.backfill.HourStates;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.shards.ShardsModel.ShardRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the Shards screen last read of each shard, on the FX thread: each shard's line, the hours of one
 * shard or of all merged, and when each was read. A shard that did not answer keeps its last reading,
 * marked with why and when, so that nothing old is shown as read now.
 */
public final class ShardReadings {

  /** The last good reading of a shard, when it was taken, and why the latest read failed, if it did. */
  private record Kept(ShardReading reading, Instant at, Optional<String> silent) {}

  private final ObservableList<ShardRow> rows = FXCollections.observableArrayList();
  private final Map<ShardRef, Kept> kept = new LinkedHashMap<>();
  private final HourStates hours = new HourStates();
  private final ObservableList<String> shardChoices = FXCollections.observableArrayList();
  private final IntegerProperty shown = new SimpleIntegerProperty(0);
  private final StringProperty gridCaption = new SimpleStringProperty("");
  private final StringProperty readAt = new SimpleStringProperty("Not read yet.");
  private ShardedRepair readFrom;

  ShardReadings() {
    shown.addListener((o, was, is) -> regrid());
  }

  /** Nothing read of the repair before holds (another repair, or the same loaded again). */
  void forget() {
    kept.clear();
    rows.clear();
    shardChoices.clear();
    shown.set(0);
    readFrom = null;
    readAt.set("Not read yet.");
    regrid();
  }

  /** Every shard as just read from {@code repair} at {@code at}; a shard that did not answer keeps its last reading, marked. */
  void read(ShardedRepair repair, Map<ShardRef, ShardReading> read, Instant at) {
    if (readFrom != repair) {
      readFrom = repair;
      List<String> choices = new ArrayList<>(List.of("All shards, merged"));
      read.keySet().forEach(s -> choices.add("Shard " + s.shard() + " (" + s.node() + ")"));
      shardChoices.setAll(choices);
    }
    read.forEach((s, r) -> {
      Kept before = kept.get(s);
      if (r.silent().isPresent() && before != null) {
        kept.put(s, new Kept(before.reading(), before.at(), r.silent()));
      } else {
        kept.put(s, new Kept(r, at, r.silent()));
      }
    });
    List<ShardRow> lines = new ArrayList<>();
    kept.forEach((s, k) -> lines.add(ShardWords.row(s, k.reading(), k.at(), k.silent())));
    rows.setAll(lines);
    List<String> silent = new ArrayList<>();
    kept.forEach((s, k) -> k.silent().ifPresent(why -> silent.add(s + ": " + why.replaceAll("[.\\s]+$", ""))));
    readAt.set(silent.isEmpty() ? "Every shard read at " + Formats.time(at) + "." : "Read at " + Formats.time(at)
        + "; not answering: " + String.join("; ", silent) + ". Its line and hours are as last read, and say when.");
    regrid();
  }

  /** Draws the grid again for the shard chosen, or all merged. */
  void regrid() {
    int choice = shown.get();
    List<ShardHours.Ledger> ledgers = new ArrayList<>();
    List<String> stale = new ArrayList<>();
    int n = 0;
    for (var e : kept.entrySet()) {
      n++;
      if (choice != 0 && choice != n) {
        continue;
      }
      Kept k = e.getValue();
      k.reading().status().flatMap(ShardedRepair.ShardStatus::latestRun)
          .ifPresent(run -> ledgers.add(new ShardHours.Ledger(run, k.reading().ledger())));
      if (k.silent().isPresent()) {
        stale.add(e.getKey() + (k.reading().status().isPresent() ? " as read at " + Formats.time(k.at())
            : " unknown: never read"));
      }
    }
    ShardHours.fill(hours, ledgers, choice == 0 ? kept.size() : 1, HourPartition.containing(Instant.now()));
    gridCaption.set(ShardWords.grid(choice, ledgers.isEmpty(), stale));
  }

  /** Every shard's hours written and to write in its latest run, as last read: for the question before closing. */
  long[] progress() {
    long done = 0;
    long total = 0;
    for (Kept k : kept.values()) {
      var run = k.reading().status().flatMap(ShardedRepair.ShardStatus::latestRun);
      if (run.isPresent()) {
        done += k.reading().ledger().values().stream().filter(dev.cutover.engine.api.LedgerEntry::complete).count();
        total += run.get().range().hours();
      }
    }
    return new long[] {done, total};
  }

  public ObservableList<ShardRow> rows() {
    return rows;
  }

  public HourStates hours() {
    return hours;
  }

  public ObservableList<String> shardChoices() {
    return shardChoices;
  }

  /** Which grid is shown: 0 for every shard merged, n for shard n. */
  public IntegerProperty shownProperty() {
    return shown;
  }

  public StringProperty gridCaptionProperty() {
    return gridCaption;
  }

  public StringProperty readAtProperty() {
    return readAt;
  }
}
