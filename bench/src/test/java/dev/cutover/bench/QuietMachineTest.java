package dev.cutover.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class QuietMachineTest {

  @Test
  void waitingOnTheDiskCountsAsBusyAndIdleAsIdle() {
    // user, nice, system, idle, iowait, irq, softirq, steal
    long[] before = {100, 0, 50, 1000, 10, 0, 0, 0};
    long[] after = {110, 0, 60, 1070, 20, 0, 0, 0};
    assertEquals(0.30, QuietMachine.busyShare(before, after), 1e-9);
  }

  @Test
  void aMachineThatDidNothingIsQuiet() {
    long[] same = {5, 0, 5, 90, 0, 0, 0, 0};
    assertEquals(0, QuietMachine.busyShare(same, same));
  }
}
