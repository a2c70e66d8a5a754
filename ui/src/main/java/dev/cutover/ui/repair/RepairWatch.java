package dev.cutover.ui.repair;

import dev.cutover.engine.Engine;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.UnfinishedSwap;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;

/**
 * Where the loaded spec's repair stands, as one snapshot ({@link RepairSnapshot}: the status, the runs,
 * what consumers read and the gate, read together) that every panel of the console is built from: the
 * banner, the phase's pill, the gate, the cards and the next step (their words in {@link RepairPanels}). Read in the background after every
 * step that can change it (the screens call {@link #refresh()}), when the spec or the connection
 * changes, and every {@link #PERIOD} while the console runs and its server answers. One read at a time; a request during
 * a read reads again after it. What it shows says when it was read, and a failed read shows its
 * sentence instead of the last phase, which may no longer hold. While the server does not answer the
 * timer reads nothing: the console greys what was read before and says why, rather than a failed
 * read's sentence every period.
 */
public final class RepairWatch {

  /**
   * How often the repair is read again while nothing in this console changed it: short enough that what another
   * console or the command line did shows on every panel at once. The gate in it is judged again only when what
   * it depends on moved ({@link RepairSnapshot}), so a read costs a few small queries and, while a repair is open and
   * no backfill holds it, one read of v2's hourly sums below B with both versions' from B on (who writes v2).
   */
  public static final Duration PERIOD = Duration.ofSeconds(5);

  private final TaskExecutor executor;
  private final ObservableValue<Engine> engine;
  private final ObservableValue<TableSpec> spec;
  private final ObservableValue<TargetRepair> opened;
  private final ObservableValue<Boolean> answering;
  private final ObjectProperty<RepairSnapshot> snapshot = new SimpleObjectProperty<>();
  private final ObjectProperty<RepairStatus> status = new SimpleObjectProperty<>();
  private final ObjectProperty<Partial> record = new SimpleObjectProperty<>();
  private final StringProperty error = new SimpleStringProperty("");
  private final BooleanProperty reading = new SimpleBooleanProperty();
  private final RepairPanels panels = new RepairPanels();
  private final StringProperty swap = new SimpleStringProperty("");
  /** Whether the swap sentence shown says what a finish did, which stays true after it (not that one is under way). */
  private boolean swapSettled;
  private Instant failedAt;
  private boolean inFlight;
  private boolean again;
  /** The next read judges the gate again, whatever moved: the operator asked for it. */
  private boolean judgeAgain;
  private TaskExecutor.Handle timer;
  /** Each run's state as a screen last told it; null until one does, and again after the spec or server changed. */
  private Map<String, RunState> seenRuns;

  public RepairWatch(TaskExecutor executor, ObservableValue<Engine> engine, ObservableValue<TableSpec> spec) {
    this(executor, engine, spec, new javafx.beans.property.ReadOnlyBooleanWrapper(true));
  }

  /**
   * As {@link #RepairWatch(TaskExecutor, ObservableValue, ObservableValue)}; the timer reads only while
   * {@code answering}.
   */
  public RepairWatch(TaskExecutor executor, ObservableValue<Engine> engine, ObservableValue<TableSpec> spec,
      ObservableValue<Boolean> answering) {
    this(executor, engine, spec, new SimpleObjectProperty<>(), answering);
  }

  /**
   * As {@link #RepairWatch(TaskExecutor, ObservableValue, ObservableValue, ObservableValue)}; the repair is read
   * through {@code opened} once it is open for the spec (a sharded table's, on every node, read as one snapshot
   * over the shards), and a table on one server's through the engine until then.
   */
  public RepairWatch(TaskExecutor executor, ObservableValue<Engine> engine, ObservableValue<TableSpec> spec,
      ObservableValue<TargetRepair> opened, ObservableValue<Boolean> answering) {
    this.executor = executor;
    this.engine = engine;
    this.spec = spec;
    this.opened = opened;
    this.answering = answering;
    // Another spec or another server: what was read no longer applies, not even for a moment.
    engine.addListener((o, was, is) -> forget());
    spec.addListener((o, was, is) -> forget());
    opened.addListener((o, was, is) -> forget());
    status.addListener((o, was, is) -> words());
    record.addListener((o, was, is) -> words());
    error.addListener((o, was, is) -> words());
    reading.addListener((o, was, is) -> words());
    words();
  }

  /** Starts reading every {@link #PERIOD}, until {@link #stop()}. */
  public void start() {
    if (timer == null) {
      timer = executor.every(PERIOD, () -> {
        if (Boolean.TRUE.equals(answering.getValue())) {
          refresh();
        }
      });
    }
  }

  public void stop() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  private void forget() {
    snapshot.set(null);
    status.set(null);
    record.set(null);
    error.set("");
    swap.set("");
    swapSettled = false;
    seenRuns = null;
    refresh();
  }

  /**
   * The target's runs as a screen just read them (the Backfill screen every 2 s, the History screen
   * every 5 s): when one appeared or changed state since a screen last told, the repair is read again
   * now rather than at the next period, so that the banner never says less than the screen under it.
   * The first time, a run started or ended since the last read counts, and so does any run while
   * nothing was read yet (a read under way may have begun before it). A snapshot read after a run ended
   * never shows its repair still held by it ({@code RepairBook#snapshot} reads in that order), so one read
   * is enough.
   */
  public void runsSeen(List<RunRecord> runs) {
    Map<String, RunState> now = runs.stream().collect(Collectors.toMap(RunRecord::id, RunRecord::state, (a, b) -> a));
    RepairStatus read = status.get();
    boolean moved = seenRuns != null ? runs.stream().anyMatch(r -> seenRuns.get(r.id()) != r.state())
        : read == null || runs.stream().anyMatch(r -> r.created().isAfter(read.at())
            || (!r.state().active() && r.heartbeat().isAfter(read.at())));
    seenRuns = now;
    if (moved) {
      refresh();
    }
  }

  /**
   * Reads where the repair stands, off the FX thread; while a read runs, reads once more after it.
   * When the data cannot be read but the repair's state record can (v1 is gone, a table is renamed),
   * the phase is the record's, read now, and the failure is said beside it.
   */
  public void refresh() {
    Engine e = engine.getValue();
    TableSpec s = spec.getValue();
    TargetRepair o = opened.getValue();
    // A sharded table's repair is read once the repair is open on every node, for this spec.
    TargetRepair r = e == null || s == null ? null : o != null && o.spec().equals(s) ? o
        : s.cluster().isEmpty() ? e.repair(s) : null;
    if (r == null) {
      snapshot.set(null);
      status.set(null);
      record.set(null);
      error.set("");
      reading.set(inFlight);
      return;
    }
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    reading.set(true);
    Optional<RepairSnapshot> previous = judgeAgain ? Optional.empty() : Optional.ofNullable(snapshot.get());
    judgeAgain = false;
    executor.submit(p -> read(r, previous), (message, fraction) -> {}, read -> done(e, s, o, read, null),
        failure -> done(e, s, o, null, failure));
  }

  /** Reads the repair again now, with its gate judged again from the data (the operator's Refresh). */
  public void judgeAgain() {
    judgeAgain = true;
    refresh();
  }

  /**
   * A snapshot a step of this console read itself, right after the step (a swap reads one with its result): it
   * is shown at once, on every panel, unless a newer one is shown or the spec or server changed meanwhile.
   */
  public void take(Engine e, TableSpec s, RepairSnapshot read) {
    if (e != engine.getValue() || s != spec.getValue()) {
      return;
    }
    RepairSnapshot shown = snapshot.get();
    if (shown != null && shown.at().isAfter(read.at())) {
      return;
    }
    error.set("");
    record.set(null);
    status.set(read.status());
    snapshot.set(read);
  }

  private record Read(RepairSnapshot snapshot, Partial partial, Optional<UnfinishedSwap> swap) {}

  /** The repair's state record alone, read when its data could not be, and why the data could not be. */
  private record Partial(Optional<Repair> repair, Instant at, Exception failure) {}

  /**
   * The repair over its nodes, after finishing a switch across nodes whose process died halfway (a laptop that
   * slept, a kill): opening the repair in the console finishes it, as any command on it does, so that no panel
   * shows nodes on two versions as where the repair stands. A switch whose process still runs is only named. When
   * the data cannot be read but the repair's state record can, the record is what is known.
   */
  private static Read read(TargetRepair r, Optional<RepairSnapshot> previous) throws Exception {
    Optional<UnfinishedSwap> finished = r.finishUnfinishedSwap();
    try {
      return new Read(r.snapshot(finished.isPresent() ? Optional.empty() : previous), null, finished);
    } catch (Exception failure) {
      Optional<Repair> repair;
      try {
        repair = r.stateRecord();
      } catch (Exception alsoFailed) {
        failure.addSuppressed(alsoFailed);
        throw failure;
      }
      return new Read(null, new Partial(repair, Instant.now(), failure), finished);
    }
  }

  private void done(Engine e, TableSpec s, TargetRepair o, Read read, Throwable failure) {
    inFlight = false;
    boolean current = e == engine.getValue() && s == spec.getValue() && o == opened.getValue();
    if (current) {
      String doing = "read where the repair of " + s.name() + " stands";
      if (failure == null && read.snapshot() != null) {
        error.set("");
        record.set(null);
        // The status (and the banner's words) first: a panel that follows the snapshot reads them current.
        status.set(read.snapshot().status());
        snapshot.set(read.snapshot());
        swap(read.swap());
      } else if (failure == null) {
        failedAt = read.partial().at();
        snapshot.set(null);
        status.set(null);
        record.set(read.partial());
        error.set(Errors.sentence(read.partial().failure(), doing));
      } else {
        failedAt = Instant.now();
        snapshot.set(null);
        status.set(null);
        record.set(null);
        error.set(Errors.sentence(failure, doing));
      }
      words();
    }
    if (again || !current) {
      again = false;
      refresh();
    } else {
      reading.set(false);
    }
  }

  /**
   * What the last read found of a switch left unfinished: a finish it made is kept (with its time) until the
   * spec or server changes, since the operator must learn of it; a switch under way is said while it is.
   */
  private void swap(Optional<UnfinishedSwap> found) {
    if (found.isPresent()) {
      swapSettled = found.get().settled();
      swap.set("Found at " + Formats.clock(Instant.now()) + ": " + found.get().sentence());
    } else if (!swapSettled) {
      swap.set("");
    }
  }

  /** Every panel's words, from what is known now. */
  private void words() {
    Partial p = record.get();
    panels.show(new RepairPanels.Seen(spec.getValue(), status.get(), p != null, p == null ? Optional.empty()
        : p.repair(), p == null ? null : p.at(), error.get(), reading.get(), failedAt, Optional.ofNullable(
        snapshot.get()).flatMap(RepairSnapshot::armed)));
  }

  /**
   * The last snapshot of the repair, or empty while nothing current is known (before the first read, after a
   * failed one): what every panel shows, so that none contradicts another.
   */
  public ReadOnlyObjectProperty<RepairSnapshot> snapshotProperty() {
    return snapshot;
  }

  /** The status of the last snapshot, or empty while nothing current is known. */
  public ReadOnlyObjectProperty<RepairStatus> statusProperty() {
    return status;
  }

  /** The sentence of the last read's failure; empty after a read that worked. */
  public ReadOnlyStringProperty errorProperty() {
    return error;
  }

  public ReadOnlyBooleanProperty readingProperty() {
    return reading;
  }

  /** The words every panel shows of the repair, from the last read. */
  public RepairPanels panels() {
    return panels;
  }

  /**
   * What reading the repair found of a switch across nodes that its process left unfinished, and did: finished
   * it (said until the spec or server changes) or found it under way (said while it is); empty otherwise.
   */
  public ReadOnlyStringProperty swapProperty() {
    return swap;
  }
}
