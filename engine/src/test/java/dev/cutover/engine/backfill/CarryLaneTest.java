package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The carry's statements share its hours equally among the statements at once, as few as the server's query size
 * allows, every hour in exactly one of them and in order; the lane launches a worker for each statement at once.
 */
class CarryLaneTest {

  private static final int DEMO_TEXT_PER_HOUR = 70;

  @Test
  void sixMonthsGoInOneStatementForEachWorker() {
    List<List<HourPartition>> statements = CarryLane.statements(hours(4_152), DEMO_TEXT_PER_HOUR);
    assertEquals(CarryLane.STATEMENTS_AT_ONCE, statements.size());
    assertEquals(List.of(2_076, 2_076), statements.stream().map(List::size).toList());
    assertEquals(hours(4_152), statements.stream().flatMap(List::stream).toList(), "every hour once, in order");
  }

  @Test
  void moreThanTheTextAllowsMakesAMultipleOfTheWorkersInEqualShares() {
    int most = CarryLane.perStatement(DEMO_TEXT_PER_HOUR);
    List<List<HourPartition>> statements = CarryLane.statements(hours(2 * most + 1), DEMO_TEXT_PER_HOUR);
    assertEquals(4, statements.size(), "three statements would leave one worker idle at the end");
    int largest = statements.stream().mapToInt(List::size).max().orElseThrow();
    int smallest = statements.stream().mapToInt(List::size).min().orElseThrow();
    assertTrue(largest - smallest <= 3 && largest <= most, statements.stream().map(List::size).toList().toString());
    assertEquals(hours(2 * most + 1), statements.stream().flatMap(List::stream).toList());
  }

  @Test
  void aFewHoursAndHoursWithGapsStillMakeFewStatements() {
    assertEquals(List.of(List.of(hour(0))), CarryLane.statements(List.of(hour(0)), DEMO_TEXT_PER_HOUR));
    assertEquals(List.of(), CarryLane.statements(List.of(), DEMO_TEXT_PER_HOUR));
    // What a resume leaves to carry: every other hour. A statement names each hour, so the gaps split nothing.
    List<HourPartition> gapped = IntStream.range(0, 1_000).mapToObj(i -> hour(2 * i)).toList();
    assertEquals(2, CarryLane.statements(gapped, DEMO_TEXT_PER_HOUR).size());
  }

  @Test
  void longNamesMakeShorterStatementsThatStayUnderTheQuerySizeLimit() {
    int longNames = 400;
    int per = CarryLane.perStatement(longNames);
    assertEquals(500, per);
    assertTrue(CarryLane.statements(hours(4_152), longNames).stream().allMatch(s -> s.size() * longNames
        <= CarryLane.TEXT_PER_STATEMENT));
    assertTrue(CarryLane.TEXT_PER_STATEMENT < 256 * 1024, "below the server's max_query_size");
  }

  @Test
  void everyWorkerIsLaunchedEvenWhenTheFirstTakesItsStatementAtOnce() {
    CarryLane lane = new CarryLane(hours(4_152), DEMO_TEXT_PER_HOUR, null, null);
    List<Integer> launched = new ArrayList<>();
    List<Integer> taken = new ArrayList<>();
    // Each worker runs the moment it is launched and takes a statement first thing, as a quick thread may.
    int workers = lane.launch((i, worker) -> {
      launched.add(i);
      worker.run();
    }, () -> taken.add(lane.next().size()));
    assertEquals(CarryLane.STATEMENTS_AT_ONCE, workers);
    assertEquals(List.of(0, 1), launched, "a second worker, though the first took its statement before it launched");
    assertEquals(List.of(2_076, 2_076), taken, "one statement each");
    lane.await();
  }

  private static List<HourPartition> hours(int count) {
    return IntStream.range(0, count).mapToObj(CarryLaneTest::hour).toList();
  }

  private static HourPartition hour(int i) {
    return HourPartition.of(Instant.parse("2026-06-01T00:00:00Z")).plusHours(i);
  }
}
