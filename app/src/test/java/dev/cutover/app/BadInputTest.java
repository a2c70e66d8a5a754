package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.ServerVersion;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of bad input an operator can type in a hurry, driven through the command line: each
 * is refused with its exact sentence and exit code, and the server is unchanged afterwards (the
 * same databases and tables, with the same row counts and definitions). The world is fresh: not
 * even Cutover's own state tables exist, so creating them would show too.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputTest {

  @TempDir static Path dir;
  private static HourlyWorld world;
  private static Path spec;
  private static HourPartition edge;
  private static HourPartition first;
  private static int tried;

  @BeforeAll
  static void world() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(BadInputTest.class), 2);
    edge = world.liveEdge;
    first = world.first;
    world.sql.execute("a target partitioned by day", "CREATE TABLE visits_by_day AS visits_v1 ENGINE = MergeTree "
        + "PARTITION BY toDate(hour) ORDER BY (hour, site)");
    spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
  }

  @AfterAll
  static void close() {
    System.out.println("[bad-input] " + tried + " inputs refused, each with nothing changed on the server");
    world.db.close();
  }

  /** One bad input: the command line (without connection options), the exit code and the exact sentence. */
  private record Case(String name, Supplier<List<String>> args, int exit, Supplier<String> sentence) {}

  private static Case backfill(String name, Supplier<String> sentence, String... options) {
    return new Case(name, () -> command("backfill", spec, options), ExitCodes.INPUT, sentence);
  }

  private static Case badSpec(String name, UnaryOperator<String> change, Supplier<String> sentence) {
    Path file = dir.resolve(name.replaceAll("[^a-z0-9]+", "-") + ".yaml");
    return new Case(name, () -> {
      write(file, change.apply(world.specYaml()));
      return command("backfill", file);
    }, ExitCodes.INPUT, () -> sentence.get().replace("FILE", file.toString()));
  }

  private static List<String> command(String name, Path specFile, String... options) {
    List<String> all = new ArrayList<>(List.of(name, "--jdbc-url", TestEngine.server().jdbcUrl(), "--database",
        world.database, "--spec", specFile.toString()));
    all.addAll(List.of(options));
    return all;
  }

  @Order(1)
  @TestFactory
  Stream<DynamicTest> eachBadInputIsRefusedWithItsSentenceAndChangesNothing() {
    HourPartition latest = edge.plusHours(-3);
    String db = world.database;
    List<Case> cases = List.of(
        backfill("a boundary in the future", () -> {
          HourPartition now = HourPartition.containing(Instant.now());
          return "The boundary " + now.plusHours(48) + " is in the future (it is now " + now + " UTC); choose a past "
              + "hour at or before " + latest + ".";
        }, "--boundary", HourPartition.containing(Instant.now()).plusHours(48).toString()),
        backfill("a boundary ahead of the live edge", () -> "The boundary " + edge.plusHours(1) + " is ahead of the "
            + "live edge " + edge + " (the newest hour the live writer has written); choose " + latest + " or "
            + "earlier, at least the safety margin of 3 hours behind it.", "--boundary", edge.plusHours(1).toString()),
        backfill("a boundary inside the safety margin", () -> "The boundary " + edge.plusHours(-1) + " is 1 hour(s) "
            + "behind the live edge " + edge + ", less than the safety margin of 3 hours; choose " + latest
            + " or earlier so the live writer keeps every hour from the boundary on.",
            "--boundary", edge.plusHours(-1).toString()),
        backfill("a boundary not on the hour", () -> "The boundary 2026-11-29 10:30 is not on the hour; give a whole "
            + "hour such as 2026-11-29 10:00.", "--boundary", "2026-11-29T10:30"),
        backfill("an hour that is not a date", () -> "The range start (--from) 'yesterday' is not a date and hour; "
            + "write it as 2026-11-29T10:00 (UTC) or 2026-11-29 for midnight.", "--from", "yesterday"),
        backfill("a range before the reprocessing window", () -> "The range start " + first.plusHours(-24) + " is "
            + "before the reprocessing window, which starts at " + first + " (the sources hold data clicks from "
            + first + "); start at " + first + " or later, or bound the repair to the hours the bug touched (an affected "
            + "window): the other hours are carried from visits_v1 and need no source. (option --from)", "--from",
            first.plusHours(-24).toString()),
        backfill("a range from after to", () -> "The range starts at " + first.plusHours(10) + " and ends at "
            + first.plusHours(5) + ", so it holds no hour; give a start before the end.",
            "--from", first.plusHours(10).toString(), "--to", first.plusHours(5).toString()),
        backfill("a range past the boundary", () -> "The range end " + edge.plusHours(-3) + " is after the boundary "
            + edge.plusHours(-5) + "; the backfill writes only hours before the boundary (the live writer owns the "
            + "rest). Leave the end out or give " + edge.plusHours(-5) + " or earlier. (option --to)",
            "--boundary", edge.plusHours(-5).toString(), "--to", edge.plusHours(-3).toString()),
        backfill("a concurrency of zero", () -> "The concurrency is 0; give a whole number from 1 to 32. "
            + "(option --concurrency)",
            "--concurrency", "0"),
        backfill("an affected window past the boundary", () -> "The affected window "
            + new HourRange(first.plusHours(10), latest.plusHours(1)) + " ends after the boundary " + latest
            + "; the backfill recomputes only hours before the boundary (the corrected live writer owns the rest). "
            + "End the affected window at " + latest + " or earlier.",
            "--affected", first.plusHours(10) + "/" + latest.plusHours(1)),
        backfill("an affected window that is not two hours", () -> "The affected window (--affected) '"
            + first.plusHours(10) + "' is not two hours joined by '/'; write it as FROM/TO in UTC, the end exclusive, "
            + "such as 2026-06-03/2026-06-05T12:00.", "--affected", first.plusHours(10).toString()),
        backfill("an affected window that ends before it starts", () -> "The affected window (--affected) starts at "
            + first.plusHours(10) + " and ends at " + first.plusHours(5) + ", so it holds no hour; give a start before "
            + "the end (the end is exclusive).", "--affected", first.plusHours(10) + "/" + first.plusHours(5)),
        backfill("a resumed run that does not exist", () -> "There is no run 20261129-000000-nothing; list runs with "
            + "./cutover status --spec " + spec + ".", "--resume", "20261129-000000-nothing"),
        new Case("a target partitioned by day", () -> {
          write(dir.resolve("daily.yaml"), world.specYaml().replace("target: visits_v2", "target: visits_by_day"));
          return command("backfill", dir.resolve("daily.yaml"));
        }, ExitCodes.BLOCKED, () -> String.format("%-5s %-20s %s%n      %-20s fix: %s", "FAIL", "partition key",
            db + ".visits_by_day is partitioned by toDate(hour), not by toStartOfHour(hour), so an hour cannot be "
                + "replaced on its own.", "", "Recreate visits_by_day with PARTITION BY toStartOfHour(hour) (it holds "
                + "only corrected history), or name another target in tables.target.")
            + "\n...\nerror: preflight failed; nothing was written. Fix what it lists and run backfill again."),
        badSpec("a target that is the consumer view", y -> y.replace("target: visits_v2", "target: visits"),
            () -> "In the spec FILE, field 'tables.target' is 'visits'; expected a table other than "
                + "tables.consumer_view (visits): consumers must not read history while it is rewritten."),
        badSpec("a target that is the v1 table", y -> y.replace("target: visits_v2", "target: visits_v1"),
            () -> "In the spec FILE, field 'tables.target' is 'visits_v1'; expected a table other than tables.live "
                + "(visits_v1): the backfill never writes the live version."),
        badSpec("an unknown live table", y -> y.replace("live: visits_v1", "live: visits_v0"),
            () -> "The live table " + db + ".visits_v0 does not exist; check tables.live and database in the spec."),
        badSpec("an unknown source table", y -> y.replace("- table: clicks", "- name: clicks\n    table: clickz"),
            () -> "The spec names source table " + db + ".clickz, which does not exist; check sources[0].table and "
                + "database."),
        badSpec("an unknown column", y -> y.replace("keys: [site]", "keys: [region]"),
            () -> "The spec names column region, which visits_v1 does not have (it has [hour, site, clicks, users, "
                + "duration_s]); check time_column, keys and measures."),
        badSpec("a missing field", y -> y.replace("time_column: hour\n", ""),
            () -> "In the spec FILE, field 'time_column' is missing; expected a value (see docs/SPEC.md)."),
        badSpec("a field of the wrong type", y -> y.replace("concurrency: 2", "concurrency: two"),
            () -> "In the spec FILE, field 'throttle.concurrency' is 'two'; expected a whole number from 1 to 32."),
        badSpec("a list where a name belongs", y -> y.replace("live: visits_v1", "live: [visits_v1]"),
            () -> "In the spec FILE, field 'tables.live' is '[visits_v1]'; expected a table or column name."),
        badSpec("a table name that tries SQL injection", y -> y.replace("target: visits_v2",
            "target: \"pnl`; DROP TABLE visits_v1; --\""), () -> "The name 'pnl`; DROP TABLE visits_v1; --' in "
                + "spec field 'tables.target' is not a simple name; use ASCII letters, digits and underscores, "
                + "starting with a letter or underscore."),
        badSpec("a database name that tries SQL injection", y -> y.replace("database: " + db,
            "database: \"x`; DROP DATABASE " + db + "; --\""), () -> "The name 'x`; DROP DATABASE " + db + "; --' in "
                + "spec field 'database' is not a simple name; use ASCII letters, digits and underscores, starting "
                + "with a letter or underscore."),
        badSpec("a key column that tries SQL injection", y -> y.replace("keys: [site]",
            "keys: [\"site`) DROP TABLE clicks --\"]"), () -> "The name 'site`) DROP TABLE clicks --' in spec field "
                + "'keys' is not a simple name; use ASCII letters, digits and underscores, starting with a letter or "
                + "underscore."),
        badSpec("a transform with a second statement", y -> y.replace("GROUP BY hour, site",
            "GROUP BY hour, site; DROP TABLE clicks"), () -> "In the spec FILE, the transform has a ';' at line 1, "
                + "column 245 of the transform; expected exactly one query, with no ';' outside quotes."),
        badSpec("a window placeholder inside a string literal", y -> y.replace("toString(site) AS site",
            "toString(site) AS site, '{window_start}' AS dummy"), () -> "In the spec FILE, the transform has "
                + "{window_start} inside a string literal at line 1, column 60 of the transform, where it binds "
                + "nothing; write it outside quotes and comments (for example ts >= {window_start}), or remove it."),
        badSpec("a window bound only in a comment", y -> y.replace("AND ts < {window_end:DateTime}",
            "/* AND ts < {window_end} */"), () -> "In the spec FILE, the transform has {window_end} inside a block "
                + "comment at line 1, column 207 of the transform, where it binds nothing; write it outside quotes and "
                + "comments (for example ts >= {window_start}), or remove it."),
        badSpec("a transform that calls now()", y -> y.replace("WHERE ts >=", "WHERE ts < now() AND ts >="),
            () -> "In the spec FILE, the transform calls now() at line 1, column 170 of the transform, whose result "
                + "changes from run to run, so an hour computed again would not give the same rows; compute from the "
                + "sources and the hour window instead (for example {window_start} for the hour), or, if the "
                + "difference cannot reach v2's rows, allow it with a reason under allow_nondeterministic (see "
                + "docs/SPEC.md)."),
        new Case("a spec that is a directory", () -> command("plan", dir), ExitCodes.INPUT,
            () -> "The spec file " + dir + " is a directory, not a regular file; give the path of the spec file "
                + "itself."),
        new Case("a spec that is a named pipe", () -> command("plan", fifo()), ExitCodes.INPUT,
            () -> "The spec file " + dir.resolve("spec.fifo") + " is a named pipe (FIFO), not a regular file; give "
                + "the path of the spec file itself."),
        new Case("a spec that is /dev/zero", () -> command("plan", Path.of("/dev/zero")), ExitCodes.INPUT,
            () -> "The spec file /dev/zero is a character device, not a regular file; give the path of the spec file "
                + "itself."),
        new Case("a spec of two mebibytes", () -> command("plan", large()), ExitCodes.INPUT,
            () -> "The spec file " + dir.resolve("large.yaml") + " holds 2097152 bytes, more than the limit of "
                + "1048576 bytes (1 MiB); a spec and its transform are a few KiB, so check that the path names the "
                + "right file."),
        new Case("a spec saved as Latin-1", () -> command("plan", latin1()), ExitCodes.INPUT,
            () -> "The spec file " + dir.resolve("latin1.yaml") + " is not UTF-8: the byte at offset 17 (line 2) is "
                + "0xE9, which UTF-8 does not allow there; save the file as UTF-8 (a Latin-1 or Windows editor "
                + "setting writes such bytes)."),
        backfill("an hour with seconds", () -> "The range start (--from) 2026-11-01 00:00:30 is not on the hour: its "
            + "seconds are not zero; give the whole hour 2026-11-01 00:00.", "--from", "2026-11-01T00:00:30"),
        new Case("a spec file that does not exist", () -> command("plan", dir.resolve("nope.yaml")), ExitCodes.INPUT,
            () -> "The spec file " + dir.resolve("nope.yaml") + " does not exist; give the path of a spec with --spec "
                + "(see docs/SPEC.md)."),
        new Case("a --database that tries SQL injection", () -> List.of("backfill", "--jdbc-url",
            TestEngine.server().jdbcUrl(), "--database", db + "`; DROP DATABASE " + db, "--spec", spec.toString()),
            ExitCodes.INPUT, () -> "The name '" + db + "`; DROP DATABASE " + db + "' in database is not a simple name; "
                + "use ASCII letters, digits and underscores, starting with a letter or underscore."),
        new Case("a user name that tries SQL injection", () -> List.of("check", "--jdbc-url",
            TestEngine.server().jdbcUrl(), "--user", "x' OR '1'='1", "--database", db), ExitCodes.INPUT,
            () -> "The user name 'x' OR '1'='1' is empty or holds spaces or quotes; give the ClickHouse user name as it "
                + "was created, for example default. (option --user)"),
        new Case("a user name that may hold a password", () -> List.of("check", "--jdbc-url",
            TestEngine.server().jdbcUrl(), "--user", "ops:hunter22", "--database", db), ExitCodes.INPUT,
            () -> "The user name you gave contains ':', so it is not repeated here: a password typed as user:password? "
                + "Give the user name alone; the password comes from an environment variable, a file or a prompt. "
                + "(option --user)"),
        new Case("a wrong password", () -> List.of("check", "--jdbc-url", TestEngine.server().jdbcUrl(),
            "--database", db, "--password-env", "CUTOVER_TEST_WRONG_PASSWORD"), ExitCodes.CONNECTION,
            () -> "The server at 127.0.0.1:" + TestEngine.server().port() + " refused user 'default' with the given "
                + "password (password from $CUTOVER_TEST_WRONG_PASSWORD); check the user name and the "
                + "password."),
        new Case("a password asked for with no terminal", () -> List.of("check", "--jdbc-url",
            TestEngine.server().jdbcUrl(), "--database", db, "--ask-password"), ExitCodes.INPUT,
            () -> "--ask-password needs a terminal; set the password in $CUTOVER_PASSWORD instead."),
        new Case("an unreachable port", () -> List.of("check", "--jdbc-url", "jdbc:clickhouse://127.0.0.1:" + CLOSED),
            ExitCodes.CONNECTION, () -> "Nothing answers at 127.0.0.1:" + CLOSED + "; check the host and port in the "
                + "JDBC URL (the HTTP port, 8123 by default, or 8443 with TLS) and that the server is running."),
        new Case("a host that does not exist", () -> List.of("check", "--jdbc-url",
            "jdbc:clickhouse://no-such-host.invalid:8123"), ExitCodes.CONNECTION, () -> "The host in "
                + "no-such-host.invalid:8123 is not known to DNS; check the spelling of the host name in the JDBC URL."),
        new Case("TLS asked of a server that speaks plain HTTP", () -> List.of("check", "--jdbc-url",
            "jdbc:clickhouse:https://127.0.0.1:" + TestEngine.server().port(), "--database", db), ExitCodes.CONNECTION,
            () -> "The server at 127.0.0.1:" + TestEngine.server().port() + " does not speak TLS on that port (it "
                + "answers in plain HTTP); give the server's HTTPS port in the JDBC URL (8443 by default)."),
        new Case("a URL that is not ClickHouse", () -> List.of("check", "--jdbc-url", "http://example:8123"),
            ExitCodes.INPUT, () -> "The JDBC URL 'http://example:8123' is not a ClickHouse URL; write it as "
                + "jdbc:clickhouse://HOST:PORT (add ?ssl=true or use jdbc:clickhouse:https:// for TLS)."),
        new Case("a URL that carries a password", () -> List.of("check", "--jdbc-url",
            "jdbc:clickhouse://ops:hunter2@127.0.0.1:8123"), ExitCodes.INPUT, () -> "The JDBC URL carries a user or "
                + "password; remove them from the URL and give the user separately; the password comes from an "
                + "environment variable, a file or a prompt, never from the URL."),
        new Case("a data directory with a server URL", () -> List.of("check", "--jdbc-url",
            TestEngine.server().jdbcUrl(), "--data-dir", dir.toString()), ExitCodes.INPUT,
            () -> "--data-dir applies to the embedded engine only; remove it when connecting with --jdbc-url."),
        new Case("a cutover confirmed with the wrong name", () -> command("cutover", spec, "--confirm", "pnl"),
            ExitCodes.INPUT, () -> "To cutover, confirm with the consumer view's name, visits (you typed "
                + "'pnl'). (option --confirm)"),
        new Case("a reconciliation before any backfill", () -> command("reconcile", spec), ExitCodes.BLOCKED,
            () -> "No repair of " + db + ".visits_v2 is under way, so there is no history to reconcile; "
                + "backfill first."),
        new Case("an acknowledgement before any backfill", () -> command("ack", spec, "--hour", first.plusHours(3)
            .toString(), "--reason", "too early"), ExitCodes.BLOCKED, () -> "No repair of " + db + ".visits_v2 is under "
                + "way; an acknowledgement belongs to one."),
        new Case("a rule that is not one expression", () -> command("plan", ruleSpec("where: v1.duration_s != 0",
            "where: \"1) OR (1\"")), ExitCodes.INPUT, () -> "In the spec, rule 'duration_units' has where '1) OR (1'; "
                + "expected one SQL expression (ClickHouse cannot parse it: Syntax error: failed at position 2 ()): ) OR "
                + "(1. Unmatched parentheses: ))."),
        new Case("a rule over a column that does not exist", () -> command("preflight", ruleSpec(
            "where: v1.duration_s != 0", "where: v1.duration_ms != 0")), ExitCodes.INPUT, () -> "In the spec, rule "
                + "'duration_units' has where 'v1.duration_ms != 0'; expected an expression over v1's and v2's columns "
                + "v1.clicks, v1.users, v1.duration_s, … (the server says: Unknown expression or function identifier "
                + "`v1.duration_ms`. Maybe you meant: ['v1.duration_s'])."),
        new Case("a reconciliation window that does not exist", () -> command("reconcile", spec, "--window",
            "sideways"), ExitCodes.INPUT, () -> "--window is 'sideways'; give all, overlap, history or range."));

    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      List<String> before = serverState();
      CommandRun outcome = run(c.args().get());
      String expected = c.sentence().get();
      if (expected.contains("\n...\n")) {
        String[] parts = expected.split("\n\\.\\.\\.\n");
        assertTrue(outcome.err().contains(parts[0]), outcome.err());
        assertTrue(outcome.err().strip().endsWith(parts[1]), outcome.err());
      } else {
        assertEquals("error: " + expected, outcome.err().strip(), c.name());
      }
      assertEquals(c.exit(), outcome.exit(), c.name() + ": " + outcome.err());
      assertEquals("", outcome.out(), "nothing on stdout for " + c.name());
      assertEquals(before, serverState(), c.name() + " changed the server");
      tried++;
      System.out.println("[bad-input] " + c.name() + ": exit " + outcome.exit() + ": "
          + outcome.err().strip().lines().reduce((a, b) -> b).orElse(""));
    }));
  }

  @Order(2)
  @Test
  void aServerTooOldIsRefusedWithWhatItLacks() {
    // The version check is pure: no ClickHouse older than 24.8 runs here.
    var e = org.junit.jupiter.api.Assertions.assertThrows(ConnectionFailedException.class,
        () -> ServerVersion.parse("23.8.16.40").requireSupported());
    assertEquals(ExitCodes.CONNECTION, ExitCodes.of(e));
    assertEquals("The server runs ClickHouse 23.8.16.40, and Cutover needs 24.8 or newer: it relies on REPLACE "
        + "PARTITION between tables of one structure, EXCHANGE TABLES on Atomic databases, the HTTP interface of the "
        + "current JDBC driver, and query settings such as priority and max_threads. Upgrade the server, or point "
        + "Cutover at a newer one.", e.getMessage());
    tried++;
  }

  @Order(3)
  @Test
  void valuesAreBoundNeverSpliced() throws Exception {
    // A reason full of quotes is data: it is stored as typed and drops nothing. An acknowledgement belongs to a
    // repair, so this one gets a world of its own with a backfill.
    HourlyWorld own = HourlyWorld.create(TestEngine.freshDatabase(BadInputTest.class), 1);
    try {
      Path ownSpec = Files.writeString(dir.resolve("own.yaml"), own.specYaml());
      dev.cutover.engine.Engine engine = new dev.cutover.engine.Engine(own.db);
      dev.cutover.engine.testing.Procedure.backfill(engine, engine.plans().plan(own.spec(), java.util.Optional.empty(),
          java.util.Optional.empty(), java.util.Optional.empty(), engine.plans().defaults(own.spec())));
      String reason = "v1 retried'); DROP TABLE visits_v1; -- \" ` \\";
      List<String> on = List.of("ack", "--jdbc-url", TestEngine.server().jdbcUrl(), "--database", own.database,
          "--spec", ownSpec.toString());
      // An hour with nothing to accept, one not written by both versions, a year no DateTime holds: each refused,
      // nothing written.
      for (String hour : List.of(own.first.plusHours(3).toString(), own.liveEdge.plusHours(48).toString(),
          "9999-12-31T23:00")) {
        CommandRun refused = run(concat(on, List.of("--hour", hour, "--reason", "too early")));
        assertEquals(ExitCodes.INPUT, refused.exit(), hour + ": " + refused.err());
      }
      // Cutover's own tables may exist (the schema is brought up once per version); what counts is no row in them.
      boolean table = own.sql.queryLong("is there an acknowledgement table", "SELECT count() FROM system.tables "
          + "WHERE database = ? AND name = 'acknowledgements'", own.database) > 0;
      assertEquals(0L, table ? own.sql.queryLong("nothing acknowledged", "SELECT count() FROM acknowledgements") : 0L,
          "a refused ack wrote an acknowledgement");
      own.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
          own.first.plusHours(3).epochSecond());
      CommandRun ack = run(concat(on, List.of("--hour", own.first.plusHours(3).toString(), "--reason", reason)));
      assertEquals(0, ack.exit(), ack.err());
      assertEquals(reason, own.sql.queryOne("read the reason", "SELECT reason FROM acknowledgements",
          rs -> rs.getString(1)));
      assertEquals(1L, own.sql.queryLong("visits_v1 is there", "SELECT count() FROM system.tables WHERE database = ? "
          + "AND name = 'visits_v1'", own.database));
    } finally {
      own.db.close();
    }
  }

  /** The world's spec with one piece of text replaced, written as a file of its own. */
  private static Path ruleSpec(String from, String to) {
    try {
      return Files.writeString(Files.createTempFile(dir, "rule-", ".yaml"), world.specYaml().replace(from, to));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static final int CLOSED = closedPort();

  private static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every database and table on the server with its engine, definition time, and rows. */
  private static List<String> serverState() {
    List<String> state = new ArrayList<>(world.sql.query("list databases", "SELECT name || ' ' || engine FROM "
        + "system.databases ORDER BY name", rs -> rs.getString(1)));
    state.addAll(world.sql.query("list tables", "SELECT database, name, engine, toString(metadata_modification_time), "
            + "toString(uuid), ifNull(total_rows, 0), as_select FROM system.tables WHERE database NOT IN ('system', "
            + "'INFORMATION_SCHEMA', 'information_schema') ORDER BY database, name",
        rs -> rs.getString(1) + "." + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4) + " "
            + rs.getString(5) + " rows=" + rs.getLong(6) + " " + rs.getString(7)));
    return state;
  }

  /** A named pipe where a spec is expected: opening it for reading would wait for a writer forever. */
  private static Path fifo() {
    Path fifo = dir.resolve("spec.fifo");
    try {
      if (Files.notExists(fifo)) {
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
      }
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
    return fifo;
  }

  private static Path large() {
    Path file = dir.resolve("large.yaml");
    write(file, "name: " + "x".repeat((2 << 20) - 7) + "\n");
    return file;
  }

  private static Path latin1() {
    try {
      return Files.write(dir.resolve("latin1.yaml"), "spec: 1\nname: caf\u00e9\n".getBytes(
          java.nio.charset.StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static CommandRun run(List<String> args) {
    return CommandRun.of(args);
  }
}
