package dev.cutover.engine.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An hour is proven the same in two tables from their parts' metadata only while both read the very
 * same files the same way: a write, a lightweight delete, a change of columns or a mutation under
 * way sends it back to a read of its rows.
 */
class SameFilesTest {

  private static final Identifier V1 = Identifier.of("visits_v1");
  private static final Identifier COPY = Identifier.of("visits_copy");

  private HourlyWorld world;
  private SameFiles files;
  private List<HourPartition> hours;

  @BeforeEach
  void aCopyOfV1ByHardLinks() {
    world = HourlyWorld.create(TestEngine.freshDatabase(SameFilesTest.class), 1);
    world.sql.execute("copy v1", "CREATE TABLE visits_copy CLONE AS visits_v1");
    files = new SameFiles(world.sql, world.spec());
    hours = new dev.cutover.engine.api.HourRange(world.first, world.liveEdge.plusHours(1)).list();
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private Map<HourPartition, SameFiles.Hour> same() {
    return files.of(V1, COPY, hours).same();
  }

  @Test
  void everyHourACopyHoldsIsProvenWithItsRowsAndOneFingerprint() {
    Map<HourPartition, SameFiles.Hour> same = same();
    List<HourPartition> held = hours.stream().filter(world::busy).toList();
    assertEquals(held, same.keySet().stream().sorted().toList(), "every hour v1 holds, and no empty one");
    assertEquals(List.of(), files.of(V1, COPY, hours).unproven(), "an hour neither holds needs no read");
    HourPartition h = held.get(2);
    assertEquals(world.sql.queryLong("rows", "SELECT count() FROM visits_v1 WHERE toStartOfHour(hour) = "
        + "toDateTime(?, 'UTC')", h.epochSecond()), same.get(h).rows());
    assertNotEquals(same.get(h).fingerprint(), same.get(held.get(3)).fingerprint(), "each hour has its own files");
  }

  @Test
  void aWriteOrALightweightDeleteInOneTableSendsThatHourBackToItsRows() {
    HourPartition written = world.busyHour(2);
    HourPartition deleted = world.busyHour(5);
    world.sql.execute("a late write", "INSERT INTO visits_v1 VALUES (toDateTime(?, 'UTC'), 'late', 1, 1, 0.5)",
        written.epochSecond());
    world.sql.execute("a lightweight delete in both", "DELETE FROM visits_v1 WHERE hour = toDateTime(?, 'UTC') AND "
        + "site = 'north'", deleted.epochSecond());
    world.sql.execute("the same delete in the copy", "DELETE FROM visits_copy WHERE hour = toDateTime(?, 'UTC') AND "
        + "site = 'north'", deleted.epochSecond());
    Map<HourPartition, SameFiles.Hour> same = same();
    assertFalse(same.containsKey(written), "v1 has a part the copy lacks");
    assertFalse(same.containsKey(deleted), "a deleted row is in the files but not in a read");
    assertEquals(List.of(written, deleted), files.of(V1, COPY, hours).unproven(), "those two must be read");
    assertTrue(same.containsKey(world.busyHour(3)), "the other hours are still proven");
  }

  @Test
  void tablesWhoseColumnsDifferProveNothing() {
    world.sql.execute("a column with a default", "ALTER TABLE visits_copy ADD COLUMN source String DEFAULT 'web'");
    assertEquals(Map.of(), same(), "a part without the column reads the copy's default");
    assertEquals(hours, files.of(V1, COPY, hours).unproven(), "every hour is read");
  }

  @Test
  void aMutationUnderWayOrATableThatIsNotThereProvesNothing() {
    assertEquals(hours, files.of(V1, Identifier.of("visits_gone"), hours).unproven(),
        "no engine to read the other table's files by: every hour is read");
    // Merges stopped, a mutation stays under way: a read may already apply it while the files are still v1's.
    world.sql.execute("stop merges", "SYSTEM STOP MERGES visits_copy");
    try {
      world.sql.execute("a mutation", "ALTER TABLE visits_copy UPDATE clicks = clicks + 1 WHERE 1 SETTINGS mutations_sync = 0");
      assertEquals(Map.of(), same(), "a mutation under way in the copy");
      assertEquals(hours, files.of(V1, COPY, hours).unproven(), "every hour is read");
    } finally {
      world.sql.execute("kill the mutation", "KILL MUTATION WHERE database = currentDatabase() AND table = 'visits_copy' SYNC");
      world.sql.execute("start merges", "SYSTEM START MERGES visits_copy");
    }
  }
}
