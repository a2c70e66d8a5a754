package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.Engine;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server is killed right after the cutover's EXCHANGE, as its check begins. The command
 * exited 5 with "Could not compare pnl with pnl_v2 … This can pass; Cutover retries it": nothing retried,
 * and nothing said that consumers had been switched. Now it exits 0 (the swap is the command's outcome),
 * says that consumers were switched and that what they read now cannot be read until the server answers,
 * and warns that the check is missing; once the server is back, status says consumers read v2.
 */
class SwapServerKilledTest {

  @TempDir Path dir;

  @AfterEach
  void stop() {
    EmbeddedServer.stopRunning(dir.resolve("server"), "the test is done");
  }

  @Test
  void aServerKilledRightAfterTheExchangeLeavesTheCutoverSayingConsumersWereSwitched() throws Exception {
    Path data = dir.resolve("server");
    EmbeddedServer first = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try (var c = DriverManager.getConnection(first.jdbcUrl(), first.user(), new String(first.password().resolve()));
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS cutover ENGINE = Atomic");
    }
    Path spec;
    try (Database db = Database.open(first.profile("cutover"))) {
      HourlyWorld world = HourlyWorld.create(db, 2);
      spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
      Engine engine = new Engine(db);
      Plan plan = engine.plans().plan(world.spec(), Optional.empty(), Optional.empty(), Optional.empty(),
          engine.plans().defaults(world.spec()));
      Procedure.backfill(engine, plan);
      world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
      assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(world.spec(),
          Reconciliation.Scope.REPAIR, 10_000).verdict());
    }
    // The command line joins the embedded server of that data folder, whose database is cutover.
    List<String> connection = List.of("--data-dir", data.toString(), "--spec", spec.toString());

    // The progress line that says the check begins is printed after the exchange and before the check's first
    // statement, on the command's own thread: the server dies there, before the command goes on.
    long server = first.pid();
    Run cut = run(connection, "Verifying what visits returns", () -> {
      ProcessHandle handle = ProcessHandle.of(server).orElseThrow();
      handle.destroyForcibly();
      handle.onExit().get(30, TimeUnit.SECONDS);
    }, "cutover", "--confirm", "visits", "--progress", "plain");
    System.out.println("[swap-server-killed] cutover exited " + cut.exit() + ":\n" + cut.out() + cut.err());

    assertEquals(ExitCodes.OK, cut.exit(), "consumers were switched: " + cut.out() + cut.err());
    assertTrue(cut.out().startsWith("cutover: V1 -> V2 in "), cut.out());
    assertTrue(cut.out().contains("NOT verified: the server acknowledged the exchange, so consumers of visits were "
        + "switched to visits_v2; then the server stopped answering (Could not read the columns of visits: The "
        + "embedded ClickHouse stopped: its process " + server + " ended"),
        cut.out());
    assertTrue(cut.out().contains("which version consumers read now is unknown until it answers. Read the repair's "
        + "status then: it says which version they read"), cut.out());
    assertTrue(cut.err().contains("warning: the cutover switched consumers of visits to visits_v2, but its check "
        + "could not complete (see the line above); run ./cutover status --spec " + spec + " once the server "
        + "answers"), cut.err());
    assertFalse((cut.out() + cut.err()).contains("retries it"), "nothing retries the swap: " + cut.out() + cut.err());

    EmbeddedServer second = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    assertEquals(first.port(), second.port());
    Run status = run(connection, null, null, "status");
    assertEquals(ExitCodes.OK, status.exit(), status.out() + status.err());
    assertTrue(status.out().contains(": cut over (since "), status.out());
    assertTrue(status.out().contains("Consumers read visits_v2."), status.out());
    second.close();
    first.close();
  }

  private record Run(int exit, String out, String err) {}

  /** Something to do, on the command's thread, when a line of its standard error contains a text. */
  private interface Action {
    void run() throws Exception;
  }

  /**
   * Runs {@code cutover args… connection…} in this JVM as {@link CommandRun} does; when its standard error first
   * contains {@code trigger}, runs {@code action} right there, before the command can write anything further.
   */
  private static Run run(List<String> connection, String trigger, Action action, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(connection);
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    OutputStream watched = new OutputStream() {
      private boolean fired;

      @Override
      public synchronized void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public synchronized void write(byte[] b, int off, int len) {
        err.write(b, off, len);
        if (!fired && trigger != null && err.toString(StandardCharsets.UTF_8).contains(trigger)) {
          fired = true;
          try {
            action.run();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      }
    };
    System.setOut(new PrintStream(out, true));
    System.setErr(new PrintStream(watched, true));
    try {
      return new Run(Main.run(all.toArray(String[]::new)), out.toString(StandardCharsets.UTF_8),
          err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }
}
