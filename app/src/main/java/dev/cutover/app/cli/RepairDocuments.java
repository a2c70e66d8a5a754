package dev.cutover.app.cli;

import static dev.cutover.app.output.Shapes.hour;
import static dev.cutover.app.output.Shapes.name;
import static dev.cutover.app.output.Shapes.seconds;

import dev.cutover.app.output.Shapes.Window;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.ui.repair.NextStepWords;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/** The JSON documents of plan, preflight, backfill and status (docs/JSON.md). */
final class RepairDocuments {

  private RepairDocuments() {}

  record PlanDocument(String command, String spec, String target, Window range, long hours, Window affected,
      long computedHours, long carriedHours, Instant boundary,
      boolean boundaryPinned, Instant liveEdge, Window overlap, Estimates estimates, Settings settings,
      List<Allowed> allowedNondeterministic, List<String> statements) {

    static PlanDocument of(Plan p) {
      return new PlanDocument("plan", p.spec().name(), p.spec().database() + "." + p.spec().targetTable(),
          Window.of(p.range()), p.hours().size(), Window.of(p.affected()), p.computed().size(),
          p.carried().size(), hour(p.boundary()), p.pinned(), hour(p.liveEdge()),
          Window.of(p.overlap()), new Estimates(p.estimates().sourceRows(), p.estimates().sourceBytes(),
              seconds(p.estimates().sampleHour()), seconds(p.estimates().duration())), Settings.of(p.settings()),
          p.spec().allowedNondeterministic().stream().map(a -> new Allowed(a.function(), a.reason())).toList(),
          p.statements());
    }
  }

  /** A non-deterministic function the spec allows in its transform, and why. */
  record Allowed(String function, String reason) {}

  record Estimates(long sourceRows, long sourceBytes, BigDecimal sampleHourSeconds, BigDecimal durationSeconds) {}

  /** A run's throttle, as it runs or will run. */
  record Settings(int concurrency, int batchHours, long rowsPerSecond, BigDecimal maxLiveLagSeconds, int maxThreads,
      int priority, int nice, int restPercent, long maxMemoryUsage, int maxAttempts, BigDecimal retryBackoffSeconds,
      BigDecimal serverWaitSeconds) {

    static Settings of(BackfillSettings s) {
      return new Settings(s.concurrency(), s.batchHours(), s.rowsPerSecond(), seconds(s.maxLiveLag()), s.maxThreads(),
          s.priority(), s.nice(), s.restPercent(), s.maxMemoryUsage(), s.maxAttempts(), seconds(s.retryBackoff()),
          seconds(s.serverWait()));
    }
  }

  record PreflightDocument(String command, boolean passed, List<Check> checks, List<Dependent> dependents) {

    static PreflightDocument of(String command, PreflightReport r) {
      return new PreflightDocument(command, r.passed(), r.checks().stream().map(c -> new Check(c.name(),
          name(c.status()), c.finding(), c.fix())).toList(), r.dependents().stream().map(d -> new Dependent(d.name(),
              d.reads(), d.acknowledged(), d.reason().orElse(null))).toList());
    }
  }

  record Check(String name, String status, String finding, String fix) {}

  /** A dependent the side-effects check found; {@code reason} is the operator's, null until acknowledged. */
  record Dependent(String name, String reads, boolean acknowledged, String reason) {}

  /** What a backfill did: refused by its preflight ({@code started} false, {@code run} null) or ran. */
  record BackfillDocument(String command, boolean started, PreflightDocument preflight, Run run, Next next) {}

  /** The exact next step after a run: a sentence and the command to type. */
  record Next(String sentence, String command) {}

  record Run(String id, String repair, String state, String message, String target, String spec, String specSha256,
      Window range, Instant boundary, Settings parameters, String user, String host, long pid, String toolVersion,
      Instant created, Instant heartbeat) {

    static Run of(RunRecord r, String shownState, BackfillSettings settings) {
      return new Run(r.id(), r.repairId(), shownState, r.message(), r.target(), r.specName(), r.specHash(),
          Window.of(r.range()), hour(r.boundary()), Settings.of(settings), r.osUser(), r.host(), r.pid(),
          r.toolVersion(), r.created(), r.heartbeat());
    }
  }

  /**
   * {@code status --json}: the repair's snapshot, read once: when ({@code at}), the repair, the live edges, which
   * version consumers read, the gate of the step they can take now with when it was judged (null before the repair
   * has a backfilled history), the runs, and the ledger of the run shown.
   */
  /** {@code armed}: the armed cutover, or null when none is armed. */
  /**
   * {@code shards}: on a sharded table, each shard's line, else null; {@code unfinishedSwap}: on a sharded table,
   * what finishing a swap of every node that its process left unfinished did, else null.
   */
  record StatusDocument(String command, Instant at, Repair repair, Live live, String consumersRead, StatusGate gate,
      List<Run> runs, Ledger ledger, SwapDocuments.Arm armed, List<StatusCommand.ShardLine> shards,
      String unfinishedSwap) {}

  /** The gate in a status: its step, whether it is open, when it was judged, and each condition. */
  record StatusGate(String step, boolean open, Instant judgedAt, List<SwapDocuments.Condition> conditions) {

    static StatusGate of(dev.cutover.engine.api.RepairSnapshot.Judged j) {
      return new StatusGate(j.gate().step(), j.gate().open(), j.at(), j.gate().conditions().stream()
          .map(c -> new SwapDocuments.Condition(c.name(), c.met(), c.detail())).toList());
    }
  }

  record Repair(String target, String id, String phase, Instant since, String by, Instant boundary, Instant firstHour,
      String liveView, Boolean liveViewExists, String heldBy, LiveWriter liveWriter, DeclaredWriter declaredWriter,
      List<SideEffect> sideEffects, Verdict verdict, NextStep next) {

    /** {@code acknowledged}: the side-effect acknowledgements the runs of the target wrote, newest first. */
    static Repair of(RepairStatus s, String spec, String consumerView, List<SideEffectAcknowledgement> acknowledged) {
      var r = s.repair();
      return new Repair(s.target(), r.map(x -> x.id()).orElse(null), r.map(x -> name(x.phase())).orElse(null),
          r.map(x -> x.at()).orElse(null), r.map(x -> x.by().user() + "@" + x.by().host()).orElse(null),
          r.flatMap(x -> x.boundary()).map(HourPartition::start).orElse(null),
          r.flatMap(x -> x.firstHour()).map(HourPartition::start).orElse(null),
          r.filter(x -> !x.liveViews().isEmpty()).map(x -> String.join(", ", x.liveViews().stream().map(v -> s.target()
              .substring(0, s.target().indexOf('.') + 1) + v.name()).toList())).orElse(null),
          r.filter(x -> !x.liveViews().isEmpty()).map(x -> s.correctedViewExists()).orElse(null),
          r.flatMap(x -> x.operation()).map(o -> o.describe()).orElse(null),
          s.liveWriter().map(w -> new LiveWriter(hour(w.start()), w.startsAtBoundary(), w.hours(),
              hours(w.belowBoundary()), hours(w.backfilledFromBoundary()), hours(w.missedFromBoundary())))
              .orElse(null),
          s.declaredWriter().map(d -> new DeclaredWriter(d.writer(), d.actor() + "@" + d.host(), d.at())).orElse(null),
          SideEffect.of(s, acknowledged),
          s.verdict().map(v -> new Verdict(v.id(), name(v.verdict()), Window.of(v.window()), v.created(),
              v.unexpectedKeys(), v.acknowledged(), v.coverageIssues(), v.counts())).orElse(null),
          new NextStep(name(s.next().kind()), s.next().sentence(), NextStepWords.command(s.next(), spec, consumerView,
        s.target().substring(s.target().indexOf('.') + 1)),
              NextStepWords.button(s.next())));
    }
  }

  /**
   * A dependent that a run of the repair was allowed to replay history through: who acknowledged it, when
   * (the run's start), for which run, and why.
   */
  record SideEffect(String dependent, String reads, String reason, String run, String acknowledgedBy,
      Instant acknowledgedAt) {

    /** Those of the repair {@code s} shows; none when it has no repair. */
    static List<SideEffect> of(RepairStatus s, List<SideEffectAcknowledgement> acknowledged) {
      String repair = s.repair().map(r -> r.id()).orElse(null);
      return acknowledged.stream().filter(a -> a.repairId().equals(repair)).map(a -> new SideEffect(a.dependent(),
          a.reads(), a.reason(), a.runId(), a.actor() + "@" + a.host(), a.at())).toList();
    }
  }

  /** The operator's declaration that the corrected live writer was deployed (declare-live): a claim, not proof. */
  record DeclaredWriter(String writer, String declaredBy, Instant declaredAt) {}

  record LiveWriter(Instant start, boolean startsAtBoundary, long hours, List<Instant> belowBoundary,
      List<Instant> backfilledFromBoundary, List<Instant> missedFromBoundary) {}

  /** The newest reconciliation's verdict; {@code counts} says whether it may open the gate. */
  record Verdict(String id, String verdict, Window window, Instant created, long unexpectedKeys, long acknowledged,
      long coverageIssues, boolean counts) {}

  record NextStep(String kind, String sentence, String command, String button) {}

  record Live(Instant liveEdge, Instant targetEdge, Instant newestEvent, BigDecimal lagSeconds) {

    static Live of(LiveStatus s) {
      return new Live(hour(s.liveEdge()), hour(s.targetEdge()), s.newestEvent().orElse(null), seconds(s.lag()));
    }
  }

  record Ledger(String run, long hours, long written, long emptied, List<Instant> failed, long pending, long rows) {

    static Ledger of(String run, long total, Collection<LedgerEntry> entries) {
      long written = entries.stream().filter(e -> e.state() == LedgerEntry.State.WRITTEN).count();
      long emptied = entries.stream().filter(e -> e.state() == LedgerEntry.State.EMPTIED).count();
      List<Instant> failed = entries.stream().filter(e -> !e.complete()).map(e -> e.hour().start()).toList();
      return new Ledger(run, total, written, emptied, failed, total - entries.size(),
          entries.stream().mapToLong(LedgerEntry::rows).sum());
    }
  }

  static List<Instant> hours(List<HourPartition> hours) {
    return hours.stream().map(HourPartition::start).toList();
  }
}
