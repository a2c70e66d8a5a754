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
    for (String name : List.of("state-tables.sql", "report-tables.sql", "repair-log.sql", "schema-version.sql")) {
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
      assertEquals(List.of("acknowledgement_withdrawals", "acknowledgements", "audit", "ledger",
          "reconciliation_carried_totals", "reconciliation_completed", "reconciliation_counts", "reconciliation_coverage",
          "reconciliation_hours", "reconciliation_keys", "reconciliation_lapsed", "reconciliations", "repair_log", "runs",
          "swaps"),
          sql.query("list the tables", "SELECT name FROM system.tables WHERE database = ? ORDER BY name",
              rs -> rs.getString(1), database.name()));
      assertEquals(1, sql.queryLong("find the step column", "SELECT count() FROM system.columns WHERE database = ? "
          + "AND table = 'runs' AND name = 'step'", database.name()));
    }
  }

  /**
   * Once a version's scripts have run, a later command runs none of them: on a full disk an {@code ALTER … ADD
   * COLUMN IF NOT EXISTS} that adds nothing still rewrites the table's definition, and can leave it empty.
   */
  @Test
  void theSchemaIsBroughtUpToDateOncePerVersionNotByDdlOnEveryCommand() throws Exception {
    try (Database db = TestEngine.freshDatabase(SchemaScriptTest.class)) {
      Sql sql = db.sql();
      Identifier database = Identifier.of(db.server().database());
      assertFalse(CutoverSchema.current(sql, database));
      CutoverSchema.ensure(sql, database);
      assertTrue(CutoverSchema.current(sql, database));
      assertEquals(CutoverSchema.VERSION, sql.queryOne("read the version", "SELECT argMax(version, at) FROM "
          + database.quoted() + ".schema_version", rs -> rs.getString(1)));
      var written = definitionTimes(sql, database);
      Thread.sleep(1100); // the times are in seconds

      CutoverSchema.forget(sql, database); // as a new process does
      CutoverSchema.ensure(sql, database);
      new StateStore(sql, database.name()).present();
      new ReportStore(sql, database.name()).present();
      assertEquals(written, definitionTimes(sql, database), "no definition was written again");

      // What every command did before: the scripts again, which rewrite the definitions they alter.
      SchemaScript.resource("state-tables.sql").run(sql, database);
      assertTrue(definitionTimes(sql, database).get("runs") > written.get("runs"), "this test sees a rewrite");

      sql.execute("lose a table", "DROP TABLE " + database.quoted() + ".reconciliation_lapsed");
      assertFalse(CutoverSchema.current(sql, database), "a table missing is not the current version");
    }
  }

  private static java.util.Map<String, Long> definitionTimes(Sql sql, Identifier database) {
    java.util.Map<String, Long> out = new java.util.TreeMap<>();
    sql.query("read when each definition was written", "SELECT name, toUnixTimestamp(metadata_modification_time) "
        + "FROM system.tables WHERE database = ?", rs -> out.put(rs.getString(1), rs.getLong(2)), database.name());
    return out;
  }
}
