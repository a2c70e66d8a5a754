package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecLoaderTest {

  private static final String MINIMAL = """
      spec_version: 1
      name: sales
      database: shop
      time_column: hour
      keys: [store]
      measures: [revenue]
      sources:
        - name: orders
          table: orders
          time_column: ordered_at
      tables:
        v1: sales_v1
        v2: sales_v2
        consumer_view: sales
      transform:
        sql: >-
          SELECT toStartOfHour(ordered_at) AS hour, store, sum(amount) AS revenue FROM {orders}
          WHERE ordered_at >= {window_start} AND ordered_at < {window_end} GROUP BY hour, store
      """;

  @Test
  void theDemoSpecDescribesPnl() {
    TableSpec spec = SpecLoader.bundled();
    assertEquals("pnl", spec.name());
    assertEquals("`trading`.`pnl_v1`", spec.tables().v1().sql());
    assertEquals("`trading`.`pnl_v2`", spec.tables().v2().sql());
    assertEquals("`trading`.`pnl`", spec.tables().consumerView().sql());
    assertEquals(Identifier.of("hour"), spec.timeColumn());
    assertEquals(List.of("book", "instrument", "currency"), spec.keys().stream().map(Identifier::name).toList());
    assertEquals(List.of("quantity", "notional_usd", "fees_usd", "pnl_usd", "trade_count"),
        spec.measures().stream().map(Identifier::name).toList());
    assertEquals(Identifier.of("event_time"), spec.source("trades").orElseThrow().timeColumn());
    assertEquals(Identifier.of("mark_time"), spec.source("marks").orElseThrow().timeColumn());
    assertEquals(Identifier.of("rate_time"), spec.source("fx_rates").orElseThrow().timeColumn());
    assertEquals(Duration.ofMinutes(10), spec.allowedLateness());
    assertEquals(SqlTemplate.resource("pnl_v2.sql").text(), spec.transform().sql());

    TableSpec.ExpectedDifference rule = spec.expectedDifferences().getFirst();
    assertEquals("fees-subtracted", rule.name());
    assertEquals("v2.fees_usd != 0", rule.rows());
    assertEquals(List.of(Identifier.of("pnl_usd")), rule.measures());
    assertEquals("2 * v2.fees_usd", rule.difference());
    assertEquals(0, new BigDecimal("0.00001").compareTo(rule.tolerance()));
    assertTrue(rule.reason().startsWith("v1 added fees to PnL instead of subtracting them"));

    assertEquals(new TableSpec.Boundary(3, 24), spec.boundary());
    assertEquals(new TableSpec.Throttle(2, 24, 2, 10, Duration.ofMinutes(30)), spec.throttle());
    assertEquals(Duration.ofDays(7), spec.retention().keepV1AtLeast());
    assertEquals(Duration.ofDays(7), spec.retention().keepV1For(), "no consumer caches longer than 7 days");
  }

  @Test
  void movesTheSpecToAnotherDatabase() {
    TableSpec spec = SpecLoader.bundled().withDatabase(Identifier.of("t_other"));
    assertEquals("`t_other`.`pnl_v1`", spec.tables().v1().sql());
    assertEquals("`t_other`.`trades`", spec.source("trades").orElseThrow().table().sql());
  }

  @Test
  void readsAMinimalSpecWithDefaults() {
    TableSpec spec = SpecLoader.parse(MINIMAL, "sales.yaml", name -> { throw new AssertionError(name); });
    assertEquals(new TableSpec.Boundary(3, 24), spec.boundary());
    assertEquals(new TableSpec.Throttle(2, 24, 2, 10, Duration.ofMinutes(30)), spec.throttle());
    assertEquals(Duration.ZERO, spec.allowedLateness());
    assertEquals(BigDecimal.ZERO, spec.defaultTolerance());
    assertTrue(spec.expectedDifferences().isEmpty());
  }

  @Test
  void readsAFileWhoseTransformSitsBesideIt(@TempDir Path folder) throws IOException {
    Files.writeString(folder.resolve("sales.sql"), "SELECT 1 FROM {orders} WHERE t >= {window_start} AND t < {window_end}");
    Files.writeString(folder.resolve("sales.yaml"), MINIMAL.replaceFirst("(?s)transform:.*", "transform:\n  file: sales.sql\n"));
    TableSpec spec = SpecLoader.load(folder.resolve("sales.yaml"));
    assertTrue(spec.transform().sql().startsWith("SELECT 1 FROM {orders}"));
  }

  @Test
  void theLongestConsumerCacheSetsTheRetention() {
    TableSpec spec = SpecLoader.parse(MINIMAL + """
        retention:
          keep_v1_at_least: 1d
          consumers:
            - name: dashboard
              cache_lifetime: 15m
            - name: monthly-export
              cache_lifetime: P3D
        """, "sales.yaml", name -> "");
    assertEquals(Duration.ofDays(3), spec.retention().keepV1For());
  }

  @Test
  void namesTheFieldThatIsWrong() {
    assertRefused(MINIMAL + "throtle:\n  workers: 2\n",
        "In the spec s.yaml, throtle is not a known field; the known ones are allowed_lateness, boundary, database, "
            + "default_tolerance, description, expected_differences, keys, measures, name, retention, sources, "
            + "spec_version, tables, throttle, time_column, transform; fix it and load the spec again "
            + "(docs/SPEC.md describes every field).");
    assertRefused(MINIMAL.replace("database: shop\n", ""),
        "In the spec s.yaml, database is missing, and it is required; fix it and load the spec again "
            + "(docs/SPEC.md describes every field).");
    assertRefused(MINIMAL + "throttle:\n  workers: 0\n",
        "In the spec s.yaml, throttle.workers is '0', but must be a whole number from 1 to 32; fix it and load the "
            + "spec again (docs/SPEC.md describes every field).");
    assertRefused(MINIMAL + "allowed_lateness: soon\n",
        "In the spec s.yaml, allowed_lateness is 'soon', which is not a duration; write it as 30s, 10m, 2h, 7d or "
            + "ISO-8601 (PT10M); fix it and load the spec again (docs/SPEC.md describes every field).");
    assertRefused(MINIMAL.replace("v2: sales_v2", "v2: sales_v1"),
        "In the spec s.yaml, tables.v2 must differ from v1 and from consumer_view: the corrected logic never writes "
            + "the table consumers read; fix it and load the spec again (docs/SPEC.md describes every field).");
    assertRefused(MINIMAL.replace("{window_end}", "now()"),
        "In the spec s.yaml, transform.sql must use both {window_start} and {window_end} to select the hours it "
            + "computes; fix it and load the spec again (docs/SPEC.md describes every field).");
    assertRefused(MINIMAL.replace("FROM {orders}", "FROM {order}"),
        "In the spec s.yaml, transform.sql uses {order}, which is not a source; known: ");
    assertRefused(MINIMAL + """
        expected_differences:
          - name: rounding
            measures: [profit]
            difference: "0"
            reason: rounding
        """, "In the spec s.yaml, expected_differences[0].measures names profit, which is not one of the measures "
        + "[revenue]; fix it and load the spec again (docs/SPEC.md describes every field).");
    assertRefused(MINIMAL + """
        expected_differences:
          - name: rounding
            measures: [revenue]
            difference: v2.amount * 0.01
            reason: rounding
        """, "In the spec s.yaml, expected_differences[0].difference refers to v2.amount, but amount is not the time "
        + "column, a key or a measure; fix it and load the spec again (docs/SPEC.md describes every field).");
    assertRefused("keys: [a\n", "The spec s.yaml is not valid YAML: ");
  }

  private static void assertRefused(String yaml, String messageStart) {
    var refused = assertThrows(InvalidInputException.class, () -> SpecLoader.parse(yaml, "s.yaml", name -> ""));
    assertTrue(refused.getMessage().startsWith(messageStart), refused.getMessage());
  }
}
