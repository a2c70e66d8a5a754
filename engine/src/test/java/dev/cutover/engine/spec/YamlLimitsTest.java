package dev.cutover.engine.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.InvalidInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** YAML that would take the loader's time, memory or stack: each refused fast, saying where. */
class YamlLimitsTest {

  private static InvalidInputException refused(String yaml) {
    return assertTimeoutPreemptively(Duration.ofSeconds(5),
        () -> assertThrows(InvalidInputException.class, () -> SpecLoader.parse(yaml, "s.yaml")));
  }

  @Test
  void textPastTheLimitIsRefusedBeforeParsing() {
    var e = refused("name: " + "x".repeat(SpecFiles.MAX_BYTES));
    assertEquals("The spec s.yaml holds 1048582 characters, more than the limit of 1048576 (1 MiB); a spec is a few "
        + "KiB, so check that it is the right text.", e.getMessage());
  }

  @Test
  void deepNestingIsRefusedWithItsPlace() {
    var e = refused("keys: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n");
    assertEquals("The spec s.yaml nests lists and mappings more than 20 levels deep at line 1, column 26; a spec "
        + "needs five at most, so check the brackets and indentation there.", e.getMessage());
    e = refused("keys: " + "{a: ".repeat(50_000) + "\n");
    assertTrue(e.getMessage().contains("more than 20 levels deep"), e.getMessage());
  }

  @Test
  void anAliasBombIsRefused() {
    StringBuilder yaml = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 12; i++) {
      yaml.append("a").append(i).append(": &a").append(i).append(" [")
          .append(("*a" + (i - 1) + ", ").repeat(9)).append("*a").append(i - 1).append("]\n");
    }
    assertEquals("The spec s.yaml is not valid YAML (more than 10 aliases to lists or mappings); fix it there.",
        refused(yaml.toString()).getMessage());
  }

  @Test
  void aListThatContainsItselfIsRefused() {
    var e = refused(SpecLoaderTest.VALID.replace("keys: [site]", "keys: &k [site, [*k]]"));
    assertEquals("In the spec s.yaml, field 'keys[1][0]' is an alias of a list or mapping that contains it; write the "
        + "value out instead of the alias.", e.getMessage());
  }

  @Test
  void aFewAliasesToPlainValuesStillLoad() {
    String yaml = SpecLoaderTest.VALID.replace("live: visits_v1", "live: &v1 visits_v1")
        .replace("concurrency: 3", "concurrency: &n 3\n  batch_hours: *n");
    assertEquals(3, SpecLoader.parse(yaml, "s.yaml").throttle().batchHours());
  }

  @Test
  void aSyntaxErrorSaysWhereAndNotWhatIsThere() {
    var e = refused("spec: 1\nname: visits\npassword: 'hunter2\n");
    assertEquals("The spec s.yaml is not valid YAML (found unexpected end of stream at line 4, column 1); fix it "
        + "there.", e.getMessage());
    e = refused("spec: 1\nname: @hunter2\n");
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    assertTrue(e.getMessage().contains("at line 2, column 7"), e.getMessage());
    e = refused("name: a\nname: hunter2\n");
    assertEquals("The spec s.yaml is not valid YAML (a key appears twice in one mapping at line 2, column 1); fix it "
        + "there.", e.getMessage());
  }

  @Test
  void aListOfMoreThanAThousandItemsIsRefused() {
    String keys = String.join(", ", java.util.stream.IntStream.range(0, 1001).mapToObj(i -> "k" + i).toList());
    assertEquals("In the spec s.yaml, field 'keys' is a list of 1001 items; expected at most 1000.",
        refused(SpecLoaderTest.VALID.replace("keys: [site]", "keys: [" + keys + "]")).getMessage());
  }

  @Test
  void aControlCharacterIsNamedByItsCodeAndPlace() {
    var e = refused("spec: 1\nname: vis\u0000its\n");
    assertEquals("The spec s.yaml is not valid YAML (a control character U+0000 at line 2, column 10, which YAML does "
        + "not allow); fix it there.", e.getMessage());
  }

  @Test
  void aNumberTooLargeForItsFieldIsNotCutToItsLowBits() {
    // 2^64 + 3: keeping only the low 64 bits would read it as a concurrency of 3.
    var e = refused(SpecLoaderTest.VALID.replace("concurrency: 3", "concurrency: 18446744073709551619"));
    assertEquals("In the spec s.yaml, field 'throttle.concurrency' is '18446744073709551619'; expected a whole number "
        + "from 1 to 32.", e.getMessage());
  }
}
