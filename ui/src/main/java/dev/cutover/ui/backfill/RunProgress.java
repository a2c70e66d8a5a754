package dev.cutover.ui.backfill;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Eta;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.ui.backfill.HourStates.Cell;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * How far one run got, on the FX thread: fed either by the events of a run this console drives, or
 * by reading the run's record and ledger for a run another process drives (or drove).
 */
public final class RunProgress {

  private final HourStates hours = new HourStates();
  private final ObjectProperty<RunRecord> record = new SimpleObjectProperty<>();
  private final StringProperty state = new SimpleStringProperty("No run");
  private final BooleanProperty interrupted = new SimpleBooleanProperty();
  private final StringProperty message = new SimpleStringProperty("");
  private final StringProperty waiting = new SimpleStringProperty("");
  private final LongProperty total = new SimpleLongProperty();
  private final LongProperty done = new SimpleLongProperty();
  private final LongProperty failed = new SimpleLongProperty();
  private final LongProperty rows = new SimpleLongProperty();
  private final DoubleProperty rowsPerSecond = new SimpleDoubleProperty();
  private final ObjectProperty<Optional<Eta.Estimate>> eta = new SimpleObjectProperty<>(Optional.empty());
  /** The time left from the recent pace, fed by whichever reads the run: its events or its ledger. */
  private final Eta left = new Eta();
  private final ObjectProperty<Duration> liveLag = new SimpleObjectProperty<>(Duration.ZERO);
  private Instant sampledAt;
  private long sampledRows;
  private long sampledDone;

  /**
   * Shows a run from its record and ledger: every hour the ledger holds, rates from the last reading.
   * {@code interrupted} says whether its process is gone (read off the FX thread: it may resolve the host).
   */
  public void show(RunRecord run, Map<HourPartition, LedgerEntry> ledger, HourPartition liveEnd, Instant now,
      boolean interrupted) {
    boolean same = record.get() != null && record.get().id().equals(run.id());
    if (!same || hours.size() == 0) {
      layout(run.range().from(), run.range().to(), run.boundary(), liveEnd);
      sampledAt = null;
    }
    hours.apply(ledger);
    hours.changed();
    long complete = ledger.values().stream().filter(LedgerEntry::complete).count();
    long fail = ledger.values().stream().filter(e -> !e.complete()).count();
    long written = ledger.values().stream().mapToLong(LedgerEntry::rows).sum();
    record.set(run);
    total.set(run.range().hours());
    done.set(complete);
    failed.set(fail);
    rows.set(written);
    if (run.state() == RunState.RUNNING && sampledAt != null && now.isAfter(sampledAt)) {
      double seconds = Duration.between(sampledAt, now).toMillis() / 1000.0;
      rowsPerSecond.set((written - sampledRows) / seconds);
      left.observe(now, complete);
      eta.set(left.at(now, run.range().hours() - complete - fail));
    } else if (!run.state().active()) {
      rowsPerSecond.set(0);
      eta.set(Optional.empty());
      left.reset();
    }
    sampledAt = now;
    sampledRows = written;
    sampledDone = complete;
    this.interrupted.set(interrupted);
    state.set(interrupted ? "Interrupted (its process stopped answering; resume it)" : words(run.state()));
    message.set(run.message());
    waiting.set("");
  }

  /**
   * Begins showing a run followed from its records (another process drives it, or none does any
   * more): its hours laid out afresh, to be filled by the feed's events through {@link #apply}.
   */
  public void follow(RunRecord run, HourPartition liveEnd) {
    left.reset();
    layout(run.range().from(), run.range().to(), run.boundary(), liveEnd);
    record.set(run);
    total.set(run.range().hours());
    done.set(0);
    failed.set(0);
    rows.set(0);
    waiting.set("");
  }

  /**
   * The followed run's record after a read, and whether its process is gone: an interrupted run is
   * never shown as running, whatever its last recorded state.
   */
  public void observed(RunRecord run, boolean interrupted) {
    record.set(run);
    this.interrupted.set(interrupted);
    state.set(interrupted ? "Interrupted (its process stopped answering; resume it)" : words(run.state()));
    message.set(run.message());
    if (interrupted) {
      rowsPerSecond.set(0);
      eta.set(Optional.empty());
    }
  }

  /** Lays out a run's hours (or a plan's, before it starts) up to the live edge. */
  public void layout(HourPartition from, HourPartition rangeEnd, HourPartition boundary, HourPartition liveEnd) {
    HourPartition end = liveEnd.isBefore(boundary) ? boundary : liveEnd;
    hours.layout(from, rangeEnd, boundary, end);
  }

  /** Applies an event of a run: from the run this console drives, or from the feed of one it follows. */
  public void apply(BackfillEvent event) {
    switch (event) {
      case BackfillEvent.BatchStarted b -> b.hours().forEach(h -> hours.set(h, Cell.RUNNING, 0));
      case BackfillEvent.HourWritten w -> hours.set(w.hour(), w.carried() ? Cell.CARRIED
          : w.rows() == 0 ? Cell.EMPTIED : Cell.WRITTEN, w.rows());
      case BackfillEvent.HourFailed f -> hours.set(f.hour(), Cell.FAILED, 0);
      case BackfillEvent.Retrying r -> waiting.set("Retrying hours from " + r.hours().getFirst() + " (attempt "
          + r.attempt() + "): " + r.error());
      case BackfillEvent.Progress p -> {
        total.set(p.hoursTotal());
        done.set(p.hoursDone());
        failed.set(p.hoursFailed());
        rows.set(p.rowsWritten());
        rowsPerSecond.set(p.rowsPerSecond());
        Instant now = Instant.now();
        left.observe(now, p.hoursDone());
        eta.set(p.state() == RunState.RUNNING ? left.at(now, p.hoursTotal() - p.hoursDone() - p.hoursFailed())
            : Optional.empty());
        liveLag.set(p.liveLag());
        waiting.set(p.waiting());
        state.set(words(p.state()));
      }
      case BackfillEvent.StateChanged s -> {
        state.set(words(s.state()));
        message.set(s.message());
        if (record.get() != null) {
          record.set(record.get().with(s.state(), s.message(), Instant.now()));
        }
      }
    }
  }

  static String words(RunState s) {
    return switch (s) {
      case RUNNING -> "Running";
      case PAUSED -> "Paused";
      case SUCCEEDED -> "Succeeded";
      case FAILED -> "Failed";
      case CANCELLED -> "Cancelled";
    };
  }

  public void clear() {
    record.set(null);
    interrupted.set(false);
    state.set("No run");
    message.set("");
    waiting.set("");
    total.set(0);
    done.set(0);
    failed.set(0);
    rows.set(0);
    rowsPerSecond.set(0);
    eta.set(Optional.empty());
    left.reset();
  }

  /** Sets the record of a run this console just started or resumed. */
  public void started(RunRecord run) {
    left.reset();
    record.set(run);
    interrupted.set(false);
    state.set(words(run.state()));
    message.set(run.message());
    total.set(run.range().hours());
    sampledAt = null;
  }

  public HourStates hours() {
    return hours;
  }

  public ObjectProperty<RunRecord> recordProperty() {
    return record;
  }

  /** Whether the shown run was active when its process went away: it can be resumed. */
  public BooleanProperty interruptedProperty() {
    return interrupted;
  }

  /** Whether the shown run stopped in a way resume can continue: failed, cancelled, or its process gone. */
  public boolean resumable() {
    RunRecord r = record.get();
    return r != null && (r.state() == RunState.FAILED || r.state() == RunState.CANCELLED || interrupted.get());
  }

  public StringProperty stateProperty() {
    return state;
  }

  public StringProperty messageProperty() {
    return message;
  }

  public StringProperty waitingProperty() {
    return waiting;
  }

  public LongProperty totalProperty() {
    return total;
  }

  public LongProperty doneProperty() {
    return done;
  }

  public LongProperty failedProperty() {
    return failed;
  }

  public LongProperty rowsProperty() {
    return rows;
  }

  public DoubleProperty rowsPerSecondProperty() {
    return rowsPerSecond;
  }

  /** The time left with its range, from the recent pace; empty until known, or while the run does not run. */
  public ObjectProperty<Optional<Eta.Estimate>> etaProperty() {
    return eta;
  }

  public ObjectProperty<Duration> liveLagProperty() {
    return liveLag;
  }
}
