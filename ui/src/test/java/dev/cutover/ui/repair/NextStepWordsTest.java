package dev.cutover.ui.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.RepairStatus.Kind;
import dev.cutover.engine.api.RepairStatus.NextStep;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The command a script is told to run next is the one that does the step, with what the step needs. */
class NextStepWordsTest {

  @Test
  void aBackfillThatMustReachOlderHoursStartsThere() {
    HourPartition oldest = HourPartition.containing(Instant.parse("2026-11-25T13:20:00Z"));
    assertEquals("./cutover backfill --spec demo --from \"2026-11-25 13:00\"", NextStepWords.command(new NextStep(
        Kind.BACKFILL, "v1 holds older hours.", "", Optional.of(oldest)), "demo", "pnl", "pnl_v2"));
    assertEquals("./cutover backfill --spec demo", NextStepWords.command(new NextStep(Kind.BACKFILL, "Plan it."),
        "demo", "pnl", "pnl_v2"));
    assertEquals("./cutover backfill --spec demo --resume r1", NextStepWords.command(new NextStep(Kind.RESUME,
        "Resume it.", "r1"), "demo", "pnl", "pnl_v2"));
  }

  /** The banner's button opens the screen its words name first, for every step that is taken in Cutover. */
  @Test
  void everyStepsButtonOpensTheScreenItsWordsName() {
    for (Kind kind : Kind.values()) {
      NextStep step = new NextStep(kind, "a step");
      String words = NextStepWords.button(step);
      String screen = NextStepWords.screen(step);
      assertEquals(words.isEmpty(), screen.isEmpty(), kind + ": " + words);
      if (!words.isEmpty()) {
        assertEquals(words.substring(0, screen.length()).toLowerCase(java.util.Locale.ROOT), screen, kind + ": " + words);
      }
    }
  }
}
