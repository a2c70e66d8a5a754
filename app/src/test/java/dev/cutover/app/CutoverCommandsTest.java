package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** backfill, reconcile (red, then acknowledged), cutover, rollback, cutover again: all from the command line. */
class CutoverCommandsTest {

  @TempDir Path dir;

  private CommandRun run(HourlyWorld world, Path spec, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--jdbc-url", TestEngine.server().jdbcUrl(), "--database", world.database, "--spec", spec.toString()));
    return CommandRun.of(all);
  }

  @Test
  void theProcedureEndToEnd() throws Exception {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(CutoverCommandsTest.class), 2);
    Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    HourPartition incident = world.busyHour(4);
    world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        incident.epochSecond());

    assertEquals(0, run(world, spec, "backfill").exit());
    HourPartition boundary = world.liveEdge.plusHours(-3);
    world.writeLiveV2(boundary, world.liveEdge.plusHours(1));

    CommandRun red = run(world, spec, "reconcile", "--export", "html", dir.resolve("report.html").toString());
    assertEquals(6, red.exit(), red.out() + red.err());
    assertTrue(red.out().contains(": red"), red.out());
    assertTrue(red.out().contains("Unexpected: "), red.out());
    assertTrue(red.out().lines().anyMatch(l -> l.startsWith("  " + incident + " UTC") && l.contains("duplicate_in_v1")),
        red.out());
    assertTrue(red.err().contains("Sampling 24 hours") && red.err().contains("Saving the report"),
        "the steps of the reconciliation are shown as it runs: " + red.err());
    String html = Files.readString(dir.resolve("report.html"));
    assertTrue(html.startsWith("<!doctype html>") && html.contains("<svg") && html.contains(incident.toString()));

    // Finding 9: a closed gate exited 2 (bad input); it is a refused step, exit 6, with or without --check.
    CommandRun refused = run(world, spec, "cutover", "--confirm", "visits");
    assertEquals(6, refused.exit(), refused.err());
    assertTrue(refused.err().lines().anyMatch(l -> l.startsWith("error: The cutover is refused: verdict (The verdict "
        + "over the whole repair, ")), refused.err());
    assertTrue(refused.err().contains("Cutover: 5%, Judging the cutover gate from the data now"), refused.err());
    assertEquals(6, run(world, spec, "cutover", "--check").exit());
    CommandRun noRollback = run(world, spec, "rollback", "--check");
    assertEquals(6, noRollback.exit(), noRollback.out());
    assertTrue(noRollback.out().startsWith("The rollback gate is closed."), noRollback.out());
    assertTrue(noRollback.out().contains("[ ] consumers read v2"), noRollback.out());

    assertEquals(0, run(world, spec, "ack", "--hour", incident.toString(), "--reason", "v1 retried an append").exit());
    CommandRun green = run(world, spec, "reconcile", "--export", "csv", dir.resolve("report.csv").toString());
    assertEquals(0, green.exit(), green.out() + green.err());
    assertTrue(green.out().contains(": acknowledged"), green.out());
    assertTrue(Files.readString(dir.resolve("report.csv")).startsWith("section,hour,owner,status,rows_v1,rows_v2,clicks_v1"));

    CommandRun check = run(world, spec, "cutover", "--check");
    assertEquals(0, check.exit(), check.out());
    assertTrue(check.out().startsWith("The cutover gate is open."), check.out());
    for (String condition : List.of("repair", "verdict", "data now", "live writer from B", "overlap", "v2 caught up",
        "no backfill running")) {
      assertTrue(check.out().contains("[x] " + condition), condition + ": " + check.out());
    }

    CommandRun noConfirm = run(world, spec, "cutover");
    assertEquals(2, noConfirm.exit());
    assertEquals("error: To cutover, confirm with the consumer view's name, visits. (option --confirm)", noConfirm.err().strip());

    CommandRun cut = run(world, spec, "cutover", "--confirm", "visits");
    assertEquals(0, cut.exit(), cut.out() + cut.err());
    assertTrue(cut.out().contains("cutover: V1 -> V2"), cut.out());
    assertTrue(cut.out().contains("verified: visits returns visits_v2's rows for all "), cut.out());
    // Finding 9: rollback --check showed the cutover gate and exited 6 even when a rollback was possible.
    CommandRun rollbackCheck = run(world, spec, "rollback", "--check");
    assertEquals(0, rollbackCheck.exit(), rollbackCheck.out());
    assertTrue(rollbackCheck.out().startsWith("The rollback gate is open."), rollbackCheck.out());
    assertTrue(rollbackCheck.out().contains("[x] rollback handle"), rollbackCheck.out());
    CommandRun abandon = run(world, spec, "abandon", "--confirm", "visits_v2", "--reason", "changed my mind");
    assertEquals(6, abandon.exit(), abandon.err());
    assertTrue(abandon.err().contains("Roll back first to abandon it"), abandon.err());
    CommandRun status = run(world, spec, "status");
    assertTrue(status.out().contains(": cut over (since "), status.out());
    assertTrue(status.out().contains("next         Consumers read visits_v2."), status.out());
    CommandRun blank = run(world, spec, "rollback", "--confirm", "visits", "--reason", "  ");
    assertEquals(2, blank.exit(), blank.out() + blank.err());
    assertTrue(blank.err().contains("A reason for the rollback was asked for but is blank"), blank.err());
    assertTrue(run(world, spec, "status").out().contains(": cut over (since "), "a blank reason switches nothing");
    CommandRun back = run(world, spec, "rollback", "--confirm", "visits", "--reason", "desk 7 moved; checking the fix",
        "--json");
    assertEquals(0, back.exit(), back.out() + back.err());
    assertTrue(back.out().contains("\"after\":\"v1\""), back.out());
    var rollback = new dev.cutover.engine.Engine(world.db).repairs().audit(null, 20).stream()
        .filter(a -> a.action().equals("rollback")).findFirst().orElseThrow();
    assertTrue(rollback.detail().endsWith("Reason: desk 7 moved; checking the fix"), rollback.detail());
    assertEquals(0, run(world, spec, "cutover", "--confirm", "visits").exit());

    CommandRun retention = run(world, spec, "retention");
    assertEquals(0, retention.exit());
    assertTrue(retention.out().startsWith("Keep v1 for 21 h 00 min after the cutover"), retention.out());
    world.db.close();
  }
}
