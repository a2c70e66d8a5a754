package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process doing the console's reconciliation or cutover work is killed (SIGKILL) at random
 * points. After each kill: no half-written report is ever visible, the consumer view reads exactly
 * one version (its definition and its data agree), the swap log explains the state, and the gate,
 * cutover and rollback still work. {@code -Dcutover.reconcileKills=N} and {@code
 * -Dcutover.swapKills=N} set the numbers of kills (3 each by default; {@code -Psoak} raises them).
 */
class ConsoleKilledTest {

  @TempDir Path dir;
  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;
  private Path specFile;
  private Random random;
  private long seed;
  private HourPartition probeHour;
  private String v1;
  private String v2;

  @BeforeEach
  void reconciledWorld() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(ConsoleKilledTest.class), 3);
    spec = world.spec();
    specFile = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    engine = new Engine(world.db);
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
    assertEquals(RunState.SUCCEEDED, dev.cutover.engine.testing.Procedure.backfill(engine, plan).state());
    world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
    seed = Long.getLong("cutover.seed", System.nanoTime());
    random = new Random(seed);
    probeHour = world.busyHour(2);
    v1 = totals("visits_v1");
    v2 = totals("visits_v2");
    assertNotEquals(v1, v2, "the probe hour tells the versions apart");
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void killedWhileReconcilingLeavesNoHalfReportAndTheGateStillWorks() throws Exception {
    int kills = Integer.getInteger("cutover.reconcileKills", 3);
    long started = System.nanoTime();
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000).verdict());
    int window = (int) Math.max(300, 3 * (System.nanoTime() - started) / 1_000_000);
    System.out.println("[console-killed] reconcile: seed " + seed + ", " + kills + " kills within " + window + " ms");

    List<Integer> finishedBeforeKill = new ArrayList<>();
    for (int k = 0; k < kills; k++) {
      finishedBeforeKill.add(runAndKill("reconcile", window));
      assertEveryStoredReportIsComplete();
      assertEquals(Gate.Version.V1, readsNow(), "a reconciliation never moves consumers");
      Gate gate = engine.cutovers().gate(spec);
      assertTrue(gate.open(), "the gate after kill " + (k + 1) + ": " + gate.unmet());
    }
    long partial = world.sql.queryLong("count partial reports", "SELECT uniqExact(id) FROM reconciliation_hours "
        + "WHERE id NOT IN (SELECT id FROM reconciliations)");
    System.out.println("[console-killed] reconcile: reports finished before each kill " + finishedBeforeKill
        + ", partial reports left unread: " + partial);

    SwapResult cut = engine.cutovers().cutover(spec, "visits");
    assertTrue(cut.verification().startsWith("verified"), cut.verification());
    assertEquals(v2, totals("visits"));
    SwapResult back = engine.cutovers().rollback(spec, "visits");
    assertTrue(back.verification().startsWith("verified"), back.verification());
    assertEquals(v1, totals("visits"));
  }

  @Test
  void killedWhileSwappingLeavesConsumersOnExactlyOneVersion() throws Exception {
    int kills = Integer.getInteger("cutover.swapKills", 3);
    engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    long started = System.nanoTime();
    engine.cutovers().cutover(spec, "visits");
    engine.cutovers().rollback(spec, "visits");
    int window = (int) Math.max(300, 4 * (System.nanoTime() - started) / 1_000_000);
    System.out.println("[console-killed] swap: seed " + seed + ", " + kills + " kills within " + window + " ms");

    List<Integer> finishedBeforeKill = new ArrayList<>();
    int midSwap = 0;
    try (Readers readers = new Readers(world, probeHour, v1, v2, 2)) {
      for (int k = 0; k < kills; k++) {
        finishedBeforeKill.add(runAndKill("swap", window));
        Gate.Version now = readsNow();
        assertEquals(now == Gate.Version.V1 ? v1 : v2, totals("visits"), "the view's data agrees with its definition");
        midSwap += assertSwapLogExplains(now, k + 1) ? 0 : 1;
        // The operator's next step still works from wherever the kill left consumers.
        SwapResult next = now == Gate.Version.V2 ? engine.cutovers().rollback(spec, "visits") : engine.cutovers().cutover(spec, "visits");
        assertTrue(next.verification().startsWith("verified"), next.verification());
        assertEquals(next.after(), readsNow());
      }
      readers.assertClean();
    }
    System.out.println("[console-killed] swap: swaps finished before each kill " + finishedBeforeKill + ", kills "
        + "that left a swap requested but unverified: " + midSwap);
  }

  /** Starts a probe, waits until it works, kills it after a random delay; returns what it finished. */
  private int runAndKill(String mode, int window) throws Exception {
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", System.getProperty("java.class.path"),
        ConsoleProbe.class.getName(), TestEngine.server().jdbcUrl(), world.database, specFile.toString(), mode);
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    // destroyForcibly closes the pipe, so the probe's lines are read on a thread of their own.
    List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(1);
    Thread reader = Thread.ofVirtual().start(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          lines.add(line);
          ready.countDown();
        }
      } catch (java.io.IOException e) {
        // the pipe closes when the probe is killed
      }
      ready.countDown();
    });
    assertTrue(ready.await(60, TimeUnit.SECONDS), "the probe started");
    assertEquals("ready", lines.getFirst(), "the probe said " + lines);
    Thread.sleep(random.nextInt(window));
    p.destroyForcibly();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    reader.join(5_000);
    return lines.size() - 1;
  }

  /**
   * Every report with a header holds all its compared hour rows (the header counts the hours that had
   * rows in either version; an hour empty in both is stored with its class alone) and the counts of all
   * its differing keys (no
   * acknowledgement is made here, so the header's expected and unexpected keys add up to them): a
   * reader never sees half a report.
   */
  private void assertEveryStoredReportIsComplete() {
    List<String> incomplete = world.sql.query("compare headers with rows", "SELECT r.id, r.hours, h.n, "
            + "r.expected_keys + r.unexpected_keys, k.n FROM reconciliations AS r "
            + "LEFT JOIN (SELECT id, countIf(compared = 1) AS n FROM reconciliation_hours GROUP BY id) AS h ON h.id = r.id "
            + "LEFT JOIN (SELECT id, sum(keys) AS n FROM reconciliation_counts GROUP BY id) AS k ON k.id = r.id "
            + "WHERE r.hours != h.n OR r.expected_keys + r.unexpected_keys != k.n",
        rs -> rs.getString(1) + ": " + rs.getLong(2) + " hours in the header, " + rs.getLong(3) + " stored; "
            + rs.getLong(4) + " keys in the header, " + rs.getLong(5) + " stored");
    assertEquals(List.of(), incomplete);
    // One killed after its verdict, before its examples of explained keys followed, keeps the verdict and is not
    // listed (the kills come within minutes of it): every listed report is whole.
    List<String> whole = world.sql.query("list the whole reports", "SELECT id FROM reconciliations WHERE follows = 0 "
        + "OR id IN (SELECT id FROM reconciliation_completed)", rs -> rs.getString(1));
    List<String> listed = engine.reconciliations().stored(spec).stream().map(ReportSummary::id).toList();
    assertTrue(whole.containsAll(listed), "listed " + listed + ", whole " + whole);
    ReportSummary latest = engine.reconciliations().stored(spec).getFirst();
    assertEquals(latest.hours(), world.sql.queryLong("count the latest report's hours",
        "SELECT countIf(compared = 1) FROM reconciliation_hours WHERE id = ?", latest.id()), "the latest report " + latest.id());
    assertTrue(latest.hours() > 0);
  }

  /**
   * The swap log explains where consumers are: after a finished swap, they read its version; when
   * the last swap was only requested (the kill came around the exchange), either version is right.
   * The audit trail may lag the log by the swaps whose process died before writing it, no more.
   * Returns whether the last swap had finished.
   */
  private boolean assertSwapLogExplains(Gate.Version now, int killsSoFar) {
    List<ReportStore.SwapRecord> log = new ReportStore(world.sql, world.database).swaps(TableNames.target(spec));
    ReportStore.SwapRecord last = log.getLast();
    Gate.Version after = last.action().equals("cutover") ? Gate.Version.V2 : Gate.Version.V1;
    Gate.Version before = after == Gate.Version.V2 ? Gate.Version.V1 : Gate.Version.V2;
    boolean finished = log.stream().anyMatch(s -> s.at().equals(last.at()) && s.detail().startsWith("verified"));
    if (finished) {
      assertEquals(after, now, "the last swap finished: " + last);
    } else {
      assertTrue(now == after || now == before, "the last swap was requested: " + last);
    }
    long requested = log.stream().filter(s -> s.detail().startsWith("requested")).count();
    long verified = log.stream().filter(s -> s.detail().startsWith("verified")).count();
    long audited = engine.repairs().audit(TableNames.target(spec), 100_000).stream()
        .filter(a -> a.action().equals("cutover") || a.action().equals("rollback")).count();
    assertTrue(audited <= verified && verified <= requested && requested - audited <= killsSoFar,
        requested + " requested, " + verified + " verified, " + audited + " audited after " + killsSoFar + " kills");
    return finished;
  }

  /** What the consumer view reads by its definition; the rollback handle, once made, reads the other version. */
  private Gate.Version readsNow() {
    Gate.Version view = version("visits").orElseThrow();
    assertNotEquals(Gate.Version.UNKNOWN, view, "visits reads exactly one of visits_v1 and visits_v2");
    version("visits__next").ifPresent(handle ->
        assertEquals(view == Gate.Version.V1 ? Gate.Version.V2 : Gate.Version.V1, handle,
            "the rollback handle visits__next reads the other version"));
    return view;
  }

  private Optional<Gate.Version> version(String view) {
    return world.sql.query("read " + view, "SELECT as_select FROM system.tables WHERE database = ? AND name = ?",
        rs -> rs.getString(1), world.database, view).stream().findFirst().map(ConsoleKilledTest::reads);
  }

  private static Gate.Version reads(String query) {
    boolean readsV1 = dev.cutover.engine.repair.ConsumerView.mentions(query, "visits_v1");
    boolean readsV2 = dev.cutover.engine.repair.ConsumerView.mentions(query, "visits_v2");
    return readsV1 == readsV2 ? Gate.Version.UNKNOWN : readsV1 ? Gate.Version.V1 : Gate.Version.V2;
  }

  private String totals(String table) {
    return world.sql.queryOne("totals", "SELECT count(), sum(clicks), round(sum(duration_s), 6) FROM " + table
        + " WHERE hour = toDateTime(?, 'UTC')", rs -> rs.getLong(1) + "/" + rs.getLong(2) + "/" + rs.getDouble(3),
        probeHour.epochSecond());
  }
}
