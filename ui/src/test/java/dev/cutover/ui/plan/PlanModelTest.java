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
  private Workspace workspace;
  private PlanModel model;
  private PlanController controller;
  private HourPartition start;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(PlanModelTest.class), 3);
    executor = new ImmediateTaskExecutor();
    workspace = new Workspace(executor, new ScriptedDialogs());
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

    preflight.acknowledged(name).set(true);
    controller.preflight().run();
    PreflightReport report = workspace.preflightProperty().get().report();
    assertTrue(report.passed(), report.failures().toString());
    assertEquals(PreflightReport.Status.WARN, report.checks().stream().filter(c -> c.name().equals("side effects"))
        .findFirst().orElseThrow().status());
    assertTrue(preflight.acknowledged(name).get(), "the acknowledgement stays checked");
  }
}
