package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.Session;
import dev.cutover.engine.testing.TestEngine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code cutover demo …} as an operator runs it, against the real engine over JDBC. */
class DemoCommandTest {

  private static Database database;
  private static String demoDatabase;

  record Run(int exit, String out, String err) {}

  @BeforeAll
  static void freshDatabase() {
    database = TestEngine.freshDatabase(DemoCommandTest.class);
    demoDatabase = database.profile().database();
  }

  @AfterAll
  static void close() {
    database.close();
  }

  @Test
  void seedStatusDeployAndRunTheLiveJob() {
    Run seeded = demo("seed", "--scale", "0.05", "--history-days", "2", "--end", "2026-11-30T09:00", "--seed", "5");
    assertEquals(ExitCodes.OK, seeded.exit(), seeded.err());
    assertTrue(seeded.out().startsWith("Seeded the demo world in " + demoDatabase + " in "), seeded.out());
    assertTrue(seeded.out().contains(" trades from 2026-11-28 09:00 UTC to 2026-11-30 09:00 UTC (seed 5, scale 0.05); "
        + "pnl_v1 has "), seeded.out());
    assertTrue(seeded.out().contains("Incident: pnl_v1 holds the hour 2026-11-2"), seeded.out());
    assertTrue(seeded.err().contains("Seeding pnl_v1: 100% 48/48 hours"), seeded.err());

    Run again = demo("seed", "--scale", "2");
    assertEquals(ExitCodes.OK, again.exit());
    assertTrue(again.out().startsWith("The demo world in " + demoDatabase + " is already seeded (seed 5, scale 0.05, "
        + "2 days from 2026-11-28 09:00 UTC); nothing was written."), again.out());

    Run status = demo("status");
    assertEquals(ExitCodes.OK, status.exit(), status.err());
    assertTrue(status.out().contains("  clock         2026-11-30 09:10 UTC (simulated)\n"), status.out());
    assertTrue(status.out().contains("  watermark     2026-11-30 09:00 UTC: every hour before it is closed\n"), status.out());
    assertTrue(status.out().contains("  v1 edge       2026-11-30 09:00 UTC ("), status.out());
    assertTrue(status.out().contains("  v2 edge       none\n"), status.out());
    assertTrue(status.out().contains("  v2 from       not deployed\n"), status.out());
    assertTrue(status.out().contains("live job: not running\n"), status.out());
    assertTrue(status.out().contains("incident: 2026-11-2"), status.out());
    assertTrue(status.out().contains("fee bug: in the whole history\n"), status.out());

    Run unpinned = demo("deploy-v2");
    assertEquals(ExitCodes.INPUT, unpinned.exit());
    assertEquals("error: No backfill has pinned a boundary yet, so there is no B to deploy from: run the backfill first "
        + "(it prints the boundary), or give --from HOUR.\n", unpinned.err());

    Run halfHour = demo("deploy-v2", "--from", "2026-11-30T07:30");
    assertEquals(ExitCodes.INPUT, halfHour.exit());
    assertEquals("error: The from 2026-11-30T07:30 is not on the hour; give a whole UTC hour such as 2026-11-30T07:00.\n",
        halfHour.err());
    assertTrue(demo("status").out().contains("  v2 from       not deployed\n"), "nothing was written");

    Run deployed = demo("deploy-v2", "--from", "2026-11-30T07:00");
    assertEquals(ExitCodes.OK, deployed.exit(), deployed.err());
    assertEquals("v2 deployed from 2026-11-30 07:00 UTC: the live job writes pnl_v2 for every hour from there on, "
        + "catching up 2 hours that have closed first.\nNo live job is running: start one with './cutover demo live'.\n",
        deployed.out());

    Run live = demo("live", "--speed", "60ms", "--steps", "3");
    assertEquals(ExitCodes.OK, live.exit(), live.err());
    assertTrue(live.out().startsWith("live job live-"), live.out());
    assertTrue(live.out().contains(" on " + demoDatabase + ": clock 2026-11-30 09:10 UTC, every hour before 2026-11-30 "
        + "09:00 UTC is closed; one simulated hour every 60 ms."), live.out());
    List<String> steps = live.out().lines().filter(l -> l.startsWith("clock ")).toList();
    assertEquals(3, steps.size(), live.out());
    assertTrue(steps.getFirst().contains("; wrote v2 2026-11-30 07:00 UTC ("), steps.getFirst());
    assertTrue(live.out().contains("stopped; the next './cutover demo live' continues from 2026-11-30 09:40 UTC."),
        live.out());

    Run after = demo("status");
    assertTrue(after.out().contains("  clock         2026-11-30 09:40 UTC (simulated)\n"), after.out());
    assertTrue(after.out().contains("  v2 from       2026-11-30 07:00 UTC (the live job writes v2 from here on)\n"),
        after.out());
    assertTrue(after.out().contains("  v2 edge       2026-11-30 09:00 UTC ("), after.out());
  }

  @Test
  void refusesBadInputWithASentence() {
    Run scale = demo("seed", "--scale", "0");
    assertEquals(ExitCodes.INPUT, scale.exit());
    assertEquals("error: The scale 0.0 is out of range; give a number above 0 and at most 100 (1 makes about 5 million "
        + "trades over six months).\n", scale.err());
    Run speed = demo("live", "--speed", "fast");
    assertEquals(ExitCodes.INPUT, speed.exit());
    assertTrue(speed.err().startsWith("error: The speed 'fast' is not understood;"), speed.err());
    Run from = demo("deploy-v2", "--from", "tomorrow");
    assertEquals(ExitCodes.INPUT, from.exit());
    assertTrue(from.err().startsWith("error: The from 'tomorrow' is not a date and hour;"), from.err());
  }

  @Test
  void exportsTheSpecAsFilesThatLoad(@TempDir Path folder) {
    Run exported = run("export-spec", "--out", folder.toString(), "--demo-database", "world_two");
    assertEquals(ExitCodes.OK, exported.exit(), exported.err());
    assertTrue(Files.exists(folder.resolve("pnl_v2.sql")));
    TableSpec spec = dev.cutover.engine.spec.SpecLoader.load(folder.resolve("pnl.yaml"));
    assertEquals("`world_two`.`pnl_v1`", spec.qualified(spec.liveTable()));
    assertTrue(spec.transform().contains("FROM {trades}"), spec.transform());
    assertEquals("fees-subtracted", spec.expectedDifferences().getFirst().name());
    Run twice = run("export-spec", "--out", folder.toString());
    assertEquals(ExitCodes.INPUT, twice.exit());
    assertTrue(twice.err().contains("exists; pass --force to overwrite it"), twice.err());
  }

  /** A demo command on the test engine's server, in the test's demo database. */
  private static Run demo(String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, "--jdbc-url", TestEngine.server().jdbcUrl(),
        "--database", Session.EMBEDDED_DATABASE, "--demo-database", demoDatabase));
    all.addAll(List.of(args));
    return run(all.toArray(String[]::new));
  }

  /** As Main runs a command: known failures become one line and an exit code. */
  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new DemoCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof CutoverException known) {
        commandLine.getErr().println("error: " + known.getMessage());
        return ExitCodes.of(known);
      }
      throw e;
    });
    cli.setParameterExceptionHandler((e, unmatched) -> {
      e.getCommandLine().getErr().println("error: " + e.getMessage());
      return ExitCodes.INPUT;
    });
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
