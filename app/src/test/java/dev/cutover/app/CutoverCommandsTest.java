package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

  /** Waits until {@code status} says {@code text}, failing with the armed command's output if it never does. */
  private void awaitStatus(HourlyWorld world, Path spec, String text, Path log) throws Exception {
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (!run(world, spec, "status").out().contains(text)) {
      if (System.nanoTime() > until) {
        throw new AssertionError("status never said '" + text + "': " + Files.readString(log));
      }
      Thread.sleep(500);
    }
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

    // The armed cutover: bad input first, then armed while the gate is closed. Stopped (Ctrl-C), it disarms itself;
    // armed again, it waits, and switches consumers by itself once the acknowledgement opens the gate.
    CommandRun noWindow = run(world, spec, "cutover", "--arm", "--confirm", "visits");
    assertEquals(2, noWindow.exit());
    assertTrue(noWindow.err().contains("--arm needs --window"), noWindow.err());
    CommandRun badWindow = run(world, spec, "cutover", "--arm", "--window", "two hours", "--confirm", "visits");
    assertEquals(2, badWindow.exit());
    assertTrue(badWindow.err().contains("--window 'two hours' is not a duration"), badWindow.err());
    CommandRun nothing = run(world, spec, "cutover", "--disarm");
    assertEquals(0, nothing.exit(), nothing.err());
    assertTrue(nothing.out().startsWith("Nothing is armed for "), nothing.out());
    List<String> arm = List.of("cutover", "--arm", "--window", "1h", "--every", "1s", "--confirm", "visits",
        "--jdbc-url", TestEngine.server().jdbcUrl(), "--database", world.database, "--spec", spec.toString());
    Path firstLog = dir.resolve("armed-1.log");
    Process first = ChildRun.start(dir, java.util.Map.of(), arm, firstLog);
    awaitStatus(world, spec, "Cutover armed by ", firstLog);
    first.destroy();
    assertTrue(first.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), Files.readString(firstLog));
    CommandRun afterStop = run(world, spec, "status");
    assertFalse(afterStop.out().contains("Cutover armed by "), "Ctrl-C disarms: " + afterStop.out());

    // The window's end: armed while the gate stays closed, the command's next turn past the window removes the arm,
    // switches nothing and exits 6 saying so. (The window, a minute at least, is ended early in the record.)
    List<String> slowTurns = new ArrayList<>(arm);
    slowTurns.set(slowTurns.indexOf("1s"), "3s");
    Path endedLog = dir.resolve("armed-ended.log");
    Process ending = ChildRun.start(dir, java.util.Map.of(), slowTurns, endedLog);
    awaitStatus(world, spec, "Cutover armed by ", endedLog);
    dev.cutover.engine.cutover.ArmWindow.endNow(world.sql, world.database, world.spec());
    assertTrue(ending.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), Files.readString(endedLog));
    String ended = Files.readString(endedLog);
    assertEquals(6, ending.exitValue(), ended);
    assertTrue(ended.contains(") ended before the gate opened; nothing was switched."), ended);
    CommandRun afterWindow = run(world, spec, "status");
    assertFalse(afterWindow.out().contains("Cutover armed by "), "the window's end removes the arm: " + afterWindow.out());
    assertTrue(afterWindow.out().contains("Consumers read v1 ("), "nothing switched: " + afterWindow.out());

    Path secondLog = dir.resolve("armed-2.log");
    Process second = ChildRun.start(dir, java.util.Map.of(), arm, secondLog);
    awaitStatus(world, spec, "Cutover armed by ", secondLog);
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(secondLog).contains("Armed; the gate is closed (") && System.nanoTime() < until) {
      Thread.sleep(250);
    }
    String waiting = Files.readString(secondLog);
    assertTrue(waiting.contains("Armed; the gate is closed (") && waiting.contains("verdict"), "it says why it "
        + "waits: " + waiting);
    assertEquals(0, run(world, spec, "ack", "--hour", incident.toString(), "--reason", "v1 retried an append").exit());
    CommandRun green = run(world, spec, "reconcile", "--export", "csv", dir.resolve("report.csv").toString());
    assertTrue(second.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), Files.readString(secondLog));
    String switched = Files.readString(secondLog);
    assertEquals(0, second.exitValue(), switched);
    assertTrue(switched.contains("cutover: V1 -> V2") && switched.contains("the first time the gate opened"), switched);
    assertFalse(run(world, spec, "status").out().contains("Cutover armed by "), "an arm switches once");
    CommandRun rehearsed = run(world, spec, "rollback", "--confirm", "visits", "--reason", "the armed cutover was a "
        + "rehearsal");
    assertEquals(0, rehearsed.exit(), rehearsed.out() + rehearsed.err());
    // Ctrl-C as a turn begins (the gate is open now, so the turn switches): the turn ends first, switched and
    // verified or not begun, and then the arm goes. Consumers read one version, and the repair says which.
    Path thirdLog = dir.resolve("armed-3.log");
    Process third = ChildRun.start(dir, java.util.Map.of(), arm, thirdLog);
    long turnBegins = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(thirdLog).contains("Cutover: ") && System.nanoTime() < turnBegins) {
      Thread.sleep(10);
    }
    third.destroy();
    assertTrue(third.waitFor(90, java.util.concurrent.TimeUnit.SECONDS), Files.readString(thirdLog));
    var stopped = dev.cutover.app.output.JsonOutput.mapper().readTree(run(world, spec, "status", "--json").out());
    assertTrue(stopped.get("armed").isNull(), "Ctrl-C disarms: " + stopped);
    String reads = stopped.get("consumers_read").asString();
    assertEquals(reads.equals("v2") ? "cut_over" : "rolled_back", stopped.get("repair").get("phase").asString(),
        "the repair says what consumers read (" + reads + "): " + Files.readString(thirdLog));
    if (reads.equals("v2")) {
      assertEquals(0, run(world, spec, "rollback", "--confirm", "visits", "--reason", "stopped the armed cutover's "
          + "rehearsal").exit());
    }
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
