package dev.cutover.engine;

import dev.cutover.engine.api.RepairRecords;
import dev.cutover.engine.api.TableSpec;

import dev.cutover.engine.connect.Database;

/**
 * The one door to Cutover's steps on one server. Each step of a repair has its facade, and a step
 * that changes anything is reachable only through the one before it: a backfill starts only from a
 * {@link ClearedPlan}, which only a passing preflight makes, and the repair's state moves only by
 * compare-and-set inside the steps.
 *
 * <pre>{@code
 * Engine engine = new Engine(session);
 * TableSpec spec = engine.specs().load(Path.of("pnl.yaml"));
 * Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
 *     engine.plans().defaults(spec));
 * Preflighted checked = engine.plans().preflight(plan, List.of(new AcknowledgedDependent("trading.pnl_alerts_mv",
 *     "alerts for replayed hours are suppressed downstream")), Progress.NONE);
 * RunHandle run = engine.backfills().start(checked.cleared().orElseThrow(), BackfillEvent.Listener.NONE);
 * Reconciliation r = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 1000);
 * SwapResult done = engine.cutovers().cutover(spec, "pnl_v2");
 * }</pre>
 *
 * <p>Every method reads or writes the server: call them off the FX thread.
 */
public final class Engine {

  private final Specs specs;
  private final Plans plans;
  private final Backfills backfills;
  private final RepairBook repairs;
  private final Reconciliations reconciliations;
  private final Cutovers cutovers;
  private final java.util.Optional<Session> session;
  private final Ground ground;

  /** The engine on a session's server and working database. */
  public Engine(Session session) {
    this(session.database(), java.util.Optional.of(session));
  }

  /** The engine on a pool of the engine's own; outside the engine, use {@link #Engine(Session)}. */
  public Engine(Database database) {
    this(database, java.util.Optional.empty());
  }

  private Engine(Database database, java.util.Optional<Session> session) {
    this.session = session;
    this.ground = Ground.of(database);
    this.specs = new Specs(ground);
    this.plans = new Plans(ground);
    this.backfills = new Backfills(ground, plans);
    this.repairs = new RepairBook(ground);
    this.reconciliations = new Reconciliations(ground);
    this.cutovers = new Cutovers(ground);
  }

  /**
   * The repair of {@code spec}'s target over its nodes: this server's steps for a table on one server, every node's
   * of its cluster, opened now, for a sharded one (its spec naming the cluster). Close it when done.
   */
  public TargetRepair repair(TableSpec spec) {
    if (spec.cluster().isEmpty()) {
      return new ServerRepair(this, spec);
    }
    return ClusterRepair.open(session.orElseThrow(() -> new IllegalStateException("A sharded repair opens through "
        + "the session's engine (new Engine(session)), which knows how to reach every node.")), spec);
  }

  /** Writes one line of {@code spec}'s target's audit trail on this server (a hook's run on a cluster's node). */
  void audit(TableSpec spec, String action, String detail) {
    ground.store().ensureSchema();
    ground.store().audit(dev.cutover.engine.tables.TableNames.target(spec), action, detail);
  }

  /** What this engine's steps stand on: its server's pool, statements and Cutover's records there. */
  Ground ground() {
    return ground;
  }

  /** Reading specs and checking their rules with the server. */
  public Specs specs() {
    return specs;
  }

  /** Where the live writer stands, the plan, the preflight that clears it, a sample of the fix. */
  public Plans plans() {
    return plans;
  }

  /** Starting, reading and following backfill runs. */
  public Backfills backfills() {
    return backfills;
  }

  /** The repair as a whole: where it stands, its history, abandoning it, the audit trail. */
  public RepairBook repairs() {
    return repairs;
  }

  /** Reconciling v1 and v2, stored verdicts, acknowledgements and report files. */
  public Reconciliations reconciliations() {
    return reconciliations;
  }

  /** The gates, the cutover and rollback, retention, retiring v1 and cleaning up. */
  public Cutovers cutovers() {
    return cutovers;
  }

  /**
   * What this server keeps of {@code spec}'s repairs, read at once for a screen: runs, stored reconciliations,
   * the side effects runs were allowed, and the newest {@code auditLimit} entries of the whole audit trail.
   */
  public RepairRecords records(TableSpec spec, int auditLimit) {
    return new RepairRecords(backfills.runs(spec), reconciliations.stored(spec),
        backfills.sideEffectAcknowledgements(spec), repairs.audit(null, auditLimit));
  }
}
