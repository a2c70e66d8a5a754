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
    assertEquals("", watch.panels().repairProperty().get(), "nothing to say before a spec is loaded");
    engineProperty.set(engine);
    specProperty.set(spec);
    assertEquals("no repair yet", watch.panels().phaseProperty().get());
    assertEquals("none", watch.panels().toneProperty().get());
    assertEquals("No repair of " + world.database + ".visits_v2 yet: its first backfill pins the boundary B.",
        watch.panels().repairProperty().get());
    assertEquals("Plan: Run preflight, then Backfill: Start", watch.panels().nextButtonProperty().get());
    assertEquals("On the command line: ./cutover backfill --spec SPEC", watch.panels().nextCommandProperty().get());
    assertTrue(watch.panels().asOfProperty().get().matches("as of \\d\\d:\\d\\d:\\d\\d UTC"), watch.panels().asOfProperty().get());

    HourPartition b = world.liveEdge.plusHours(-3);
    Plan plan = engine.plans().plan(spec, Optional.of(b.plusHours(-12)), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    Procedure.backfill(engine, plan);
    assertEquals("no repair yet", watch.panels().phaseProperty().get(), "not read again by itself");
    watch.start();
    assertEquals(1, executor.liveTicks());
    executor.tick();
    assertEquals("backfilled", watch.panels().phaseProperty().get());
    assertEquals("working", watch.panels().toneProperty().get());
    assertTrue(watch.panels().repairProperty().get().contains(" · B = " + b + " UTC · history from " + b.plusHours(-12)
        + " UTC"), watch.panels().repairProperty().get());
    assertEquals("Backfill: Deploy the corrected writer", watch.panels().nextButtonProperty().get());
    assertEquals("This step happens outside Cutover.", watch.panels().nextCommandProperty().get());
    watch.stop();
    assertEquals(0, executor.liveTicks());
  }

  @Test
  void whenTheDataCannotBeReadThePhaseIsTheRecordsAndTheFailureIsSaid() {
    engineProperty.set(engine);
    specProperty.set(spec);
    assertEquals("no repair yet", watch.panels().phaseProperty().get());

    world.sql.execute("a source goes away", "RENAME TABLE clicks TO clicks_moved");
    try {
      watch.refresh();
      assertNull(watch.statusProperty().get(), "what was read before is not shown as current");
      assertEquals("no repair yet", watch.panels().phaseProperty().get(), "the state record, read now");
      assertTrue(watch.panels().problemProperty().get().startsWith("Read the repair's record, but not its data: "),
          watch.panels().problemProperty().get());
      assertTrue(watch.panels().problemProperty().get().endsWith(watch.errorProperty().get()));
      assertEquals("", watch.panels().nextButtonProperty().get(), "no next step without the data");
      assertEquals("", watch.panels().verdictProperty().get());
      assertTrue(watch.panels().asOfProperty().get().matches("record as of \\d\\d:\\d\\d:\\d\\d UTC"),
          watch.panels().asOfProperty().get());
    } finally {
      world.sql.execute("the source comes back", "RENAME TABLE clicks_moved TO clicks");
    }
    watch.refresh();
    assertEquals("no repair yet", watch.panels().phaseProperty().get());
    assertEquals("", watch.errorProperty().get());
    assertEquals("", watch.panels().problemProperty().get());
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
    assertEquals("unknown", watch.panels().phaseProperty().get());
    assertEquals("unknown", watch.panels().toneProperty().get());
    assertTrue(!watch.errorProperty().get().isEmpty());
    assertEquals(watch.errorProperty().get(), watch.panels().problemProperty().get());
    assertEquals("", watch.panels().repairProperty().get(), "no repair is named as if it were known");
    assertEquals("", watch.panels().nextButtonProperty().get());
    assertTrue(watch.panels().asOfProperty().get().startsWith("could not read at "), watch.panels().asOfProperty().get());

    engineProperty.set(engine);
    assertEquals("no repair yet", watch.panels().phaseProperty().get(), "a new connection reads again");
    assertEquals("", watch.panels().problemProperty().get());
  }

  @Test
  void anotherSpecForgetsWhatWasReadForTheFirst() {
    engineProperty.set(engine);
    specProperty.set(spec);
    assertTrue(watch.statusProperty().get() != null);
    specProperty.set(null);
    assertNull(watch.statusProperty().get());
    assertEquals("", watch.panels().repairProperty().get());
    assertEquals("", watch.panels().asOfProperty().get());
  }
}
