package dev.cutover.engine.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaScriptTest {

  @Test
  void everyStatementOfTheShippedScriptsSaysWhatItDoes() {
    for (String name : List.of("state-tables.sql", "report-tables.sql", "repair-log.sql")) {
      var steps = SchemaScript.resource(name).steps();
      assertFalse(steps.isEmpty(), name);
      for (var step : steps) {
        assertFalse(step.what().isBlank(), name + ": " + step.text());
        assertTrue(step.text().contains("{db}."), name + " names its tables in the working database: " + step.text());
        assertFalse(step.text().contains("--") || step.text().endsWith(";"), name + ": " + step.text());
      }
    }
  }

  @Test
  void aStatementWithoutItsWordsOrCutShortIsRefused() {
    assertThrows(IllegalStateException.class, () -> SchemaScript.parse("CREATE TABLE {db}.t (x UInt8) ENGINE = Memory;"));
    assertThrows(IllegalStateException.class, () -> SchemaScript.parse("-- step: create t\nCREATE TABLE {db}.t (x UInt8)"));
  }

  @Test
  void theStateTablesAreCreatedOnceAndTheScriptRunsAgainOnThem() {
    try (Database db = TestEngine.freshDatabase(SchemaScriptTest.class)) {
      Sql sql = db.sql();
      Identifier database = Identifier.of(db.server().database());
      for (String name : List.of("state-tables.sql", "report-tables.sql", "repair-log.sql")) {
        SchemaScript.resource(name).run(sql, database);
        SchemaScript.resource(name).run(sql, database); // a newer version starts on tables an older one made
      }
      assertEquals(List.of("acknowledgements", "audit", "ledger", "reconciliation_counts", "reconciliation_coverage",
          "reconciliation_hours", "reconciliation_keys", "reconciliations", "repair_log", "runs", "swaps"),
          sql.query("list the tables", "SELECT name FROM system.tables WHERE database = ? ORDER BY name",
              rs -> rs.getString(1), database.name()));
      assertEquals(1, sql.queryLong("find the step column", "SELECT count() FROM system.columns WHERE database = ? "
          + "AND table = 'runs' AND name = 'step'", database.name()));
    }
  }
}
