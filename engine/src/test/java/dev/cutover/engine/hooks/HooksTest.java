package dev.cutover.engine.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spec's hooks, run as an operator's scripts are: each gets the event as JSON on its standard input; a hook
 * before a step that fails, or outlives its timeout, refuses the step with nothing changed; a hook after one runs
 * once it is done; every run is in the audit trail.
 */
class HooksTest {

  @TempDir Path dir;
  private HourlyWorld world;
  private Engine engine;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(HooksTest.class), 2);
    engine = new Engine(world.db);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  /** A hook that keeps its input in {@code file} and exits with {@code exit}, saying why on stderr. */
  private String hook(String on, String file, int exit, String timeout) {
    return """
          - on: %s
            command: [sh, -c, 'cat > "$0"; echo "%s says %d" >&2; exit %d', %s]
            timeout: %s
        """.formatted(on, on, exit, exit, dir.resolve(file), timeout);
  }

  private TableSpec spec(String... hooks) {
    return SpecLoader.parse(world.specYaml() + "hooks:\n" + String.join("", hooks), "visits.yaml");
  }

  private List<String> audited() {
    return engine.repairs().audit(null, 50).stream().filter(e -> e.action().equals("hook")).map(AuditEntry::detail)
        .toList();
  }

  @Test
  void aFailingHookBeforeTheCutoverRefusesItAndThePassingOnesRunAroundTheSwitch() throws Exception {
    TableSpec failing = spec(hook("backfill_start", "start.json", 0, "10s"), hook("run_end", "end.json", 0, "10s"),
        hook("verdict", "verdict.json", 0, "10s"), hook("gate_open", "gate.json", 0, "10s"),
        hook("before_cutover", "refused.json", 3, "10s"));
    try (TargetRepair repair = engine.repair(failing)) {
      Plan plan = repair.plans().plan(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), s -> s);
      RunRecord end = repair.backfills().start(repair.plans().preflight(plan, List.of(), Progress.NONE),
          BackfillEvent.Listener.NONE).await();
      assertEquals(RunState.SUCCEEDED, end.state(), end.message());
      String started = Files.readString(dir.resolve("start.json"));
      assertTrue(started.contains("\"event\":\"backfill_start\"") && started.contains("\"target\":\"" + world.database
          + ".visits_v2\"") && started.contains("\"boundary\":\"" + plan.boundary().start() + "\""), started);
      // The run's end is heard after its completion, in the background: the hook's file fills once it has run.
      assertTrue(waitFor(dir.resolve("end.json"), "\"state\":\"succeeded\""), "the run_end hook got the run's end");
      world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
      Reconciliation verdict = repair.reconciliations().reconcile(Reconciliation.Scope.REPAIR, Optional.empty(), 100,
          Progress.NONE);
      assertTrue(verdict.verdict().allowsCutover(), verdict.verdict().toString());
      assertTrue(Files.readString(dir.resolve("verdict.json")).contains("\"allows_cutover\":true"));

      // The gate is open: its first opening runs the gate_open hook, once for the repair however often it is judged.
      assertTrue(repair.cutovers().judge(Gate.Version.V2).gate().open());
      String opened = Files.readString(dir.resolve("gate.json"));
      assertTrue(opened.contains("\"event\":\"gate_open\"") && opened.contains("\"repair\":\"" + verdict.repairId()
          + "\""), opened);
      assertTrue(repair.snapshot(Optional.empty()).gate().orElseThrow().gate().open());
      assertEquals(1, audited().stream().filter(a -> a.contains("gate_open")).count(), audited().toString());

      // The hook before the cutover fails, and nothing is switched.
      var refused = assertThrows(StepRefusedException.class, () -> repair.cutovers().cutover("visits",
          Progress.NONE, (n, r) -> {}));
      assertTrue(refused.getMessage().startsWith("The before_cutover hook 'sh -c") && refused.getMessage().contains(
          "failed (exit 3)") && refused.getMessage().contains("before_cutover says 3") && refused.getMessage()
          .contains("the cutover is refused and nothing was changed"), refused.getMessage());
      assertTrue(Files.readString(dir.resolve("refused.json")).contains("\"event\":\"before_cutover\""));
      assertEquals(Gate.Version.V1, repair.cutovers().judge(Gate.Version.V2).gate().current(), "consumers read v1");
      assertTrue(audited().stream().anyMatch(a -> a.contains("before_cutover") && a.contains("failed (exit 3)")),
          audited().toString());

      // A wrong confirmation is refused as always, and runs no hook.
      Files.delete(dir.resolve("refused.json"));
      assertThrows(InvalidInputException.class, () -> repair.cutovers().cutover("pnl", Progress.NONE, (n, r) -> {}));
      assertFalse(Files.exists(dir.resolve("refused.json")), "no hook ran for a switch that would not go ahead");
    }

    TableSpec passing = spec(hook("before_cutover", "before.json", 0, "10s"), hook("after_cutover", "after.json", 0,
        "10s"), hook("before_rollback", "slow.json", 0, "1s").replace("exit 0'", "sleep 20; exit 0'"));
    try (TargetRepair repair = engine.repair(passing)) {
      SwapResult cut = repair.cutovers().cutover("visits", Progress.NONE, (n, r) -> {});
      assertTrue(cut.verified(), cut.verification());
      assertTrue(Files.readString(dir.resolve("before.json")).contains("\"to\":\"v2\""));
      String after = Files.readString(dir.resolve("after.json"));
      assertTrue(after.contains("\"event\":\"after_cutover\"") && after.contains("\"verified\":true"), after);
      // A hook that outlives its timeout is stopped and refuses its step.
      var slow = assertThrows(StepRefusedException.class, () -> repair.cutovers().rollback("visits",
          Optional.of("checking"), Progress.NONE, (n, r) -> {}));
      assertTrue(slow.getMessage().contains("did not end within 1 s and was stopped"), slow.getMessage());
      assertEquals(Gate.Version.V2, repair.cutovers().judge(Gate.Version.V1).gate().current(), "still on v2");
    }
  }

  @Test
  void aFailingHookAtTheBackfillsStartRefusesTheRunAndAHookIsACommandNotAShellLine() {
    TableSpec spec = spec(hook("backfill_start", "start.json", 1, "10s"));
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    var refused = assertThrows(StepRefusedException.class, () -> Procedure.start(engine, plan));
    assertTrue(refused.getMessage().contains("the backfill is refused and nothing was changed"), refused.getMessage());
    assertEquals(List.of(), engine.backfills().runs(spec), "no run was started");

    var unknown = assertThrows(InvalidInputException.class, () -> spec("""
          - on: before_lunch
            command: [true]
        """));
    assertTrue(unknown.getMessage().contains("expected one of [backfill_start, run_end, verdict, gate_open, "
        + "before_cutover, "
        + "after_cutover, before_rollback, after_rollback]"), unknown.getMessage());
    var line = assertThrows(InvalidInputException.class, () -> spec("""
          - on: verdict
            command: notify --all
        """));
    assertTrue(line.getMessage().contains("a non-empty list of texts, the program first"), line.getMessage());
    // A hook says nothing about the tables or the fix: adding one keeps the spec's hash, and a verdict made under it.
    assertEquals(SpecLoader.parse(world.specYaml(), "visits.yaml").sha256(), spec.sha256());
  }

  /**
   * A server's own hooks, from the connection profile a repair runs through (a team's paging for production,
   * whatever the spec): they run after the spec's, and one that fails before a step refuses it as a spec's does.
   */
  @Test
  void aServersHooksFromItsProfileRunAfterTheSpecsAndRefuseAStepAsTheyDo() throws Exception {
    var serverHooks = dev.cutover.engine.spec.HookFields.of(java.util.Map.of("hooks", List.of(java.util.Map.of("on", "backfill_start",
        "command", List.of("sh", "-c", "cat > /dev/null; echo change freeze on this server >&2; exit 4")))),
        "profiles.yaml");
    try (var db = dev.cutover.engine.connect.Database.open(world.db.profile().withHooks(serverHooks))) {
      Engine throughProfile = new Engine(db);
      TableSpec spec = spec(hook("backfill_start", "start.json", 0, "10s"));
      Plan plan = throughProfile.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
          throughProfile.plans().defaults(spec));
      var refused = assertThrows(StepRefusedException.class, () -> Procedure.start(throughProfile, plan));
      assertTrue(refused.getMessage().contains("failed (exit 4)") && refused.getMessage().contains(
          "change freeze on this server") && refused.getMessage().contains("the backfill is refused"),
          refused.getMessage());
      assertTrue(Files.readString(dir.resolve("start.json")).contains("\"event\":\"backfill_start\""),
          "the spec's own hook ran first");
      assertEquals(List.of(), throughProfile.backfills().runs(spec), "no run was started");
    }
  }

  /** Whether {@code file} holds {@code text} within 10 s: a hook writes its input as it reads it. */
  private static boolean waitFor(Path file, String text) throws Exception {
    for (int i = 0; i < 100; i++) {
      if (Files.exists(file) && Files.readString(file).contains(text)) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }
}
