package dev.cutover.ui.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the backfill screen shows, on the FX thread: the runs of the target, the one shown and how far
 * it got, the run this console drives (if any) and its throttle, the live writer's status, and the
 * last failure to read them. Only {@link BackfillController} and the classes it uses write here.
 */
public final class BackfillModel {

  private final Workspace workspace;
  private final Activity activity;
  private final Activity writer;
  private final DemoLive demoLive;
  private final RunProgress progress = new RunProgress();
  private final ObservableList<RunRecord> runs = FXCollections.observableArrayList();
  private final ObjectProperty<String> selectedRun = new SimpleObjectProperty<>();
  /** A sharded repair's shards, as the steps name them; empty on one server. */
  private final ObservableList<dev.cutover.engine.api.ShardRef> shards = FXCollections.observableArrayList();
  /** The shard whose part of the shown run the hours show alone; null for every shard's, merged. */
  private final ObjectProperty<dev.cutover.engine.api.ShardRef> shownShard = new SimpleObjectProperty<>();
  private final ObjectProperty<RunHandle> driven = new SimpleObjectProperty<>();
  private final BooleanProperty paused = new SimpleBooleanProperty();
  private final IntegerProperty concurrency = new SimpleIntegerProperty(2);
  private final LongProperty rowsLimit = new SimpleLongProperty(0);
  private final IntegerProperty restPercent = new SimpleIntegerProperty(0);
  private final ObjectProperty<LiveStatus> live = new SimpleObjectProperty<>();
  private final ObjectProperty<Optional<HourPartition>> demoDeployedFrom = new SimpleObjectProperty<>(Optional.empty());
  private final StringProperty pollError = new SimpleStringProperty("");
  private final BooleanProperty reading = new SimpleBooleanProperty();
  private final BooleanProperty repairedByView = new SimpleBooleanProperty();
  private final ObjectProperty<Optional<LiveWriterNote>> declaredWriter =
      new SimpleObjectProperty<>(Optional.empty());
  private final ObjectProperty<Optional<HourPartition>> openBoundary = new SimpleObjectProperty<>(Optional.empty());

  public BackfillModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    this.writer = new Activity(workspace.executor());
    workspace.drivingProperty().bind(driven.isNotNull());
    // A backfill starting or running on the shards, or the live writer deployed or declared on every shard, holds
    // the connections to every node of the spec's cluster.
    workspace.drivingShardsProperty().bind(workspace.clusterSpec().and(driven.isNotNull()
        .or(activity.runningProperty()).or(writer.runningProperty())));
    this.demoLive = new DemoLive(workspace);
    // The throttle a run started here would get: the spec's until a plan says otherwise (it starts from the spec's too).
    Optional.ofNullable(workspace.spec()).ifPresent(s -> throttleFrom(BackfillSettings.from(s.throttle())));
    workspace.specProperty().addListener((o, was, is) -> {
      if (is != null) {
        throttleFrom(BackfillSettings.from(is.throttle()));
      }
      runs.clear();
      selectedRun.set(null);
      shownShard.set(null);
      shards.clear();
      progress.clear();
    });
    // The repair as last read: whether it deployed a corrected view that still exists to write v2 from B.
    repairedByView.bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> {
      var status = workspace.repair().statusProperty().get();
      return status != null && status.repair().filter(r -> !r.phase().ended() && !r.liveViews().isEmpty())
          .isPresent() && status.next().kind() != dev.cutover.engine.api.RepairStatus.Kind.DEPLOY_VIEW;
    }, workspace.repair().statusProperty()));
    declaredWriter.bind(workspace.repair().statusProperty().map(s -> s.declaredWriter())
        .orElse(Optional.empty()));
    openBoundary.bind(workspace.repair().statusProperty().map(s -> s.repair().filter(r -> !r.phase().ended())
        .flatMap(r -> r.boundary())).orElse(Optional.empty()));
    workspace.planProperty().addListener((o, was, is) -> {
      if (is != null) {
        throttleFrom(is.settings());
      }
    });
  }

  private void throttleFrom(BackfillSettings settings) {
    concurrency.set(settings.concurrency());
    rowsLimit.set(settings.rowsPerSecond());
    restPercent.set(settings.restPercent());
  }

  /** A sharded repair's shards, as the steps name them; empty on one server. */
  public ObservableList<dev.cutover.engine.api.ShardRef> shards() {
    return shards;
  }

  /** The shard whose part of the shown run the screen shows alone; null for every shard's part merged. */
  public ObjectProperty<dev.cutover.engine.api.ShardRef> shownShardProperty() {
    return shownShard;
  }

  /** Whether the repair has deployed its corrected view (so there is nothing to deploy), as last read. */
  public javafx.beans.property.ReadOnlyBooleanProperty repairedByViewProperty() {
    return repairedByView;
  }

  /** The newest declaration that the open repair's live writer was deployed, as last read. */
  public ObservableValue<Optional<LiveWriterNote>> declaredWriterProperty() {
    return declaredWriter;
  }

  /** The boundary the open repair pinned, as last read; empty before its first backfill or once it ended. */
  public ObservableValue<Optional<HourPartition>> openBoundaryProperty() {
    return openBoundary;
  }

  /** The boundary from which the live writer owns v2: the shown run's, or the plan's. */
  public Optional<HourPartition> boundary() {
    RunRecord r = progress.recordProperty().get();
    if (r != null) {
      return Optional.of(r.boundary());
    }
    return Optional.ofNullable(workspace.plan()).map(Plan::boundary);
  }

  public RunProgress progress() {
    return progress;
  }

  public Activity activity() {
    return activity;
  }

  public Activity writer() {
    return writer;
  }

  /** The demo's live job, on the demo world: started and stopped only by its button. */
  public DemoLive demoLive() {
    return demoLive;
  }

  public ObservableList<RunRecord> runs() {
    return runs;
  }

  public ObjectProperty<String> selectedRunProperty() {
    return selectedRun;
  }

  public ReadOnlyObjectProperty<RunHandle> drivenProperty() {
    return driven;
  }

  /** The run this console drives: set and cleared by {@link RunControls}. */
  ObjectProperty<RunHandle> driven() {
    return driven;
  }

  public BooleanProperty pausedProperty() {
    return paused;
  }

  public IntegerProperty concurrencyProperty() {
    return concurrency;
  }

  public LongProperty rowsLimitProperty() {
    return rowsLimit;
  }

  /** The rest after each batch, in percent of its length, to apply to the run; 0 for none. */
  public IntegerProperty restPercentProperty() {
    return restPercent;
  }

  /**
   * The throttle set on the screen (concurrency, rows/s limit, rest), read now on the FX thread, as a
   * change to lay over a run's or a plan's settings on any thread.
   */
  public UnaryOperator<BackfillSettings> screenThrottle() {
    int c = concurrency.get();
    long r = rowsLimit.get();
    int rest = restPercent.get();
    return s -> s.withConcurrency(c).withRowsPerSecond(r).withRestPercent(rest);
  }

  public ReadOnlyObjectProperty<LiveStatus> liveProperty() {
    return live;
  }

  ObjectProperty<LiveStatus> live() {
    return live;
  }

  /** Where the demo's corrected live writer was deployed from, as last read (by any process); empty outside the demo. */
  public ReadOnlyObjectProperty<Optional<HourPartition>> demoDeployedFromProperty() {
    return demoDeployedFrom;
  }

  ObjectProperty<Optional<HourPartition>> demoDeployedFrom() {
    return demoDeployedFrom;
  }

  public StringProperty pollErrorProperty() {
    return pollError;
  }

  /** Whether a read of the runs and the ledger is under way. */
  public ObservableBooleanValue readingProperty() {
    return reading;
  }

  BooleanProperty reading() {
    return reading;
  }

  public Workspace workspace() {
    return workspace;
  }
}
