package dev.cutover.ui.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.tasks.ImmediateTaskExecutor;
import java.util.Optional;
import javafx.beans.property.SimpleObjectProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The banner's model on a real world, without a window: what it says before, during and after a failed read. */
class RepairWatchTest {

  private HourlyWorld world;
  private Engine engine;
  private TableSpec spec;
  private ImmediateTaskExecutor executor;
  private SimpleObjectProperty<Engine> engineProperty;
  private SimpleObjectProperty<TableSpec> specProperty;
  private RepairWatch watch;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(RepairWatchTest.class), 2);
    engine = new Engine(TestEngine.session().database());
    spec = world.spec();
    executor = new ImmediateTaskExecutor();
    engineProperty = new SimpleObjectProperty<>();
    specProperty = new SimpleObjectProperty<>();
    watch = new RepairWatch(executor, engineProperty, specProperty);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void readsWhenTheSpecArrivesAfterEveryRefreshAndOnItsTimer() throws Exception {
    assertEquals("", watch.repairProperty().get(), "nothing to say before a spec is loaded");
    engineProperty.set(engine);
    specProperty.set(spec);
    assertEquals("no repair yet", watch.phaseProperty().get());
    assertEquals("none", watch.toneProperty().get());
    assertEquals("No repair of " + world.database + ".visits_v2 yet: its first backfill pins the boundary B.",
        watch.repairProperty().get());
    assertEquals("Plan: Run preflight, then Backfill: Start", watch.nextButtonProperty().get());
    assertEquals("On the command line: ./cutover backfill --spec SPEC", watch.nextCommandProperty().get());
    assertTrue(watch.asOfProperty().get().matches("as of \\d\\d:\\d\\d:\\d\\d UTC"), watch.asOfProperty().get());

    HourPartition b = world.liveEdge.plusHours(-3);
    Plan plan = engine.plans().plan(spec, Optional.of(b.plusHours(-12)), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    Procedure.backfill(engine, plan);
    assertEquals("no repair yet", watch.phaseProperty().get(), "not read again by itself");
    watch.start();
    assertEquals(1, executor.liveTicks());
    executor.tick();
    assertEquals("backfilled", watch.phaseProperty().get());
    assertEquals("working", watch.toneProperty().get());
    assertTrue(watch.repairProperty().get().contains(" · B = " + b + " UTC · history from " + b.plusHours(-12)
        + " UTC"), watch.repairProperty().get());
    assertEquals("Backfill: Deploy the corrected writer", watch.nextButtonProperty().get());
    assertEquals("This step happens outside Cutover.", watch.nextCommandProperty().get());
    watch.stop();
    assertEquals(0, executor.liveTicks());
  }

  @Test
  void whenTheDataCannotBeReadThePhaseIsTheRecordsAndTheFailureIsSaid() {
    engineProperty.set(engine);
    specProperty.set(spec);
    assertEquals("no repair yet", watch.phaseProperty().get());

    world.sql.execute("a source goes away", "RENAME TABLE clicks TO clicks_moved");
    try {
      watch.refresh();
      assertNull(watch.statusProperty().get(), "what was read before is not shown as current");
      assertEquals("no repair yet", watch.phaseProperty().get(), "the state record, read now");
      assertTrue(watch.problemProperty().get().startsWith("Read the repair's record, but not its data: "),
          watch.problemProperty().get());
      assertTrue(watch.problemProperty().get().endsWith(watch.errorProperty().get()));
      assertEquals("", watch.nextButtonProperty().get(), "no next step without the data");
      assertEquals("", watch.verdictProperty().get());
      assertTrue(watch.asOfProperty().get().matches("record as of \\d\\d:\\d\\d:\\d\\d UTC"),
          watch.asOfProperty().get());
    } finally {
      world.sql.execute("the source comes back", "RENAME TABLE clicks_moved TO clicks");
    }
    watch.refresh();
    assertEquals("no repair yet", watch.phaseProperty().get());
    assertEquals("", watch.errorProperty().get());
    assertEquals("", watch.problemProperty().get());
    assertTrue(watch.statusProperty().get() != null);
  }

  @Test
  void aFailedReadShowsItsSentenceAndNoPhase() {
    Database gone = TestEngine.freshDatabase(RepairWatchTest.class);
    Engine unreachable = new Engine(gone);
    gone.close();
    engineProperty.set(unreachable);
    specProperty.set(spec);
    assertNull(watch.statusProperty().get());
    assertEquals("unknown", watch.phaseProperty().get());
    assertEquals("unknown", watch.toneProperty().get());
    assertTrue(!watch.errorProperty().get().isEmpty());
    assertEquals(watch.errorProperty().get(), watch.problemProperty().get());
    assertEquals("", watch.repairProperty().get(), "no repair is named as if it were known");
    assertEquals("", watch.nextButtonProperty().get());
    assertTrue(watch.asOfProperty().get().startsWith("could not read at "), watch.asOfProperty().get());

    engineProperty.set(engine);
    assertEquals("no repair yet", watch.phaseProperty().get(), "a new connection reads again");
    assertEquals("", watch.problemProperty().get());
  }

  @Test
  void anotherSpecForgetsWhatWasReadForTheFirst() {
    engineProperty.set(engine);
    specProperty.set(spec);
    assertTrue(watch.statusProperty().get() != null);
    specProperty.set(null);
    assertNull(watch.statusProperty().get());
    assertEquals("", watch.repairProperty().get());
    assertEquals("", watch.asOfProperty().get());
  }
}
