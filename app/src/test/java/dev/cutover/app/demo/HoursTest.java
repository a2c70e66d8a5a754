package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cutover.engine.api.InvalidInputException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HoursTest {

  private static final Instant TEN = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void readsAWholeHourInSeveralIsoForms() {
    assertEquals(TEN, Hours.parse("from", "2026-11-29T10:00"));
    assertEquals(TEN, Hours.parse("from", "2026-11-29T10:00:00"));
    assertEquals(TEN, Hours.parse("from", "2026-11-29 10:00"));
    assertEquals(TEN, Hours.parse("from", "2026-11-29T10:00Z"));
    assertEquals(TEN, Hours.parse("from", "2026-11-29T11:00+01:00"));
  }

  @Test
  void refusesAnHourThatIsNotWholeOrNotADate() {
    var notWhole = assertThrows(InvalidInputException.class, () -> Hours.parse("from", "2026-11-29T10:30"));
    assertEquals("The from 2026-11-29T10:30 is not on the hour; give a whole UTC hour such as 2026-11-29T10:00.",
        notWhole.getMessage());
    assertEquals("from", notWhole.field());
    var notADate = assertThrows(InvalidInputException.class, () -> Hours.parse("from", "yesterday"));
    assertEquals("The from 'yesterday' is not a date and hour; give a whole UTC hour in ISO form, such as "
        + "2026-11-29T10:00.", notADate.getMessage());
  }

  @Test
  void readsSpeeds() {
    assertEquals(Duration.ofSeconds(30), LiveOptions.parseSpeed("30s"));
    assertEquals(Duration.ofMillis(500), LiveOptions.parseSpeed("500ms"));
    assertEquals(Duration.ofHours(1), LiveOptions.parseSpeed("realtime"));
    assertEquals(Duration.ofMinutes(2), LiveOptions.parseSpeed("PT2M"));
    assertEquals(Duration.ofSeconds(5), new LiveOptions(Duration.ofSeconds(30), null, null).stepInterval());
    assertThrows(InvalidInputException.class, () -> LiveOptions.parseSpeed("fast"));
    assertThrows(InvalidInputException.class, () -> new LiveOptions(Duration.ofMillis(10), null, null));
  }

  @Test
  void seedOptionsRefuseBadValuesBeforeAnythingIsWritten() {
    var scale = assertThrows(InvalidInputException.class, () -> new SeedOptions(1, 0, 3, TEN));
    assertEquals("scale", scale.field());
    assertEquals("The scale 0.0 is out of range; give a number above 0 and at most 100 (1 makes about 5 million "
        + "trades over six months).", scale.getMessage());
    assertThrows(InvalidInputException.class, () -> new SeedOptions(-1, 1, 3, TEN));
    assertThrows(InvalidInputException.class, () -> new SeedOptions(1, 1, 0, TEN));
    assertThrows(InvalidInputException.class, () -> new SeedOptions(1, 1, 3, TEN.plusSeconds(60)));
    assertEquals(4392, SeedOptions.defaults().historyHours());
  }
}
