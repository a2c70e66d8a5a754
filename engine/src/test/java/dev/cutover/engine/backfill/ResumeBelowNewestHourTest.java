package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run whose ledger holds done hours above an hour that failed: the resume writes the failed hour,
 * not only the hours after the newest one done, and no done hour a second time.
 */
class ResumeBelowNewestHourTest {

  private HourlyWorld world;
  private Engine engine;
  private StateStore store;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(ResumeBelowNewestHourTest.class), 2);
    engine = new Engine(world.db);
    store = new StateStore(world.sql, world.database);
    world.sql.execute("failures", "CREATE TABLE fail_hours (h DateTime('UTC')) ENGINE = Memory");
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  /**
   * The world's spec, with a transform that fails for the hours listed in {@code fail_hours} with the
   * server's MEMORY_LIMIT_EXCEEDED (241): a failure a later try may cure. A batch that gives up on it
   * fails alone, and the run goes on with every other batch, so the ledger holds done hours after the
   * failed one whatever order the batches end in.
   */
  private TableSpec failingSpec() {
    return SpecLoader.parse(world.specYaml().replace("GROUP BY hour, site", "AND throwIf(toStartOfHour(ts) IN "
        + "(SELECT h FROM fail_hours), 'planted failure', toInt32(241)) = 0 GROUP BY hour, site "
        + "SETTINGS allow_custom_error_code_in_throwif = 1"), "visits.yaml");
  }

  /**
   * Mutation guard: a resume that wrote only the hours after the newest hour its ledger holds as done
   * left the failed hour, below it, out of v2 for good.
   */
  @Test
  void aResumeWritesAFailedHourBelowTheNewestDoneHourAndNothingElse() throws Exception {
    TableSpec spec = failingSpec();
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withConcurrency(2).withBatchHours(2).withRetries(1, Duration.ZERO));
    HourPartition broken = world.busyHour(3);
    // The preflight runs before the failure is planted: it computes a sample hour, which may be the broken one.
    var cleared = Procedure.clear(engine, plan);
    world.sql.execute("plant", "INSERT INTO fail_hours VALUES (toDateTime(?, 'UTC'))", broken.epochSecond());
    RunRecord failed = engine.backfills().start(cleared, BackfillEvent.Listener.NONE).await();
    assertEquals(RunState.FAILED, failed.state(), failed.message());

    TreeMap<HourPartition, LedgerEntry> before = store.hours().ledger(failed.id());
    assertEquals(plan.hours(), List.copyOf(before.keySet()), "the run went on past the failed batch to every hour");
    TreeSet<HourPartition> undone = new TreeSet<>(before.values().stream().filter(e -> !e.complete())
        .map(LedgerEntry::hour).toList());
    assertTrue(undone.contains(broken), "the broken hour failed: " + before.get(broken));
    HourPartition newestDone = before.descendingMap().values().stream().filter(LedgerEntry::complete).findFirst()
        .orElseThrow().hour();
    assertTrue(undone.last().isBefore(newestDone), "a done hour " + newestDone + " lies above the failed hours "
        + undone);

    world.sql.execute("mend", "TRUNCATE TABLE fail_hours");
    ConcurrentLinkedQueue<HourPartition> rewritten = new ConcurrentLinkedQueue<>();
    Plan resumed = engine.plans().planResume(spec, failed.id(), UnaryOperator.identity());
    RunRecord end = engine.backfills().start(Procedure.clear(engine, resumed), e -> {
      if (e instanceof BackfillEvent.HourWritten w) {
        rewritten.add(w.hour());
      }
    }).await();
    assertEquals(RunState.SUCCEEDED, end.state(), end.message());
    assertEquals(failed.id(), end.id());
    assertEquals(List.copyOf(undone), rewritten.stream().sorted().toList(),
        "the resume wrote the failed hours, each once, and none the first session had written");

    Map<HourPartition, String> expected = world.expected(plan.range().from(), plan.range().to());
    assertEquals(expected, world.checksums("visits_v2", plan.range().from(), plan.range().to()));
    TreeMap<HourPartition, LedgerEntry> after = store.hours().ledger(end.id());
    assertEquals(plan.hours(), List.copyOf(after.keySet()));
    for (LedgerEntry e : after.values()) {
      assertTrue(e.complete(), e.toString());
      String hour = expected.get(e.hour());
      assertEquals(hour == null ? 0 : Long.parseLong(hour.substring(0, hour.indexOf(':'))), e.rows(),
          "the ledger's rows of " + e.hour() + " are the transform's");
    }
  }
}
