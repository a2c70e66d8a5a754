package dev.cutover.ui.backfill;

import dev.cutover.engine.BackfillSteps;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.RunFeed;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reads the target's runs and the live status every two seconds while the screen is shown, and
 * follows the run shown unless this console drives it: the engine's feed of that run turns its
 * records into the same events a driven run sends, and {@link RunProgress#apply} shows both alike.
 * Whether a followed run's process is gone (its heartbeat is stale) is in its record, not in an
 * event, and is shown from there.
 */
final class RunReading {

  static final Duration POLL = Duration.ofSeconds(2);

  private final BackfillModel model;
  private final Workspace workspace;
  private TaskExecutor.Handle poll;
  private long generation;
  /** When the runs were last read whole; null before the first read. */
  private Instant lastRead;
  /** The feed of the run shown, when this console follows it; read by one background task at a time. */
  private RunFeed feed;
  /** The shard whose part {@link #feed} follows alone; null when it follows the run over every shard. */
  private dev.cutover.engine.api.ShardRef feedShard;
  /**
   * The run this console drives is shown from its feed once, after the operator went back from one shard's part
   * to every shard's: the run's own events then go on from the whole ledger that read laid out.
   */
  private boolean layOutDriven;

  RunReading(BackfillModel model) {
    this.model = model;
    this.workspace = model.workspace();
    workspace.specProperty().addListener((o, was, is) -> {
      forget();
      lastRead = null; // what was read of another spec says nothing of this one's
    });
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
    forget(); // a read still in flight keeps the old feed; the next read starts a new one
    refresh();
  }

  /** The shown run changed, or the run this console drove ended: it is followed afresh, from its whole ledger. */
  void forget() {
    feed = null;
  }

  /**
   * The operator went back from one shard's part to every shard's: a run this console drives is read once from
   * its whole ledger, since its own events were set aside meanwhile, and then goes on from them.
   */
  void backToEveryShard() {
    feed = null;
    layOutDriven = model.drivenProperty().get() != null;
  }

  /** Reads the runs and the live status, and the feed of the shown run unless this console drives it. */
  void refresh() {
    model.demoLive().refresh();
    BackfillSteps steps = BackfillController.backfillSteps(workspace);
    PlanSteps plans = BackfillController.planSteps(workspace);
    if (model.reading().get() || steps == null || plans == null) {
      return;
    }
    model.reading().set(true);
    long read = generation;
    String wanted = model.selectedRunProperty().get();
    RunHandle mine = model.drivenProperty().get();
    RunFeed current = feed;
    dev.cutover.engine.api.ShardRef part = model.shownShardProperty().get();
    dev.cutover.engine.api.ShardRef currentPart = feedShard;
    boolean layOut = layOutDriven;
    var demo = workspace.demo();
    workspace.executor().submit(p -> {
      List<dev.cutover.engine.api.ShardRef> shards = steps.shards();
      List<RunRecord> all = steps.runs();
      LiveStatus status = plans.live();
      // Deployed here or by another process (demo deploy-v2): the card stops offering what is done. A read that
      // fails (the demo's world being seeded again) leaves what the card shows as it was: null.
      Optional<HourPartition> deployed;
      try {
        deployed = demo.flatMap(dev.cutover.ui.DemoControls::deployedFrom);
      } catch (RuntimeException e) {
        deployed = null;
      }
      Optional<RunRecord> shown = all.stream().filter(r -> r.id().equals(wanted)).findFirst()
          .or(() -> wanted == null ? all.stream().findFirst() : Optional.empty());
      // The run this console drives is shown from its own events, unless one shard's part is shown alone.
      if (shown.isEmpty() || (mine != null && mine.id().equals(shown.get().id()) && part == null && !layOut)) {
        return new Snapshot(shards, all, status, deployed, shown, null, null, false, List.of(), false);
      }
      boolean fresh = current == null || !current.runId().equals(shown.get().id())
          || !java.util.Objects.equals(currentPart, part);
      RunFeed followed = !fresh ? current : part == null ? steps.feed(shown.get().id())
          : steps.feed(shown.get().id(), part);
      // An ended run's records no longer change: once its feed has told everything, it is not read again.
      List<BackfillEvent> events = fresh || !followed.ended() ? followed.next() : List.of();
      RunRecord run = followed.record().orElse(shown.get());
      boolean interrupted = run.interrupted(Instant.now(), RunRecord.STALE_AFTER);
      return new Snapshot(shards, all, status, deployed, Optional.of(run), followed, part, fresh, events,
          interrupted);
    }, (message, fraction) -> {}, s -> {
      if (read == generation) {
        apply(s);
      }
    }, failure -> {
      if (read == generation) {
        model.reading().set(false);
        model.pollErrorProperty().set((lastRead == null ? "Not read yet: " : "Shown as read at "
            + dev.cutover.ui.common.Formats.clock(lastRead) + "; not read now: ") + Errors.sentence(failure,
            "read the runs and the ledger"));
      }
    });
  }

  private record Snapshot(List<dev.cutover.engine.api.ShardRef> shards, List<RunRecord> runs, LiveStatus live,
      Optional<HourPartition> deployedFrom, Optional<RunRecord> shown, RunFeed feed,
      dev.cutover.engine.api.ShardRef part, boolean fresh, List<BackfillEvent> events, boolean interrupted) {}

  private void apply(Snapshot s) {
    RunProgress progress = model.progress();
    model.reading().set(false);
    model.pollErrorProperty().set("");
    lastRead = Instant.now();
    // A run that started, stopped or ended (here or elsewhere) may have moved the repair.
    workspace.repair().runsSeen(s.runs());
    model.runs().setAll(s.runs());
    if (!model.shards().equals(s.shards())) {
      model.shards().setAll(s.shards());
    }
    if (s.deployedFrom() != null) {
      model.demoDeployedFrom().set(s.deployedFrom());
    }
    model.live().set(s.live());
    RunHandle mine = model.drivenProperty().get();
    if (mine == null) {
      progress.liveLagProperty().set(s.live().lag());
    }
    if (s.feed() != null) {
      RunRecord run = s.shown().orElseThrow();
      feed = s.feed();
      feedShard = s.part();
      if (s.part() == null && mine != null && mine.id().equals(run.id())) {
        layOutDriven = false; // laid out from the whole ledger: the run's own events go on from here
        feed = null;
      }
      if (s.fresh()) {
        progress.follow(run, liveEnd(s.live(), run.boundary()));
      }
      s.events().forEach(progress::apply);
      progress.observed(run, s.interrupted());
      progress.hours().changed();
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
