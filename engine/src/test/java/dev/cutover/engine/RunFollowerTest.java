package dev.cutover.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.Subscription;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Following a run from its records tells what its driver's events tell: every hour written, the
 * state it ends in, and progress that reaches the whole plan, to a follower on another pool.
 */
class RunFollowerTest {

  private HourlyWorld world;
  private TableSpec spec;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(RunFollowerTest.class), 2);
    spec = world.spec();
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void aFollowerOnAnotherPoolHearsEveryHourTheEndAndTheWholeProgress() throws Exception {
    Engine driver = new Engine(world.db);
    // About 200 rows at 100 a second: two seconds of polls every 100 ms for the follower to see it running
    // (at 2,000 a second a clean-clone run ended before the follower's first poll).
    Plan plan = driver.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        driver.plans().defaults(spec).withRowsPerSecond(100));
    try (Database other = Database.open(world.db.profile())) {
      Engine watcher = new Engine(other);
      RunHandle run = Procedure.start(driver, plan);
      List<BackfillEvent> heard = new CopyOnWriteArrayList<>();
      CompletableFuture<RunState> ended = new CompletableFuture<>();
      try (Subscription following = watcher.backfills().follow(spec, run.id(), Duration.ofMillis(100), e -> {
        heard.add(e);
        if (e instanceof BackfillEvent.StateChanged s && !s.state().active()) {
          ended.complete(s.state());
        }
      })) {
        RunRecord done = run.await();
        assertEquals(RunState.SUCCEEDED, done.state(), done.message());
        assertEquals(RunState.SUCCEEDED, ended.get(30, TimeUnit.SECONDS), "the follower heard the run end");
      }
      Set<HourPartition> written = new TreeSet<>();
      heard.stream().filter(BackfillEvent.HourWritten.class::isInstance).map(BackfillEvent.HourWritten.class::cast)
          .forEach(h -> written.add(h.hour()));
      assertEquals(new TreeSet<>(plan.hours()), written, "every hour of the plan, as the ledger recorded it");
      BackfillEvent.Progress last = heard.stream().filter(BackfillEvent.Progress.class::isInstance)
          .map(BackfillEvent.Progress.class::cast).reduce((a, b) -> b).orElseThrow();
      assertEquals(plan.hours().size(), last.hoursDone(), "the last progress counts every hour done");
      assertEquals(0, last.hoursFailed());
      assertTrue(heard.stream().anyMatch(e -> e instanceof BackfillEvent.StateChanged s
          && s.state() == RunState.RUNNING), "the follower saw it running: " + heard.stream()
          .filter(BackfillEvent.StateChanged.class::isInstance).toList());
    }
  }
}
