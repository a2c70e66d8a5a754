package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlTemplateTest {

  private static final TableName TRADES = TableName.of(Identifier.of("trading"), "trades");

  @Test
  void rendersTablesAsQuotedNamesAndValuesAsBinds() {
    Statement bound = SqlTemplate.of("t", "SELECT count() FROM {trades} WHERE event_time >= {from} AND n < {n}")
        .render(Map.of("trades", TRADES, "from", Instant.parse("2026-11-29T10:00:00Z"), "n", 5));
    assertEquals("SELECT count() FROM `trading`.`trades` WHERE event_time >= toDateTime(?, 'UTC') AND n < ?",
        bound.text());
    assertEquals(List.of(1795946400L, 5), bound.values());
  }

  @Test
  void leavesLiteralsAloneAndDropsComments() {
    SqlTemplate template = SqlTemplate.of("t", """
        -- the {trades} here is a comment, and so is this question?
        SELECT '{trades}', `{x}`, {'a': 1}, {name:String} /* {trades} */ FROM {trades}""");
    assertEquals(Set.of("trades"), template.placeholders());
    Statement bound = template.render(Map.of("trades", TRADES));
    assertEquals("SELECT '{trades}', `{x}`, {'a': 1}, {name:String}   FROM `trading`.`trades`", bound.text());
    assertTrue(bound.values().isEmpty());
  }

  @Test
  void refusesAPlaceholderThatIsNotKnown() {
    var refused = assertThrows(InvalidInputException.class,
        () -> SqlTemplate.of("v2.sql", "SELECT * FROM {trade}").render(Map.of("trades", TRADES)));
    assertEquals("The SQL in v2.sql uses {trade}, which is neither a source nor a bound value here (known: trades); "
        + "rename it to one of those.", refused.getMessage());
  }

  @Test
  void splitsAScriptAtSemicolonsThatEndALine() {
    List<String> statements = SqlTemplate.of("s", """
        CREATE TABLE {db}.a (x String DEFAULT ';') ENGINE = Memory;
        -- a comment; with a semicolon
        CREATE VIEW {db}.b AS SELECT 1;
        """).statements();
    assertEquals(List.of("CREATE TABLE {db}.a (x String DEFAULT ';') ENGINE = Memory", "CREATE VIEW {db}.b AS SELECT 1"),
        statements);
  }

  @Test
  void everyShippedTemplateUsesOnlyKnownPlaceholders() {
    Set<String> known = Set.of("trades", "marks", "fx_rates", "instruments", "seed", "scale", "first_hour", "hours",
        "arrival_from", "arrival_to", "first_time", "window_start", "window_end");
    for (String file : List.of("generate_instruments.sql", "generate_trades.sql", "generate_marks.sql",
        "generate_fx_rates.sql", "pnl_v1.sql", "pnl_v2.sql")) {
      Set<String> used = SqlTemplate.resource(file).placeholders();
      assertTrue(known.containsAll(used), file + " uses " + used);
    }
  }
}
