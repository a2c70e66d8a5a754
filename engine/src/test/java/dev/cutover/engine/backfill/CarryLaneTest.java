package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A carry statement holds at most a thousand hours, and never more text than the server takes in one query. */
class CarryLaneTest {

  @Test
  void theDemosNamesMakeStatementsOfAThousandHours() {
    assertEquals(CarryLane.HOURS_PER_STATEMENT, CarryLane.perStatement(70));
  }

  @Test
  void longNamesMakeShorterStatementsThatStayUnderTheQuerySizeLimit() {
    int longNames = 400;
    int per = CarryLane.perStatement(longNames);
    assertEquals(500, per);
    assertTrue(per * longNames <= CarryLane.TEXT_PER_STATEMENT, per + " hours of " + longNames + " characters");
    assertTrue(CarryLane.TEXT_PER_STATEMENT < 256 * 1024, "below the server's max_query_size");
  }
}
