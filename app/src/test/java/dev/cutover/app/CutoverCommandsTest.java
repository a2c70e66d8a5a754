package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** backfill, reconcile (red, then acknowledged), cutover, rollback, cutover again: all from the command line. */
class CutoverCommandsTest {

  @TempDir Path dir;

  private record Outcome(int exit, String out, String err) {}

  private Outcome run(HourlyWorld world, Path spec, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--jdbc-url", TestEngine.server().jdbcUrl(), "--database", world.database, "--spec", spec.toString()));
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true));
    System.setErr(new PrintStream(err, true));
    try {
      return new Outcome(Main.run(all.toArray(String[]::new)), out.toString(), err.toString());
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  @Test
  void theProcedureEndToEnd() throws Exception {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(CutoverCommandsTest.class), 2);
    Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    HourPartition incident = world.first.plusHours(4);
    world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        incident.epochSecond());

    assertEquals(0, run(world, spec, "backfill").exit());
    HourPartition boundary = world.liveEdge.plusHours(-3);
    world.writeLiveV2(boundary, world.liveEdge.plusHours(1));

    Outcome red = run(world, spec, "reconcile", "--export", "html", dir.resolve("report.html").toString());
    assertEquals(6, red.exit(), red.out() + red.err());
    assertTrue(red.out().contains(": red"), red.out());
    assertTrue(red.out().contains("unexpected " + incident + " ["), red.out());
    String html = Files.readString(dir.resolve("report.html"));
    assertTrue(html.startsWith("<!doctype html>") && html.contains("<svg") && html.contains(incident.toString()));

    Outcome refused = run(world, spec, "cutover", "--confirm", "visits");
    assertEquals(2, refused.exit());
    assertTrue(refused.err().startsWith("error: The cutover is refused: reconciliation (The latest reconciliation"),
        refused.err());

    assertEquals(0, run(world, spec, "ack", "--hour", incident.toString(), "--reason", "v1 retried an append").exit());
    Outcome green = run(world, spec, "reconcile", "--export", "csv", dir.resolve("report.csv").toString());
    assertEquals(0, green.exit(), green.out() + green.err());
    assertTrue(green.out().contains(": acknowledged"), green.out());
    assertTrue(Files.readString(dir.resolve("report.csv")).startsWith("section,hour,owner,status,rows_v1,rows_v2,clicks_v1"));

    Outcome check = run(world, spec, "cutover", "--check");
    assertEquals(0, check.exit(), check.out());
    assertTrue(check.out().contains("[x] reconciliation"), check.out());

    Outcome noConfirm = run(world, spec, "cutover");
    assertEquals(2, noConfirm.exit());
    assertEquals("error: To cutover, confirm with the consumer view's name: --confirm visits.", noConfirm.err().strip());

    Outcome cut = run(world, spec, "cutover", "--confirm", "visits");
    assertEquals(0, cut.exit(), cut.out() + cut.err());
    assertTrue(cut.out().contains("cutover: V1 -> V2"), cut.out());
    Outcome back = run(world, spec, "rollback", "--confirm", "visits", "--json");
    assertEquals(0, back.exit(), back.out() + back.err());
    assertTrue(back.out().contains("\"after\": \"v1\""), back.out());
    assertEquals(0, run(world, spec, "cutover", "--confirm", "visits").exit());

    Outcome retention = run(world, spec, "retention");
    assertEquals(0, retention.exit());
    assertTrue(retention.out().startsWith("Keep v1 for 21 h after the cutover"), retention.out());
    world.db.close();
  }
}
