package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Gate.Condition;
import dev.cutover.engine.api.Gate.Version;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.reconcile.Recheck;
import dev.cutover.engine.reconcile.Reconciler;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.repair.CorrectedView;
import dev.cutover.engine.repair.OlderHours;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import dev.cutover.engine.tables.TableNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The cutover gate and the rollback gate, each judged from the data as it is when asked.
 *
 * <p>The cutover gate opens only when the corrected live writer has written v2 from B (and nothing
 * below it) for the spec's minimum overlap, v2 has caught up with v1, no backfill runs, and the
 * latest verdict over the whole repair, made under this spec, still holds: per-hour checksums of
 * both versions are compared with those the verdict saw, and hours that changed or appeared since
 * are compared key by key on the spot. There is no freshness window: an old verdict is as good as
 * the data that has not changed since.
 */
public final class Gates {

  private static final java.time.format.DateTimeFormatter MINUTE = java.time.format.DateTimeFormatter
      .ofPattern("yyyy-MM-dd HH:mm").withZone(java.time.ZoneOffset.UTC);

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;
  private final Repairs repairs;
  private final ConsumerView view;

  public Gates(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.state = on.state();
    this.reports = on.reports();
    this.spec = on.spec();
    this.repairs = new Repairs(on);
    this.view = new ConsumerView(on.sql(), on.spec());
  }

  /** The cutover gate, as any process sees it. */
  public Gate cutover() {
    return cutover(repairs.settled(), false);
  }

  /**
   * The cutover gate.
   *
   * @param held whether {@code repair} is held by the cutover asking: its own operation does not block it
   */
  Gate cutover(Optional<Repair> repair, boolean held) {
    Version current = view.reads();
    if (!view.liveExists()) {
      return v1Dropped(Gate.CUTOVER, current);
    }
    List<Condition> conditions = new ArrayList<>();
    conditions.add(repairCondition(repair, held, RepairPhase::cutoverAllowed, "its history backfilled (and no "
        + "backfill running)"));
    conditions.add(new Condition("consumers read v1", current == Version.V1, switch (current) {
      case V1 -> spec.consumerView() + " reads " + spec.liveTable() + ".";
      case V2 -> spec.consumerView() + " already reads " + spec.targetTable() + ": the cutover happened; roll back "
          + "first to cut over again.";
      case UNKNOWN -> spec.consumerView() + " reads neither " + spec.liveTable() + " nor " + spec.targetTable()
          + ", or both.";
    }));
    conditions.add(noBackfill(repair, held));
    repair.filter(r -> !r.liveViews().isEmpty()).ifPresent(r -> {
      boolean there = new CorrectedView(on).exists(r);
      conditions.add(new Condition("corrected view", there, "The corrected view " + r.correctedViews().orElseThrow()
          + (there ? " writes " + spec.targetTable() + " from B." : " that the repair deployed does not exist (a "
              + "rollback drops it): nothing writes " + spec.targetTable() + " live. Abandon the repair and deploy "
              + "a new view with a boundary of its own.")));
    });
    LiveStatus live = new LiveReader(sql, spec).read();
    boolean caughtUp = live.targetEdge().isPresent() && live.liveEdge().isPresent()
        && !live.targetEdge().get().isBefore(live.liveEdge().get());
    // v2 behind v1 is the live writer still catching up: not yet, not wrong.
    conditions.add(new Condition("v2 caught up", caughtUp, "Newest hour in v1 " + live.liveEdge().map(Object::toString)
        .orElse("none") + ", in v2 " + live.targetEdge().map(Object::toString).orElse("none") + ".", true));
    Optional<HourRange> judged = Optional.empty();
    if (repair.isEmpty() || repair.get().boundary().isEmpty() || repair.get().firstHour().isEmpty()) {
      conditions.add(Condition.notYet("verdict", "No repair with a backfilled history, so nothing was reconciled."));
    } else {
      Repair r = repair.get();
      HourRange window = new Reconciler(on).window(r, Scope.REPAIR, Optional.empty());
      Optional<ReportSummary> verdict = reports.decisive(r.target(), r.id());
      conditions.add(olderHours(r));
      conditions.add(verdictCondition(r, verdict));
      Recheck.Result now = null;
      if (verdict.isPresent() && verdict.get().verdict().allowsCutover()) {
        now = new Recheck(sql, state, reports, spec).against(r, verdict.get(), window, live.targetEdge());
        judged = Optional.of(window);
        conditions.add(new Condition("data now", now.clean(), now.describe()));
      } else {
        conditions.add(Condition.notYet("data now", verdict.isEmpty() ? "Not judged: there is no verdict over "
            + "the whole repair to check the data against." : "Not judged: the verdict above allows no cutover, so "
            + "the data are not checked against it; reconcile again once its differences are fixed or acknowledged."));
      }
      var liveWriter = now != null ? now.live() : new dev.cutover.engine.repair.Observation(on)
          .liveWriter(r, window, live.targetEdge());
      // A writer with no hour past B yet has not started: not yet. One whose hours are wrong is violated.
      conditions.add(new Condition("live writer from B", liveWriter.startsAtBoundary(), liveWriter.describe(),
          liveWriter.hours() == 0));
      long minimum = spec.minimumOverlap().toHours();
      conditions.add(new Condition("overlap", liveWriter.startsAtBoundary() && liveWriter.hours() >= minimum,
          !liveWriter.startsAtBoundary()
              // Hours are only overlap once the live writer is proven to own them from B: saying "N of M" here
              // would read as a pass beside a failure.
              ? "Not counted until the corrected live writer is proven to write v2 from B = " + r.boundary().get()
                  + " (\"live writer from B\"): v2 reaches " + Figures.count(liveWriter.hours())
                  + " hour(s) past B, at least "
                  + minimum + " are required."
              : "v1 and v2 were both written live for " + Figures.count(liveWriter.hours()) + " hour(s) since B = "
              + r.boundary().get()
                  + "; at least " + minimum + " are required" + (liveWriter.hours() >= minimum ? "." : ", so "
                  + (minimum - liveWriter.hours()) + " more hour(s) are needed: keep both live writers running (on the "
                  + "demo world, ./cutover demo live writes them) and check again."), true));
    }
    conditions.add(atomic());
    return new Gate(Gate.CUTOVER, conditions, current, judged);
  }

  /** The rollback gate, as any process sees it. */
  public Gate rollback() {
    return rollback(repairs.settled(), false);
  }

  Gate rollback(Optional<Repair> repair, boolean held) {
    Version current = view.reads();
    if (!view.liveExists()) {
      return v1Dropped(Gate.ROLLBACK, current);
    }
    List<Condition> conditions = new ArrayList<>();
    conditions.add(repairCondition(repair, held, p -> p == RepairPhase.CUT_OVER, "consumers switched to v2"));
    conditions.add(new Condition("consumers read v2", current == Version.V2, current == Version.V2
        ? spec.consumerView() + " reads " + spec.targetTable() + "." : spec.consumerView() + " reads "
            + (current == Version.V1 ? spec.liveTable() + ": there is no cutover to roll back." : "neither version.")));
    conditions.add(new Condition(Gate.V1_KEPT, true, spec.liveTable() + " is kept; rollback is possible until it is "
        + "dropped."));
    Optional<Version> handle = view.handleReads();
    boolean handleOk = handle.filter(h -> h == Version.V1).isPresent();
    conditions.add(new Condition("rollback handle", handleOk, handleOk ? view.handle() + " reads " + spec.liveTable()
        + "." : view.handle() + (handle.isEmpty() ? " does not exist" : " reads " + (handle.get() == Version.V2
            ? spec.targetTable() + ", like " + spec.consumerView() : "neither version")) + "; a swap would not bring "
            + "v1 back. Recreate it over v1: " + handleRepair() + "."));
    conditions.add(atomic());
    return new Gate(Gate.ROLLBACK, conditions, current, Optional.empty());
  }

  /** The statement that makes the rollback handle read v1 again. */
  String handleRepair() {
    String query = view.query();
    String rewritten = view.reads() == Version.V2
        ? ConsumerView.replaceTable(query, spec.consumerTarget().name(), spec.consumerLive().name()) : query;
    return "CREATE OR REPLACE VIEW " + spec.qualified(view.handle()) + " AS " + rewritten;
  }

  private Gate v1Dropped(String step, Version current) {
    return new Gate(step, List.of(new Condition(Gate.V1_KEPT, false, spec.liveTable() + " was dropped: consumers of "
        + spec.consumerView() + " read " + spec.targetTable() + " for good, and there is nothing to cut over or roll "
        + "back.")), current, Optional.empty());
  }

  private Condition repairCondition(Optional<Repair> repair, boolean held, java.util.function.Predicate<RepairPhase> allowed,
      String needs) {
    if (repair.isEmpty()) {
      return Condition.notYet("repair", "No repair of " + TableNames.target(spec) + " is under way; it starts with "
          + "its first backfill.");
    }
    Repair r = repair.get();
    if (r.operation().isPresent() && !held) {
      return Condition.notYet("repair", "The repair is held by the " + r.operation().get().describe() + ".");
    }
    // A repair that has not reached the phase yet is on its way; an abandoned one will not get there.
    return new Condition("repair", allowed.test(r.phase()), "Repair " + r.id() + " is " + r.phase().words()
        + r.boundary().map(b -> ", B = " + b).orElse("") + (allowed.test(r.phase()) ? "." : "; this step needs "
            + needs + "."), r.phase() != RepairPhase.ABANDONED);
  }

  private Condition noBackfill(Optional<Repair> repair, boolean held) {
    Optional<RunRecord> active = state.activeRun(TableNames.target(spec), Instant.now());
    Optional<Repair.Operation> op = repair.flatMap(Repair::operation)
        .filter(o -> o.action().equals(Repair.Operation.BACKFILL));
    boolean none = active.isEmpty() && op.isEmpty();
    return new Condition("no backfill running", none, active.map(r -> "Run " + r.id() + " is "
        + r.state().name().toLowerCase() + " on " + TableNames.target(spec) + ".").or(() -> op.map(o -> "The "
            + o.describe() + " holds the repair.")).orElse("No backfill is running on " + TableNames.target(spec) + "."),
        true);
  }

  /** v1 holds no hour before the repair's first hour, which v2 would not hold ({@link OlderHours}). */
  private Condition olderHours(Repair r) {
    HourPartition first = r.firstHour().get();
    OlderHours older = new OlderHours(sql, spec);
    return older.before(r).map(o -> new Condition(Gate.OLDER_HOURS, false, older.lost(o, first) + " "
        + older.remedy(o))).orElse(new Condition(Gate.OLDER_HOURS, true, spec.liveTable() + " holds no hour before "
        + "the repair's first hour " + first + ": consumers lose none at the cutover."));
  }

  private Condition verdictCondition(Repair r, Optional<ReportSummary> verdict) {
    if (verdict.isEmpty()) {
      return Condition.notYet("verdict", "No reconciliation of the whole repair " + r.id() + " exists; reconcile "
          + "it (narrower windows are shown but never decide).");
    }
    ReportSummary v = verdict.get();
    List<String> why = new ArrayList<>();
    if (!v.specSha256().equals(spec.sha256())) {
      why.add("it was made under another version of the spec (sha256 " + abbreviate(v.specSha256()) + "…, now "
          + abbreviate(spec.sha256()) + "…): reconcile again under this one");
    }
    if (!v.boundary().equals(r.boundary().get()) || !v.window().from().equals(r.firstHour().get())) {
      why.add("it covered " + v.window() + " with B = " + v.boundary() + ", and the repair now starts at "
          + r.firstHour().get() + ": reconcile again");
    }
    if (!v.verdict().allowsCutover()) {
      why.add("it is red: " + v.unexpectedKeys() + " unexpected key(s), " + v.coverageIssues() + " coverage issue(s)");
    }
    String head = "The verdict over the whole repair, " + v.id() + " of " + MINUTE.format(v.created()) + " UTC over "
        + v.window() + ", is "
        + v.verdict().name().toLowerCase() + (v.acknowledged() > 0 ? " (" + v.acknowledged() + " difference(s) accepted "
        + "with a reason)" : "");
    // Made under another spec or window, it only needs making again; red, it found differences to fix.
    return new Condition("verdict", why.isEmpty(), why.isEmpty() ? head + "." : head + "; " + String.join("; ", why)
        + ".", v.verdict().allowsCutover());
  }

  private Condition atomic() {
    String engine = sql.query("read the database engine", "SELECT engine FROM system.databases WHERE name = ?",
        rs -> rs.getString(1), spec.database().name()).stream().findFirst().orElse("missing");
    boolean ok = engine.equals("Atomic") || engine.equals("Replicated");
    return new Condition("Atomic database", ok, "Database " + spec.database() + " uses the " + engine + " engine"
        + (ok ? "." : "; EXCHANGE TABLES needs Atomic."));
  }

  private static String abbreviate(String hash) {
    return hash.length() > 12 ? hash.substring(0, 12) : hash;
  }
}
