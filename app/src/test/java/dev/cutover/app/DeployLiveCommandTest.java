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
    String planned = JsonContract.requireDocument("deploy-live", run("deploy-live", "--json"));
    assertTrue(planned.contains("\"state\":\"planned\"") && planned.contains("\"warning\":null"), planned);

    CommandRun created = run("deploy-live", "--confirm", "--json");
    assertEquals(0, created.exit(), created.err());
    assertTrue(JsonContract.requireDocument("deploy-live", created).contains("\"state\":\"created\""), created.out());
    CommandRun again = run("deploy-live", "--confirm");
    assertEquals(0, again.exit(), again.err());
    assertTrue(again.out().contains("already writes"), again.out());
    CommandRun after = run("status", "--json");
    String db = database.profile().database();
    assertTrue(JsonContract.requireDocument("status", after).contains("\"live_view\":\"" + db + ".pnl_v2_mv, " + db
        + ".pnl_v2_fees_mv\",\"live_view_exists\":true"), "both views, one per source: " + after.out());
  }

  /**
   * A transform that reads two time-stamped sources cannot be one view: the view would fire on inserts into the
   * first only and read the second whole since B at each, counting its rows again with every block. With the demo's
   * two sources given one view (tables.live_view) instead of one per source, deploy-live, the preflight and the
   * backfill refuse it, and nothing is created.
   */
  @Test
  void aTransformOverTwoSourcesIsNotDeployedAsOneView() throws Exception {
    String db = database.profile().database();
    String yaml = java.nio.file.Files.readString(spec);
    int from = yaml.indexOf("live_views:");
    int to = yaml.indexOf("\n\n", from);
    String oneView = yaml.substring(0, from) + yaml.substring(to + 2);
    oneView = oneView.replace("  consumer_view: pnl ", "  live_view: pnl_v2_mv\n  consumer_view: pnl ");
    assertTrue(from > 0 && oneView.contains("live_view: pnl_v2_mv") && !oneView.contains("\nlive_views:"), oneView);
    java.nio.file.Files.writeString(spec, oneView);

    for (List<String> step : List.of(List.of("deploy-live"), List.of("deploy-live", "--confirm"))) {
      CommandRun refused = run(step.toArray(String[]::new));
      assertEquals(2, refused.exit(), step + ": " + refused.out() + refused.err());
      assertTrue(refused.err().contains("The transform reads 2 sources (trades, fees), and a materialized view "
          + "fires only on inserts into the first table of its query (trades)"), refused.err());
      assertTrue(refused.err().contains("give one view per source instead (live_views in the spec"), refused.err());
    }
    // The preflight and the backfill say the same, rather than send the operator to deploy-live.
    for (String step : List.of("preflight", "backfill")) {
      CommandRun refused = run(step);
      assertEquals(2, refused.exit(), step + ": " + refused.out() + refused.err());
      assertTrue(refused.err().contains("The transform reads 2 sources (trades, fees)"), refused.err());
    }
    assertEquals(0L, database.sql().queryLong("no view was created", "SELECT count() FROM "
        + "system.tables WHERE database = ? AND name LIKE 'pnl_v2%mv'", db));
    assertTrue(run("status").out().contains("./cutover deploy-live --spec " + spec + " --confirm"),
        "no repair was started");
  }

  /**
   * A view's query that removes duplicates does so per insert block: deploy-live warns, on stderr and in its JSON,
   * before the operator confirms.
   */
  @Test
  void aTransformThatRemovesDuplicatesIsDeployedWithAWarning() throws Exception {
    Path transform = spec.resolveSibling("pnl_mv_v2_trades.sql");
    String text = java.nio.file.Files.readString(transform);
    assertTrue(text.contains("count() AS trade_count"), text);
    java.nio.file.Files.writeString(transform, text.replace("count() AS trade_count", "uniqExact(trade_id) AS "
        + "trade_count"));
    CommandRun shown = run("deploy-live", "--json");
    assertEquals(0, shown.exit(), shown.err());
    assertTrue(shown.err().contains("warning: The query of the corrected view pnl_v2_mv removes duplicates "
        + "(uniqExact()), and a materialized view runs it on each insert block alone"), shown.err());
    assertTrue(JsonContract.requireDocument("deploy-live", shown).contains("\"warning\":\"The query of the "
        + "corrected view pnl_v2_mv removes duplicates (uniqExact())"), shown.out());
    // Deployed anyway, the preflight of every backfill says it again, as a warning of its live writer check.
    assertEquals(0, run("deploy-live", "--confirm").exit());
    CommandRun preflight = run("preflight");
    assertTrue(preflight.out().contains("The query of the corrected view pnl_v2_mv removes duplicates (uniqExact())"),
        preflight.out() + preflight.err());
  }
}
