package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A batch written straight into a target that never held its hours fails after its first INSERT
 * landed: the retry overwrites those hours whole, and no hour of v2 holds its rows twice.
 */
class DirectWriteRetryTest {

  private HourlyWorld world;
  private Engine engine;
  private StateStore store;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(DirectWriteRetryTest.class), 2);
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
   * server's MEMORY_LIMIT_EXCEEDED (241): a failure the run tries again.
   */
  private TableSpec failingSpec() {
    return SpecLoader.parse(world.specYaml().replace("GROUP BY hour, site", "AND throwIf(toStartOfHour(ts) IN "
        + "(SELECT h FROM fail_hours), 'planted failure', toInt32(241)) = 0 GROUP BY hour, site "
        + "SETTINGS allow_custom_error_code_in_throwif = 1"), "visits.yaml");
  }

  /**
   * Mutation guard: a retry that wrote straight into the target again, as the first try did, added the
   * hours that try had already inserted a second time. Batches of one hour, unthrottled, so that one
   * task writes a few batches one INSERT after the other into the fresh target; the second hour of the
   * first task fails once, after the first hour's INSERT landed in v2.
   */
  @Test
  void aRetryAfterAPartialWriteStraightIntoTheTargetLeavesEveryHourOnce() throws Exception {
    TableSpec spec = failingSpec();
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withConcurrency(1).withBatchHours(1).withRowsPerSecond(0).withRestPercent(0)
            .withMaxLiveLag(Duration.ZERO).withRetries(3, Duration.ZERO));
    HourPartition landed = plan.hours().get(0);
    HourPartition broken = plan.hours().get(1);
    assertTrue(world.busy(landed) && world.busy(broken), "both hours have rows");
    var cleared = Procedure.clear(engine, plan);
    world.sql.execute("plant", "INSERT INTO fail_hours VALUES (toDateTime(?, 'UTC'))", broken.epochSecond());

    // When the retry is announced: the batch it retries, and what v2 then holds of its first hour. The
    // failure is mended there, so that the retry succeeds.
    CopyOnWriteArrayList<BackfillEvent.Retrying> retries = new CopyOnWriteArrayList<>();
    AtomicLong landedBeforeRetry = new AtomicLong(-1);
    AtomicReference<RuntimeException> listenerFailed = new AtomicReference<>();
    RunRecord end = engine.backfills().start(cleared, e -> {
      if (e instanceof BackfillEvent.Retrying r) {
        try {
          if (retries.isEmpty()) {
            landedBeforeRetry.set(world.sql.queryLong("v2's first hour", "SELECT count() FROM visits_v2 "
                + "WHERE hour = toDateTime(?, 'UTC')", landed.epochSecond()));
            world.sql.execute("mend", "TRUNCATE TABLE fail_hours");
          }
          retries.add(r);
        } catch (RuntimeException x) {
          listenerFailed.set(x);
        }
      }
    }).await();
    assertNull(listenerFailed.get());
    assertEquals(RunState.SUCCEEDED, end.state(), end.message());

    Map<HourPartition, String> expected = world.expected(plan.range().from(), plan.range().to());
    assertEquals(1, retries.size(), retries.toString());
    assertTrue(retries.getFirst().hours().containsAll(List.of(landed, broken)), "one task wrote both hours: "
        + retries.getFirst().hours());
    assertTrue(retries.getFirst().error().startsWith("Could not compute hours " + broken + " to " + broken.plusHours(1)
        + " into visits_v2: Code: 241."), "the broken hour's own INSERT, straight into v2, failed: "
        + retries.getFirst().error());
    assertEquals(rows(expected.get(landed)), landedBeforeRetry.get(),
        "the first try had written its first hour straight into v2 when it failed");

    assertEquals(expected, world.checksums("visits_v2", plan.range().from(), plan.range().to()));
    TreeMap<HourPartition, LedgerEntry> ledger = store.hours().ledger(end.id());
    assertEquals(plan.hours(), List.copyOf(ledger.keySet()));
    for (LedgerEntry e : ledger.values()) {
      assertTrue(e.complete(), e.toString());
      assertEquals(rows(expected.get(e.hour())), e.rows(), "the ledger's rows of " + e.hour() + " are the transform's");
    }
    assertEquals(2, ledger.get(landed).attempts(), "the hour was written on the second try");
  }

  /** The rows of a checksum as {@link HourlyWorld#checksums} gives it; none for an hour it does not list. */
  private static long rows(String checksum) {
    return checksum == null ? 0 : Long.parseLong(checksum.substring(0, checksum.indexOf(':')));
  }
}
