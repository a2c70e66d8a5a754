package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.EmbeddedEngine;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StoreRecovery;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose table definitions a full disk left empty: the server's start names them and the recovery
 * instead of failing on the first, and the recovery sets them aside, gives Cutover's own tables their data
 * back, and starts the server with the run history as it was.
 */
class DamagedStoreTest {

  @TempDir Path dir;

  @Test
  void emptyDefinitionsAreNamedAtTheStartAndTheRecoveryGivesCutoversTablesTheirDataBack() throws Exception {
    String target;
    RunRecord done;
    try (Session session = Session.embedded(dir, EngineLibrary.fromEnvironment(), ServerAccess.open(),
        EngineProgress.NONE)) {
      EmbeddedServer server = session.embeddedServer().orElseThrow();
      try (var c = java.sql.DriverManager.getConnection(server.jdbcUrl(), server.user(),
          new String(server.password().resolve())); var s = c.createStatement()) {
        s.execute("CREATE DATABASE world ENGINE = Atomic");
      }
      try (Database db = Database.open(server.profile("world"))) {
        HourlyWorld world = HourlyWorld.create(db, 1);
        TableSpec spec = world.spec();
        Engine engine = new Engine(session);
        Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
            engine.plans().defaults(spec));
        done = Procedure.backfill(engine, plan);
        assertEquals(RunState.SUCCEEDED, done.state(), done.message());
        target = done.target();
      }
    }
    EmbeddedServer.stopRunning(dir, "the test empties two definitions, as a full disk does");

    // What a full disk left: the definition of the runs table, and of an empty table of Cutover's, empty.
    Path runs = definition("runs");
    Path withdrawals = definition("acknowledgement_withdrawals");
    Files.write(runs, new byte[0]);
    Files.write(withdrawals, new byte[0]);

    var refused = assertThrows(EmbeddedEngineException.class, () -> EmbeddedServer.startOrJoin(dir,
        EngineLibrary.fromEnvironment(), EngineProgress.NONE));
    assertTrue(refused.getMessage().startsWith("The server's store in " + dir.toAbsolutePath().normalize() + " holds 2 "
        + "table definition(s) left empty, as a disk that ran out of space leaves them: "
        + "cutover.acknowledgement_withdrawals (clickhouse/store/"), refused.getMessage());
    assertTrue(refused.getMessage().contains("cutover.runs (clickhouse/store/"), refused.getMessage());
    assertTrue(refused.getMessage().contains("recover the store (cutover server recover, with the same data directory)"),
        refused.getMessage());
    assertFalse(EmbeddedEngine.serving(dir).isPresent(), "no server was started on the damaged store");

    StoreRecovery recovered;
    try {
      recovered = EmbeddedEngine.recover(dir, EngineProgress.NONE);
    } catch (RuntimeException e) {
      throw new AssertionError("the recovery failed; the server's log ends with: " + ServerLog.tail(
          new ServerDirectory(dir), 40), e);
    }
    assertEquals(List.of("cutover.acknowledgement_withdrawals", "cutover.runs"), recovered.setAside().stream().sorted()
        .toList());
    assertEquals(List.of("runs"), List.copyOf(recovered.restored().keySet()), "the runs table has data to come back to");
    assertEquals(List.of(), recovered.byHand());
    assertTrue(Files.readString(recovered.folder().resolve("set-aside.tsv")).contains("cutover.runs\t"));
    assertTrue(Files.size(runs) > 0, "the runs table has its definition again");
    try (var kept = Files.walk(recovered.folder())) {
      assertEquals(2, kept.filter(f -> f.toString().endsWith(".sql")).count(), "both empty files are kept aside");
    }

    try (Session again = Session.embedded(dir, EngineLibrary.fromEnvironment(), ServerAccess.open(),
        EngineProgress.NONE)) {
      List<RunRecord> history = new dev.cutover.engine.ledger.StateStore(again.database().sql(), "cutover").runs(target);
      assertEquals(List.of(done.id()), history.stream().map(RunRecord::id).toList(), "the run history is back");
      assertEquals(RunState.SUCCEEDED, history.getFirst().state());
    } finally {
      EmbeddedServer.stopRunning(dir, "the test is done");
    }
  }

  /** The file of Cutover's table {@code table} in the store: the working database's folder, by its UUID. */
  private Path definition(String table) throws Exception {
    Path store = dir.resolve("clickhouse");
    String db = Files.readString(store.resolve("metadata").resolve("cutover.sql"));
    String uuid = db.replaceAll("(?s).*UUID '([0-9a-f-]{36})'.*", "$1");
    return store.resolve("store").resolve(uuid.substring(0, 3)).resolve(uuid).resolve(table + ".sql");
  }
}
