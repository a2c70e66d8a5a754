package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.output.JsonOutput;
import dev.cutover.app.output.Shapes;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shapes of the JSON contract, and that its schemas refuse what breaks it. */
class JsonOutputTest {

  record Sample(Instant at, Shapes.Window window, double total, Double missing, double nan,
      java.math.BigDecimal tookSeconds) {}

  @Test
  void instantsWindowsDecimalsAndDurationsHaveOneForm() {
    HourRange range = new HourRange(HourPartition.parse("from", "2026-11-29T10:00"),
        HourPartition.parse("to", "2026-11-30T03:00"));
    String json = JsonOutput.write(new Sample(Instant.parse("2026-11-30T06:09:51.123456789Z"), Shapes.Window.of(range),
        12252.330000000002, null, Double.NaN, Shapes.seconds(Duration.ofMillis(1500))));
    assertEquals("{\"at\":\"2026-11-30T06:09:51.123Z\",\"window\":{\"from\":\"2026-11-29T10:00:00Z\","
        + "\"to\":\"2026-11-30T03:00:00Z\"},\"total\":12252.33,\"missing\":null,\"nan\":null,"
        + "\"took_seconds\":1.5}", json);
    assertEquals("{\"delta\":0.3}", JsonOutput.write(new Delta(0.1 + 0.2)));
    assertEquals("{\"delta\":100000000000000000000}", JsonOutput.write(new Delta(1e20)));
  }

  record Delta(double delta) {}

  @Test
  void theSchemasRefuseWhatTheContractRules() {
    String good = "{\"command\":\"ack\",\"hour\":\"2026-11-30T03:00:00Z\",\"whole_hour\":true,\"key\":[],"
        + "\"reason\":\"v1 retried\",\"withdrawn\":false,\"accepted\":{\"keys\":1,\"kinds\":{\"changed\":1},"
        + "\"sums\":{\"clicks\":\"1\"},\"description\":\"1 unexpected key(s): 1 changed; sum of v2 - v1: clicks 1\"}}";
    assertEquals(List.of(), JsonContract.problems("ack", good));
    // The old forms: an hour without its zone, a field too many, a window as a string.
    assertFalse(JsonContract.problems("ack", good.replace("03:00:00Z", "03:00")).isEmpty());
    assertFalse(JsonContract.problems("ack", good.replace("}", ",\"extra\":1}")).isEmpty());
    String abandon = "{\"command\":\"abandon\",\"repair\":\"r\",\"target\":\"db.t\",\"boundary\":\"[a, b) UTC\","
        + "\"reason\":\"x\"}";
    assertTrue(JsonContract.problems("abandon", abandon).stream().anyMatch(p -> p.contains("boundary")),
        JsonContract.problems("abandon", abandon).toString());
  }
}
