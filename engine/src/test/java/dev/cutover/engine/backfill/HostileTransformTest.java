package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transforms written carelessly or to break the binding of the window, on the real engine: a
 * placeholder in a string literal is refused when the spec loads (it once failed plan, preflight and
 * backfill with an internal error), and quotes, heredocs and every kind of comment that ClickHouse
 * knows bind exactly the window: the backfill writes the same rows as the plain transform.
 */
class HostileTransformTest {

  @TempDir static Path dir;
  private static HourlyWorld world;
  private static Engine engine;

  @BeforeAll
  static void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(HostileTransformTest.class), 2);
    engine = new Engine(world.db);
  }

  @AfterAll
  static void close() {
    world.db.close();
  }

  private static Path write(String name, String yaml) throws Exception {
    return Files.writeString(dir.resolve(name), yaml);
  }

  @Test
  void aWindowPlaceholderInAStringLiteralIsRefusedBeforeAnythingRuns() throws Exception {
    Path file = write("dummy.yaml", world.specYaml().replace("toString(site) AS site",
        "toString(site) AS site, '{window_start}' AS dummy"));
    var e = assertThrows(InvalidInputException.class, () -> engine.specs().load(file));
    assertEquals("In the spec " + file + ", the transform has {window_start} inside a string literal at line 1, column "
        + "60 of the transform, where it binds nothing; write it outside quotes and comments (for example ts >= "
        + "{window_start}), or remove it.", e.getMessage());
  }

  @Test
  void quotesHeredocsAndEveryCommentBindExactlyTheWindow() throws Exception {
    // Each line holds an apostrophe or a '?' that, misread, would hide or add a bound value.
    String hostile = world.specYaml().replace("FROM {clicks} WHERE", "FROM {clicks} # the desk's clicks\n"
        + "  // it's the corrected one\n"
        + "  /* units: ms / 1000 /* it's nested */ and it's closed */\n"
        + "  WHERE site NOT IN ('it''s ? {x}', 'a\\'b ?', $$the desk's ?$$, $q$it's {y}?$q$) AND -- it's\n  ");
    TableSpec spec = engine.specs().load(write("hostile.yaml", hostile));
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
    assertTrue(plan.estimates().sampleHour().toNanos() > 0, "the sample hour ran");
    Procedure.backfill(engine, plan);
    assertEquals(world.expected(plan.range().from(), plan.range().to()),
        world.checksums("visits_v2", plan.range().from(), plan.range().to()));
  }

  @Test
  void nowIsRefusedUnlessAllowedAndTheAllowanceIsShownInPreflight() throws Exception {
    String withNow = world.specYaml().replace("WHERE ts >=", "WHERE ts < now() AND ts >=");
    Path refused = write("now.yaml", withNow);
    var e = assertThrows(InvalidInputException.class, () -> engine.specs().load(refused));
    assertTrue(e.getMessage().startsWith("In the spec " + refused + ", the transform calls now() at line 1, column "),
        e.getMessage());
    TableSpec allowed = engine.specs().load(write("now-allowed.yaml", withNow + "allow_nondeterministic:\n"
        + "  - function: now\n    reason: no click is stamped in the future\n"));
    Plan plan = engine.plans().plan(allowed, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(allowed));
    PreflightReport.Check determinism = engine.plans().preflight(plan, List.of()).report().checks().stream()
        .filter(c -> c.name().equals("determinism")).findFirst().orElseThrow();
    assertEquals(PreflightReport.Status.WARN, determinism.status(), determinism.toString());
    assertTrue(determinism.finding().endsWith("calls [now()], whose results can change between runs; the spec "
        + "allows now() (no click is stamped in the future)."), determinism.finding());
  }
}
