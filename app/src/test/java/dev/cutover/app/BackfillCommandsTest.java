package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** plan, preflight, sample, backfill and status from the command line, on a real world. */
class BackfillCommandsTest {

  @TempDir static Path dir;
  private static HourlyWorld world;
  private static Path spec;

  @BeforeAll
  static void world() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(BackfillCommandsTest.class), 2);
    spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
  }

  @AfterAll
  static void close() {
    world.db.close();
  }

  private static CommandRun run(String command, String... args) {
    return runWith(spec, command, args);
  }

  private static CommandRun runWith(Path specFile, String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, "--jdbc-url", TestEngine.server().jdbcUrl(), "--database",
        world.database, "--spec", specFile.toString()));
    all.addAll(List.of(args));
    return CommandRun.of(all);
  }

  @Test
  void anAcknowledgementWithoutAReasonIsRefusedBeforeAnythingIsWritten() {
    StateStore store = new StateStore(world.sql, world.database);
    int runs = store.runs(null).size();
    int audit = store.auditTrail(null, 100_000).size();
    String alerts = world.database + ".visits_alerts_mv";
    for (String command : List.of("preflight", "backfill")) {
      CommandRun bare = run(command, "--acknowledge", alerts);
      assertEquals(2, bare.exit(), command + ": " + bare.out() + bare.err());
      assertEquals("error: --acknowledge " + alerts + " needs --reason TEXT: add why replaying history through it is "
          + "safe, such as --reason \"its alerts for replayed hours are suppressed downstream\". The backfill writes "
          + "it to the audit trail, with your name, before any hour.", bare.err().strip(), command);

      CommandRun blank = run(command, "--acknowledge", alerts, "--reason", " ");
      assertEquals(2, blank.exit(), command + ": " + blank.out() + blank.err());
      assertTrue(blank.err().startsWith("error: Acknowledging " + alerts + " needs a written reason: why replaying "
          + "history through it is safe") && blank.err().strip().endsWith("(option --reason)"), blank.err());

      CommandRun twoLines = run(command, "--acknowledge", alerts, "--reason", "muted\nuntil Monday");
      assertEquals(2, twoLines.exit(), command + ": " + twoLines.out() + twoLines.err());
      assertTrue(twoLines.err().contains("has a line break or another control character; give it on one line."),
          twoLines.err());

      CommandRun reasonAlone = run(command, "--reason", "alerts are muted");
      assertEquals(2, reasonAlone.exit(), command + ": " + reasonAlone.out() + reasonAlone.err());
      assertTrue(reasonAlone.err().startsWith("error: --reason is the reason for --acknowledge;"), reasonAlone.err());
    }
    assertEquals(runs, store.runs(null).size(), "no run was started");
    assertEquals(audit, store.auditTrail(null, 100_000).size(), "nothing went to the audit trail");
  }

  @Test
  void theWholeFlowFromTheCommandLine() {
    CommandRun plan = run("plan");
    assertEquals(0, plan.exit(), plan.err());
    assertTrue(plan.out().contains("  boundary  " + world.liveEdge.plusHours(-3) + " UTC (live edge " + world.liveEdge
        + " UTC)"), plan.out());
    // v2 holds none of the hours yet: the first batch goes straight into it.
    assertTrue(plan.out().contains("INSERT INTO `" + world.database + "`.`visits_v2` "), plan.out());
    CommandRun bounded = run("plan", "--affected", world.first.plusHours(6) + "/" + world.first.plusHours(18));
    assertEquals(0, bounded.exit(), bounded.err());
    long carried = java.time.Duration.between(world.first.start(), world.liveEdge.plusHours(-3).start()).toHours() - 12;
    assertTrue(bounded.out().contains("  affected  " + world.first.plusHours(6) + " to " + world.first.plusHours(18)
        + " UTC: 12 hours recomputed; " + carried + " hours carried unchanged from visits_v1 by hard links of its parts "
        + "(no recompute)"), bounded.out());

    CommandRun preflight = run("preflight", "--json");
    assertEquals(0, preflight.exit(), preflight.out() + preflight.err());
    assertTrue(preflight.out().startsWith("{\"command\":\"preflight\",\"passed\":true,\"checks\":["), preflight.out());

    CommandRun sample = run("sample", "--hour", world.first.plusHours(2).toString());
    assertEquals(0, sample.exit(), sample.err());
    assertTrue(sample.out().contains("key(s) differ as the spec's rules expect, 0 unexpectedly."), sample.out());

    CommandRun backfill = run("backfill", "--concurrency", "2", "--batch-hours", "4");
    assertEquals(0, backfill.exit(), backfill.out() + backfill.err());
    assertTrue(backfill.out().startsWith("succeeded: run "), backfill.out());
    assertTrue(backfill.err().contains("Backfill: 100% 44/44 hours"), backfill.err());
    long lines = backfill.err().lines().filter(l -> l.startsWith("Backfill: ")).count();
    assertTrue(lines >= 1 && lines <= 11, "plain lines, at most one at each tenth: " + backfill.err());

    CommandRun status = run("status", "--json");
    assertEquals(0, status.exit(), status.err());
    assertTrue(status.out().contains("\"state\":\"succeeded\""), status.out());
    assertTrue(status.out().contains("\"failed\":[],\"pending\":0,"), status.out());
  }
}
