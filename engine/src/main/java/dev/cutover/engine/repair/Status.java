package dev.cutover.engine.repair;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RepairStatus.Kind;
import dev.cutover.engine.api.RepairStatus.NextStep;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reads where a repair stands and decides the next step. Reading writes nothing, except settling an
 * operation whose process is gone, which every process would record the same way.
 */
public final class Status {

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;
  private final Repairs repairs;

  public Status(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.state = on.state();
    this.reports = on.reports();
    this.spec = on.spec();
    this.repairs = new Repairs(on);
  }

  public RepairStatus read() {
    Optional<Repair> open = repairs.settled();
    Optional<Repair> repair = open.or(repairs::latest);
    LiveStatus live = new LiveReader(sql, spec).read();
    Optional<LiveWriter> writer = Optional.empty();
    Optional<RepairStatus.Verdict> verdict = Optional.empty();
    Optional<LiveWriterNote> declared = open.filter(r -> r.liveViews().isEmpty())
        .flatMap(r -> repairs.liveWriterNotes().newest(r));
    if (open.isPresent() && open.get().boundary().isPresent() && open.get().firstHour().isPresent()) {
      Repair r = open.get();
      HourPartition end = r.boundary().get();
      if (live.liveEdge().isPresent() && live.targetEdge().isPresent()) {
        HourPartition both = live.liveEdge().get().isBefore(live.targetEdge().get()) ? live.liveEdge().get()
            : live.targetEdge().get();
        end = both.isBefore(end) ? end : both.plusHours(1);
      }
      // A backfill's batch writes v2 before its ledger line, so while a run holds the repair an hour below B with
      // rows and no line is a batch under way, not a second writer: the hours below B are judged once it lets go.
      boolean backfilling = r.operation().filter(op -> op.action().equals(Repair.Operation.BACKFILL)).isPresent();
      HourPartition from = backfilling ? r.boundary().get() : r.firstHour().get();
      if (from.isBefore(end)) {
        writer = Optional.of(new Observation(on).liveWriter(r, new HourRange(from, end),
            live.targetEdge()));
      } else if (backfilling) {
        writer = Optional.of(new LiveWriter(r.boundary().get(), Optional.empty(), 0, List.of(), List.of(), List.of()));
      }
      verdict = reports.decisive(r.target(), r.id()).map(s -> new RepairStatus.Verdict(s.id(), s.created(), s.window(),
          s.verdict(), s.unexpectedKeys(), s.acknowledged(), s.coverageIssues(), s.specSha256().equals(spec.sha256()),
          s.boundary().equals(r.boundary().get()) && s.window().from().equals(r.firstHour().get())));
    }
    boolean viewExists = repair.filter(r -> !r.liveViews().isEmpty()).isPresent()
        && new CorrectedView(on).exists(repair.get());
    return new RepairStatus(repairs.target(), Instant.now(), repair, live, writer, declared, verdict, viewExists,
        next(repair, writer, declared, verdict, live, viewExists));
  }

  private NextStep next(Optional<Repair> repair, Optional<LiveWriter> writer, Optional<LiveWriterNote> declared,
      Optional<RepairStatus.Verdict> verdict, LiveStatus edges, boolean viewExists) {
    String view = spec.consumerView().name();
    if (spec.correctedWriter().byViews() && (repair.isEmpty() || repair.get().phase().ended())) {
      return new NextStep(Kind.DEPLOY_VIEW, "Deploy the corrected view " + spec.correctedWriter().named().orElseThrow()
          + " first: a view "
          + "sees only inserts made after it exists, so it is created now with a boundary B in the future, which its "
          + "deployment pins; the backfill then writes the hours before B once B has closed.");
    }
    if (repair.isPresent() && !repair.get().liveViews().isEmpty() && !repair.get().phase().ended()
        && repair.get().phase() != RepairPhase.CUT_OVER && !viewExists) {
      Repair r = repair.get();
      return r.phase() == RepairPhase.PLANNED
          ? new NextStep(Kind.DEPLOY_VIEW, "Repair " + r.id() + " names the corrected view " + r.correctedViews().orElseThrow()
              + ", which does not exist (its deployment was interrupted); deploy again to create it while B = "
              + r.boundary().orElseThrow() + " is still in the future.")
          : new NextStep(Kind.ABANDON, "The corrected view " + r.correctedViews().orElseThrow() + " of repair " + r.id()
              + " does not exist (a rollback drops it), so nothing writes " + spec.targetTable() + " live from B. "
              + "Abandon the repair, then deploy the view again with a boundary of its own.");
    }
    if (repair.isPresent() && repair.get().phase() == RepairPhase.PLANNED && !repair.get().liveViews().isEmpty()) {
      Repair r = repair.get();
      HourPartition b = r.boundary().orElseThrow();
      HourPartition closes = b.plusHours(spec.safetyMargin().toHours());
      return new NextStep(Kind.BACKFILL, "The corrected view " + r.correctedViews().orElseThrow() + " writes " + spec.targetTable()
          + " from B = " + b + ". Start the backfill of the hours before B: it waits until B has closed (the live edge "
          + "at " + closes + ", the safety margin past B; it is at " + edges.liveEdge().map(Object::toString)
          .orElse("none") + ") and then writes them.");
    }
    if (repair.isEmpty() || repair.get().phase() == RepairPhase.PLANNED) {
      return new NextStep(Kind.BACKFILL, "Plan the backfill and start it: its first run pins the boundary B.");
    }
    Repair r = repair.get();
    if (r.phase() == RepairPhase.ABANDONED) {
      return new NextStep(Kind.START_OVER, "Repair " + r.id() + " was abandoned (" + r.note().replaceFirst("^abandoned: ",
          "") + "). A new backfill starts a new repair with a boundary of its own.");
    }
    if (r.phase() == RepairPhase.V1_DROPPED) {
      return new NextStep(Kind.FINISHED, "The repair is finished: consumers read " + spec.targetTable() + " for good and "
          + spec.liveTable() + " is gone.");
    }
    if (r.operation().isPresent()) {
      Repair.Operation op = r.operation().get();
      return op.action().equals(Repair.Operation.BACKFILL)
          ? new NextStep(Kind.WAIT_FOR_RUN, "Run " + op.runId() + " is writing the history; wait for it, or pause or "
              + "cancel it where it runs.")
          : new NextStep(Kind.SETTLE, "The " + op.describe() + " is under way; wait for it to end.");
    }
    HourPartition b = r.boundary().orElseThrow();
    if (r.phase() == RepairPhase.BACKFILLING) {
      Optional<RunRecord> stopped = state.repairRuns(r.id()).stream().filter(run -> !run.state().name().equals("SUCCEEDED"))
          .findFirst();
      if (stopped.isPresent()) {
        return new NextStep(Kind.RESUME, "Run " + stopped.get().id() + " stopped (" + stopped.get().shownState(Instant.now())
            + "); resume it to write the hours still missing below B = " + b + ".",
            stopped.get().id());
      }
      return new NextStep(Kind.BACKFILL, "Some hours below B = " + b + " are not written; backfill them.");
    }
    if (r.phase() == RepairPhase.CUT_OVER) {
      return new NextStep(Kind.WATCH_CONSUMERS, "Consumers read " + spec.targetTable() + ". Watch them; roll back with "
          + "the same single statement while " + spec.liveTable() + " is kept, and drop it once its retention is over.");
    }
    LiveWriter live = writer.orElse(null);
    if (live == null || live.start().isEmpty() && live.belowBoundary().isEmpty()) {
      if (declared.isPresent()) {
        return new NextStep(Kind.WAIT_FOR_LIVE_WRITER, declared.get().describe() + " " + firstHourDue(b, edges));
      }
      return new NextStep(Kind.DEPLOY_LIVE_WRITER, "Deploy the corrected live writer so that it writes "
          + spec.targetTable() + " for every hour from B = " + b + " on, and never before it.");
    }
    if (!live.startsAtBoundary()) {
      return new NextStep(Kind.FIX_LIVE_WRITER, live.describe() + " Make it write every hour from B and nothing before "
          + "it, or backfill the hours below B again.");
    }
    long minimum = spec.minimumOverlap().toHours();
    if (live.hours() < minimum) {
      return new NextStep(Kind.WAIT_FOR_OVERLAP, "Both versions have been written live for " + live.hours() + " of the "
          + minimum + " hours the spec requires since B; about " + Figures.count(minimum - live.hours())
          + " more hour(s). Meanwhile, "
          + "reconcile the overlap to look at it.");
    }
    if (edges.liveEdge().isPresent() && edges.targetEdge().map(t -> t.isBefore(edges.liveEdge().get())).orElse(true)) {
      return new NextStep(Kind.WAIT_FOR_LIVE_WRITER, "The corrected live writer is behind v1 (v2's newest hour "
          + edges.targetEdge().map(Object::toString).orElse("none") + ", v1's " + edges.liveEdge().get() + "); the gate "
          + "opens only once v2 has caught up.");
    }
    OlderHours olderHours = new OlderHours(sql, spec);
    Optional<HourPartition> older = olderHours.before(r);
    if (older.isPresent()) {
      // Named after the live writer's steps, which cannot wait (the live edge moves on from B), and before the
      // verdict: carrying them moves the repair's first hour, which the verdict must cover.
      return new NextStep(Kind.BACKFILL, olderHours.lost(older.get(), r.firstHour().get()) + " The cutover gate stays "
          + "closed while they remain. " + olderHours.remedy(older.get()), "", older);
    }
    if (verdict.isEmpty() || !verdict.get().counts()) {
      return new NextStep(Kind.RECONCILE, verdict.isEmpty() ? "Reconcile the whole repair: only that verdict can open "
          + "the gate." : "Reconcile the whole repair again: the last verdict was made under another spec or over "
          + "another window.");
    }
    if (!verdict.get().verdict().allowsCutover()) {
      return new NextStep(Kind.REVIEW_DIFFERENCES, "The verdict is red: " + verdict.get().unexpectedKeys()
          + " unexpected key(s) and " + verdict.get().coverageIssues() + " coverage issue(s). Fix their cause (backfill "
          + "the hours again, mend the live writer) or accept explained ones with a written reason, then reconcile "
          + "again.");
    }
    Duration age = Duration.between(verdict.get().created(), Instant.now());
    if (r.phase() == RepairPhase.ROLLED_BACK) {
      // A fix was taken back: cutting over again is a decision about why, not the next click.
      int why = r.note().indexOf(RepairPhase.REASON);
      return new NextStep(Kind.CUTOVER, "Consumers read " + spec.liveTable() + " again: the cutover was rolled back"
          + (why < 0 ? "" : " (reason: " + r.note().substring(why + RepairPhase.REASON.length()) + ")") + ". Cut over again, typing " + view + ", only once what the rollback was for is understood; if "
          + "the fix itself is wrong, abandon the repair and start a new one.");
    }
    return new NextStep(Kind.CUTOVER, "The verdict over the whole repair allows the cutover (made " + age.toHours()
        + " h ago; the gate checks every hour changed since). Check the gate, then cut over, typing " + view + ".");
  }

  /**
   * Where a declared writer's first hour stands: due once v1 has written B, overdue once v1 has written
   * hours past it, when the declaration may be wrong or the writer stopped.
   */
  private String firstHourDue(HourPartition b, LiveStatus edges) {
    Optional<HourPartition> v1 = edges.liveEdge().filter(e -> !e.isBefore(b));
    if (v1.isEmpty()) {
      return spec.targetTable() + " holds no hour from B yet, nor does v1 (its newest hour: " + edges.liveEdge()
          .map(Object::toString).orElse("none") + "); the writer's first hour is B, once it has closed.";
    }
    long behind = Duration.between(b.start(), v1.get().start()).toHours() + 1;
    return spec.targetTable() + " holds no hour from B yet, while v1 has written " + Figures.count(behind)
        + " hour(s) from B (up "
        + "to " + v1.get() + "): if the writer's first hour does not come, check that it runs and starts at B.";
  }
}
