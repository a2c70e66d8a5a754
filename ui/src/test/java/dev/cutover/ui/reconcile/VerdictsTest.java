package dev.cutover.ui.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How the reconcile screen names the report it shows: one server's by its id, a sharded table's by its shards. */
class VerdictsTest {

  @Test
  void aReportOverEveryShardIsNamedByItsShardsNotByOneJoinedId() {
    assertEquals("20261204-124502-48f9a0", Verdicts.named("20261204-124502-48f9a0"));
    assertEquals("over 3 shards (a1, b2, c3)", Verdicts.named("a1+b2+c3"));
    assertEquals("repair r1", Verdicts.repairs("r1"));
    assertEquals("repairs r1, r2, r3", Verdicts.repairs("r1+r2+r3"));
  }
}
