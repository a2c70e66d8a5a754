package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.testing.HourlyWorld;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Threads reading the consumer view's totals for one hour in a loop, noting anything but all-v1 or all-v2. */
final class Readers implements AutoCloseable {

  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicLong reads = new AtomicLong();
  private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
  private final List<Thread> threads;

  Readers(HourlyWorld world, HourPartition hour, String v1, String v2, int count) {
    threads = java.util.stream.IntStream.range(0, count).mapToObj(i -> Thread.ofPlatform().start(() -> {
      while (!stop.get() && reads.get() < 100_000) {
        try {
          String seen = world.sql.queryOne("read", "SELECT count(), sum(clicks), round(sum(duration_s), 6) FROM visits "
              + "WHERE hour = toDateTime(?, 'UTC')", rs -> rs.getLong(1) + "/" + rs.getLong(2) + "/" + rs.getDouble(3),
              hour.epochSecond());
          if (!seen.equals(v1) && !seen.equals(v2)) {
            problems.add("mixed: " + seen);
          }
        } catch (RuntimeException e) {
          problems.add("failed: " + e.getMessage());
        }
        reads.incrementAndGet();
      }
    })).toList();
  }

  void assertClean() {
    stop.set(true);
    threads.forEach(t -> {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertTrue(reads.get() > 20, "readers read " + reads.get() + " times");
    assertEquals(List.of(), List.copyOf(problems), "every read saw all-v1 or all-v2, none mixed, none failed");
  }

  @Override
  public void close() {
    stop.set(true);
  }
}
