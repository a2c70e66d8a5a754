package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.InvalidInputException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How often cutover server restarts a dying server, and how a death reads. Pure logic. */
class RestartPolicyTest {

  private static final Instant T = Instant.parse("2026-11-30T10:00:00Z");

  @Test
  void atMostFiveRestartsWithinTenMinutesThenNoneUntilTheOldestLeavesTheWindow() {
    RestartPolicy.Budget budget = RestartPolicy.DEFAULT.budget();
    for (int i = 0; i < 5; i++) {
      assertTrue(budget.take(T.plusSeconds(60L * i)), "restart " + (i + 1));
    }
    assertFalse(budget.take(T.plusSeconds(300)), "a sixth within ten minutes");
    assertEquals(5, budget.used());
    assertTrue(budget.take(T.plusSeconds(600)), "the first one left the window");
    assertFalse(budget.take(T.plusSeconds(601)));
    assertEquals("at most 5 restarts within 10 min", RestartPolicy.DEFAULT.describe());
  }

  @Test
  void noRestartAllowsNoneAndAPolicyThatRestartsNeedsOne() {
    assertFalse(RestartPolicy.NO_RESTART.budget().take(T));
    assertEquals("no restart", RestartPolicy.NO_RESTART.describe());
    InvalidInputException bad = assertThrows(InvalidInputException.class,
        () -> new RestartPolicy(true, 0, Duration.ofMinutes(1)));
    assertEquals("A server that restarts needs at least one restart, and 0 was given; give 1 or more, or do not "
        + "restart.", bad.getMessage());
    assertEquals("at most 1 restart within 90 s", new RestartPolicy(true, 1, Duration.ofSeconds(90)).describe());
  }

  @Test
  void anExitStatusAbove128IsASignalAndTheSentencesSayWhatComesNext() {
    assertEquals("signal 9, SIGKILL", ServerRestart.cause(137));
    assertEquals("signal 6, SIGABRT", ServerRestart.cause(134));
    assertEquals("signal 40", ServerRestart.cause(168));
    assertEquals("exit status 1", ServerRestart.cause(1));

    ServerRestart death = new ServerRestart(1234, 8123, T, "died", "signal 9, SIGKILL",
        ServerRestart.Plan.RESTARTING, null, 0);
    Path log = Path.of("/data/server.log");
    assertEquals("The embedded server's engine process 1234 died at 10:00:00 UTC (signal 9, SIGKILL); cutover server "
        + "is starting a new one.", death.sentence(log));
    assertEquals("The embedded server restarted at 10:00:01 UTC (its engine process 1234 died: signal 9, SIGKILL).",
        death.restartedBy(1240, T.plusSeconds(1)).sentence(log));
    ServerRestart gaveUp = new ServerRestart(1234, 8123, T, "died", "exit status 1", ServerRestart.Plan.GAVE_UP,
        null, 0);
    assertEquals("The embedded server's engine process 1234 died at 10:00:00 UTC (exit status 1), too often for "
        + "cutover server, which gave up restarting it: read /data/server.log, then start it again with cutover "
        + "server.", gaveUp.sentence(log));
  }
}
