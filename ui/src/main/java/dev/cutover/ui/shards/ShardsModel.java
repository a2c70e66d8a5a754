package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ShardReading;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.backfill.HourStates;
import dev.cutover.ui.common.Activity;
import java.time.Instant;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;

/**
 * What the Shards screen shows of the backfill of every shard of a cluster, on the FX thread: what was last
 * read of each shard ({@link ShardReadings}), and the line of the runs this console drives. The plan and its
 * preflight are the Plan screen's, the verdict the Reconcile screen's, the switch of every node the Cutover
 * screen's, as on one server.
 */
public final class ShardsModel {

  /** One shard's line in the table. */
  public record ShardRow(String shard, String node, String phase, String boundary, String run, String hours,
      String reads, String read) {}

  private final Workspace workspace;
  private final Activity activity;
  private final Activity reading;
  private final ShardReadings readings = new ShardReadings();
  private final BooleanProperty running = new SimpleBooleanProperty();
  private final StringProperty runLine = new SimpleStringProperty("");

  public ShardsModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    this.reading = new Activity(workspace.executor());
    // While a step or a run holds the repair's connections, the console neither loads another spec nor connects
    // elsewhere: either would close them under the step.
    workspace.drivingShardsProperty().bind(running.or(activity.runningProperty()));
    // Another repair (another spec, or the same spec loaded again): nothing read of the old one holds.
    workspace.shardedProperty().addListener((o, was, is) -> {
      activity.cancel();
      forget();
    });
  }

  public Workspace workspace() {
    return workspace;
  }

  /** The steps the operator takes here: the corrected live writer, the backfill. */
  public Activity activity() {
    return activity;
  }

  /** The periodic read of every shard. */
  public Activity reading() {
    return reading;
  }

  private void forget() {
    readings.forget();
    runLine.set("");
  }

  /** Every shard as just read from {@code repair} at {@code at}; dropped unless {@code repair} is the one open now. */
  void read(ShardedRepair repair, Map<ShardRef, ShardReading> read, Instant at) {
    if (repair == workspace.shardedProperty().get()) {
      readings.read(repair, read, at);
    }
  }

  /** What was read of each shard: its line, its hours, and when. */
  public ShardReadings readings() {
    return readings;
  }

  void started(String words) {
    running.set(true);
    runLine.set(words);
  }

  /** What a step on the repair itself did (the corrected view deployed, the repair abandoned), on the run's line. */
  void deployed(String words) {
    runLine.set(words);
  }

  void ended(String words) {
    running.set(false);
    runLine.set(words);
  }

  /** What finishing a switch of every node that its process left unfinished did. */
  void finished(String sentence) {
    runLine.set(sentence);
  }

  public ObservableList<ShardRow> rows() {
    return readings.rows();
  }

  public HourStates hours() {
    return readings.hours();
  }

  public ObservableList<String> shardChoices() {
    return readings.shardChoices();
  }

  /** Which grid is shown: 0 for every shard merged, n for shard n. */
  public IntegerProperty shownProperty() {
    return readings.shownProperty();
  }

  public StringProperty gridCaptionProperty() {
    return readings.gridCaptionProperty();
  }

  public StringProperty readAtProperty() {
    return readings.readAtProperty();
  }

  /** Whether a backfill this console started runs on some shard now. */
  public BooleanProperty runningProperty() {
    return running;
  }

  public StringProperty runLineProperty() {
    return runLine;
  }
}
