package dev.cutover.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The corrected transform on a few hours, diffed against v1 with the rules of the spec. */
class SampleTest {

  private static HourlyWorld world;

  @BeforeAll
  static void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(SampleTest.class), 2);
  }

  @AfterAll
  static void close() {
    world.db.close();
  }

  @Test
  void theFixExplainsEveryDifferenceOfASample() {
    HourPartition h1 = world.busyHour(3);
    HourPartition h2 = world.busyHour(7);
    Diff diff = new Sampler(world.sql, world.spec()).sample(List.of(h1, h2), 1000);

    assertEquals(List.of(h1, h2), diff.hours().stream().map(Diff.HourDiff::hour).toList());
    for (Diff.HourDiff h : diff.hours()) {
      assertEquals(h.rowsV1(), h.rowsV2(), "same keys in " + h.hour());
      Diff.Total duration = h.totals().stream().filter(t -> t.measure().name().equals("duration_s")).findFirst().orElseThrow();
      assertEquals(duration.v1() * 0.1, duration.v2(), 1e-6, "v2 is a tenth of v1 in " + h.hour());
    }
    assertEquals(diff.hours().stream().mapToLong(Diff.HourDiff::rowsV1).sum(), diff.keys().size(),
        "every key's duration changed");
    assertEquals(0, diff.unexpectedKeys(), diff.keys().toString());
    assertTrue(diff.keys().stream().allMatch(k -> k.rule().orElseThrow().equals("duration_units")));
    assertEquals(0L, world.sql.queryLong("scratch tables", "SELECT count() FROM system.tables WHERE database = ? "
        + "AND name LIKE 'visits_v2__sample_%'", world.database), "the scratch table is dropped");
  }

  @Test
  void aDoubledHourAndAMissingKeyAreUnexpected() {
    HourPartition doubled = world.busyHour(10);
    HourPartition gap = world.busyHour(11);
    world.sql.execute("double", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        doubled.epochSecond());
    String site = world.sql.queryOne("a site of that hour", "SELECT min(site) FROM visits_v1 WHERE hour = toDateTime(?, "
        + "'UTC')", rs -> rs.getString(1), gap.epochSecond());
    world.sql.execute("drop a key", "ALTER TABLE visits_v1 DELETE WHERE hour = toDateTime(?, 'UTC') AND site = ? "
        + "SETTINGS mutations_sync = 1", gap.epochSecond(), site);

    Diff diff = new Sampler(world.sql, world.spec()).sample(List.of(doubled, gap), 1000);

    assertTrue(diff.keys().stream().filter(k -> k.hour().equals(doubled))
        .allMatch(k -> k.kind() == Diff.Kind.DUPLICATE_IN_V1 && !k.expected()), diff.keys().toString());
    var missing = diff.keys().stream().filter(k -> k.hour().equals(gap) && k.kind() == Diff.Kind.ONLY_IN_V2).toList();
    assertEquals(1, missing.size(), diff.keys().toString());
    assertEquals(List.of(site), missing.getFirst().key());
    assertTrue(missing.getFirst().v2().get(Identifier.of("clicks")) > 0);
    assertTrue(diff.unexpectedKeys() >= 2);
  }
}
