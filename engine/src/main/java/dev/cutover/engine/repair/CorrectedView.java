package dev.cutover.engine.repair;

import dev.cutover.engine.api.CorrectedWriter;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import dev.cutover.engine.tables.TransformSources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

  public CorrectedView(RepairContext on) {
    this.sql = on.sql();
    this.store = on.state();
    this.spec = on.spec();
    this.repairs = new Repairs(on);
    this.records = new RepairStore(on.sql(), on.state().database());
  }

  /** What {@link #deploy} would do now, or has done: B, the views and their statements. Writes nothing. */
  public LiveDeployment plan() {
    return plan(Optional.empty());
  }

  /**
   * As {@link #plan()}, with B at {@code at} when given: the B of a repair over several servers, each of
   * which must have B after its own newest event and safety margin. An {@code at} earlier than this
   * server allows is refused in a sentence that names the earliest it allows.
   */
  public LiveDeployment plan(Optional<HourPartition> at) {
    List<CorrectedWriter.View> views = requireNamed();
    List<Identifier> names = views.stream().map(CorrectedWriter.View::name).toList();
    Optional<Repair> open = repairs.settled();
    if (open.isPresent() && !open.get().liveViews().isEmpty()) {
      HourPartition b = open.get().boundary().orElseThrow();
      if (at.isPresent() && !at.get().equals(b)) {
        throw new StepRefusedException("deploy-live", "Repair " + open.get().id() + " on this server pinned B = " + b
            + " for its corrected view, not " + at.get() + "; one repair has one B everywhere. Deploy from " + b
            + ", or abandon the repair and deploy again.");
      }
      TargetTables tables = new TargetTables(sql, spec);
      boolean exists = open.get().liveViews().stream().allMatch(tables::exists);
      return new LiveDeployment(names, b, statements(views, b), newestEvent(), exists, Optional.of(open.get().id()),
          TransformSources.blockBound(sql, spec, views));
    }
    requireNoExternalRepair(open);
    requireFoldingTarget();
    TransformSources.requireOneSourceEach(sql, spec, views);
    Instant newest = newestEvent();
    HourPartition earliest = HourPartition.containing(newest.plus(spec.safetyMargin())).plusHours(1);
    if (at.isPresent() && at.get().isBefore(earliest)) {
      throw new StepRefusedException("deploy-live", "B = " + at.get() + " is too early for this server: its newest "
          + "event is at " + newest + ", and B must follow it by the safety margin of " + spec.safetyMargin().toHours()
          + " h, so the earliest B here is " + earliest + ".");
    }
    HourPartition b = at.orElse(earliest);
    return new LiveDeployment(names, b, statements(views, b), newest, false, Optional.empty(),
        TransformSources.blockBound(sql, spec, views));
  }

  /**
   * Creates the corrected views with a future B and records them and B in the repair, which it creates; B is
   * pinned from then on. All or none: when one view cannot be created, the ones created are dropped and the
   * repair abandoned. Deploying views the repair already has changes nothing; deploying ones the repair
   * recorded but whose creation did not happen creates them, while B is still in the future.
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
    TargetTables tables = new TargetTables(sql, spec);
    if (planned.repairId().isEmpty()) {
      for (Identifier view : planned.views()) {
        if (tables.exists(view)) {
          // Not this repair's (none is recorded): left by one given up whose view could not be dropped. Taking it
          // for the new one would let an old view, from an old B and maybe an old query, write v2.
          throw new StepRefusedException("deploy-live", spec.qualified(view) + " exists already, and no open "
              + "repair deployed it: it may write " + spec.targetTable() + " from another boundary or with another "
              + "query. Read it (SHOW CREATE TABLE " + spec.qualified(view) + "), drop it if it is not wanted (DROP "
              + "VIEW " + spec.qualified(view) + "), and deploy again.");
        }
      }
    }
    requireFuture(planned, "before the view was created");
    tables.createTargetIfAbsent();
    requireFoldingTarget();
    Repair recorded = record(planned);
    List<Identifier> created = new ArrayList<>();
    try {
      for (int i = 0; i < planned.views().size(); i++) {
        Identifier view = planned.views().get(i);
        if (!tables.exists(view)) {
          sql.execute("create the corrected view " + view, planned.statements().get(i));
          created.add(view);
        }
      }
    } catch (RuntimeException e) {
      // All or none: a writer of some sources alone would leave v2 short from B, and no step would say so.
      created.forEach(this::drop);
      repairs.abandon("the corrected view " + planned.views().get(created.size()) + " could not be created; the "
          + "views created before it were dropped");
      throw e;
    }
    if (eventsFrom(planned.boundary()) > 0) {
      planned.views().forEach(v -> {
        if (tables.exists(v)) {
          drop(v);
        }
      });
      repairs.abandon("events at or after B = " + planned.boundary() + " arrived while the corrected view "
          + planned.named() + " was being created; it was dropped");
      throw new StepRefusedException("deploy-live", "Events at or after B = " + planned.boundary() + " arrived "
          + "while the corrected view " + planned.named() + " was being created, so it may have missed some of them. "
          + "It was dropped and its repair abandoned; deploy again (a larger safety margin in the spec gives the "
          + "next one more time).");
    }
    for (Identifier view : planned.views()) {
      store.audit(TableNames.target(spec), "deploy-live", "created " + spec.qualified(view) + " TO "
          + spec.qualified(spec.targetTable()) + " from B = " + planned.boundary() + " for repair " + recorded.id()
          + " by " + Operator.user());
    }
    return new LiveDeployment(planned.views(), planned.boundary(), planned.statements(), planned.newestEvent(), true,
        Optional.of(recorded.id()), planned.warning());
  }

  /**
   * Drops the views the repair deployed that still exist; returns whether it dropped any. Called once the
   * repair no longer wants v2 written live: after a rollback and when it is abandoned.
   */
  public boolean dropDeployed(Repair r, String why) {
    TargetTables tables = new TargetTables(sql, spec);
    boolean dropped = false;
    for (Identifier view : r.liveViews()) {
      if (tables.exists(view)) {
        drop(view);
        store.audit(TableNames.target(spec), "drop live view", "dropped " + spec.qualified(view) + " of repair "
            + r.id() + " (" + why + ") by " + Operator.user());
        dropped = true;
      }
    }
    return dropped;
  }

  /** Whether every view the repair deployed exists now (none when it deployed none). */
  public boolean exists(Repair r) {
    TargetTables tables = new TargetTables(sql, spec);
    return !r.liveViews().isEmpty() && r.liveViews().stream().allMatch(tables::exists);
  }

  /** Each view's statement: its query (the transform, or its own over its source) from B with no end, {@code TO} v2. */
  List<String> statements(List<CorrectedWriter.View> views, HourPartition b) {
    return views.stream().map(v -> {
      String query = Transform.bind(spec, v.select().orElse(spec.transform()), b, NO_END).literal().strip();
      return "CREATE MATERIALIZED VIEW " + spec.qualified(v.name()) + " TO " + spec.qualified(spec.targetTable())
          + " AS\n" + query;
    }).toList();
  }

  private Repair record(LiveDeployment planned) {
    Optional<Repair> open = repairs.settled();
    String note = "the corrected view " + planned.named() + " writes " + spec.targetTable() + " from B = "
        + planned.boundary() + "; B is pinned by its deployment";
    if (open.isPresent()) {
      // The repair recorded the views, and their creation did not happen: record that they are created again.
      Repair r = open.get();
      // An operation under way (a backfill waiting for B) keeps its hold: the views are what it waits beside.
      return records.write(open, r.next(r.phase(), r.operation(), Operator.actor(), "the corrected view "
          + planned.named() + " is created again (it did not exist)"), "deploy-live");
    }
    return repairs.plan(planned.boundary(), Optional.empty(), planned.views(), Operator.actor(), note, "deploy-live");
  }

  private List<CorrectedWriter.View> requireNamed() {
    List<CorrectedWriter.View> views = spec.correctedWriter().views();
    if (views.isEmpty()) {
      throw new InvalidInputException("spec.tables.live_view", "The spec names no corrected view to deploy; add "
          + "'live_view: NAME' under tables (the materialized view Cutover creates TO " + spec.targetTable() + "), or "
          + "live_views with one view per source, or point your own live writer at " + spec.targetTable()
          + " instead.");
    }
    return views;
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
