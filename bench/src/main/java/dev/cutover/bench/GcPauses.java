package dev.cutover.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The garbage collector's stop-the-world pauses in this JVM while it listens, each placed on the clock
 * of {@link System#nanoTime()}, so that a gap between FX pulses can be told apart from a pause that
 * stopped every thread. A collector reports its pauses and, on some beans, its concurrent cycles; a cycle
 * ({@code "end of GC cycle"}: ZGC's, Shenandoah's) stops no thread and is left out. G1's Remark and Cleanup
 * stop every thread though its bean is named "G1 Concurrent GC" ({@code "end of concurrent GC pause"}): they
 * are pauses, and counted.
 */
final class GcPauses implements AutoCloseable {

  /** One pause: when it started and ended ({@code System.nanoTime()}), and which collector made it. */
  record Pause(long startNanos, long endNanos, String collector, String cause) {
    double millis() {
      return (endNanos - startNanos) / 1e6;
    }
  }

  private final List<Pause> pauses = new CopyOnWriteArrayList<>();
  private final List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
  /** {@code System.nanoTime()} at the JVM's start, which the collector's times count from, in milliseconds. */
  private final long startNanos = System.nanoTime() - ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
  private final NotificationListener listener = this::record;

  GcPauses() {
    for (GarbageCollectorMXBean bean : beans) {
      ((NotificationEmitter) bean).addNotificationListener(listener, null, null);
    }
  }

  private void record(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    String name = info.getGcName();
    if (info.getGcAction().equals("end of GC cycle")) {
      return;
    }
    long start = startNanos + info.getGcInfo().getStartTime() * 1_000_000L;
    long end = startNanos + info.getGcInfo().getEndTime() * 1_000_000L;
    // G1's concurrent bean gives its pauses no cause ("No GC"); they are its Remark and Cleanup.
    String cause = name.equals("G1 Concurrent GC") ? "G1 Remark or Cleanup" : info.getGcCause();
    pauses.add(new Pause(start, Math.max(end, start), name, cause));
  }

  /** The pauses recorded so far. */
  List<Pause> all() {
    return List.copyOf(pauses);
  }

  /** The pauses that overlap the interval from {@code fromNanos} to {@code toNanos}. */
  List<Pause> within(long fromNanos, long toNanos) {
    // The collector's times are whole milliseconds: a pause that ends in the millisecond the interval starts counts.
    return pauses.stream().filter(p -> p.endNanos() + 1_000_000L >= fromNanos && p.startNanos() <= toNanos).toList();
  }

  @Override
  public void close() {
    for (GarbageCollectorMXBean bean : beans) {
      try {
        ((NotificationEmitter) bean).removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // never added
      }
    }
  }
}
