package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server dies right after the cutover's EXCHANGE and is back a moment later, as under {@code cutover
 * server}: the swap reads again what consumers read once the server answers, compares the rows then, and
 * ends verified and recorded, saying that the first comparison failed; it never says that it retries.
 */
class ServerBackAfterExchangeTest {

  @TempDir Path dir;

  @Test
  void aServerBackWithinThePatienceIsReadAgainAndTheSwapEndsVerified() throws Exception {
    EmbeddedServer first = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try (var c = DriverManager.getConnection(first.jdbcUrl(), first.user(), new String(first.password().resolve()));
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE world ENGINE = Atomic");
    }
    Database db = Database.open(first.profile("world"));
    CompletableFuture<EmbeddedServer> second = new CompletableFuture<>();
    AtomicBoolean killed = new AtomicBoolean();
    try {
      HourlyWorld world = HourlyWorld.create(db, 2);
      Engine engine = new Engine(db);
      Plan plan = engine.plans().plan(world.spec(), Optional.empty(), Optional.empty(), Optional.empty(),
          engine.plans().defaults(world.spec()));
      Procedure.backfill(engine, plan);
      world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
      assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(world.spec(),
          Reconciliation.Scope.REPAIR, 10_000).verdict());

      // Reported after the exchange, before the check's first statement: the server dies there, and comes back.
      Progress killAfterExchange = (step, fraction) -> {
        if (step.startsWith("Verifying what visits returns") && killed.compareAndSet(false, true)) {
          ProcessHandle server = ProcessHandle.of(first.pid()).orElseThrow();
          server.destroyForcibly();
          server.onExit().join();
          Thread.ofVirtual().start(() -> {
            try {
              Thread.sleep(1_000);
              second.complete(EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE));
            } catch (RuntimeException | InterruptedException e) {
              second.completeExceptionally(e);
            }
          });
        }
      };
      SwapResult cut = engine.cutovers().cutover(world.spec(), "visits", killAfterExchange);
      System.out.println("[server-back] " + cut.verification());

      assertTrue(killed.get(), "the server was killed after the exchange");
      // The swap may read the server again as soon as it answers, before the start that brought it back has returned.
      assertEquals(first.port(), second.get(30, TimeUnit.SECONDS).port());
      assertEquals(SwapResult.Check.VERIFIED, cut.check(), cut.verification());
      assertTrue(cut.verification().startsWith("verified: visits returns visits_v2's rows for all "),
          cut.verification());
      assertTrue(cut.verification().contains("; compared again once the server answered at "), cut.verification());
      assertTrue(cut.verification().contains("after the first comparison failed (Could not read the columns of "
          + "visits: "), cut.verification());
      assertFalse(cut.verification().contains("retries it"), cut.verification());
      assertEquals(Gate.Version.V2, new ConsumerView(world.sql, world.spec()).reads());
      assertEquals(RepairPhase.CUT_OVER, engine.repairs().current(world.spec()).orElseThrow().phase());
      assertTrue(engine.repairs().current(world.spec()).orElseThrow().operation().isEmpty(),
          "the cutover let go of the repair");
    } finally {
      db.close();
      if (second.isDone() && !second.isCompletedExceptionally()) {
        second.get().close();
      }
      first.close();
      EmbeddedServer.stopRunning(dir, "the test is done");
    }
  }
}
