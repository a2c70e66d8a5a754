package dev.cutover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Waits, before a section, until the machine is quiet: what the section before left running (a server's
 * merges, writeback of dropped tables, shards stopping, the compiler) would otherwise share the two cores
 * with the section's first seconds, where the console's stall and the first switches are measured. Quiet
 * is the CPUs busy (user, system, interrupts, and waiting on the disk) under {@link #BUSY_SHARE} of the
 * time over {@link #QUIET_SECONDS} seconds in a row, read from {@code /proc/stat}; the wait gives up
 * after {@link #MAX_SECONDS} and says so. The load average is not used: on this machine it counts server
 * threads asleep in the kernel and takes minutes to fall.
 */
final class QuietMachine {

  static final double BUSY_SHARE = 0.15;
  static final int QUIET_SECONDS = 3;
  static final int MAX_SECONDS = 120;

  /** What the wait found: how long it took, the last second's busy share, and whether it gave up. */
  record Wait(double seconds, double lastBusy, boolean gaveUp) {
    String describe() {
      if (Double.isNaN(lastBusy)) {
        return "started without knowing whether the machine was quiet (/proc/stat could not be read)";
      }
      return gaveUp
          ? String.format("the machine was not quiet after %.0f s (CPUs %.0f%% busy in the last second); measured anyway",
              seconds, lastBusy * 100)
          : String.format("started once the machine was quiet (%.0f s of waiting; CPUs under %.0f%% busy for %d s)",
              seconds, BUSY_SHARE * 100, QUIET_SECONDS);
    }
  }

  private QuietMachine() {}

  static Wait await() throws InterruptedException {
    long t0 = System.nanoTime();
    long[] before = cpu();
    if (before == null) {
      return new Wait(0, Double.NaN, true);
    }
    int quiet = 0;
    double busy = Double.NaN;
    while (quiet < QUIET_SECONDS) {
      if (Benchmarks.seconds(t0) >= MAX_SECONDS) {
        return new Wait(Benchmarks.seconds(t0), busy, true);
      }
      Thread.sleep(1000);
      long[] now = cpu();
      if (now == null) {
        return new Wait(Benchmarks.seconds(t0), Double.NaN, true);
      }
      busy = busyShare(before, now);
      before = now;
      quiet = busy < BUSY_SHARE ? quiet + 1 : 0;
    }
    return new Wait(Benchmarks.seconds(t0), busy, false);
  }

  /** The share of the time between two readings the CPUs were busy, waiting on the disk counted as busy. */
  static double busyShare(long[] before, long[] after) {
    long total = 0;
    long idle = after[3] - before[3];
    for (int i = 0; i < Math.min(before.length, after.length); i++) {
      total += after[i] - before[i];
    }
    return total <= 0 ? 0 : 1 - (double) idle / total;
  }

  /** The "cpu" line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal; null where there is none. */
  private static long[] cpu() {
    try {
      String first = Files.readAllLines(Path.of("/proc/stat")).getFirst();
      String[] fields = first.trim().split("\\s+");
      return Arrays.stream(fields, 1, Math.min(fields.length, 9)).mapToLong(Long::parseLong).toArray();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
