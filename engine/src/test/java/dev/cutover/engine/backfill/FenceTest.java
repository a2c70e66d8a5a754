package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The boundary is checked again at the last moment, by the writer itself, whatever the caller
 * planned: a batch that reaches B is refused before a statement runs, and v2 stays as it was.
 */
class FenceTest {

  @Test
  void theBatchWriterRefusesEveryHourAtOrAfterTheBoundary() {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(FenceTest.class), 1);
    try {
      TableSpec spec = world.spec();
      TargetTables tables = new TargetTables(world.sql, spec);
      tables.createTargetIfAbsent();
      Identifier staging = tables.staging("fence", 1);
      HourPartition boundary = world.liveEdge.plusHours(-3);
      BatchWriter writer = new BatchWriter(world.sql, spec, tables.insertableColumns(spec.targetTable()),
          BackfillSettings.from(spec.throttle()), boundary, "fence");
      var refused = assertThrows(IllegalStateException.class, () -> writer.write(staging,
          List.of(boundary.plusHours(-1), boundary), true, () -> { }));
      assertEquals("refusing to write hour " + boundary + ": it is at or after the boundary " + boundary,
          refused.getMessage());
      var direct = assertThrows(IllegalStateException.class, () -> writer.writeDirect(
          List.of(boundary.plusHours(-1), boundary), () -> { }));
      assertEquals(refused.getMessage(), direct.getMessage(), "a write straight into the target is fenced alike");
      assertEquals(0L, world.sql.queryLong("v2", "SELECT count() FROM visits_v2"), "nothing was written");
      assertEquals(0L, world.sql.queryLong("staging", "SELECT count() FROM " + spec.qualified(staging)));
    } finally {
      world.db.close();
    }
  }
}
