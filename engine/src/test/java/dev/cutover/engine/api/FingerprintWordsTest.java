package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an acknowledgement's dialog, audit line and refusal say of the sums the server printed. */
class FingerprintWordsTest {

  @Test
  void aSumReadsWithGroupedDigitsAndAtMostThreeDecimalsNotAsTheServerPrintedIt() {
    assertEquals("-21,417.313", Reconciliation.Fingerprint.figure("-21417.313000000002"));
    assertEquals("0.75", Reconciliation.Fingerprint.figure("0.75"));
    assertEquals("1,234,567", Reconciliation.Fingerprint.figure("1234567"));
    assertEquals("-0.001", Reconciliation.Fingerprint.figure("-0.0005000001"));
    assertEquals("nan", Reconciliation.Fingerprint.figure("nan"), "what is not a number is said as printed");
  }

  @Test
  void theDescriptionShowsEachSumAsTheConsoleShowsFigures() {
    Map<String, String> deltas = new LinkedHashMap<>();
    deltas.put("clicks", "-40");
    deltas.put("duration_s", "-21417.313000000002");
    var seen = new Reconciliation.Fingerprint(5, Map.of("DUPLICATE_IN_V1", 5L), deltas, 42);
    assertEquals("5 unexpected key(s): 5 duplicate in v1; sum of v2 - v1: clicks -40, duration_s -21,417.313",
        seen.describe());
  }
}
