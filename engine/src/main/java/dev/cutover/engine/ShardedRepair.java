package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairRecords;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.cluster.ClusterAbandon;
import dev.cutover.engine.cluster.ClusterDeclaration;
import dev.cutover.engine.cluster.ClusterDeployment;
import dev.cutover.engine.cluster.ClusterNodes;
import dev.cutover.engine.cluster.ShareOfTotal;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One repair of a table sharded over a cluster: the single-node procedure on every shard at once, on the
 * shard's local tables, held together where a guarantee spans the cluster. Every shard plans the same
 * range and the same boundary B (the earliest any shard's live edge allows, or the one already pinned,
 * which every shard must agree on); the preflight adds, on every node, that a shard's hours are complete
 * from its own sources; each shard backfills its own hours into its own v2 and keeps its own ledger, so a
 * shard that fails is named and resumed alone; the reconciliation is green only when every shard's is;
 * and consumers switch node by node only once every node's gate is open, with the nodes already switched
 * switched back when one fails, so that no node is left reading the other version. Each public method
 * is one step of the procedure; the backfill's steps are {@link ClusterBackfills}, the reconciliation's
 * {@link ClusterReconcile}, the switch of consumers {@link ClusterCutover}, the screens' reads
 * {@link ClusterReadings}, the others the {@code cluster} package's.
 */
public final class ShardedRepair implements AutoCloseable {

  /** Told after each node has switched, before the next one does. */
  @FunctionalInterface
  public interface SwapListener {
    void switched(ShardRef shard, SwapResult result);

    SwapListener NONE = (s, r) -> {};
  }

  /** Every shard's plan, over one range and one boundary. */
  public record ClusterPlan(HourRange range, HourPartition boundary, Map<ShardRef, Plan> plans) {

    /** The hours every shard recomputes from its own sources: a bounded repair's affected window, else the range. */
    public HourRange recomputedRange() {
      return plans.values().stream().findFirst().map(Plan::recomputedRange).orElse(range);
    }
  }

  /** The runs of one backfill, one per shard. */
  public record ClusterRun(Map<ShardRef, RunHandle> runs) {
    /** Waits for every shard's run to end; each shard's final record. */
    public Map<ShardRef, RunRecord> await() throws InterruptedException {
      Map<ShardRef, RunRecord> out = new LinkedHashMap<>();
      for (var e : runs.entrySet()) {
        out.put(e.getKey(), e.getValue().await());
      }
      return out;
    }

    /** The shards whose run did not succeed, each with its run's last sentence. */
    public static List<String> failed(Map<ShardRef, RunRecord> ended) {
      return ended.entrySet().stream().filter(e -> e.getValue().state() != RunState.SUCCEEDED)
          .map(e -> e.getKey() + ": run " + e.getValue().id() + " " + e.getValue().state().name()
              .toLowerCase(java.util.Locale.ROOT) + ": " + e.getValue().message()).toList();
    }
  }

  /** Every shard's reconciliation and the one verdict over all of them. */
  public record ClusterVerdict(Map<ShardRef, Reconciliation> shards) {
    public boolean green() {
      return shards.values().stream().allMatch(r -> r.verdict().allowsCutover());
    }

    /** The shards whose verdict is not green, each with its verdict. */
    public List<String> notGreen() {
      return shards.entrySet().stream().filter(e -> !e.getValue().verdict().allowsCutover())
          .map(e -> e.getKey() + ": " + e.getValue().verdict()).toList();
    }

    public String sentence() {
      boolean plain = shards.values().stream().allMatch(r -> r.verdict() == Reconciliation.Verdict.GREEN);
      return green() ? (plain ? "Green" : "Green or acknowledged") + " on all " + shards.size() + " shards."
          : "Not green: " + String.join("; ", notGreen())
          + ". The cluster's verdict is green only when every shard's is.";
    }
  }

  private final Shards shards;
  private final TableSpec spec;
  private final ClusterBackfills backfills;
  private final ClusterReconcile reconcile;
  private final ClusterReadings readings;
  private final ClusterCutover cutover;
  private final ClusterPlans plans;
  private final ClusterRuns runs;
  private final ClusterSnapshot snapshot;

  /**
   * The repair of {@code spec}'s sharded table through the cluster the session reaches: an engine on every
   * node of the spec's cluster, as the session's operator. Close it to close those connections.
   */
  public static ShardedRepair open(Session session, TableSpec spec) {
    ShardedRepair.requireCluster(spec);
    ClusterNodes.Addresses addresses = session.localCluster().<ClusterNodes.Addresses>map(c -> c::jdbcUrl)
        .orElseGet(() -> ClusterNodes.Addresses.likeEntry(session.database().profile().jdbcUrl()));
    Shards shards = Shards.open(session.database(), spec.cluster().get().name(), addresses);
    try {
      return new ShardedRepair(shards, spec);
    } catch (RuntimeException e) {
      shards.close();
      throw e;
    }
  }

  private static void requireCluster(TableSpec spec) {
    if (spec.cluster().isEmpty()) {
      throw new InvalidInputException("spec.cluster", "The spec " + spec.name() + " names no cluster; a repair on one "
          + "server needs none, and a sharded one needs cluster: {name, live, target, sources} (docs/CLUSTER.md).");
    }
  }

  /** The repair over engines already open on every shard (tests reach the shards through {@code shards}). */
  public ShardedRepair(Shards shards, TableSpec spec) {
    requireCluster(spec);
    this.shards = shards;
    this.spec = spec;
    this.backfills = new ClusterBackfills(shards, spec);
    this.reconcile = new ClusterReconcile(shards, spec);
    this.cutover = new ClusterCutover(shards, spec);
    this.readings = new ClusterReadings(shards, spec);
    this.plans = new ClusterPlans(shards, spec, backfills);
    this.runs = new ClusterRuns(shards, spec, backfills, plans);
    this.snapshot = new ClusterSnapshot(shards, spec);
  }

  /** Every shard, in order. */
  public List<ShardRef> shardRefs() {
    return shards.all().stream().map(Shard::ref).toList();
  }

  /** The shard of number {@code n} (from 1). */
  public ShardRef ref(int n) {
    return shards.shard(n).ref();
  }

  static <T> Map<ShardRef, T> byRef(Map<Shard, T> each) {
    Map<ShardRef, T> out = new LinkedHashMap<>();
    each.forEach((s, t) -> out.put(s.ref(), t));
    return out;
  }

  /** Closes the connections to every shard. */
  @Override
  public void close() {
    shards.close();
  }

  /**
   * One shard's repair at a glance: its repair, its latest run, the version its consumers read, and the
   * newest declaration of its corrected live writer (the operator's word, not proof).
   */
  public record ShardStatus(Optional<Repair> repair, Optional<RunRecord> latestRun, Gate.Version reads,
      Optional<LiveWriterNote> declaredWriter) {}

  /**
   * One shard read for a screen: its repair, its latest run, that run's ledger and the version its
   * consumers read; or, when the shard could not be read, why ({@code silent}), with nothing else.
   */
  public record ShardReading(Optional<ShardStatus> status, SortedMap<HourPartition, LedgerEntry> ledger, Optional<String> silent) {
    public ShardReading {
      ledger = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(ledger));
    }
  }

  /**
   * Every shard read at once, each on its own: a shard that does not answer is named with why, and the
   * others are still read. Reads only.
   */
  public Map<ShardRef, ShardReading> read() {
    return readings.read();
  }

  /**
   * What every shard keeps of the repair's past (runs, stored reconciliations, allowed side effects, the newest
   * {@code auditLimit} entries of its audit trail), each read on its own: a shard that does not answer is left
   * out, named with why in {@code silent}.
   */
  public record ClusterRecords(Map<ShardRef, RepairRecords> shards, Map<ShardRef, String> silent) {}

  /** What every shard keeps of the repair's past, read at once. Reads only. */
  public ClusterRecords records(int auditLimit) {
    return readings.records(auditLimit);
  }

  /**
   * The repair's whole state over every shard in one read, as one snapshot: where its least advanced shard stands,
   * each backfill one run, consumers on a version only when every node reads it, and every node's gate as one. With
   * {@code previous} (the last snapshot read) a shard's gate judged on the same ground is kept; without, every
   * shard's gate is judged again from its data.
   */
  public RepairSnapshot snapshot(Optional<RepairSnapshot> previous) {
    return snapshot.read(previous);
  }

  /** Every shard's repair at a glance. */
  public Map<ShardRef, ShardStatus> status() {
    return readings.status();
  }

  /**
   * The planning steps of the repair over every shard, answered as one (the plan every shard's, the preflight
   * passed only when every shard's is): what the console's Plan screen runs on a sharded table.
   */
  public PlanSteps plans() {
    return plans;
  }

  /**
   * The backfill steps of the repair over every shard, answered as one (each backfill's parts under one run id,
   * read as one run): what the console's Backfill screen runs on a sharded table.
   */
  public BackfillSteps backfills() {
    return runs;
  }

  /**
   * Plans the backfill of every shard over one range and one boundary: {@code boundary} when given, or
   * one a shard's repair pinned (every shard that pinned one must agree), or else the earliest that each
   * shard's own live edge and safety margin allow; the range starts at the earliest any shard would.
   * Each shard's throttle is {@code overrides} of its defaults, within its share of the cluster's totals
   * ({@link ShareOfTotal}). Reads only.
   */
  public ClusterPlan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      UnaryOperator<BackfillSettings> overrides) {
    return plan(from, to, boundary, Optional.empty(), overrides);
  }

  /**
   * Plans a bounded repair on every shard: only the {@code affected} hours (or the spec's) are
   * recomputed on each shard, and the others of the range are carried from that shard's own v1, as on
   * one server; otherwise as {@link #plan(Optional, Optional, Optional, UnaryOperator)}.
   */
  public ClusterPlan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      Optional<HourRange> affected, UnaryOperator<BackfillSettings> overrides) {
    return backfills.plan(from, to, boundary, affected, overrides);
  }

  /**
   * Every shard's preflight, with the check that its hours are complete from its own sources; clears
   * every shard's plan only when every shard passed. {@code acknowledged} names the dependents of v1 the
   * operator acknowledged, on any shard, each with its reason; each shard's run writes those it found there
   * to its own audit trail when it starts.
   */
  public Preflighted preflight(ClusterPlan plan, List<AcknowledgedDependent> acknowledged) {
    return backfills.preflight(plan, acknowledged, dev.cutover.engine.api.Progress.NONE);
  }

  /** Starts every shard's backfill at once; refuses, starting none, unless every shard's preflight passed. */
  public ClusterRun backfill(Preflighted preflight, Function<ShardRef, BackfillEvent.Listener> listeners) {
    return backfills.backfill(preflight, listeners);
  }

  /**
   * Resumes every shard whose latest run of this repair did not succeed, from its own ledger, with the
   * throttle it ran with unless {@code overrides} says otherwise (within its share of the cluster's
   * totals); a shard whose run succeeded is left alone. Each shard's preflight takes the {@code acknowledged}
   * dependents, as a fresh backfill's does. Refuses, resuming none, when a shard has no run to resume or its
   * preflight fails.
   */
  public ClusterRun resume(UnaryOperator<BackfillSettings> overrides, List<AcknowledgedDependent> acknowledged,
      Function<ShardRef, BackfillEvent.Listener> listeners) {
    return backfills.resume(overrides, acknowledged, listeners);
  }

  /**
   * What {@link #deployLive} would do now, or did: every shard's corrected view from one B, the latest
   * any shard's newest event and safety margin allow (or the one the shards' deployments pinned). Reads
   * only.
   */
  public Map<ShardRef, LiveDeployment> liveDeployment() {
    return byRef(new ClusterDeployment(shards, spec).plan());
  }

  /**
   * Deploys the spec's corrected view on every shard from one future B, all or nothing: each shard's
   * view writes its own v2 from its own inserts, and each shard's repair pins the same B. A shard whose
   * deployment fails (its sources reached B meanwhile, its server does not answer) is named, and the
   * shards this call deployed are abandoned, their views dropped, so that no shard writes v2 from a B
   * the others do not share. Shards deployed before keep their deployment.
   */
  public Map<ShardRef, LiveDeployment> deployLive() {
    return deployLive(Optional.empty());
  }

  /**
   * As {@link #deployLive()}, refused unless B is still {@code confirmed}: the B the operator read in the
   * confirmation (the newest event may have moved it since).
   */
  public Map<ShardRef, LiveDeployment> deployLive(Optional<HourPartition> confirmed) {
    return byRef(new ClusterDeployment(shards, spec).deploy(confirmed));
  }

  /**
   * Gives the repair up on every shard that has one open, with the operator's reason, so that the next
   * backfill starts one new repair everywhere (a new B): each shard's boundary and ledger stop counting,
   * v2 stays, and a corrected view the repair deployed is dropped. Refused, nothing abandoned, while
   * consumers read v2 on any node or an operation (a backfill, a swap) holds any shard's repair; a shard
   * that refuses midway is named with the shards already abandoned. An empty value: nothing was open there.
   */
  public Map<ShardRef, Optional<Repair>> abandon(String confirmation, String reason) {
    return byRef(new ClusterAbandon(shards, spec).abandon(confirmation, reason));
  }

  /**
   * Declares the corrected live writer, a job outside the database, deployed on every shard from their one
   * B; refused, nothing written, while any shard's repair has no B, another B, or a corrected view.
   */
  public Map<ShardRef, LiveWriterNote> declareLiveWriter(String writer) {
    return byRef(new ClusterDeclaration(shards, spec).declare(writer));
  }

  /** Every shard's reconciliation of its own v1 and v2, at once, and the one verdict over them. */
  public ClusterVerdict reconcile(Reconciliation.Scope scope, int keyLimit) {
    return new ClusterVerdict(reconcile.each(scope, Optional.empty(), keyLimit, dev.cutover.engine.api.Progress.NONE));
  }

  /**
   * The reconciliation steps of the repair over every shard, answered as one over the whole table (each key
   * names its shard): what the console's Reconcile screen runs on a sharded table.
   */
  public ReconcileSteps reconciliations() {
    return reconcile;
  }

  /**
   * Accepts an unexpected difference (a whole hour when {@code key} is empty) on every shard where that hour
   * (or key) differs unexpectedly, each bound to its differences there: the rows of one key lie on one shard.
   * Every shard checks the hour and key first; nothing is written while one refuses them, or when no shard
   * has a difference to accept. Returns what each shard accepted.
   */
  public Map<ShardRef, Reconciliation.Fingerprint> acknowledge(HourPartition hour, List<String> key, String reason) {
    return reconcile.acknowledgeEach(hour, key, reason, Optional.empty());
  }

  /**
   * Takes back, with a reason in each shard's audit trail, the acknowledgement in force of this hour (or key) on
   * every shard that holds one. Refused, nothing written, when no shard holds it. Returns what each shard took
   * back (absent on the shards that held none).
   */
  public Map<ShardRef, Optional<Reconciliation.Acknowledgement>> withdraw(HourPartition hour, List<String> key,
      String reason) {
    return reconcile.withdrawEach(hour, key, reason);
  }

  /** The statement a swap runs on each node in turn (the same on every node: the consumer view's exchange). */
  public String statement() {
    return shards.all().getFirst().engine().cutovers().statement(spec);
  }

  /** The spec this repair works on. */
  public TableSpec spec() {
    return spec;
  }

  /** Every shard's cutover gate, judged from its data now. */
  public Map<ShardRef, Gate> gates() {
    return byRef(shards.each("cutover gate", s -> s.engine().cutovers().gate(spec)));
  }

  /** Every shard's rollback gate, judged from its data now. */
  public Map<ShardRef, Gate> rollbackGates() {
    return byRef(shards.each("rollback gate", s -> s.engine().cutovers().rollbackGate(spec)));
  }

  /**
   * Switches consumers to v2 on every node, all or nothing: refused with nothing changed unless every
   * node's gate is open and every shard's repair has the same B; then node by node, each verified; when a
   * node fails, the nodes already switched are switched back, and the refusal names the node and what
   * each node reads.
   */
  public Map<ShardRef, SwapResult> cutover(String confirmation, SwapListener listener) {
    return cutover.each(true, confirmation, Optional.empty(), listener::switched);
  }

  /**
   * Switches consumers back to v1 on every node, all or nothing, as {@link #cutover} does forward; the reason, when
   * given, goes to every node's audit trail.
   */
  public Map<ShardRef, SwapResult> rollback(String confirmation, Optional<String> reason, SwapListener listener) {
    return cutover.each(false, confirmation, reason, listener::switched);
  }

  /**
   * The switch of consumers on every node as one, the shape one server's has too: what the console's Cutover
   * screen runs on a sharded table.
   */
  public CutoverSteps cutovers() {
    return cutover;
  }

  /**
   * Finishes a swap of every node that its process left unfinished (it died after some nodes switched), forward
   * when the other nodes' gates are open, else back, so that every node reads one version; says what it found
   * and did. Empty when no swap was left unfinished. Every command on the repair calls it first.
   */
  public Optional<dev.cutover.engine.api.UnfinishedSwap> finishUnfinishedSwap() {
    return cutover.finishUnfinished();
  }
}
