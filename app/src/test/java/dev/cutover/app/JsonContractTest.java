package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.output.JsonOutput;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Every command's --json on the real engine, validated against its schema (docs/JSON.md): the whole
 * procedure on a small hourly world, and every demo command on a small demo world. The documents it
 * saw are written to target/json-examples, where docs/JSON.md's examples come from.
 */
class JsonContractTest {

  @TempDir Path dir;

  private static CommandRun run(List<String> connection, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(connection);
    return CommandRun.of(all);
  }

  /** {@code command}, then {@code options}, then {@code more}: one command's words. */
  private static String[] with(String command, List<String> options, String... more) {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(options);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  private static JsonNode parse(String json) {
    return JsonOutput.mapper().readTree(json);
  }

  private static String keep(String name, String json) throws Exception {
    Path examples = Path.of("target", "json-examples");
    Files.createDirectories(examples);
    Files.writeString(examples.resolve(name + ".json"), json + "\n");
    return json;
  }

  private static JsonNode document(String schema, int exit, CommandRun run) throws Exception {
    assertEquals(exit, run.exit(), run.out() + run.err());
    return parse(keep(schema, JsonContract.requireDocument(schema, run)));
  }

  @Test
  void everyCommandOfTheProcedureWritesItsDocument() throws Exception {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(JsonContractTest.class), 2);
    try {
      Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
      List<String> on = List.of("--jdbc-url", TestEngine.server().jdbcUrl(), "--database", world.database, "--spec",
          spec.toString(), "--json");
      HourPartition incident = world.busyHour(4);
      world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 "
          + "WHERE hour = toDateTime(?, 'UTC')", incident.epochSecond());
      // A view that alerts on v1: the backfill starts only once it is acknowledged with a reason.
      world.sql.execute("an alerting view", "CREATE MATERIALIZED VIEW visits_alerts_mv ENGINE = MergeTree ORDER BY "
          + "site AS SELECT site, clicks FROM visits_v1 WHERE clicks > 100");
      String alerts = world.database + ".visits_alerts_mv";
      String why = "its alerts for replayed hours are dropped by the pager's age filter";
      List<String> acknowledge = List.of("--acknowledge", alerts, "--reason", why);

      JsonNode check = document("check", 0, run(on.subList(0, 4), "check", "--json"));
      assertEquals(world.database, check.get("database").asString());
      JsonNode plan = document("plan", 0, run(on, "plan"));
      HourPartition b = world.liveEdge.plusHours(-3);
      assertEquals(b.start().toString(), plan.get("boundary").asString());
      assertEquals(world.first.start().toString(), plan.get("range").get("from").asString());
      JsonNode blocked = document("preflight", 6, run(on, "preflight"));
      assertEquals(alerts, blocked.get("dependents").get(0).get("name").asString(), blocked.toString());
      assertTrue(blocked.get("dependents").get(0).get("reason").isNull(), blocked.toString());
      JsonNode preflight = document("preflight", 0, run(on, with("preflight", acknowledge)));
      assertEquals(why, preflight.get("dependents").get(0).get("reason").asString(), preflight.toString());
      assertTrue(preflight.get("dependents").get(0).get("acknowledged").asBoolean(), preflight.toString());
      JsonNode sample = document("sample", 0, run(on, "sample", "--hour", world.busyHour(3).toString(), "--keys", "2"));
      assertTrue(sample.get("keys_truncated").asBoolean(), sample.toString());

      CommandRun backfillRun = run(on, with("backfill", acknowledge, "--progress", "json", "--rest-percent", "10"));
      JsonNode backfill = document("backfill", 0, backfillRun);
      assertEquals("succeeded", backfill.get("run").get("state").asString());
      // The throttle the run ran with: the command line's rest over the spec's, and the spec's defaults.
      JsonNode parameters = backfill.get("run").get("parameters");
      assertEquals(10, parameters.get("rest_percent").asInt(), parameters.toString());
      assertEquals(0, parameters.get("nice").asInt(), parameters.toString());
      assertTrue(parameters.get("concurrency").isInt(), parameters.toString());
      assertTrue(backfill.get("next").get("command").asString().startsWith("./cutover declare-live --spec " + spec),
          backfill.toString());
      requireProgressEvents(backfillRun.err(), "backfill", "Backfill");

      JsonNode declared = document("declare-live", 0, run(on, "declare-live", "--writer", "visits-job 4.2"));
      assertEquals("declared", declared.get("state").asString(), declared.toString());
      assertEquals(b.start().toString(), declared.get("boundary").asString());
      world.writeLiveV2(b, world.liveEdge.plusHours(1));
      JsonNode status = document("status", 0, run(on, "status"));
      assertEquals("visits-job 4.2", status.get("repair").get("declared_writer").get("writer").asString());
      assertEquals(b.start().toString(), status.get("repair").get("boundary").asString());
      assertEquals(0, status.get("ledger").get("pending").asLong());
      // The backfill wrote the acknowledgement to the audit trail when it started: who, when, which run, and why.
      JsonNode sideEffect = status.get("repair").get("side_effects").get(0);
      assertEquals(List.of(alerts, "visits_v1", why, backfill.get("run").get("id").asString(),
          System.getProperty("user.name")), List.of(sideEffect.get("dependent").asString(),
          sideEffect.get("reads").asString(), sideEffect.get("reason").asString(), sideEffect.get("run").asString(),
          sideEffect.get("acknowledged_by").asString().split("@")[0]), sideEffect.toString());
      assertEquals(1, status.get("repair").get("side_effects").size(), status.toString());

      JsonNode red = document("reconcile", 6, run(on, "reconcile", "--export", "html",
          dir.resolve("report.html").toString()));
      // The incident's doubled rows: grouped by hour and class, and each of its keys listed.
      keep("reconcile-red", red.toString());
      JsonNode group = red.get("unexpected").get(0);
      assertEquals(incident.start().toString(), group.get("hour").asString());
      assertEquals("duplicate_in_v1", group.get("kind").asString());
      assertEquals(red.get("unexpected_keys").asLong(), group.get("keys").asLong());
      assertEquals(group.get("keys").asLong(), red.get("keys").size(), red.toString());
      assertTrue(red.get("export").get("keys").asString().endsWith(".csv"));

      document("cutover", 6, run(on, "cutover", "--check"));
      JsonNode ack = document("ack", 0, run(on, "ack", "--hour", incident.toString(), "--reason", "v1 retried"));
      assertTrue(ack.get("whole_hour").asBoolean());
      JsonNode acknowledged = document("reconcile", 0, run(on, "reconcile"));
      assertEquals("acknowledged", acknowledged.get("verdict").asString());
      assertEquals(0, acknowledged.get("unexpected").size());
      assertTrue(document("cutover", 0, run(on, "cutover", "--check")).get("open").asBoolean());
      keep("cutover-check", parse(Files.readString(Path.of("target", "json-examples", "cutover.json"))).toString());
      JsonNode cut = document("cutover", 0, run(on, "cutover", "--confirm", "visits"));
      assertTrue(cut.get("verified").asBoolean(), cut.toString());
      document("rollback", 0, run(on, "rollback", "--check"));
      keep("rollback-check", parse(Files.readString(Path.of("target", "json-examples", "rollback.json"))).toString());
      assertEquals("v1", document("rollback", 0, run(on, "rollback", "--confirm", "visits")).get("after").asString());
      JsonNode retention = document("retention", 0, run(on, "retention"));
      assertTrue(retention.get("keep_seconds").isNumber());
      document("cleanup", 0, run(on, "cleanup"));
      JsonNode abandon = document("abandon", 0, run(on, "abandon", "--confirm", "visits_v2", "--reason", "a test"));
      assertEquals(b.start().toString(), abandon.get("boundary").asString());
    } finally {
      world.db.close();
    }
  }

  @Test
  void everyDemoCommandWritesItsDocument(@TempDir Path folder) throws Exception {
    var database = TestEngine.freshDatabase(JsonContractTest.class);
    try {
      String demo = database.profile().database();
      List<String> on = List.of("--jdbc-url", TestEngine.server().jdbcUrl(), "--database", demo, "--demo-database",
          demo, "--json");
      CommandRun seedRun = run(on, "demo", "seed", "--scale", "0.05", "--history-days", "1", "--end",
          "2026-11-30T09:00", "--seed", "3", "--progress", "json");
      JsonNode seed = document("demo-seed", 0, seedRun);
      assertTrue(seed.get("created").asBoolean());
      assertEquals("2026-11-29T09:00:00Z", seed.get("history_start").asString());
      requireProgressEvents(seedRun.err(), "demo seed", "Seeding pnl_v1");
      JsonNode status = document("demo-status", 0, run(on, "demo", "status"));
      assertEquals(seed.get("trades").asLong(), status.get("volumes").get("trades").asLong());
      JsonNode deploy = document("demo-deploy-v2", 0, run(on, "demo", "deploy-v2", "--from", "2026-11-30T07:00"));
      assertEquals("2026-11-30T07:00:00Z", deploy.get("boundary").asString());

      CommandRun live = run(on, "demo", "live", "--speed", "60ms", "--steps", "2");
      assertEquals(0, live.exit(), live.err());
      List<String> events = live.out().lines().toList();
      assertEquals(4, events.size(), live.out());
      events.forEach(e -> JsonContract.requireFits("demo-live", e));
      assertEquals(List.of("started", "step", "step", "stopped"), events.stream().map(e -> parse(e).get("event")
          .asString()).toList());
      keep("demo-live", String.join("\n", events));

      document("demo-export-spec", 0, CommandRun.of(List.of("demo", "export-spec", "--out", folder.toString(),
          "--demo-database", demo, "--json")));
      JsonNode reset = document("demo-reset", 0, run(on, "demo", "reset", "--scale", "0.05", "--history-days", "1",
          "--end", "2026-11-30T09:00", "--seed", "3", "--progress", "none"));
      assertTrue(reset.get("created").asBoolean());
    } finally {
      database.close();
    }
  }

  /** --progress json: every line of stderr an event of the contract, a step, its end, and the finish. */
  private static void requireProgressEvents(String err, String command, String step) throws Exception {
    List<String> lines = err.lines().filter(l -> !l.isBlank()).toList();
    assertFalse(lines.isEmpty(), "no progress events");
    for (String line : lines) {
      JsonContract.requireFits("progress-event", line);
      assertEquals(command, parse(line).get("command").asString(), line);
    }
    assertTrue(lines.stream().map(JsonContractTest::parse).anyMatch(e -> e.get("event").asString().equals("progress")
        && e.get("step").asString().equals(step) && e.get("done").asLong() == e.get("total").asLong()), err);
    assertEquals("finished", parse(lines.getLast()).get("event").asString(), err);
    keep("progress-" + command.replace(' ', '-'), String.join("\n", lines));
  }
}
