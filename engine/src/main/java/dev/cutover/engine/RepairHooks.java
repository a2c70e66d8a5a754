package dev.cutover.engine;

import dev.cutover.engine.api.Hook;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.hooks.Hooks;
import dev.cutover.engine.sql.NameClaims;
import dev.cutover.engine.tables.TableNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Where the steps of one repair run the spec's hooks, once per step of the repair as a whole (on a cluster, not once
 * per node): before and after the switch of consumers, when a backfill run starts and ends, and when the whole
 * repair has a verdict. Each hook's run goes to the audit trail of the server, or of every node.
 */
final class RepairHooks {

  private RepairHooks() {}

  /** The hooks of {@code spec} on one server. */
  static Hooks onServer(Ground ground, TableSpec spec) {
    return new Hooks(spec, ground.database().profile().hooks(), line -> {
      ground.store().ensureSchema(); // a hook may run before anything else was recorded
      ground.store().audit(TableNames.target(spec), "hook", line);
    });
  }

  /** The hooks of {@code spec} over every shard, each run written to every node's audit trail. */
  static Hooks onShards(Shards shards, TableSpec spec) {
    return new Hooks(spec, shards.shard(1).database().profile().hooks(), line -> shards.each("audit a hook", s -> {
      s.engine().audit(spec, "hook", line);
      return true;
    }));
  }

  /**
   * The switch of consumers with its hooks: the hooks before it run only once the switch would go ahead ({@code
   * ready}: the confirmation typed and the gate open, judged only when there are such hooks), and a failing one
   * refuses it; a switch that is not ready is left to refuse as it always does. The hooks after it run once it
   * switched.
   */
  static SwapResult switched(Hooks hooks, TableSpec spec, boolean forward, String confirmation,
      BooleanSupplier gateOpen, Supplier<SwapResult> swap) {
    Hook.Event before = forward ? Hook.Event.BEFORE_CUTOVER : Hook.Event.BEFORE_ROLLBACK;
    String step = forward ? "cutover" : "rollback";
    if (hooks.has(before) && spec.consumerView().name().equals(confirmation)
        && gateOpen.getAsBoolean()) {
      hooks.run(before, step, Map.of("to", forward ? "v2" : "v1"));
    }
    SwapResult done = swap.get();
    after(() -> hooks.run(forward ? Hook.Event.AFTER_CUTOVER : Hook.Event.AFTER_ROLLBACK, step, fields(done)));
    return done;
  }

  /**
   * Hooks after a step that is done: nothing they do, nor an audit trail that cannot be written (a node gone
   * silent), may turn the step's result into a failure the operator would take for nothing done.
   */
  private static void after(Runnable hooks) {
    try {
      hooks.run();
    } catch (RuntimeException e) {
      // The step stands. A hook's run whose audit line could not be written goes unrecorded: better than a step
      // reported as failed when it was done.
    }
  }

  /**
   * A gate just judged, with the hooks of its first opening: when it is the cutover gate and open, the first
   * process to claim the opening for the repair (a claim by name on {@code claims}'s server, compare-and-set, so
   * two processes judging at once run it once) runs the {@code gate_open} hooks. Nothing is claimed while the
   * spec has no such hook.
   */
  private static void gateJudged(Hooks hooks, TableSpec spec, java.util.function.Supplier<NameClaims> claims,
      java.util.function.Supplier<java.util.Optional<dev.cutover.engine.api.Repair>> repair,
      dev.cutover.engine.api.Gate gate) {
    if (!gate.open() || !gate.step().equals(dev.cutover.engine.api.Gate.CUTOVER)
        || !hooks.has(Hook.Event.GATE_OPEN)) {
      return;
    }
    after(() -> {
      java.util.Optional<dev.cutover.engine.api.Repair> open = repair.get();
      String target = TableNames.target(spec);
      String key = target + "/" + open.map(dev.cutover.engine.api.Repair::id).orElse("");
      // Known in this process once claimed (by it or another): a gate judged open again costs no statement. A claim
      // that failed (a silent server) is tried again at the next judgement.
      if (open.isEmpty() || OPENED.contains(key)) {
        return;
      }
      boolean first = claims.get().claim("note that the gate of " + target + " opened", NameClaims.nameFor(
          "gate_open", key), open.get().id());
      OPENED.add(key);
      if (first) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("repair", open.get().id());
        open.get().boundary().ifPresent(b -> fields.put("boundary", b.start().toString()));
        fields.put("gate", "cutover");
        hooks.run(Hook.Event.GATE_OPEN, "gate", fields);
      }
    });
  }

  /** A gate judged on one server: its first opening for the repair runs the gate_open hooks, claimed there. */
  static void gateJudged(Ground ground, TableSpec spec, dev.cutover.engine.api.Gate gate) {
    gateJudged(onServer(ground, spec), spec, () -> claims(ground), () -> new RepairBook(ground).current(spec), gate);
  }

  /** A gate judged over every shard as one: its first opening runs the hooks once, claimed on the first shard. */
  static void gateJudged(Shards shards, TableSpec spec, dev.cutover.engine.api.Gate gate) {
    Ground first = shards.shard(1).engine().ground();
    gateJudged(onShards(shards, spec), spec, () -> claims(first), () -> new RepairBook(first).current(spec), gate);
  }

  /** The claims by name on the server of {@code ground}, in Cutover's working database. */
  private static NameClaims claims(Ground ground) {
    return new NameClaims(ground.sql(), dev.cutover.engine.api.Identifier.simple("database", ground.store()
        .database()));
  }

  /** The repairs whose gate opening this process has claimed, or found claimed. */
  private static final java.util.Set<String> OPENED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** A backfill run with its hooks: those at its start first (a failing one refuses it), those at its end after. */
  static RunHandle run(Hooks hooks, Map<String, Object> plan, Supplier<RunHandle> start) {
    hooks.run(Hook.Event.BACKFILL_START, "backfill", plan);
    RunHandle run = start.get();
    run.completion().thenAccept(end -> after(() -> hooks.run(Hook.Event.RUN_END, "backfill", fields(end))));
    return run;
  }

  /** A verdict over the whole repair with its hooks; a reconciliation of part of it runs none. */
  static Reconciliation verdict(Hooks hooks, Reconciliation r) {
    if (r.scope() == Reconciliation.Scope.REPAIR) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("repair", r.repairId());
      fields.put("report", r.id());
      fields.put("verdict", r.verdict().name().toLowerCase(java.util.Locale.ROOT));
      fields.put("allows_cutover", r.verdict().allowsCutover());
      fields.put("window_from", r.window().from().start().toString());
      fields.put("window_to", r.window().to().start().toString());
      after(() -> hooks.run(Hook.Event.VERDICT, "reconcile", fields));
    }
    return r;
  }

  /** What a backfill plan says of itself in its hook's JSON. */
  static Map<String, Object> fields(dev.cutover.engine.api.Plan plan) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("range_from", plan.range().from().start().toString());
    fields.put("range_to", plan.range().to().start().toString());
    fields.put("boundary", plan.boundary().start().toString());
    fields.put("hours", plan.hours().size());
    return fields;
  }

  private static Map<String, Object> fields(RunRecord end) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("run", end.id());
    fields.put("repair", end.repairId());
    fields.put("state", end.state().name().toLowerCase(java.util.Locale.ROOT));
    fields.put("message", end.message());
    return fields;
  }

  private static Map<String, Object> fields(SwapResult done) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("before", done.before().name().toLowerCase(java.util.Locale.ROOT));
    fields.put("after", done.after().name().toLowerCase(java.util.Locale.ROOT));
    fields.put("verified", done.verified());
    fields.put("verification", done.verification());
    return fields;
  }
}
