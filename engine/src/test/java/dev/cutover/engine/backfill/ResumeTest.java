package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stopped run resumes with what it was given, and writes every hour its ledger does not hold as done. */
class ResumeTest {

  @TempDir Path dir;
  private HourlyWorld world;
  private Engine engine;
  private StateStore store;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(ResumeTest.class), 2);
    engine = new Engine(world.db);
    store = new StateStore(world.sql, world.database);
    world.sql.execute("failures", "CREATE TABLE fail_hours (h DateTime('UTC')) ENGINE = Memory");
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  /** The world's spec, with a transform that fails for the hours listed in {@code fail_hours}. */
  private TableSpec failingSpec() {
    return SpecLoader.parse(world.specYaml().replace("GROUP BY hour, site", "AND throwIf(toStartOfHour(ts) IN "
        + "(SELECT h FROM fail_hours)) = 0 GROUP BY hour, site"), "visits.yaml");
  }

  /**
   * Mutation guards: a resume that skipped hours the ledger marks failed, or that started after the
   * ledger's last hour, left those hours out of v2. One run, one batch of one hour at a time; an hour
   * in the middle fails; the resumed run writes it and everything after, and v2 equals a run that
   * never failed.
   */
  @Test
  void aResumeWritesTheFailedHourAndEveryHourAfterIt() throws Exception {
    TableSpec spec = failingSpec();
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(1).withRetries(1,
            java.time.Duration.ZERO));
    // An hour with rows: the transform fails only on rows of the hour, and the world leaves some hours empty.
    HourPartition broken = world.busyHour(plan.hours().size() / 2);
    // The preflight runs before the failure is planted: it checksums a sample hour, which may be the broken one.
    var cleared = Procedure.clear(engine, plan);
    world.sql.execute("plant", "INSERT INTO fail_hours VALUES (toDateTime(?, 'UTC'))", broken.epochSecond());
    RunRecord failed = engine.backfills().start(cleared, dev.cutover.engine.api.BackfillEvent.Listener.NONE).await();
    assertEquals(RunState.FAILED, failed.state(), failed.message());
    java.util.TreeMap<HourPartition, LedgerEntry> ledger = store.hours().ledger(failed.id());
    assertEquals(LedgerEntry.State.FAILED, ledger.get(broken).state());
    assertEquals(broken, ledger.lastKey(), "the run stopped at the failed hour");

    world.sql.execute("mend", "TRUNCATE TABLE fail_hours");
    Plan resumed = engine.plans().planResume(spec, failed.id(), UnaryOperator.identity());
    RunRecord end = Procedure.backfill(engine, resumed);
    assertEquals(RunState.SUCCEEDED, end.state(), end.message());
    assertEquals(failed.id(), end.id());
    assertEquals(world.expected(plan.range().from(), plan.range().to()),
        world.checksums("visits_v2", plan.range().from(), plan.range().to()));
    assertTrue(store.hours().ledger(end.id()).values().stream().allMatch(LedgerEntry::complete));
  }

  /**
   * Finding 8: a run started at one hour per batch and 3,000 rows/s resumed at the spec's 6 hours and
   * no limit. A resume keeps what the run was given, unless told otherwise.
   */
  @Test
  void aResumeKeepsTheRunsThrottleUnlessToldOtherwise() throws Exception {
    TableSpec spec = world.spec();
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withBatchHours(1).withRowsPerSecond(3000).withConcurrency(1));
    var run = Procedure.start(engine, plan);
    run.cancel();
    RunRecord cancelled = run.await();
    assertEquals(RunState.CANCELLED, cancelled.state(), cancelled.message());

    Plan kept = engine.plans().planResume(spec, cancelled.id(), UnaryOperator.identity());
    assertEquals(1, kept.settings().batchHours());
    assertEquals(3000, kept.settings().rowsPerSecond());
    assertEquals(1, kept.settings().concurrency());
    assertEquals(Optional.of(cancelled.id()), kept.resumes());
    assertEquals(plan.range(), kept.range());

    Plan changed = engine.plans().planResume(spec, cancelled.id(), s -> s.withRowsPerSecond(0));
    assertEquals(0, changed.settings().rowsPerSecond(), "told otherwise");
    assertEquals(1, changed.settings().batchHours(), "the rest as it was");
    RunRecord end = Procedure.backfill(engine, changed);
    assertEquals(RunState.SUCCEEDED, end.state());
    assertEquals(0, engine.plans().runSettings(spec, engine.backfills().run(end.id()).orElseThrow()).rowsPerSecond(),
        "the run's record keeps the throttle it now runs with");
  }

  /**
   * Finding 8, the second part: status showed a killed run as "running" for as long as one cared to
   * look. A run whose process is gone is interrupted, and the next step is to resume it.
   */
  @Test
  void aRunWhoseProcessWasKilledShowsAsInterruptedAndTheNextStepResumesIt() throws Exception {
    TableSpec spec = world.spec();
    Path specFile = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", System.getProperty("java.class.path"),
        BackfillProbe.class.getName(), TestEngine.server().jdbcUrl(), world.database, specFile.toString(), "start")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String runId;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(probe.getInputStream()))) {
      String first = out.readLine();
      assertTrue(first != null && first.startsWith("run "), "probe said " + first);
      runId = first.substring(4);
      probe.destroyForcibly();
      assertTrue(probe.waitFor(30, TimeUnit.SECONDS));
    }
    RunRecord killed = store.run(runId).orElseThrow();
    assertEquals(RunState.RUNNING, killed.state(), "its last recorded state");
    assertEquals("interrupted", killed.shownState(Instant.now()));
    RepairStatus status = engine.repairs().status(spec);
    assertEquals(RepairStatus.Kind.RESUME, status.next().kind(), status.next().sentence());
    assertEquals(dev.cutover.engine.api.RepairStatus.Kind.RESUME, status.next().kind());
    assertEquals(runId, status.next().runId(), "the run to resume");
    assertTrue(status.repair().orElseThrow().operation().isEmpty(), "the dead run's hold was settled");
    assertEquals(RunState.SUCCEEDED, Procedure.backfill(engine, engine.plans().planResume(spec, runId,
        UnaryOperator.identity())).state());
    List<RunRecord> runs = engine.backfills().runs(spec);
    assertEquals(1, runs.size());
  }
}
