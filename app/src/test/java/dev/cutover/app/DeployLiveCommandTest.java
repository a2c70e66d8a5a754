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
    assertTrue(JsonContract.requireDocument("status", after).contains("\"live_view\":\"" + database.profile().database()
        + ".pnl_v2_mv\",\"live_view_exists\":true"), after.out());
  }

  /**
   * A transform that reads two time-stamped sources cannot be one view: the view would fire on inserts into the
   * first only and read the second whole since B at each, counting its rows again with every block. deploy-live,
   * the preflight and the backfill refuse it, and nothing is created.
   */
  @Test
  void aTransformOverTwoSourcesIsNotDeployedAsOneView() throws Exception {
    String db = database.profile().database();
    database.sql().execute("a second source", "CREATE TABLE `" + db + "`.fees_paid "
        + "(event_time DateTime('UTC'), book String, instrument String, fee Decimal(18, 4)) ENGINE = MergeTree "
        + "ORDER BY event_time");
    java.nio.file.Files.writeString(spec.resolveSibling("two_sources.sql"), """
        SELECT t.hour AS hour, t.book AS book, t.instrument AS instrument, t.currency AS currency,
          t.quantity AS quantity, t.notional AS notional, f.fees AS fees, t.cash - f.fees AS cash_pnl,
          t.trade_count AS trade_count
        FROM (
          SELECT toStartOfHour(event_time) AS hour, book, instrument, currency,
            sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS quantity, sum(toInt64(quantity) * price) AS notional,
            sum(if(side = 'sell', 1, -1) * toInt64(quantity) * price) AS cash, count() AS trade_count
          FROM {trades} WHERE event_time >= {window_start} AND event_time < {window_end}
          GROUP BY hour, book, instrument, currency) AS t
        LEFT JOIN (
          SELECT toStartOfHour(event_time) AS hour, book, instrument, sum(fee) AS fees
          FROM {fees} WHERE event_time >= {window_start} AND event_time < {window_end}
          GROUP BY hour, book, instrument) AS f USING (hour, book, instrument)
        """);
    String yaml = java.nio.file.Files.readString(spec);
    String twoSources = yaml.replace("    description: Every execution, stamped with its event time.\n",
        "    description: Every execution, stamped with its event time.\n  - name: fees\n    table: fees_paid\n"
            + "    time_column: event_time\n").replace("file: pnl_mv_v2.sql", "file: two_sources.sql");
    assertTrue(!twoSources.equals(yaml) && twoSources.contains("table: fees_paid") && twoSources.contains(
        "two_sources.sql"), twoSources);
    java.nio.file.Files.writeString(spec, twoSources);

    for (List<String> step : List.of(List.of("deploy-live"), List.of("deploy-live", "--confirm"))) {
      CommandRun refused = run(step.toArray(String[]::new));
      assertEquals(2, refused.exit(), step + ": " + refused.out() + refused.err());
      assertTrue(refused.err().contains("The transform reads 2 sources (trades, fees_paid), and a materialized view "
          + "fires only on inserts into the first table of its query (trades)"), refused.err());
    }
    // The preflight and the backfill say the same, rather than send the operator to deploy-live.
    for (String step : List.of("preflight", "backfill")) {
      CommandRun refused = run(step);
      assertEquals(2, refused.exit(), step + ": " + refused.out() + refused.err());
      assertTrue(refused.err().contains("The transform reads 2 sources (trades, fees_paid)"), refused.err());
    }
    assertEquals(0L, database.sql().queryLong("no view was created", "SELECT count() FROM "
        + "system.tables WHERE database = ? AND name = 'pnl_v2_mv'", db));
    assertTrue(run("status").out().contains("./cutover deploy-live --spec " + spec + " --confirm"),
        "no repair was started");
  }

  /**
   * A transform that removes duplicates does so per insert block in a view: deploy-live warns, on stderr and in its
   * JSON, before the operator confirms.
   */
  @Test
  void aTransformThatRemovesDuplicatesIsDeployedWithAWarning() throws Exception {
    Path transform = spec.resolveSibling("pnl_mv_v2.sql");
    String text = java.nio.file.Files.readString(transform);
    assertTrue(text.contains("count() AS trade_count"), text);
    java.nio.file.Files.writeString(transform, text.replace("count() AS trade_count", "uniqExact(trade_id) AS "
        + "trade_count"));
    CommandRun shown = run("deploy-live", "--json");
    assertEquals(0, shown.exit(), shown.err());
    assertTrue(shown.err().contains("warning: The transform removes duplicates (uniqExact()), and a materialized view "
        + "runs it on each insert block alone"), shown.err());
    assertTrue(JsonContract.requireDocument("deploy-live", shown).contains("\"warning\":\"The transform removes "
        + "duplicates (uniqExact())"), shown.out());
    // Deployed anyway, the preflight of every backfill says it again, as a warning of its live writer check.
    assertEquals(0, run("deploy-live", "--confirm").exit());
    CommandRun preflight = run("preflight");
    assertTrue(preflight.out().contains("The transform removes duplicates (uniqExact())"), preflight.out()
        + preflight.err());
  }
}
