package dev.cutover.engine;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.StoreRecovery;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EmptyDefinitions;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.ledger.CutoverSchema;
import dev.cutover.engine.ledger.OwnTablesRecovery;
import dev.cutover.engine.sql.Sql;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The recovery of an embedded store that a full disk left with empty table definitions: with the server
 * stopped, the empty definitions are set aside (kept, with where each came from); the server then starts, and
 * each of Cutover's own tables among them is attached to its data again; Cutover's other tables are created
 * anew, empty. A table of the operator's (v1, v2, a staging table) is named with its data left in the store.
 */
final class Recovery {

  private Recovery() {}

  static StoreRecovery recover(Path dataDirectory, EngineLibrary library, EngineProgress progress) {
    if (EmbeddedServer.serving(dataDirectory).isPresent()) {
      throw new EmbeddedEngineException("A server runs on " + dataDirectory + ": its store is in use, so it cannot be "
          + "recovered now. Stop it first (cutover server stop), then recover.");
    }
    EmptyDefinitions.SetAside setAside = EmptyDefinitions.setAside(dataDirectory);
    List<EmptyDefinitions.Empty> aside = setAside.moved();
    if (aside.isEmpty()) {
      return new StoreRecovery(List.of(), null, Map.of(), List.of());
    }
    try (Session session = Session.embedded(dataDirectory, library, progress)) {
      Sql sql = session.database().sql();
      Identifier working = Identifier.simple("database", session.database().server().database());
      Set<String> known = new HashSet<>(sql.query("list the store's tables", "SELECT toString(uuid) FROM system.tables "
          + "UNION ALL SELECT toString(uuid) FROM system.databases", rs -> rs.getString(1)));
      Map<String, List<String>> orphans = EmptyDefinitions.orphans(dataDirectory, known);
      List<String> ours = aside.stream().filter(e -> e.database().equals(working.name())).map(EmptyDefinitions.Empty::table)
          .toList();
      Map<String, String> restored = OwnTablesRecovery.reattach(sql, working, ours, orphans);
      CutoverSchema.ensure(sql, working);
      List<String> byHand = aside.stream().filter(e -> !e.database().equals(working.name())
          || !CutoverSchema.owns(e.table())).map(EmptyDefinitions.Empty::toString).toList();
      return new StoreRecovery(aside.stream().map(EmptyDefinitions.Empty::toString).toList(), setAside.folder(), restored,
          byHand);
    }
  }
}
