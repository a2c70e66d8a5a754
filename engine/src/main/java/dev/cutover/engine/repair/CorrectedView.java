package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import dev.cutover.engine.tables.TransformSources;
import java.time.Instant;
import java.util.Optional;

/**
 * The corrected live writer as a materialized view, for a v1 that a view feeds. A view sees only the
 * inserts made after it exists, so it cannot start in the past: it is created now, {@code TO} v2, with
 * the transform's window bound from a boundary B in the future (the next whole hour after the newest
 * source event plus the safety margin) and no end. Hours from B on are written by the view alone; the
 * backfill writes those before B once B has closed.
 *
 * <p>Order of writes: the repair is recorded first, by compare-and-set, with B pinned and the view
 * named, and the view is created after. A process killed in between leaves a repair that names a view
 * that does not exist; deploying again creates it, as long as no source holds an event at or after B
 * yet. After the view is created, the sources are read again: an event at or after B found then may
 * have been inserted before the view existed, and v2 would miss it, so the view is dropped, the
 * repair abandoned and the step refused.
 */
public final class CorrectedView {

  /** The last whole hour a {@code DateTime} holds: the view's window has no end before it. */
  static final HourPartition NO_END = HourPartition.ofEpochSecond(4_294_965_600L);

  private final Sql sql;
  private final StateStore store;
  private final TableSpec spec;
  private final Repairs repairs;
  private final RepairStore records;

  public CorrectedView(Sql sql, StateStore store, TableSpec spec) {
    this.sql = sql;
    this.store = store;
    this.spec = spec;
    this.repairs = new Repairs(sql, store, spec);
    this.records = new RepairStore(sql, store.database());
  }

  /** What {@link #deploy} would do now, or has done: B, the view and its statement. Writes nothing. */
  public LiveDeployment plan() {
    return plan(Optional.empty());
  }

  /**
   * As {@link #plan()}, with B at {@code at} when given: the B of a repair over several servers, each of
   * which must have B after its own newest event and safety margin. An {@code at} earlier than this
   * server allows is refused in a sentence that names the earliest it allows.
   */
  public LiveDeployment plan(Optional<HourPartition> at) {
    Identifier view = requireNamed();
    Optional<Repair> open = repairs.settled();
    if (open.isPresent() && open.get().liveView().isPresent()) {
      HourPartition b = open.get().boundary().orElseThrow();
      if (at.isPresent() && !at.get().equals(b)) {
        throw new StepRefusedException("deploy-live", "Repair " + open.get().id() + " on this server pinned B = " + b
            + " for its corrected view, not " + at.get() + "; one repair has one B everywhere. Deploy from " + b
            + ", or abandon the repair and deploy again.");
      }
      boolean exists = new TargetTables(sql, spec).exists(view);
      return new LiveDeployment(view, b, statement(view, b), newestEvent(), exists, Optional.of(open.get().id()),
          new TransformSources(sql, spec).blockBound());
    }
    requireNoExternalRepair(open);
    requireFoldingTarget();
    TransformSources reading = new TransformSources(sql, spec);
    reading.whyNotOneView().ifPresent(why -> {
      throw new InvalidInputException("spec.transform", why);
    });
    Instant newest = newestEvent();
    HourPartition earliest = HourPartition.containing(newest.plus(spec.safetyMargin())).plusHours(1);
    if (at.isPresent() && at.get().isBefore(earliest)) {
      throw new StepRefusedException("deploy-live", "B = " + at.get() + " is too early for this server: its newest "
          + "event is at " + newest + ", and B must follow it by the safety margin of " + spec.safetyMargin().toHours()
          + " h, so the earliest B here is " + earliest + ".");
    }
    HourPartition b = at.orElse(earliest);
    return new LiveDeployment(view, b, statement(view, b), newest, false, Optional.empty(), reading.blockBound());
  }

  /**
   * Creates the corrected view with a future B and records both in the repair, which it creates; B is
   * pinned from then on. Deploying a view the repair already has changes nothing; deploying one the
   * repair recorded but whose creation did not happen creates it, while B is still in the future.
   */
  public LiveDeployment deploy() {
    return deploy(Optional.empty());
  }

  /** As {@link #deploy()}, with B at {@code at} when given (see {@link #plan(Optional)}). */
  public LiveDeployment deploy(Optional<HourPartition> at) {
    LiveDeployment planned = plan(at);
    if (planned.exists()) {
      return planned;
    }
    if (planned.repairId().isEmpty() && new TargetTables(sql, spec).exists(planned.view())) {
      // Not this repair's (none is recorded): left by one given up whose view could not be dropped. Taking it for the
      // new one would let an old view, from an old B and maybe an old transform, write v2.
      throw new StepRefusedException("deploy-live", spec.qualified(planned.view()) + " exists already, and no open "
          + "repair deployed it: it may write " + spec.targetTable() + " from another boundary or with another "
          + "transform. Read it (SHOW CREATE TABLE " + spec.qualified(planned.view()) + "), drop it if it is not "
          + "wanted (DROP VIEW " + spec.qualified(planned.view()) + "), and deploy again.");
    }
    requireFuture(planned, "before the view was created");
    new TargetTables(sql, spec).createTargetIfAbsent();
    requireFoldingTarget();
    Repair recorded = record(planned);
    sql.execute("create the corrected view " + planned.view(), planned.statement());
    if (eventsFrom(planned.boundary()) > 0) {
      drop(planned.view());
      repairs.abandon("events at or after B = " + planned.boundary() + " arrived while the corrected view "
          + planned.view() + " was being created; it was dropped");
      throw new StepRefusedException("deploy-live", "Events at or after B = " + planned.boundary() + " arrived "
          + "while the corrected view " + planned.view() + " was being created, so it may have missed some of them. "
          + "It was dropped and its repair abandoned; deploy again (a larger safety margin in the spec gives the "
          + "next one more time).");
    }
    store.audit(TableNames.target(spec), "deploy-live", "created " + spec.qualified(planned.view()) + " TO "
        + spec.qualified(spec.targetTable()) + " from B = " + planned.boundary() + " for repair " + recorded.id()
        + " by " + Operator.user());
    return new LiveDeployment(planned.view(), planned.boundary(), planned.statement(), planned.newestEvent(), true,
        Optional.of(recorded.id()), planned.warning());
  }

  /**
   * Drops the view the repair deployed, if it still exists; returns whether it did. Called once the
   * repair no longer wants v2 written live: after a rollback and when it is abandoned.
   */
  public boolean dropDeployed(Repair r, String why) {
    if (r.liveView().isEmpty() || !new TargetTables(sql, spec).exists(r.liveView().get())) {
      return false;
    }
    drop(r.liveView().get());
    store.audit(TableNames.target(spec), "drop live view", "dropped " + spec.qualified(r.liveView().get())
        + " of repair " + r.id() + " (" + why + ") by " + Operator.user());
    return true;
  }

  /** Whether the view the repair deployed exists now. */
  public boolean exists(Repair r) {
    return r.liveView().map(v -> new TargetTables(sql, spec).exists(v)).orElse(false);
  }

  /** The view's statement: the transform from B with no end, written in, {@code TO} v2. */
  String statement(Identifier view, HourPartition b) {
    String query = Transform.bind(spec, b, NO_END).literal().strip();
    return "CREATE MATERIALIZED VIEW " + spec.qualified(view) + " TO " + spec.qualified(spec.targetTable())
        + " AS\n" + query;
  }

  private Repair record(LiveDeployment planned) {
    Optional<Repair> open = repairs.settled();
    String note = "the corrected view " + planned.view() + " writes " + spec.targetTable() + " from B = "
        + planned.boundary() + "; B is pinned by its deployment";
    if (open.isPresent()) {
      // The repair recorded the view, and its creation did not happen: record that it is created again.
      Repair r = open.get();
      // An operation under way (a backfill waiting for B) keeps its hold: the view is what it waits beside.
      return records.write(open, r.next(r.phase(), r.operation(), Operator.actor(), "the corrected view "
          + planned.view() + " is created again (it did not exist)"), "deploy-live");
    }
    return repairs.plan(planned.boundary(), Optional.empty(), Optional.of(planned.view()), Operator.actor(), note,
        "deploy-live");
  }

  private Identifier requireNamed() {
    return spec.liveView().orElseThrow(() -> new InvalidInputException("spec.tables.live_view", "The spec names no "
        + "corrected view to deploy; add 'live_view: NAME' under tables (the materialized view Cutover creates TO "
        + spec.targetTable() + "), or point your own live writer at " + spec.targetTable() + " instead."));
  }

  /** A repair whose B a backfill pinned for a job outside the database cannot take a view now. */
  private void requireNoExternalRepair(Optional<Repair> open) {
    if (open.isPresent() && open.get().boundary().isPresent()) {
      Repair r = open.get();
      throw new StepRefusedException("deploy-live", "Repair " + r.id() + " pinned B = " + r.boundary().get() + " for "
          + "a live writer outside the database; a view created now sees only inserts from now on and could not "
          + "write " + spec.targetTable() + " from " + r.boundary().get() + ". Abandon that repair first, "
          + "then deploy the view with a boundary of its own.");
    }
  }

  /** A view appends a partial aggregate per insert block: v2 must fold them into one row per hour and key. */
  private void requireFoldingTarget() {
    TargetTables tables = new TargetTables(sql, spec);
    Identifier table = tables.exists(spec.targetTable()) ? spec.targetTable() : spec.liveTable();
    String engine = tables.engine(table);
    if (!engine.equals("SummingMergeTree") && !engine.equals("AggregatingMergeTree")) {
      throw new InvalidInputException("spec.tables.target", spec.qualified(table) + " is a " + engine + ": a "
          + "materialized view appends a partial aggregate for every insert block, so one hour and key would hold "
          + "several rows in " + spec.targetTable() + ". Make " + spec.targetTable() + " a SummingMergeTree or an "
          + "AggregatingMergeTree ordered by " + spec.timeColumn() + " and the keys, as a view-fed table is.");
    }
    tables.foldsOtherwise(table).ifPresent(why -> {
      throw new InvalidInputException("spec.keys", why + " Order it by " + spec.timeColumn() + " and the keys, or "
          + "name its sorting columns as the keys.");
    });
  }

  private void requireFuture(LiveDeployment planned, String when) {
    HourPartition b = planned.boundary();
    long found = eventsFrom(b);
    if (found > 0) {
      throw new StepRefusedException("deploy-live", "The sources already hold " + found + " event(s) at or after B = "
          + b + " " + when + ": a view created now would miss them. " + planned.repairId().map(id -> "Repair " + id
              + " pinned that B when its deployment began; abandon it, then deploy again with a B of its own.")
              .orElse("Deploy again: B is chosen after the newest event."));
    }
  }

  private Instant newestEvent() {
    return new LiveReader(sql, spec).read().newestEvent().orElseThrow(() -> new InvalidInputException("spec.sources",
        "The sources of " + spec.name() + " hold no events, so there is no present to place B after; start the "
            + "writer of the sources first."));
  }

  private long eventsFrom(HourPartition b) {
    long found = 0;
    for (TableSpec.Source s : spec.sources()) {
      found += sql.queryLong("count the events of " + s.table() + " from " + b, "SELECT count() FROM "
          + spec.qualified(s.table()) + " WHERE " + s.timeColumn().quoted() + " >= toDateTime(?, 'UTC')",
          b.epochSecond());
    }
    return found;
  }

  private void drop(Identifier view) {
    sql.execute("drop the corrected view " + view, "DROP VIEW IF EXISTS " + spec.qualified(view) + " SYNC");
  }
}
