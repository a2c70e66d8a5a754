package dev.cutover.ui.backfill;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the target's runs, the live status, and the record and ledger of the run shown unless this
 * console drives it, every two seconds while the screen is shown, and writes what it read into the
 * model. A run another process drives is known only from these reads; so is whether its process is
 * gone (its heartbeat is stale), which the run's own events cannot say.
 */
final class RunReading {

  static final Duration POLL = Duration.ofSeconds(2);

  private final BackfillModel model;
  private final Workspace workspace;
  private TaskExecutor.Handle poll;
  private long generation;
  private RunRecord lastRead;

  RunReading(BackfillModel model) {
    this.model = model;
    this.workspace = model.workspace();
    workspace.specProperty().addListener((o, was, is) -> lastRead = null);
  }

  /** Reads now, then every {@link #POLL} until {@link #stop()}. */
  void start() {
    refresh();
    // While the server does not answer there is nothing to read: the screen is greyed and says why.
    poll = workspace.executor().every(POLL, () -> {
      if (!workspace.lost().get()) {
        refresh();
      }
    });
  }

  void stop() {
    if (poll != null) {
      poll.cancel();
      poll = null;
    }
  }

  /**
   * Reads everything again after a reconnect, whatever read was under way: that one went to the
   * server as it was, and its answer is dropped.
   */
  void reread() {
    generation++;
    model.reading().set(false);
    lastRead = null;
    refresh();
  }

  /** The shown run changed, or the run this console drove ended: its ledger is read whole again. */
  void forget() {
    lastRead = null;
  }

  /** Reads the runs, the live status, and the ledger of the shown run unless this console drives it. */
  void refresh() {
    model.demoLive().refresh();
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (model.reading().get() || spec == null || engine == null) {
      return;
    }
    model.reading().set(true);
    long read = generation;
    String wanted = model.selectedRunProperty().get();
    RunHandle mine = model.drivenProperty().get();
    RunRecord previous = lastRead;
    workspace.executor().submit(p -> {
      List<RunRecord> all = engine.backfills().runs(spec);
      LiveStatus status = engine.plans().live(spec);
      Optional<RunRecord> shown = all.stream().filter(r -> r.id().equals(wanted)).findFirst()
          .or(() -> wanted == null ? all.stream().findFirst() : Optional.empty());
      Map<HourPartition, LedgerEntry> ledger = null;
      if (shown.isPresent() && (mine == null || !mine.id().equals(shown.get().id())) && needsLedger(previous, shown.get())) {
        ledger = engine.backfills().ledger(shown.get().id());
      }
      boolean interrupted = shown.map(r -> r.interrupted(Instant.now(), RunRecord.STALE_AFTER)).orElse(false);
      return new Snapshot(all, status, shown, ledger, interrupted);
    }, (message, fraction) -> {}, s -> {
      if (read == generation) {
        apply(s);
      }
    }, failure -> {
      if (read == generation) {
        model.reading().set(false);
        model.pollErrorProperty().set(Errors.sentence(failure, "read the runs and the ledger"));
      }
    });
  }

  /** A finished run's ledger no longer changes: read it once. */
  private static boolean needsLedger(RunRecord previous, RunRecord now) {
    return previous == null || !previous.id().equals(now.id()) || previous.state() != now.state() || now.state().active();
  }

  private record Snapshot(List<RunRecord> runs, LiveStatus live, Optional<RunRecord> shown,
      Map<HourPartition, LedgerEntry> ledger, boolean interrupted) {}

  private void apply(Snapshot s) {
    RunProgress progress = model.progress();
    model.reading().set(false);
    model.pollErrorProperty().set("");
    // A run that started, stopped or ended (here or elsewhere) may have moved the repair.
    if (s.shown().isPresent() && lastRead != null && lastRead.id().equals(s.shown().get().id())
        && lastRead.state() != s.shown().get().state()) {
      workspace.repair().refresh();
    }
    model.runs().setAll(s.runs());
    model.live().set(s.live());
    RunHandle mine = model.drivenProperty().get();
    if (mine == null) {
      progress.liveLagProperty().set(s.live().lag());
    }
    if (s.shown().isPresent() && s.ledger() != null) {
      lastRead = s.shown().get();
      progress.show(s.shown().get(), s.ledger(), liveEnd(s.live(), s.shown().get().boundary()), Instant.now(),
          s.interrupted());
    } else if (s.shown().isEmpty() && mine == null) {
      Plan plan = workspace.plan();
      progress.clear();
      if (plan != null) {
        progress.layout(plan.range().from(), plan.range().to(), plan.boundary(), liveEnd(s.live(), plan.boundary()));
        progress.hours().changed();
        progress.totalProperty().set(plan.hours().size());
      }
    }
  }

  /** Where the hours shown end: the hour after the live edge, or the boundary while v1 has none. */
  static HourPartition liveEnd(LiveStatus live, HourPartition boundary) {
    return live.liveEdge().map(e -> e.plusHours(1)).orElse(boundary);
  }
}
