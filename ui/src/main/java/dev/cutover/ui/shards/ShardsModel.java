package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ClusterPlan;
import dev.cutover.engine.ShardedRepair.ClusterPreflight;
import dev.cutover.engine.ShardedRepair.ClusterVerdict;
import dev.cutover.engine.ShardedRepair.ShardReading;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.backfill.HourStates;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableMap;

/**
 * What the Shards screen shows of a repair on every shard of a cluster, on the FX thread: what was last
 * read of each shard ({@link ShardReadings}), and what the operator's steps found: the plan and preflight
 * of every shard, the verdict and coverage of each shard, every node's gate, and each node's swap as it
 * happens.
 */
public final class ShardsModel {

  /** One shard's line in the table. */
  public record ShardRow(String shard, String node, String phase, String boundary, String run, String hours,
      String reads, String read) {}

  private final Workspace workspace;
  private final Activity activity;
  private final Activity reading;
  private final ShardReadings readings = new ShardReadings();
  private final ObjectProperty<ClusterPlan> plan = new SimpleObjectProperty<>();
  private final ObjectProperty<ClusterPreflight> preflight = new SimpleObjectProperty<>();
  private final ObservableList<String> preflightLines = FXCollections.observableArrayList();
  private final ObservableList<String> dependents = FXCollections.observableArrayList();
  private final ObservableMap<String, String> reasons = FXCollections.observableMap(new LinkedHashMap<>());
  private final ObservableMap<String, String> shownReasons = FXCollections.unmodifiableObservableMap(reasons);
  private final BooleanProperty running = new SimpleBooleanProperty();
  private final StringProperty runLine = new SimpleStringProperty("");
  private final StringProperty verdict = new SimpleStringProperty("Not reconciled in this console yet.");
  private final ObservableList<String> verdictLines = FXCollections.observableArrayList();
  private final ObservableList<HourPartition> unexpectedHours = FXCollections.observableArrayList();
  private ShardedRepair checkedBy;

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

  /** The steps the operator takes: plan, backfill, reconcile, swap. */
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
    forgetPreflight();
    preflightLines.clear();
    dependents.clear();
    reasons.clear();
    verdict.set("Not reconciled in this console yet.");
    verdictLines.clear();
    unexpectedHours.clear();
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

  /** A plan and preflight no longer stand once a run started from them, or the shards were read again after a loss. */
  void forgetPreflight() {
    checkedBy = null;
    plan.set(null);
    preflight.set(null);
    preflightLines.clear();
  }

  /** The repair the current plan and preflight were made on, or null. */
  ShardedRepair checkedBy() {
    return checkedBy;
  }

  void checked(ShardedRepair repair, ClusterPlan p, ClusterPreflight f) {
    if (f.reports().values().stream().flatMap(r -> r.dependents().stream()).anyMatch(d -> d.acknowledged()
        && !d.reason().equals(java.util.Optional.ofNullable(reasons.get(d.name()))))) {
      forgetPreflight();
      preflightLines.add("An acknowledgement this preflight ran with was taken back meanwhile: plan and preflight "
          + "every shard again before the backfill.");
      return;
    }
    checkedBy = repair;
    plan.set(p);
    preflight.set(f);
    List<String> lines = new ArrayList<>(List.of("Planned and checked at " + Formats.time(Instant.now()) + "."));
    lines.addAll(ShardWords.preflight(p, f));
    preflightLines.setAll(lines);
    dependents.setAll(f.reports().values().stream().flatMap(r -> r.dependents().stream())
        .map(PreflightReport.Dependent::name).distinct().sorted().toList());
  }

  void started(String words) {
    running.set(true);
    runLine.set(words);
    forgetPreflight();
  }

  /** What a step on the repair itself did (the corrected view deployed, the repair abandoned), on the run's line. */
  void deployed(String words) {
    runLine.set(words);
  }

  void ended(String words) {
    running.set(false);
    runLine.set(words);
  }

  void reconciled(ClusterVerdict v) {
    verdict.set(v.sentence() + " Reconciled at " + Formats.time(Instant.now()) + ".");
    verdictLines.setAll(ShardWords.verdict(v));
    unexpectedHours.setAll(ShardWords.unexpected(v));
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

  public ObjectProperty<ClusterPlan> planProperty() {
    return plan;
  }

  public ObjectProperty<ClusterPreflight> preflightProperty() {
    return preflight;
  }

  public ObservableList<String> preflightLines() {
    return preflightLines;
  }

  /** The tables that read v1 on some shard, named by the last preflight; each to be acknowledged before a backfill. */
  public ObservableList<String> dependents() {
    return dependents;
  }

  /**
   * The reason the operator gave for each dependent acknowledged so far, by {@code db.table}; a dependent
   * without one is not acknowledged. {@link ShardsController} asks and takes back.
   */
  public ObservableMap<String, String> reasons() {
    return shownReasons;
  }

  /** The acknowledgements given so far, for the next preflight or resume. */
  List<AcknowledgedDependent> acknowledgedDependents() {
    return reasons.entrySet().stream().map(e -> new AcknowledgedDependent(e.getKey(), e.getValue())).toList();
  }

  void acknowledge(AcknowledgedDependent acknowledged) {
    reasons.put(acknowledged.name(), acknowledged.reason());
  }

  /**
   * Takes back the acknowledgement of {@code dependent}; a preflight that passed with it no longer clears the
   * backfill, so the plan and preflight are made again.
   */
  void takeBack(String dependent) {
    if (reasons.remove(dependent) != null && preflight.get() != null && preflight.get().reports().values().stream()
        .anyMatch(r -> r.dependents().stream().anyMatch(d -> d.name().equals(dependent) && d.acknowledged()))) {
      forgetPreflight();
      preflightLines.add("The acknowledgement of " + dependent + " was taken back: plan and preflight every shard "
          + "again before the backfill.");
    }
  }

  /** Whether a backfill this console started runs on some shard now. */
  public BooleanProperty runningProperty() {
    return running;
  }

  public StringProperty runLineProperty() {
    return runLine;
  }

  public StringProperty verdictProperty() {
    return verdict;
  }

  public ObservableList<String> verdictLines() {
    return verdictLines;
  }

  /** The hours with unexpected keys on some shard, from the last reconciliation. */
  public ObservableList<HourPartition> unexpectedHours() {
    return unexpectedHours;
  }

}
