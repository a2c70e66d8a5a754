package dev.cutover.engine.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of what operators do, and of what goes wrong around them: backfills with various
 * ranges and boundaries, cancelled and resumed runs, the corrected live writer deployed from B, live
 * hours, reconciliations of every window, acknowledgements, a v2 hour lost, a v1 hour doubled,
 * cutovers and rollbacks, a second process swapping at the same moment, a repair abandoned. After
 * every action: no hour at or after B was written by a backfill, the live writer's hours are as it
 * wrote them, the rollback handle reads the other version, and the gate is open only if v2 holds
 * exactly the corrected history from the repair's first hour to the live edge with every difference
 * expected or acknowledged. Prints its seed; replay with {@code -Dcutover.seed=S}, lengthen with
 * {@code -Dcutover.actions=N} (40 in the normal build, 400 with {@code -Psoak}).
 */
class RepairSimulationTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;
  private Engine second;
  private Database secondDb;
  private StateStore store;
  private Random random;
  private final List<String> log = new ArrayList<>();

  /** The corrected live writer of the simulation: deployed from B, or not. */
  private Optional<HourPartition> liveFrom = Optional.empty();
  /** Where the live writer of an abandoned repair started: its hours stay in v2. */
  private Optional<HourPartition> abandonedLiveFrom = Optional.empty();
  /** What the live writer wrote, hour by hour, since it was deployed. */
  private final Map<HourPartition, String> liveWritten = new TreeMap<>();
  /** v1 hours appended twice: incidents an operator must acknowledge. */
  private final Set<HourPartition> incidents = new TreeSet<>();
  /** Incident hours acknowledged within the current repair. */
  private final Set<HourPartition> acknowledged = new HashSet<>();
  private String repairOfAcks = "";

  @Test
  void whateverOperatorsDoTheRepairKeepsItsGuarantees() throws Exception {
    long seed = Long.getLong("cutover.seed", System.nanoTime());
    int actions = Integer.getInteger("cutover.actions", 40);
    random = new Random(seed);
    System.out.println("[repair-simulation] seed " + seed + ", " + actions + " actions");
    world = HourlyWorld.create(TestEngine.freshDatabase(RepairSimulationTest.class), 2);
    spec = world.spec();
    engine = new Engine(world.db);
    secondDb = Database.open(dev.cutover.engine.api.ConnectionProfile.of(TestEngine.server().jdbcUrl(), "default",
        dev.cutover.engine.api.PasswordSource.none(), world.database));
    second = new Engine(secondDb);
    store = new StateStore(world.sql, world.database);
    Map<String, Integer> counts = new TreeMap<>();
    try {
      for (int i = 0; i < actions; i++) {
        String action = act();
        counts.merge(action.replaceAll(":.*", ""), 1, Integer::sum);
        log.add(i + " " + action);
        check(seed, i);
      }
    } finally {
      System.out.println("[repair-simulation] actions taken: " + counts);
      Map<String, Integer> refusals = new TreeMap<>();
      log.stream().filter(l -> l.contains("refused (")).forEach(l -> refusals.merge(l.replaceAll("^\\d+ ", "")
          .replaceAll("(.{0,90}).*", "$1"), 1, Integer::sum));
      refusals.forEach((k, v) -> System.out.println("[repair-simulation] " + v + " x " + k));
      secondDb.close();
      world.db.close();
    }
  }

  private String act() throws Exception {
    int roll = random.nextInt(100);
    try {
      if (roll < 40) {
        return followTheNextStep();
      }
      roll = random.nextInt(100);
      if (roll < 18) {
        return backfill();
      } else if (roll < 22) {
        return cancelledBackfill();
      } else if (roll < 26) {
        return resume();
      } else if (roll < 34) {
        return deployLiveWriter();
      } else if (roll < 48) {
        int hours = 1 + random.nextInt(3);
        world.advance(hours, Optional.empty());
        liveFrom.ifPresent(b -> writeLive(world.liveEdge.plusHours(1 - hours), world.liveEdge.plusHours(1)));
        return "live: " + hours + " hour(s), v1 edge " + world.liveEdge;
      } else if (roll < 62) {
        return reconcile();
      } else if (roll < 67) {
        return acknowledge();
      } else if (roll < 71) {
        return loseAV2Hour();
      } else if (roll < 75) {
        HourPartition h = randomHour();
        world.sql.execute("double", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
            h.epochSecond());
        if (world.sql.queryLong("rows of the hour", "SELECT count() FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
            h.epochSecond()) == 0) {
          return "incident: v1 hour " + h + " holds no rows, so appending it twice changed nothing";
        }
        incidents.add(h);
        return "incident: v1 hour " + h + " appended twice";
      } else if (roll < 78) {
        return mendLiveHours();
      } else if (roll < 86) {
        return cutover();
      } else if (roll < 91) {
        return "rollback: " + engine.cutovers().rollback(spec, "visits").verification();
      } else if (roll < 98) {
        return raceTwoProcesses();
      } else {
        Repair r = engine.repairs().abandon(spec, "visits_v2", "simulation");
        abandonedLiveFrom = liveFrom.or(() -> abandonedLiveFrom);
        liveFrom = Optional.empty();
        liveWritten.clear();
        return "abandon: " + r.id();
      }
    } catch (CutoverException refused) {
      return "refused (" + refused.getClass().getSimpleName() + "): " + refused.getMessage();
    }
  }

  /** What an operator does who follows the next step that status names. */
  private String followTheNextStep() throws Exception {
    var next = engine.repairs().status(spec).next();
    return "next " + next.kind() + ": " + switch (next.kind()) {
      case BACKFILL -> backfill();
      case FIX_LIVE_WRITER -> mendLiveHours() + "; " + backfill();
      case START_OVER -> backfill(abandonedLiveFrom);
      case RESUME -> resume();
      case DEPLOY_LIVE_WRITER -> deployLiveWriter();
      case DEPLOY_VIEW, ABANDON -> throw new AssertionError("a spec without a live view was told " + next.kind());
      case WAIT_FOR_LIVE_WRITER -> mendLiveHours();
      case WAIT_FOR_OVERLAP, WAIT_FOR_RUN, SETTLE, FINISHED -> {
        world.advance(1, Optional.empty());
        liveFrom.ifPresent(b -> writeLive(world.liveEdge, world.liveEdge.plusHours(1)));
        yield "live: 1 hour";
      }
      case RECONCILE -> "reconcile: " + engine.reconciliations().reconcile(spec, Scope.REPAIR, 1_000).verdict();
      case REVIEW_DIFFERENCES -> {
        String mended = mendLiveHours();
        String acks = "";
        while (incidents.stream().anyMatch(h -> !acknowledged.contains(h)) && acks.length() < 200) {
          acks += acknowledge() + "; ";
        }
        yield mended + "; " + acks + backfill() + "; reconcile: " + engine.reconciliations().reconcile(spec, Scope.REPAIR, 1_000).verdict();
      }
      case CUTOVER -> cutover();
      case WATCH_CONSUMERS -> random.nextBoolean() ? "rollback: " + engine.cutovers().rollback(spec, "visits").verification()
          : raceTwoProcesses();
    };
  }

  private String backfill() throws Exception {
    return backfill(Optional.empty());
  }

  /** A backfill; {@code startOver}: the boundary an operator starting over picks, where v2's live hours begin. */
  private String backfill(Optional<HourPartition> startOver) throws Exception {
    Optional<HourPartition> pinned = engine.repairs().current(spec).filter(r -> !r.phase().ended()).flatMap(Repair::boundary);
    HourPartition latest = pinned.orElse(world.liveEdge.plusHours(-3));
    // Half the backfills start where v1 does: a repair that starts later leaves v1's older hours out of v2, and its
    // gate stays closed until a backfill reaches back to them.
    HourPartition from = random.nextBoolean() ? world.first
        : world.first.plusHours(random.nextInt((int) new HourRange(world.first, latest).hours()));
    Optional<HourPartition> boundary = startOver.isPresent() ? startOver : switch (random.nextInt(10)) {
      case 0 -> Optional.of(latest.plusHours(-1 - random.nextInt(3))); // another boundary: refused once pinned
      case 1, 2 -> pinned;
      default -> Optional.empty();
    };
    Plan plan = engine.plans().plan(spec, Optional.of(from), Optional.empty(), boundary,
        BackfillSettings.from(spec.throttle()).withConcurrency(1 + random.nextInt(2)).withBatchHours(1 + random.nextInt(8)));
    var checked = engine.plans().preflight(plan, List.of(new dev.cutover.engine.api.AcknowledgedDependent("none",
        dev.cutover.engine.testing.Procedure.REASON)));
    if (checked.cleared().isEmpty()) {
      return "refused (preflight): " + checked.report().failures();
    }
    RunRecord run = engine.backfills().start(checked.cleared().get(), dev.cutover.engine.api.BackfillEvent.Listener.NONE).await();
    return "backfill: " + plan.range() + " B " + plan.boundary() + " -> " + run.state();
  }

  private String cancelledBackfill() throws Exception {
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(1).withRowsPerSecond(400));
    var checked = engine.plans().preflight(plan, List.of());
    if (checked.cleared().isEmpty()) {
      return "refused (preflight): " + checked.report().failures();
    }
    var run = engine.backfills().start(checked.cleared().get(), dev.cutover.engine.api.BackfillEvent.Listener.NONE);
    Thread.sleep(random.nextInt(300));
    run.cancel();
    return "backfill, cancelled: " + plan.range() + " -> " + run.await().state();
  }

  private String resume() throws Exception {
    Optional<Repair> open = engine.repairs().current(spec).filter(r -> !r.phase().ended());
    Optional<RunRecord> stopped = open.flatMap(r -> store.repairRuns(r.id()).stream()
        .filter(run -> run.state() != RunState.SUCCEEDED).findFirst());
    if (stopped.isEmpty()) {
      return "resume: nothing to resume";
    }
    var checked = engine.plans().preflight(engine.plans().planResume(spec, stopped.get().id(), UnaryOperator.identity()), List.of());
    if (checked.cleared().isEmpty()) {
      return "refused (preflight): " + checked.report().failures();
    }
    RunRecord end = engine.backfills().start(checked.cleared().get(), dev.cutover.engine.api.BackfillEvent.Listener.NONE).await();
    return "resume: " + end.id() + " -> " + end.state();
  }

  private String deployLiveWriter() {
    Optional<HourPartition> b = engine.repairs().current(spec).filter(r -> !r.phase().ended()).flatMap(Repair::boundary);
    if (b.isEmpty() || liveFrom.isPresent()) {
      return "deploy: nothing to deploy";
    }
    liveFrom = b;
    writeLive(b.get(), world.liveEdge.plusHours(1));
    return "deploy: the corrected live writer from " + b.get();
  }

  /** The corrected live writer replaces each hour of {@code [from, to)} with the corrected transform. */
  private void writeLive(HourPartition from, HourPartition to) {
    for (HourPartition h = from; h.isBefore(to); h = h.plusHours(1)) {
      world.sql.execute("empty the live hour", "ALTER TABLE visits_v2 DROP PARTITION ID '" + h.partitionId() + "'");
      world.writeLiveV2(h, h.plusHours(1));
      liveWritten.put(h, world.checksums("visits_v2", h, h.plusHours(1)).getOrDefault(h, "0:0"));
    }
  }

  private String mendLiveHours() {
    if (liveFrom.isEmpty()) {
      return "mend: no live writer";
    }
    Map<HourPartition, String> now = world.checksums("visits_v2", liveFrom.get(), world.liveEdge.plusHours(1));
    List<HourPartition> lost = liveWritten.keySet().stream().filter(h -> !now.getOrDefault(h, "0:0")
        .equals(liveWritten.get(h))).toList();
    lost.forEach(h -> writeLive(h, h.plusHours(1)));
    return "mend: the live writer rewrote " + lost;
  }

  private String reconcile() {
    Scope scope = Scope.values()[random.nextInt(Scope.values().length)];
    Optional<HourRange> range = Optional.empty();
    if (scope == Scope.RANGE) {
      Optional<Repair> r = engine.repairs().current(spec).filter(x -> x.firstHour().isPresent());
      if (r.isEmpty()) {
        return "reconcile: no repair window yet";
      }
      range = Optional.of(new HourRange(r.get().firstHour().get(), r.get().firstHour().get().plusHours(1)));
    }
    var report = engine.reconciliations().reconcile(spec, scope, range, 1_000, Progress.NONE);
    return "reconcile " + scope + ": " + report.window() + " " + report.verdict();
  }

  private String acknowledge() {
    Optional<Repair> r = engine.repairs().current(spec).filter(x -> !x.phase().ended());
    List<HourPartition> open = incidents.stream().filter(h -> !acknowledged.contains(h)).toList();
    if (r.isEmpty() || open.isEmpty()) {
      return "ack: nothing to acknowledge";
    }
    HourPartition h = open.get(random.nextInt(open.size()));
    engine.reconciliations().acknowledge(spec, h, List.of(), "v1 appended this hour twice on a retry");
    ensureAcksBelongTo(r.get());
    acknowledged.add(h);
    return "ack: " + h;
  }

  private String loseAV2Hour() {
    HourPartition h = randomHour();
    world.sql.execute("lose", "ALTER TABLE visits_v2 DROP PARTITION ID '" + h.partitionId() + "'");
    return "lose: v2 hour " + h;
  }

  private String cutover() {
    boolean safe = safeToCutOver();
    var result = engine.cutovers().cutover(spec, "visits");
    if (!safe) {
      fail("the cutover swapped consumers to a history the oracle calls incomplete or unexplained\n" + String.join("\n",
          log));
    }
    return "cutover: " + result.verification();
  }

  /** Two processes swap at the same moment: at most one succeeds. */
  private String raceTwoProcesses() throws Exception {
    boolean toV2 = engine.cutovers().gate(spec).current() == Gate.Version.V1;
    boolean safe = !toV2 || safeToCutOver();
    List<String> outcomes = new CopyOnWriteArrayList<>();
    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (Engine e : List.of(engine, second)) {
      threads.add(Thread.ofPlatform().start(() -> {
        try {
          go.await();
          var s = toV2 ? e.cutovers().cutover(spec, "visits") : e.cutovers().rollback(spec, "visits");
          outcomes.add("swapped " + s.after());
        } catch (CutoverException refused) {
          outcomes.add("refused");
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    long swapped = outcomes.stream().filter(o -> o.startsWith("swapped")).count();
    assertTrue(swapped <= 1, "two processes both swapped: " + outcomes + "\n" + String.join("\n", log));
    if (swapped == 1 && toV2 && !safe) {
      fail("a racing cutover swapped consumers to a history the oracle calls incomplete\n" + String.join("\n", log));
    }
    return "race " + (toV2 ? "cutover" : "rollback") + ": " + outcomes;
  }

  /**
   * The oracle: v2 holds exactly the corrected history of every hour v1 holds, from v1's first hour
   * (not the repair's, which may start later) to the live edge, and every v1 incident in that window
   * is acknowledged in this repair.
   */
  private boolean safeToCutOver() {
    Optional<Repair> r = engine.repairs().current(spec).filter(x -> !x.phase().ended() && x.firstHour().isPresent());
    if (r.isEmpty()) {
      return false;
    }
    HourRange window = new HourRange(world.first, world.liveEdge.plusHours(1));
    if (!world.expected(window.from(), window.to()).equals(world.checksums("visits_v2", window.from(), window.to()))) {
      return false;
    }
    ensureAcksBelongTo(r.get());
    return incidents.stream().filter(window::contains).allMatch(acknowledged::contains);
  }

  private void ensureAcksBelongTo(Repair r) {
    if (!r.id().equals(repairOfAcks)) {
      acknowledged.clear(); // acknowledgements of an earlier repair do not carry over
      repairOfAcks = r.id();
    }
  }

  private void check(long seed, int step) {
    String where = " (seed " + seed + ", after action " + step + ")\n" + String.join("\n", log);
    Optional<Repair> r = engine.repairs().current(spec).filter(x -> !x.phase().ended());
    if (r.isPresent() && r.get().boundary().isPresent()) {
      HourPartition b = r.get().boundary().get();
      var fromB = store.hours().repairLedger(r.get().id()).keySet().stream().filter(h -> !h.isBefore(b)).toList();
      assertEquals(List.of(), fromB, "a backfill wrote hours at or after B = " + b + where);
      Map<HourPartition, String> now = world.checksums("visits_v2", b, world.liveEdge.plusHours(1));
      for (var written : liveWritten.entrySet()) {
        String data = now.getOrDefault(written.getKey(), "0:0");
        assertTrue(data.equals(written.getValue()) || data.equals("0:0"), "the live writer's hour " + written.getKey()
            + " holds " + data + ", not what it wrote (" + written.getValue() + ")" + where);
      }
    }
    ConsumerView view = new ConsumerView(world.sql, spec);
    Gate.Version reads = view.reads();
    assertTrue(reads != Gate.Version.UNKNOWN, "the consumer view reads one version" + where);
    view.handleReads().ifPresent(h -> assertEquals(reads == Gate.Version.V1 ? Gate.Version.V2 : Gate.Version.V1, h,
        "the rollback handle reads the other version" + where));
    Gate gate = engine.cutovers().gate(spec);
    if (gate.open() && !safeToCutOver()) {
      fail("the gate is open but v2 is not the whole corrected history with every difference explained: "
          + gate.conditions() + where);
    }
    Optional<Repair> latest = engine.repairs().current(spec);
    if (latest.isPresent() && latest.get().operation().isEmpty()) {
      boolean cutOver = latest.get().phase() == RepairPhase.CUT_OVER || latest.get().phase() == RepairPhase.V1_DROPPED;
      assertEquals(cutOver ? Gate.Version.V2 : Gate.Version.V1, reads, "the repair, " + latest.get().phase().words()
          + ", agrees with what consumers read" + where);
    }
  }

  private HourPartition randomHour() {
    return world.first.plusHours(random.nextInt((int) new HourRange(world.first, world.liveEdge.plusHours(1)).hours()));
  }
}
