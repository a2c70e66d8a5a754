package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.ClusterDeclaration;
import dev.cutover.engine.cluster.ClusterDeployment;
import dev.cutover.engine.cluster.RunsOverShards;
import dev.cutover.engine.cluster.ShareOfTotal;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The backfill of a sharded repair over every shard, as one: each backfill's parts run under one run id and are
 * read as one run ({@link RunsOverShards}), started, resumed and followed together; the corrected live writer
 * deployed or declared on every shard from one B. {@link ClusterRepair#backfills()}.
 */
final class ClusterRuns implements BackfillSteps {

  private final Shards shards;
  private final TableSpec spec;
  private final ClusterBackfills backfills;
  private final ClusterPlans plans;

  ClusterRuns(Shards shards, TableSpec spec, ClusterBackfills backfills, ClusterPlans plans) {
    this.shards = shards;
    this.spec = spec;
    this.backfills = backfills;
    this.plans = plans;
  }

  @Override
  public String where() {
    return plans.where();
  }

  @Override
  public BackfillSettings settings(RunRecord run) {
    return shards.shard(1).engine().plans().runSettings(spec, run);
  }

  @Override
  public List<RunRecord> runs() {
    return RunsOverShards.runs(ClusterRepair.byRef(shards.each("read of the runs", s -> s.engine().backfills().runs(spec))));
  }

  @Override
  public SortedMap<HourPartition, LedgerEntry> ledger(String runId) {
    return RunsOverShards.ledger(runId, parts(shards.each("read of the ledger", s -> part(s, runId)
        .map(r -> s.engine().backfills().ledger(r.id())))), shards.all().size());
  }

  /** Shard {@code s}'s part of run {@code runId}: the part of its own id, or a run the shard ran alone under it. */
  static Optional<RunRecord> part(Shard s, String runId) {
    return s.engine().backfills().run(RunsOverShards.partId(runId, s.ref()))
        .or(() -> s.engine().backfills().run(runId));
  }

  /** The answers of the shards that ran a part. */
  private static <T> Map<ShardRef, T> parts(Map<Shard, Optional<T>> each) {
    Map<ShardRef, T> out = new LinkedHashMap<>();
    each.forEach((s, t) -> t.ifPresent(v -> out.put(s.ref(), v)));
    return out;
  }

  @Override
  public RunFeed feed(String runId) {
    return new RunFeed(runId, new RunFeed.Source() {
      /** The parts the last read of the run found, by shard: the ledger is theirs. */
      private volatile Map<ShardRef, String> ran = Map.of();

      @Override
      public Optional<RunRecord> run() {
        Map<ShardRef, RunRecord> each = parts(shards.each("read of the run", s -> part(s, runId)));
        Map<ShardRef, String> ids = new LinkedHashMap<>();
        each.forEach((s, r) -> ids.put(s, r.id()));
        ran = ids;
        return each.isEmpty() ? Optional.empty() : Optional.of(RunsOverShards.run(runId, each, shards.all().stream()
            .map(Shard::ref).toList()));
      }

      @Override
      public TreeMap<HourPartition, LedgerEntry> ledger() {
        Map<ShardRef, String> from = ran;
        return new TreeMap<>(RunsOverShards.ledger(runId, parts(shards.each("read of the ledger",
            s -> Optional.ofNullable(from.get(s.ref())).map(id -> s.engine().backfills().ledger(id)))),
            shards.all().size()));
      }

      @Override
      public Duration lag() {
        return plans.live().lag();
      }
    });
  }

  @Override
  public List<ShardRef> shards() {
    return shards.all().stream().map(Shard::ref).toList();
  }

  @Override
  public RunFeed feed(String runId, ShardRef ref) {
    Shard s = shards.all().stream().filter(x -> x.ref().equals(ref)).findFirst().orElseThrow(() ->
        new IllegalArgumentException("no " + ref + " in " + where()));
    return new RunFeed(runId, new RunFeed.Source() {
      /** The part the last read found: the ledger is its. */
      private volatile Optional<String> part = Optional.empty();

      @Override
      public Optional<RunRecord> run() {
        Optional<RunRecord> r = part(s, runId);
        part = r.map(RunRecord::id);
        return r;
      }

      @Override
      public TreeMap<HourPartition, LedgerEntry> ledger() {
        return part.map(id -> new TreeMap<>(s.engine().backfills().ledger(id))).orElseGet(TreeMap::new);
      }

      @Override
      public Duration lag() {
        return s.engine().plans().live(spec).lag();
      }
    });
  }

  @Override
  public RunHandle start(Preflighted checked, BackfillEvent.Listener listener) {
    Map<String, Object> plan = checked.nodes().values().stream().flatMap(p -> p.cleared().stream()).findFirst()
        .map(c -> RepairHooks.fields(c.plan())).orElse(Map.of());
    return RepairHooks.run(RepairHooks.onShards(shards, spec), plan,
        () -> followed(backfills.backfill(checked, s -> BackfillEvent.Listener.NONE), listener));
  }

  @Override
  public RunHandle resume(String runId, UnaryOperator<BackfillSettings> throttle,
      List<AcknowledgedDependent> acknowledged, Progress progress, BackfillEvent.Listener listener) {
    progress.update("check and resume run " + runId + " on every shard whose part did not succeed", 0);
    return RepairHooks.run(RepairHooks.onShards(shards, spec), Map.of("resumes", runId),
        () -> followed(backfills.resume(runId, throttle, acknowledged, s -> BackfillEvent.Listener.NONE), listener));
  }

  private RunHandle followed(ClusterRun run, BackfillEvent.Listener listener) {
    String id = RunsOverShards.runOf(run.runs().values().iterator().next().id());
    int n = shards.all().size();
    TableSpec.Total total = spec.cluster().orElseThrow().total();
    return new ShardsRun(id, run.runs(), s -> ShareOfTotal.of(s, total, n), feed(id), listener);
  }

  @Override
  public LiveDeployment liveDeployment() {
    return asOne(new ClusterDeployment(shards, spec).plan().values());
  }

  @Override
  public LiveDeployment deployLive(Optional<HourPartition> confirmed) {
    return asOne(new ClusterDeployment(shards, spec).deploy(confirmed).values());
  }

  /**
   * The shards' deployments as one: they share the view, B, statement and warning (one spec); it exists once it
   * does on every shard; the newest event is the newest of any shard's sources, the one B must come after.
   */
  static LiveDeployment asOne(Collection<LiveDeployment> each) {
    LiveDeployment first = each.iterator().next();
    java.time.Instant newest = each.stream().map(LiveDeployment::newestEvent).max(java.util.Comparator
        .naturalOrder()).orElseThrow();
    return new LiveDeployment(first.views(), first.boundary(), first.statements(), newest,
        each.stream().allMatch(LiveDeployment::exists), first.repairId(), first.warning());
  }

  @Override
  public dev.cutover.engine.api.NodeAnswers<LiveWriterNote.Declared> declareLiveWriter(String writer) {
    Map<dev.cutover.engine.api.ShardRef, LiveWriterNote.Declared> done = ClusterRepair.byRef(
        new ClusterDeclaration(shards, spec).declare(writer));
    LiveWriterNote.Declared first = done.values().iterator().next();
    return new dev.cutover.engine.api.NodeAnswers<>(new LiveWriterNote.Declared(first.note(),
        done.values().stream().anyMatch(LiveWriterNote.Declared::written)), done);
  }
}
