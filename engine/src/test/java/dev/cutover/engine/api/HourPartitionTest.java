package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A time past the hour is refused in a sentence that shows what is off, so that the fix is plain. */
class HourPartitionTest {

  private static String refused(String text) {
    return assertThrows(InvalidInputException.class, () -> HourPartition.parse("range start (--from)", text))
        .getMessage();
  }

  @Test
  void secondsPastTheHourAreShownAndNamed() {
    // Shown to the minute, 00:00:30 would read "2026-11-01 00:00 is not on the hour; give 2026-11-01 00:00".
    assertEquals("The range start (--from) 2026-11-01 00:00:30 is not on the hour: its seconds are not zero; give "
        + "the whole hour 2026-11-01 00:00.", refused("2026-11-01T00:00:30"));
    assertEquals("The range start (--from) 2026-11-01 00:00:00.5 is not on the hour: its seconds are not zero; give "
        + "the whole hour 2026-11-01 00:00.", refused("2026-11-01T00:00:00.5Z"));
  }

  @Test
  void minutesPastTheHourKeepTheirSentence() {
    assertEquals("The range start (--from) 2026-11-29 10:30 is not on the hour; give a whole hour such as "
        + "2026-11-29 10:00.", refused("2026-11-29T10:30"));
  }

  @Test
  void anInstantPastTheHourSaysSoToo() {
    var e = assertThrows(InvalidInputException.class, () -> HourPartition.of(Instant.parse("2026-11-01T00:00:30Z")));
    assertEquals("The time 2026-11-01 00:00:30 UTC is not on the hour: its seconds are not zero; give the whole hour "
        + "2026-11-01 00:00.", e.getMessage());
  }
}
