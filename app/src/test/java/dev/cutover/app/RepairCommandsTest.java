package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.output.JsonOutput;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.backfill.BackfillProbe;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The repair from the command line: the pinned boundary, status at a glance, resume, sample counts. */
class RepairCommandsTest {

  @TempDir Path dir;
  private HourlyWorld world;
  private Path spec;

  @BeforeEach
  void world() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(RepairCommandsTest.class), 2);
    spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private CommandRun run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--jdbc-url", TestEngine.server().jdbcUrl(), "--database", world.database));
    return CommandRun.of(all);
  }

  /** Finding 1 from the command line: the first backfill pins B; another boundary exits 2 naming it. */
  @Test
  void theBoundaryIsPinnedAndStatusSaysWhereTheRepairStands() {
    CommandRun none = run("status", "--spec", spec.toString());
    assertEquals(0, none.exit());
    assertTrue(none.out().startsWith("Repair of " + world.database + ".visits_v2: none yet; the first backfill starts "
        + "one and pins its boundary."), none.out());
    assertTrue(none.out().contains("./cutover backfill --spec " + spec), none.out());

    CommandRun first = run("backfill", "--spec", spec.toString());
    assertEquals(0, first.exit(), first.err());
    HourPartition b = world.liveEdge.plusHours(-3);
    assertTrue(first.err().contains("boundary " + b + " UTC (pinned by this run)"), first.err());
    assertTrue(first.out().contains("Next: the corrected live writer must write every hour from " + b + " UTC on"),
        first.out());
    assertTrue(first.out().contains("\n  ./cutover declare-live --spec " + spec + " --writer \"…\" && ./cutover "
        + "status --spec " + spec), first.out());

    world.advance(5, java.util.Optional.empty());
    CommandRun plan = run("plan", "--spec", spec.toString());
    assertEquals(0, plan.exit(), plan.err());
    assertTrue(plan.out().contains("boundary  " + b + " UTC, pinned by the repair"), plan.out());
    CommandRun moved = run("plan", "--spec", spec.toString(), "--boundary", world.liveEdge.plusHours(-3).toString()
        .replace(' ', 'T'));
    assertEquals(2, moved.exit(), moved.err());
    assertTrue(moved.err().startsWith("error: The repair of " + world.database + ".visits_v2 pinned the boundary B = "
        + b + " when its first backfill started"), moved.err());

    CommandRun status = run("status", "--spec", spec.toString());
    assertTrue(status.out().contains(": backfilled (since "), status.out());
    assertTrue(status.out().contains("boundary B   " + b + " UTC, pinned"), status.out());
    assertTrue(status.out().contains("live writer  The corrected live writer has not written v2 yet; it must start at "
        + "B = " + b + "."), status.out());
    assertTrue(status.out().contains("next         Deploy the corrected live writer"), status.out());
    CommandRun json = run("status", "--spec", spec.toString(), "--json");
    assertTrue(json.out().contains("\"phase\":\"backfilled\""), json.out());
    assertTrue(json.out().contains("\"kind\":\"deploy_live_writer\""), json.out());

    // The operator declares their writer deployed: the repair waits for its first hour instead of asking again.
    CommandRun blank = run("declare-live", "--spec", spec.toString(), "--writer", " ");
    assertEquals(2, blank.exit(), blank.err());
    assertTrue(blank.err().startsWith("error: Say which writer was deployed"), blank.err());
    CommandRun declared = run("declare-live", "--spec", spec.toString(), "--writer", "visits-job 4.2");
    assertEquals(0, declared.exit(), declared.err());
    assertTrue(declared.out().startsWith("Declared: visits-job 4.2 writes visits_v2 from B = " + b + " UTC for "
        + "repair "), declared.out());
    var waiting = JsonOutput.mapper().readTree(run("status", "--spec", spec.toString(), "--json").out()).get("repair")
        .get("next");
    assertEquals("wait_for_live_writer", waiting.get("kind").asString(), waiting.toString());
    assertTrue(waiting.get("sentence").asString().startsWith("The corrected live writer (visits-job 4.2) was declared "
        + "deployed from B = " + b + " by "), waiting.toString());
    CommandRun shown = run("status", "--spec", spec.toString());
    assertTrue(shown.out().contains("\n  declared     visits-job 4.2, by "), shown.out());
    var redeclared = JsonOutput.mapper().readTree(run("declare-live", "--spec", spec.toString(), "--writer",
        "visits-job 4.2", "--json").out());
    assertEquals("already declared", redeclared.get("state").asString(), redeclared.toString());

    // Once the corrected writer is deployed, a backfill's next step is the repair's, not the deployment again.
    world.writeLiveV2(b, world.liveEdge.plusHours(1));
    CommandRun again = run("backfill", "--spec", spec.toString());
    assertEquals(0, again.exit(), again.err());
    var next = JsonOutput.mapper().readTree(run("status", "--spec", spec.toString(), "--json").out()).get("repair")
        .get("next");
    assertTrue(!next.get("kind").asString().equals("deploy_live_writer"), next.toString());
    assertTrue(again.out().contains("Next: " + next.get("sentence").asString() + "\n  " + next.get("command")
        .asString()), again.out() + "\n" + next);
    assertTrue(!again.out().contains("must write every hour from"), again.out());
  }

  /**
   * Finding 8 from the command line: a resumed run kept its range but not its throttle, and a killed
   * run showed as "running" for as long as one cared to look.
   */
  @Test
  void aKilledRunShowsAsInterruptedAndResumesWithItsThrottle() throws Exception {
    Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", System.getProperty("java.class.path"),
        BackfillProbe.class.getName(), TestEngine.server().jdbcUrl(), world.database, spec.toString(), "start")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String runId;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(probe.getInputStream()))) {
      runId = out.readLine().substring(4);
      probe.destroyForcibly();
      assertTrue(probe.waitFor(30, TimeUnit.SECONDS));
    }
    CommandRun status = run("status", "--spec", spec.toString());
    assertTrue(status.out().lines().anyMatch(l -> l.startsWith("  " + runId) && l.contains(" interrupted ")),
        status.out());
    assertTrue(status.out().contains("./cutover backfill --spec " + spec + " --resume " + runId), status.out());

    // The probe ran at two hours per batch and 150 rows/s; the resume keeps both, and changes what it is told.
    // Without a run id, --resume takes the repair's latest run: the interrupted one.
    CommandRun resumed = run("backfill", "--spec", spec.toString(), "--resume", "--concurrency", "1");
    assertEquals(0, resumed.exit(), resumed.err());
    assertTrue(resumed.err().contains("Run " + runId + " resumed: ") && resumed.err().contains("1 batch(es) of 2 h at "
        + "once, at most 150 rows/s"), resumed.err());
    assertEquals(RunState.SUCCEEDED, new StateStore(world.sql, world.database).run(runId).orElseThrow().state());
  }

  /** Finding 9: sample printed the length of its key list as the number of differing keys. */
  @Test
  void sampleCountsEveryDifferingKeyNotTheListShown() {
    CommandRun sample = run("sample", "--spec", spec.toString(), "--hour", world.busyHour(3).toString().replace(' ', 'T'),
        "--hour", world.busyHour(4).toString().replace(' ', 'T'), "--keys", "3");
    assertEquals(0, sample.exit(), sample.err());
    assertTrue(sample.out().contains("10 key(s) differ as the spec's rules expect, 0 unexpectedly (list cut at 3)."),
        sample.out());
  }

  /** The demo's corrected live writer is deployed from the boundary the repair pinned, and from no other hour. */
  @Test
  void theDemosLiveWriterIsDeployedFromThePinnedBoundary(@TempDir Path folder) {
    String demo = TestEngine.freshDatabase(RepairCommandsTest.class).profile().database();
    assertEquals(0, run("demo", "seed", "--scale", "0.05", "--history-days", "2", "--end", "2026-11-30T09:00", "--seed",
        "6", "--demo-database", demo).exit());
    Path demoSpec = dev.cutover.app.spec.DemoSpec.export(folder, demo, true);
    String why = "alerts for replayed hours are suppressed downstream";
    CommandRun backfill = run("backfill", "--spec", demoSpec.toString(), "--acknowledge", demo + ".pnl_alerts_mv",
        "--reason", why);
    assertEquals(0, backfill.exit(), backfill.err());
    String runId = backfill.out().substring("succeeded: run ".length()).split(",")[0];
    // The acknowledgement the run wrote to the audit trail when it started, as status shows it.
    CommandRun status = run("status", "--spec", demoSpec.toString());
    assertTrue(status.out().lines().anyMatch(l -> l.matches("  side effect +" + java.util.regex.Pattern.quote(demo
        + ".pnl_alerts_mv (reads pnl_v1) acknowledged by " + System.getProperty("user.name") + "@") + ".* for run "
        + runId + ": " + why)), status.out());
    assertTrue(backfill.out().contains("Next: the corrected live writer must write every hour from 2026-11-30 05:00 UTC "
        + "on"), backfill.out());
    assertTrue(backfill.out().contains("\n  ./cutover demo deploy-v2 --from 2026-11-30T05:00 --demo-database " + demo),
        backfill.out());

    CommandRun other = run("demo", "deploy-v2", "--from", "2026-11-30T07:00", "--demo-database", demo);
    assertEquals(2, other.exit());
    assertTrue(other.err().startsWith("error: The repair of " + demo + ".pnl_v2 pinned the boundary B = 2026-11-30 05:00 "
        + "when its first backfill started; the corrected live writer must start exactly there"), other.err());
    CommandRun pinned = run("demo", "deploy-v2", "--demo-database", demo);
    assertEquals(0, pinned.exit(), pinned.err());
    assertTrue(pinned.out().startsWith("v2 deployed from 2026-11-30 05:00 UTC"), pinned.out());
    var next = JsonOutput.mapper().readTree(run("status", "--spec", demoSpec.toString(), "--json").out())
        .get("repair").get("next");
    assertEquals("wait_for_live_writer", next.get("kind").asString(), next.toString());
    assertTrue(next.get("sentence").asString().startsWith("The corrected live writer ("
        + dev.cutover.app.demo.DemoWriterDeclaration.WRITER + ") was declared deployed from B = 2026-11-30 05:00 by "),
        next.toString());
  }
}
