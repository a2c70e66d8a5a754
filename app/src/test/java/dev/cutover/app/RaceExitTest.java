package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two processes run the same step at the same moment: the one that loses the race to the other exits 8
 * (another process holds the repair; try again later), whichever step it is. A backfill that lost the
 * repair's first record used to exit 6, as if the step were refused for good, where a cutover exited 8.
 * {@code -Dcutover.commandRaces=N} sets the number of races of each step (2 by default).
 */
class RaceExitTest {

  @TempDir Path dir;

  /** What one process of a race printed and how it ended. */
  private record Outcome(int exit, String out, String err) {
    boolean lostToAHolder() {
      return exit == ExitCodes.HELD && err.lines().anyMatch(l -> l.startsWith("error: ")
          && (l.contains(" is held by the ") || l.contains(" at the same moment: ")));
    }
  }

  @Test
  void ofTwoBackfillsOrTwoCutoversStartedAtOnceTheLoserExitsEight() throws Exception {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(RaceExitTest.class), 2);
    Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    List<String> connection = List.of("--spec", spec.toString(), "--jdbc-url", TestEngine.server().jdbcUrl(),
        "--database", world.database);
    int races = Integer.getInteger("cutover.commandRaces", 2);
    try {
      // Slow enough that the winner still holds the repair when the loser asks for it.
      List<String> backfill = new ArrayList<>(List.of("backfill", "--rows-per-second", "100", "--batch-hours", "1",
          "--concurrency", "1", "--progress", "none"));
      backfill.addAll(connection);
      for (int race = 0; race < races; race++) {
        List<Outcome> both = race(backfill);
        assertEquals(1, both.stream().filter(o -> o.exit() == ExitCodes.OK).count(), "backfill race " + race + ": "
            + both);
        assertEquals(1, both.stream().filter(Outcome::lostToAHolder).count(), "backfill race " + race + ": " + both);
      }

      Engine engine = new Engine(world.db);
      var boundary = engine.repairs().current(world.spec()).orElseThrow().boundary().orElseThrow();
      world.writeLiveV2(boundary, world.liveEdge.plusHours(1));
      assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(world.spec(),
          Reconciliation.Scope.REPAIR, 10_000).verdict());
      for (int race = 0; race < races; race++) {
        String step = race % 2 == 0 ? "cutover" : "rollback";
        List<String> swap = new ArrayList<>(List.of(step, "--confirm", "visits", "--progress", "none"));
        swap.addAll(connection);
        List<Outcome> both = race(swap);
        assertEquals(1, both.stream().filter(o -> o.exit() == ExitCodes.OK).count(), step + " race " + race + ": "
            + both);
        // The loser met the winner holding the repair (8), or came once consumers had already been switched, which
        // is a refusal in the state it found (6), the same when tried again.
        Outcome loser = both.stream().filter(o -> o.exit() != ExitCodes.OK).findFirst().orElseThrow();
        assertTrue(loser.lostToAHolder() || loser.exit() == ExitCodes.BLOCKED && (loser.err().contains(
            "Consumers already read visits_v2") || loser.err().contains("there is no cutover to roll back")),
            step + " race " + race + ": " + both);
        assertEquals(step.equals("cutover") ? RepairPhase.CUT_OVER : RepairPhase.ROLLED_BACK,
            engine.repairs().current(world.spec()).orElseThrow().phase());
      }
    } finally {
      world.db.close();
    }
  }

  /** Starts two probes, waits until both are loaded, signals both at once; returns how each ended. */
  private List<Outcome> race(List<String> args) throws Exception {
    List<Process> probes = new ArrayList<>();
    List<CompletableFuture<String>> errs = new ArrayList<>();
    List<CompletableFuture<String>> outs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp",
          System.getProperty("java.class.path"), CommandProbe.class.getName()));
      command.addAll(args);
      Process p = new ProcessBuilder(command).directory(dir.toFile()).start();
      probes.add(p);
      BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
      assertEquals("ready", err.readLine());
      errs.add(CompletableFuture.supplyAsync(() -> drain(err)));
      outs.add(CompletableFuture.supplyAsync(() -> drain(new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8)))));
    }
    for (Process p : probes) {
      OutputStream in = p.getOutputStream();
      in.write("go\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      assertTrue(probes.get(i).waitFor(5, TimeUnit.MINUTES), "probe " + i + " ended");
      outcomes.add(new Outcome(probes.get(i).exitValue(), outs.get(i).get(), errs.get(i).get()));
    }
    System.out.println("[race-exit] " + args.getFirst() + ": " + outcomes.stream().map(o -> "exit " + o.exit()
        + o.err().lines().filter(l -> l.startsWith("error: ")).findFirst().map(l -> " (" + l + ")").orElse(""))
        .toList());
    return outcomes;
  }

  private static String drain(BufferedReader reader) {
    StringBuilder text = new StringBuilder();
    reader.lines().forEach(l -> text.append(l).append('\n'));
    return text.toString();
  }
}
