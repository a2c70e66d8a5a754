package dev.cutover.ui.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.ScriptedDialogs;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.tasks.ImmediateTaskExecutor;
import java.time.LocalDate;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The plan screen's model and controller on a real world, without a window: the same-thread executor runs its tasks. */
class PlanModelTest {

  private HourlyWorld world;
  private ImmediateTaskExecutor executor;
  private ScriptedDialogs dialogs;
  private Workspace workspace;
  private PlanModel model;
  private PlanController controller;
  private HourPartition start;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(PlanModelTest.class), 3);
    executor = new ImmediateTaskExecutor();
    dialogs = new ScriptedDialogs();
    workspace = new Workspace(executor, dialogs);
    Engine engine = new Engine(TestEngine.session().database());
    workspace.engineProperty().set(engine);
    workspace.specProperty().set(world.spec());
    model = new PlanModel(workspace);
    controller = new PlanController(model);
    start = engine.plans().reprocessingStart(world.spec()).orElseThrow();
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void proposesTheWholeWindowAndTheDefaultBoundaryAndReadsTheLiveEdgeOnlyWhileShown() {
    controller.shown();
    HourPartition boundary = world.liveEdge.plusHours(-3);
    assertEquals(boundary.toString(), model.boundaryProperty().get());
    assertEquals(start, model.fromProperty().get());
    assertEquals(boundary, model.toProperty().get());
    assertEquals(Optional.of(world.liveEdge), model.liveProperty().get().liveEdge());
    assertEquals(1, executor.liveTicks(), "the live edge is read again every few seconds");
    executor.tick();
    assertEquals("", model.liveErrorProperty().get());

    controller.hidden();
    assertEquals(0, executor.liveTicks(), "a screen that was left stops reading");
  }

  @Test
  void makesThePlanAndProposesSampleHoursInItsRange() {
    controller.shown();
    controller.makePlan();
    assertEquals("", model.activity().error());
    var plan = workspace.plan();
    assertEquals(world.liveEdge.plusHours(-3), plan.boundary());
    assertEquals(start, plan.range().from());
    var hours = SampleModel.parse(model.sample().hoursProperty().get());
    assertEquals(3, hours.size());
    assertTrue(hours.stream().allMatch(plan.range()::contains), hours.toString());

    controller.sample().run();
    assertEquals(3, model.sample().hourRows().size());
    assertTrue(model.sample().summaryProperty().get().endsWith("Every difference is explained by a rule of the spec."),
        model.sample().summaryProperty().get());
  }

  @Test
  void badInputIsRefusedWithTheEnginesSentenceAndNothingIsPlanned() {
    controller.shown();
    model.boundaryProperty().set("2026-13-40");
    controller.makePlan();
    assertEquals("The boundary '2026-13-40' is not a date and hour; write it as 2026-11-29T10:00 (UTC) or 2026-11-29 "
        + "for midnight.", model.activity().error());
    assertNull(workspace.plan());

    HourPartition tooLate = world.liveEdge.plusHours(-1);
    model.boundaryProperty().set(tooLate.toString());
    controller.makePlan();
    assertTrue(model.activity().error().startsWith("The boundary " + tooLate + " is 1 hour(s) behind the live edge "
        + world.liveEdge + ", less than the safety margin of 3 hours"), model.activity().error());
    assertNull(workspace.plan());

    model.sample().hoursProperty().set("yesterday");
    controller.sample().run();
    assertEquals("The sample hour 'yesterday' is not a date and hour; write it as 2026-11-29T10:00 (UTC) or 2026-11-29 "
        + "for midnight.", model.sample().activity().error());
  }

  @Test
  void datesStayInsideTheWindowAndBeforeTheBoundary() {
    controller.shown();
    model.setFromDate(LocalDate.of(2000, 1, 1));
    assertEquals(start, model.fromProperty().get());
    model.setToDate(LocalDate.of(2100, 1, 1));
    assertEquals(world.liveEdge.plusHours(-3), model.toProperty().get());
    model.setRangeHours(2, 26);
    assertEquals(start.plusHours(2), model.fromProperty().get());
    assertEquals(start.plusHours(26), model.toProperty().get());
  }

  @Test
  void aDependentFailsThePreflightUntilTheOperatorAcknowledgesIt() {
    world.sql.execute("a dependent", "CREATE MATERIALIZED VIEW visits_mv ENGINE = MergeTree ORDER BY site "
        + "AS SELECT site, clicks FROM visits_v1");
    controller.shown();
    controller.makePlan();
    PreflightModel preflight = model.preflight();
    controller.preflight().run();
    assertFalse(workspace.preflightProperty().get().passed());
    String name = world.database + ".visits_mv";
    assertEquals(name, preflight.dependents().getFirst().name());
    assertTrue(preflight.summaryProperty().get().endsWith("1 failed. Fix the failed checks before the backfill."),
        preflight.summaryProperty().get());

    // Declined: nothing is acknowledged, and the preflight still fails.
    dialogs.sideEffectReason = null;
    controller.preflight().acknowledge(preflight.dependents().getFirst());
    assertEquals(new DialogService.SideEffectRequest(name, "visits_v1", world.database + ".visits_v2"),
        dialogs.asked.getLast());
    assertEquals(java.util.Map.of(), preflight.reasons());
    controller.preflight().run();
    assertFalse(workspace.preflightProperty().get().passed());

    // A reason of blanks is refused in the engine's sentence, and acknowledges nothing.
    dialogs.sideEffectReason = "  ";
    controller.preflight().acknowledge(preflight.dependents().getFirst());
    assertTrue(preflight.activity().error().startsWith("Acknowledging " + name + " needs a written reason"),
        preflight.activity().error());
    assertEquals(java.util.Map.of(), preflight.reasons());

    String why = "the view only counts clicks for a dashboard that is rebuilt after the cutover";
    dialogs.sideEffectReason = why;
    controller.preflight().acknowledge(preflight.dependents().getFirst());
    assertEquals(java.util.Map.of(name, why), preflight.reasons());
    controller.preflight().run();
    PreflightReport report = workspace.preflightProperty().get().report();
    assertTrue(report.passed(), report.failures().toString());
    assertEquals(PreflightReport.Status.WARN, report.checks().stream().filter(c -> c.name().equals("side effects"))
        .findFirst().orElseThrow().status());
    assertEquals(java.util.Optional.of(why), report.dependents().getFirst().reason());
    assertEquals(java.util.Map.of(name, why), preflight.reasons(), "the acknowledgement stays with its reason");

    // Taken back before the backfill: the passing preflight no longer clears it.
    controller.preflight().takeBack(name);
    assertEquals(java.util.Map.of(), preflight.reasons());
    assertNull(workspace.preflightProperty().get(), "no backfill starts from a preflight with a withdrawn reason");
    assertTrue(preflight.summaryProperty().get().startsWith("The acknowledgement of " + name + " was taken back; run "
        + "the preflight again"), preflight.summaryProperty().get());
  }
}
