package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.SeedOptions;
import dev.cutover.app.demo.SeedProgress;
import dev.cutover.app.demo.Seeder;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Statements;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code deploy-live} from the command line: what it would do, then doing it once, with its JSON contract. */
class DeployLiveCommandTest {

  @TempDir Path dir;
  private Database database;
  private Path spec;

  @BeforeEach
  void viewFedWorld() {
    database = TestEngine.freshDatabase(DeployLiveCommandTest.class);
    DemoWorld world = DemoWorld.in(database.profile().database());
    new Seeder(Statements.over(database), world).seed(new SeedOptions(5, 0.02, 1,
        Instant.parse("2026-11-30T09:00:00Z"), 0, true), SeedProgress.NONE);
    spec = DemoSpec.export(dir, world.database().name(), true, true);
  }

  @AfterEach
  void close() {
    database.close();
  }

  private CommandRun run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--spec", spec.toString(), "--jdbc-url", TestEngine.server().jdbcUrl(), "--database",
        database.profile().database()));
    return CommandRun.of(all);
  }

  @Test
  void withoutConfirmationItShowsBAndTheStatementThenDeploysOnce() {
    CommandRun status = run("status");
    assertTrue(status.out().contains("./cutover deploy-live --spec " + spec + " --confirm"), status.out());
    CommandRun backfill = run("backfill");
    assertEquals(6, backfill.exit(), "a view-fed spec is not backfilled before its view is deployed: " + backfill.err());
    assertTrue(backfill.err().contains("deploy-live"), backfill.err());

    CommandRun shown = run("deploy-live");
    assertEquals(0, shown.exit(), shown.err());
    assertTrue(shown.out().startsWith("Would create " + database.profile().database() + ".pnl_v2_mv"), shown.out());
    assertTrue(shown.out().contains("CREATE MATERIALIZED VIEW"), shown.out());
    assertTrue(JsonContract.requireDocument("deploy-live", run("deploy-live", "--json")).contains("\"state\":\"planned\""));

    CommandRun created = run("deploy-live", "--confirm", "--json");
    assertEquals(0, created.exit(), created.err());
    assertTrue(JsonContract.requireDocument("deploy-live", created).contains("\"state\":\"created\""), created.out());
    CommandRun again = run("deploy-live", "--confirm");
    assertEquals(0, again.exit(), again.err());
    assertTrue(again.out().contains("already writes"), again.out());
    CommandRun after = run("status", "--json");
    assertTrue(JsonContract.requireDocument("status", after).contains("\"live_view\":\"" + database.profile().database()
        + ".pnl_v2_mv\""), after.out());
  }
}
