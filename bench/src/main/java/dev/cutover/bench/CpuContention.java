package dev.cutover.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Who had the machine's CPUs, read from Linux's counters so that a pause of the console can be told apart from a
 * machine that ran something else: the CPU time the hypervisor gave other guests (the {@code steal} column of
 * {@code /proc/stat}), the time in which some task was ready to run and waited for a CPU ({@code /proc/pressure/cpu},
 * "some"), and how many tasks were ready to run ({@code /proc/loadavg}). {@link #read} is called by one thread every
 * few milliseconds: it reads the files through channels kept open into one buffer and keeps the readings in arrays
 * sized once, so that it adds no garbage to the JVM it measures. Where a file is missing its figure is left out.
 */
final class CpuContention implements AutoCloseable {

  /** Readings kept: at one every 4 ms, the last 4.4 minutes. */
  private static final int KEPT = 1 << 16;
  /** Clock ticks per second of /proc/stat (USER_HZ, 100 on every Linux this runs on). */
  private static final long TICK_MILLIS = 10;

  private final FileChannel stat = open("/proc/stat");
  private final FileChannel pressure = open("/proc/pressure/cpu");
  private final FileChannel loadavg = open("/proc/loadavg");
  private final ByteBuffer buffer = ByteBuffer.allocate(256);
  private final long[] at = new long[KEPT];
  private final long[] stealTicks = new long[KEPT];
  private final long[] waitMicros = new long[KEPT];
  private final int[] runnable = new int[KEPT];
  /** Readings taken so far; written by the reading thread, read after it by others (volatile publish). */
  private volatile long count;

  private static FileChannel open(String file) {
    try {
      return FileChannel.open(Path.of(file), StandardOpenOption.READ);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  /** Takes one reading of every counter; call from one thread only. */
  void read() {
    long n = count;
    int slot = (int) (n % KEPT);
    at[slot] = System.nanoTime();
    // cpu  user nice system idle iowait irq softirq steal ...: the eighth number of the first line.
    stealTicks[slot] = number(stat, "cpu ", 8);
    // some avg10=… avg60=… avg300=… total=MICROSECONDS
    waitMicros[slot] = number(pressure, "total=", 1);
    // 0.52 0.58 0.59 RUNNABLE/TOTAL …: the fourth field's first number.
    runnable[slot] = (int) number(loadavg, "", 4);
    count = n + 1;
  }

  /**
   * The {@code nth} number after the first occurrence of {@code after} at the start of the file (its first 256
   * bytes), or -1 where the file or the number is missing.
   */
  private long number(FileChannel file, String after, int nth) {
    if (file == null) {
      return -1;
    }
    buffer.clear();
    try {
      file.read(buffer, 0);
    } catch (IOException e) {
      return -1;
    }
    int end = buffer.position();
    byte[] bytes = buffer.array();
    int i = indexOf(bytes, end, after);
    if (i < 0) {
      return -1;
    }
    i += after.length();
    int seen = 0;
    while (i < end) {
      while (i < end && !Character.isDigit(bytes[i])) {
        i++;
      }
      long value = 0;
      while (i < end && Character.isDigit(bytes[i])) {
        value = value * 10 + (bytes[i] - '0');
        i++;
      }
      if (++seen == nth) {
        return value;
      }
      // Decimals (0.52) count as one number: skip the rest of a field before the next one.
      while (i < end && bytes[i] != ' ' && bytes[i] != '\n') {
        i++;
      }
    }
    return -1;
  }

  private static int indexOf(byte[] bytes, int end, String what) {
    outer:
    for (int i = 0; i + what.length() <= end; i++) {
      for (int j = 0; j < what.length(); j++) {
        if (bytes[i + j] != what.charAt(j)) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * What the counters say of the span from {@code fromNanos} to {@code toNanos}, from the last reading at or before
   * its start to the first at or after its end: the host's steal and the time tasks waited for a CPU in
   * milliseconds, the most tasks ready to run at once; or why it cannot say.
   */
  String within(long fromNanos, long toNanos) {
    long n = count;
    long oldest = Math.max(0, n - KEPT);
    long before = -1;
    long after = -1;
    int most = -1;
    for (long k = oldest; k < n && after < 0; k++) {
      int slot = (int) (k % KEPT);
      if (at[slot] <= fromNanos) {
        before = k;
      } else {
        most = Math.max(most, runnable[slot]);
        if (at[slot] >= toNanos) {
          after = k;
        }
      }
    }
    if (before < 0 || after < 0) {
      return "the machine's counters: not kept for this gap";
    }
    int b = (int) (before % KEPT);
    int a = (int) (after % KEPT);
    StringBuilder words = new StringBuilder("the machine: ");
    if (stealTicks[a] >= 0 && stealTicks[b] >= 0) {
      words.append("the host took ").append((stealTicks[a] - stealTicks[b]) * TICK_MILLIS).append(" ms of CPU, ");
    }
    if (waitMicros[a] >= 0 && waitMicros[b] >= 0) {
      words.append("some task waited for a CPU ").append((waitMicros[a] - waitMicros[b]) / 1000).append(" ms, ");
    }
    words.append(most >= 0 ? "up to " + most + " tasks ready to run" : "tasks ready to run unknown");
    words.append(" (over ").append((at[a] - at[b]) / 1_000_000).append(" ms)");
    return words.toString();
  }

  @Override
  public void close() {
    for (FileChannel file : Arrays.asList(stat, pressure, loadavg)) {
      if (file != null) {
        try {
          file.close();
        } catch (IOException e) {
          // a counter file that does not close changes no reading
        }
      }
    }
  }
}
