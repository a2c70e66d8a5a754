package dev.cutover.engine;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A run as its records tell it, read on the caller's schedule: each {@link #next()} reads the run's
 * record, its ledger and the live writer's lag, and returns what changed since the last read as the
 * same events the run's own driver hears, the hours first, then the progress, then a change of state
 * (so the end is the last thing a read tells). The first read tells every hour the ledger holds. A feed
 * knows only what the records say: its rates are measured between its own reads, and whether the
 * run's process is gone is in {@link #record()} ({@link RunRecord#interrupted}), not in an event.
 * One feed is read by one thread at a time.
 */
public final class RunFeed {

  /** Where a feed reads its run: the record, the ledger and the live writer's lag, each read afresh. */
  interface Source {
    Optional<RunRecord> run();

    TreeMap<HourPartition, LedgerEntry> ledger();

    Duration lag();
  }

  private final Source source;
  private final String runId;
  private final Map<HourPartition, LedgerEntry> seen = new HashMap<>();
  private RunRecord record;
  private RunState lastState;
  private Instant lastRead;
  private long lastDone;

  RunFeed(String runId, Source source) {
    this.runId = runId;
    this.source = source;
  }

  /** The feed of run {@code runId} of {@code spec}'s target on one server. */
  static RunFeed onServer(Ground ground, Plans plans, TableSpec spec, String runId) {
    return new RunFeed(runId, new Source() {
      @Override
      public Optional<RunRecord> run() {
        return ground.store().run(runId);
      }

      @Override
      public TreeMap<HourPartition, LedgerEntry> ledger() {
        return ground.store().hours().ledger(runId);
      }

      @Override
      public Duration lag() {
        return plans.live(spec).lag();
      }
    });
  }

  public String runId() {
    return runId;
  }

  /** The run's record as the last read found it; empty before the first read that found the run. */
  public Optional<RunRecord> record() {
    return Optional.ofNullable(record);
  }

  /** Whether the last read found the run ended: nothing more will change. */
  public boolean ended() {
    return record != null && !record.state().active();
  }

  /** Reads the run's records once and returns what changed since the last read, in order. */
  public List<BackfillEvent> next() {
    Optional<RunRecord> found = source.run();
    if (found.isEmpty()) {
      return List.of();
    }
    RunRecord run = found.get();
    TreeMap<HourPartition, LedgerEntry> ledger = source.ledger();
    Duration lag = source.lag();
    List<BackfillEvent> events = new ArrayList<>();
    for (LedgerEntry e : ledger.values()) {
      if (!e.equals(seen.put(e.hour(), e))) {
        events.add(e.complete()
            ? new BackfillEvent.HourWritten(runId, e.hour(), e.rows(), e.checksum(), e.carried())
            : new BackfillEvent.HourFailed(runId, e.hour(), e.error()));
      }
    }
    // progress before the change of state: a listener that stops at the end has heard the whole count
    events.add(progress(run, ledger, lag));
    if (run.state() != lastState) {
      lastState = run.state();
      events.add(new BackfillEvent.StateChanged(runId, run.state(), run.message()));
    }
    record = run;
    return events;
  }

  private BackfillEvent.Progress progress(RunRecord run, TreeMap<HourPartition, LedgerEntry> ledger, Duration lag) {
    long done = ledger.values().stream().filter(LedgerEntry::complete).count();
    long failed = ledger.size() - done;
    long rows = ledger.values().stream().filter(LedgerEntry::complete).mapToLong(LedgerEntry::rows).sum();
    Instant now = Instant.now();
    double hoursPerSecond = 0;
    if (run.state() == RunState.RUNNING && lastRead != null && now.isAfter(lastRead)) {
      hoursPerSecond = (done - lastDone) / (Duration.between(lastRead, now).toMillis() / 1000.0);
    }
    lastRead = now;
    lastDone = done;
    long left = Math.max(0, run.range().hours() - done - failed);
    Optional<Duration> eta = hoursPerSecond > 0 ? Optional.of(Duration.ofSeconds((long) (left / hoursPerSecond)))
        : Optional.empty();
    double rowsPerHour = done == 0 ? 0 : (double) rows / done;
    return new BackfillEvent.Progress(runId, run.state(), run.range().hours(), done, failed, rows,
        hoursPerSecond * rowsPerHour, hoursPerSecond, eta, lag, "");
  }
}
