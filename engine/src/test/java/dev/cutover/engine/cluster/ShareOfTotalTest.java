package dev.cutover.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import org.junit.jupiter.api.Test;

/** The cluster's totals split evenly between its shards, each shard's own throttle kept where it is tighter. */
class ShareOfTotalTest {

  private static final BackfillSettings OWN = BackfillSettings.from(new TableSpec.Throttle(4, 24, 0, 0, 0, 0,
      java.time.Duration.ZERO, 0, 0));

  @Test
  void threeShardsShareSixBatchesAndNineHundredThousandRowsPerSecond() {
    BackfillSettings share = ShareOfTotal.of(OWN, new TableSpec.Total(6, 900_000), 3);
    assertEquals(2, share.concurrency());
    assertEquals(300_000, share.rowsPerSecond());
  }

  @Test
  void aShardsOwnTighterThrottleIsKept() {
    BackfillSettings share = ShareOfTotal.of(OWN.withConcurrency(1).withRowsPerSecond(50_000),
        new TableSpec.Total(6, 900_000), 3);
    assertEquals(1, share.concurrency());
    assertEquals(50_000, share.rowsPerSecond());
  }

  @Test
  void noTotalsLeaveEachShardAlone() {
    assertEquals(OWN, ShareOfTotal.of(OWN, TableSpec.Total.NONE, 3));
  }

  @Test
  void fewerRowsPerSecondThanShardsIsRefused() {
    var e = assertThrows(InvalidInputException.class, () -> ShareOfTotal.of(OWN, new TableSpec.Total(0, 2), 3));
    assertEquals("cluster.throttle.rows_per_second", e.field());
  }

  @Test
  void fewerBatchesThanShardsIsRefusedSayingHowManyAreNeeded() {
    var e = assertThrows(InvalidInputException.class, () -> ShareOfTotal.of(OWN, new TableSpec.Total(2, 0), 3));
    assertEquals("cluster.throttle.concurrency", e.field());
    assertTrue(e.getMessage().contains("at least 3"), e.getMessage());
  }
}
