package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 6: two {@code cutover --confirm} started at the same moment both swapped in 4 of 5 tries,
 * leaving both views over v2 and no way back. Two processes now race for the repair itself: exactly
 * one swaps, the other is refused, and the rollback handle always reads the other version.
 * {@code -Dcutover.races=N} sets the number of races (5 by default).
 */
class SwapRaceTest {

  @TempDir Path dir;

  @Test
  void ofTwoProcessesSwappingAtTheSameMomentExactlyOneSwaps() throws Exception {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(SwapRaceTest.class), 2);
    try {
      TableSpec spec = world.spec();
      Path specFile = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
      Engine engine = new Engine(world.db);
      Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
      Procedure.backfill(engine, plan);
      world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
      assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000).verdict());
      ConsumerView view = new ConsumerView(world.sql, spec);

      int races = Integer.getInteger("cutover.races", 5);
      for (int race = 0; race < races; race++) {
        String action = race % 2 == 0 ? "cutover" : "rollback";
        Gate.Version before = view.reads();
        List<String> outcomes = race(world, specFile, action);
        long swapped = outcomes.stream().filter(o -> o.startsWith("swapped")).count();
        assertEquals(1, swapped, action + " race " + race + ": " + outcomes);
        String refusal = outcomes.stream().filter(o -> o.startsWith("refused ")).findFirst().orElseThrow();
        assertTrue(refusal.contains("is held by the " + action) || refusal.contains("at the same moment")
            || refusal.contains(action.equals("cutover") ? "already read visits_v2" : "there is no cutover to roll back"),
            refusal);
        Gate.Version after = view.reads();
        assertEquals(before == Gate.Version.V1 ? Gate.Version.V2 : Gate.Version.V1, after, outcomes.toString());
        assertEquals(Optional.of(before), view.handleReads(), "the rollback handle reads the other version");
        assertEquals(after == Gate.Version.V2 ? RepairPhase.CUT_OVER : RepairPhase.ROLLED_BACK,
            engine.repairs().current(spec).orElseThrow().phase());
        assertTrue(outcomes.stream().filter(o -> o.startsWith("swapped")).allMatch(o -> o.endsWith(" true")), outcomes
            .toString());
      }
    } finally {
      world.db.close();
    }
  }

  /** Starts two probes, waits until both are connected, signals both at once; returns what each printed. */
  private static List<String> race(HourlyWorld world, Path specFile, String action) throws Exception {
    List<Process> probes = new ArrayList<>();
    List<BufferedReader> outs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", System.getProperty("java.class.path"),
          RaceProbe.class.getName(), TestEngine.server().jdbcUrl(), world.database, specFile.toString(), action)
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      probes.add(p);
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
      outs.add(out);
    }
    for (BufferedReader out : outs) {
      assertEquals("ready", out.readLine());
    }
    for (Process p : probes) {
      OutputStream in = p.getOutputStream();
      in.write("go\n".getBytes());
      in.flush();
    }
    List<String> outcomes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      outcomes.add(String.valueOf(outs.get(i).readLine()));
      assertTrue(probes.get(i).waitFor(60, TimeUnit.SECONDS));
    }
    return outcomes;
  }
}
