package dev.cutover.engine.backfill;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A batch whose statement the server leaves silent past the bound while it answers a probe at once
 * (a statement that sends no progress) is tried as often as the run allows, then fails with the
 * sentence: it is never tried again without end.
 */
class SilentStatementTest {

  @Test
  void aBatchTheServerLeavesSilentWhileItAnswersFailsAfterItsAttempts() throws Exception {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(SilentStatementTest.class), 1);
    BackfillRun run = null;
    try {
      // Each hour's rows sleep in the block they were read in (40 rows, 2 s): nothing to report, nothing sent.
      TableSpec spec = SpecLoader.parse(world.specYaml().replace(" GROUP BY hour, site",
          " AND NOT ignore(sleepEachRow(0.05)) GROUP BY hour, site"), "visits.yaml");
      StateStore store = new StateStore(world.sql, world.database);
      BackfillSettings settings = BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(1)
          .withRetries(2, Duration.ofMillis(100));
      HourPartition from = world.busyHour(2);
      Plan plan = new Planner(RepairContext.of(world.sql, store, spec)).plan(Optional.of(from), Optional.of(from.plusHours(2)),
          Optional.empty(), settings, false);
      List<BackfillEvent> events = new CopyOnWriteArrayList<>();
      run = new Backfill(world.sql.silentAtMost(Duration.ofSeconds(1)), store).start(plan, events::add);

      RunRecord end = run.completion().get(90, TimeUnit.SECONDS);

      assertEquals(RunState.FAILED, end.state(), end.message());
      var failed = events.stream().filter(e -> e instanceof BackfillEvent.HourFailed)
          .map(e -> (BackfillEvent.HourFailed) e).toList();
      assertEquals(plan.hours(), failed.stream().map(BackfillEvent.HourFailed::hour).toList());
      assertTrue(failed.stream().allMatch(f -> f.error().startsWith("Could not compute hours ")
          && f.error().contains(": the server sent nothing for 1 s, not even progress")), failed.toString());
      var ledger = store.hours().ledger(end.id());
      assertTrue(ledger.values().stream().allMatch(e -> e.state() == LedgerEntry.State.FAILED && e.attempts() == 2),
          ledger.toString());
    } finally {
      if (run != null) {
        run.cancel();
      }
      world.db.close();
    }
  }
}
