package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Statements;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The live job on the real engine, on a small world with two days of history ending Monday 09:00 UTC. */
class LiveJobTest {

  private static final Instant END = Instant.parse("2026-11-30T09:00:00Z");
  private static final SeedOptions OPTIONS = new SeedOptions(11, 0.05, 2, END);

  private final List<AutoCloseable> open = new ArrayList<>();
  private Database database;
  private DemoWorld world;
  private Sql sql;
  private WorldChecks checks;

  @BeforeEach
  void seed() {
    database = track(TestEngine.freshDatabase(LiveJobTest.class));
    world = DemoWorld.in(database.profile().database());
    sql = new Sql(Statements.over(database));
    checks = new WorldChecks(sql, world);
    new Seeder(Statements.over(database), world).seed(OPTIONS, SeedProgress.NONE);
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  @Test
  void closesEachHourOnceInOrderWithTheDataASeedWouldHaveWritten() {
    LiveJob job = track(LiveJob.open(Statements.over(database), world, LiveOptions.defaults()));
    List<LiveStep> steps = new ArrayList<>();
    for (int i = 0; i < 13; i++) {
      steps.add(job.step());
    }
    // Hour H closes at H + 1h + 10 min (the allowed lateness): two hours closed in 13 steps.
    assertEquals(END.plus(Duration.ofMinutes(140)), job.state().clock());
    assertEquals(END.plus(Hours.ONE.multipliedBy(2)), job.state().watermark());
    assertEquals(List.of(END, END.plus(Hours.ONE)), checks.writes(PnlVersion.V1, "live-"));
    assertEquals(Instant.parse("2026-11-30T10:10:00Z"), steps.get(5).to());
    assertEquals(List.of(END), steps.get(5).written().stream().map(HourWrite::hour).toList(), "closed at 10:10");
    assertTrue(steps.subList(0, 5).stream().allMatch(s -> s.written().isEmpty()));
    assertEquals(checks.count(world.trades().sql()),
        sql.queryLong("ids", "SELECT uniqExact(trade_id) FROM " + world.trades().sql()), "no trade twice");
    assertEquals("", job.state().writer(), "a step by hand releases the world");

    // A world seeded two hours later holds the same trades, marks and v1 rows for those hours:
    // what the live job inserts ten minutes at a time, late trades included, is what a seed writes.
    // (With three days of history, that world's incident hour is more than a day before these.)
    Database later = track(TestEngine.freshDatabase(LiveJobTest.class));
    DemoWorld laterWorld = DemoWorld.in(later.profile().database());
    SeedResult laterSeed = new Seeder(Statements.over(later), laterWorld).seed(new SeedOptions(11, 0.05, 3,
        END.plus(Hours.ONE.multipliedBy(2))), SeedProgress.NONE);
    assertTrue(laterSeed.state().incidentHour().orElseThrow().isBefore(END.minus(Hours.ONE.multipliedBy(20))));
    WorldChecks laterChecks = new WorldChecks(new Sql(Statements.over(later)), laterWorld);
    long h0 = END.getEpochSecond();
    long h1 = h0 + 3600;
    assertEquals(pick(laterChecks.checksums(laterWorld.trades(), "event_time"), h0, h1),
        pick(checks.checksums(world.trades(), "event_time"), h0, h1));
    assertEquals(pick(laterChecks.checksums(laterWorld.pnlV1(), "hour"), h0, h1),
        pick(checks.checksums(world.pnlV1(), "hour"), h0, h1));
    assertEquals(pick(laterChecks.checksums(laterWorld.marks(), "mark_time"), h1, h1 + 3600),
        pick(checks.checksums(world.marks(), "mark_time"), h1, h1 + 3600));

    LiveEdges edges = LiveEdges.read(Statements.over(database), world);
    assertEquals(END.plus(Hours.ONE.multipliedBy(2)), edges.v1End().orElseThrow());
    assertTrue(edges.newestEvent().orElseThrow().isAfter(END.plus(Duration.ofMinutes(130))));
    assertTrue(edges.v1Lag().orElseThrow().compareTo(Duration.ofMinutes(20)) < 0, edges.toString());
    assertTrue(edges.v2End().isEmpty());
  }

  @Test
  void deployedV2IsWrittenForEveryHourFromTheBoundaryAndNeverBefore() {
    LiveJob job = track(LiveJob.open(Statements.over(database), world, LiveOptions.defaults()));
    for (int i = 0; i < 6; i++) {
      job.step();
    }
    Instant watermark = job.state().watermark();
    Instant boundary = watermark.minus(Hours.ONE.multipliedBy(3));
    assertEquals(END.minus(Hours.ONE.multipliedBy(2)), boundary, "the boundary may lie in the seeded history");

    var refusedHalfHour = assertThrows(InvalidInputException.class,
        () -> job.deployV2(boundary.plus(Duration.ofMinutes(30))));
    assertEquals("The boundary 2026-11-30T07:30 is not on the hour; give a whole UTC hour such as 2026-11-30T07:00.",
        refusedHalfHour.getMessage());
    assertTrue(job.state().v2From().isEmpty(), "nothing written for a refused boundary");
    assertEquals(Optional.empty(), DemoStatus.v2From(Statements.over(database), world));

    V2Deployment deployment = job.deployV2(boundary);
    assertTrue(deployment.newlyDeployed());
    // What the console reads to stop offering the deployment, from any process, before the job wrote an hour of v2.
    assertEquals(Optional.of(boundary), DemoStatus.v2From(Statements.over(database), world));
    assertEquals(3, deployment.hoursToCatchUp());
    assertFalse(job.deployV2(boundary).newlyDeployed(), "the same boundary again changes nothing");
    var moved = assertThrows(InvalidInputException.class, () -> job.deployV2(boundary.plus(Hours.ONE)));
    assertEquals("v2 is already deployed from 2026-11-30T07:00; the live writer's boundary never moves, so deploy "
        + "again from 2026-11-30T07:00 or reset the demo world to choose another.", moved.getMessage());

    LiveStep catchUp = job.step();
    assertEquals(List.of(boundary, boundary.plus(Hours.ONE), boundary.plus(Hours.ONE.multipliedBy(2))),
        catchUp.written().stream().filter(w -> w.version() == PnlVersion.V2).map(HourWrite::hour).toList(),
        "first the closed hours from B, in order");
    for (int i = 0; i < 12; i++) {
      job.step();
    }
    Instant lastClosed = job.state().watermark().minus(Hours.ONE);
    List<Instant> v2Hours = checks.writes(PnlVersion.V2, "live-");
    List<Instant> expected = new ArrayList<>();
    for (Instant h = boundary; !h.isAfter(lastClosed); h = h.plus(Hours.ONE)) {
      expected.add(h);
    }
    assertEquals(expected, v2Hours, "every hour from B once, in order");
    assertEquals(0, checks.count(world.pnlV2().sql() + " WHERE hour < toDateTime(?, 'UTC')", boundary.getEpochSecond()));
    assertEquals(0, checks.count(world.writes().sql() + " WHERE version = 'v2' AND hour < toDateTime(?, 'UTC')",
        boundary.getEpochSecond()));

    // v2 holds exactly what the corrected transform computes for those hours.
    TableName fresh = TableName.of(world.database(), "fresh_v2");
    checks.compute(PnlVersion.V2, fresh, boundary, job.state().watermark());
    assertEquals(checks.checksums(fresh, "hour"), checks.checksums(world.pnlV2(), "hour"));
    assertEquals(job.state().watermark(), LiveEdges.read(Statements.over(database), world).v2End().orElseThrow());
  }

  @Test
  void resumesAfterAStopWithNoGapAndNoHourTwice() throws InterruptedException {
    CountDownLatch eightSteps = new CountDownLatch(8);
    LiveJob first = LiveJob.open(Statements.over(database), world, new LiveOptions(Duration.ofMillis(600), step -> eightSteps.countDown(),
        failure -> { throw new AssertionError(failure); }));
    first.start();
    assertTrue(first.running());
    assertTrue(eightSteps.await(30, TimeUnit.SECONDS), "eight steps in the background");
    first.stop();
    assertFalse(first.running());
    assertEquals(null, first.failure());
    DemoState stopped = first.state();
    assertEquals("", stopped.writer(), "a clean stop releases the world");
    assertFalse(stopped.clock().isBefore(END.plus(Duration.ofMinutes(90))), "at least eight steps: " + stopped.clock());

    // A relaunch (a new job, as another process would be) continues from the stopped clock.
    LiveJob second = track(LiveJob.open(Statements.over(database), world, LiveOptions.defaults()));
    assertEquals(stopped.clock(), second.state().clock());
    for (int i = 0; i < 7; i++) {
      second.step();
    }
    assertEquals(stopped.clock().plus(Duration.ofMinutes(70)), second.state().clock());
    List<Instant> live = checks.writes(PnlVersion.V1, "live-");
    List<Instant> expected = new ArrayList<>();
    for (Instant h = END; h.isBefore(second.state().watermark()); h = h.plus(Hours.ONE)) {
      expected.add(h);
    }
    assertEquals(expected, live, "consecutive from the live start, once each");
    assertTrue(live.size() >= 2);
    Map<String, Long> writers = sql.query("writers", "SELECT writer, count() FROM " + world.writes().sql()
        + " WHERE startsWith(writer, 'live-') GROUP BY writer", rs -> Map.entry(rs.string(1), rs.number(2)))
        .stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    assertEquals(2, writers.size(), "both runs wrote hours: " + writers);
    assertEquals(checks.count(world.trades().sql()),
        sql.queryLong("ids", "SELECT uniqExact(trade_id) FROM " + world.trades().sql()), "no trade twice");
  }

  @Test
  void aRetriedWindowWritesNothingTwice() {
    DemoState state = LiveJob.open(Statements.over(database), world, LiveOptions.defaults()).state();
    Generator generator = new Generator(sql, world, state.seed(), state.scale(), false);
    Instant from = state.clock();
    generator.arrivals(from, from.plus(DemoState.TICK), "live-" + from.getEpochSecond());
    long trades = checks.count(world.trades().sql());
    long marks = checks.count(world.marks().sql());
    generator.arrivals(from, from.plus(DemoState.TICK), "live-" + from.getEpochSecond());
    assertEquals(trades, checks.count(world.trades().sql()));
    assertEquals(marks, checks.count(world.marks().sql()));
  }

  @Test
  void onlyOneLiveJobWritesTheWorldAtATime() {
    LiveJob running = track(LiveJob.open(Statements.over(database), world, LiveOptions.defaults()));
    LiveJob other = track(LiveJob.open(Statements.over(database), world, LiveOptions.defaults()));
    running.start();
    var refused = assertThrows(InvalidInputException.class, other::step);
    assertTrue(refused.getMessage().startsWith("Another live job (" + running.id() + ") is writing the demo world"),
        refused.getMessage());
    running.stop();
    other.step();
  }

  @Test
  void aHoldLeftByAProcessThatIsGoneDoesNotBlockARelaunch() throws Exception {
    LiveJob job = track(LiveJob.open(Statements.over(database), world, LiveOptions.defaults()));
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String host = job.id().substring(job.id().indexOf('@') + 1, job.id().lastIndexOf('-'));
    String stale = "live-" + gone.pid() + "@" + host + "-0badc0de";
    new StateStore(sql, world).write(Map.of(DemoState.WRITER, stale,
        DemoState.WRITER_UNTIL, DemoState.value(Instant.now().plus(Duration.ofHours(1)))));
    assertFalse(LiveJob.isHeld(job.state(), Instant.now()), "its process is gone");
    assertEquals(END.plus(Duration.ofMinutes(20)), job.step().to(), "the relaunch stepped");

    String alive = "live-" + ProcessHandle.current().pid() + "@" + host + "-0badc0de";
    new StateStore(sql, world).write(Map.of(DemoState.WRITER, alive,
        DemoState.WRITER_UNTIL, DemoState.value(Instant.now().plus(Duration.ofHours(1)))));
    assertTrue(LiveJob.isHeld(job.state(), Instant.now()));
    assertThrows(InvalidInputException.class, job::step);
  }

  private static Map<Long, Long> pick(Map<Long, Long> sums, long... hours) {
    Map<Long, Long> picked = new java.util.TreeMap<>();
    for (long h : hours) {
      picked.put(h, sums.get(h));
    }
    return picked;
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.add(closeable);
    return closeable;
  }
}
