package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.sql.Sql;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cutover's own tables given their data back after their definitions were lost (a full disk left them empty
 * and a recovery set them aside): each table's definition, as this version's scripts make it, is matched
 * against the columns of the table folders no table owns, and the one folder with exactly those columns is
 * attached under the table's name with its UUID. The run history, ledger and verdicts come back as they were.
 */
public final class OwnTablesRecovery {

  private OwnTablesRecovery() {}

  /**
   * Attaches, for each of {@code lost} that is one of Cutover's tables and that {@code database} lacks, the one
   * folder of {@code orphans} (UUID to its column lines, {@code `name` Type}) whose columns are the table's.
   * Returns each table attached with the UUID of its folder; a table with no such folder, or more than one, is
   * left for {@link CutoverSchema#ensure} to create empty.
   */
  public static Map<String, String> reattach(Sql sql, Identifier database, Collection<String> lost,
      Map<String, List<String>> orphans) {
    Map<String, String> attached = new LinkedHashMap<>();
    Set<String> present = Set.copyOf(sql.query("list Cutover's tables", "SELECT name FROM system.tables WHERE "
        + "database = ?", rs -> rs.getString(1), database.name()));
    List<String> wanted = lost.stream().filter(CutoverSchema.TABLES::contains).filter(t -> !present.contains(t))
        .toList();
    if (wanted.isEmpty() || orphans.isEmpty()) {
      return attached;
    }
    // Each definition as this version writes it, in a database of its own that is dropped afterwards.
    Identifier scratch = Identifier.simple("database", database.name() + "_recovery");
    sql.execute("create a database to read Cutover's definitions in", "CREATE DATABASE IF NOT EXISTS "
        + scratch.quoted() + " ENGINE = Atomic");
    try {
      for (SchemaScript script : CutoverSchema.scripts()) {
        script.run(sql, scratch);
      }
      Map<String, List<String>> left = new HashMap<>(orphans);
      for (String table : wanted) {
        List<String> columns = sql.query("read the columns of " + table, "SELECT name, type FROM system.columns "
            + "WHERE database = ? AND table = ? ORDER BY position", rs -> "`" + rs.getString(1) + "` " + rs.getString(2),
            scratch.name(), table);
        List<String> matching = left.entrySet().stream().filter(e -> e.getValue().equals(columns))
            .map(Map.Entry::getKey).toList();
        if (matching.size() != 1) {
          continue;
        }
        String uuid = matching.getFirst();
        String create = sql.queryOne("read the definition of " + table, "SELECT create_table_query FROM system.tables "
            + "WHERE database = ? AND name = ?", rs -> rs.getString(1), scratch.name(), table);
        String body = create.substring(create.indexOf('('));
        sql.execute("attach " + table + " to its data", "ATTACH TABLE " + database.quoted() + "."
            + Identifier.of(table).quoted() + " UUID '" + uuid.replaceAll("[^0-9a-f-]", "") + "' " + body);
        attached.put(table, uuid);
        left.remove(uuid);
      }
    } finally {
      try {
        sql.execute("drop the database Cutover's definitions were read in", "DROP DATABASE IF EXISTS "
            + scratch.quoted());
      } catch (dev.cutover.engine.api.QueryFailedException e) {
        // Left for the next recovery, which makes it again if missing: it holds only empty tables.
      }
    }
    CutoverSchema.forget(sql, database);
    return attached;
  }
}
