package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.cutover.engine.Engine;
import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.ServerAccess;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.ui.dialogs.DialogService;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;

/**
 * A data directory of its own with its own embedded server (open access, so that the world's tables
 * are reached as {@code default}), and on it an hourly world whose cutover gate is open: backfilled,
 * the corrected live writer from B, reconciled green. Tests stop and kill this server, never the
 * shared test engine.
 */
final class LostServerWorld implements AutoCloseable {

  final Path data;
  private Session setup;
  private HourlyWorld world;
  private Path specFile;
  private Path profiles;
  private Process holder;
  private Path holderErrors;
  private volatile java.util.concurrent.CountDownLatch reconnects;

  LostServerWorld() throws IOException {
    data = Files.createTempDirectory("cutover-lost-server-");
  }

  /** Starts or joins the server of {@link #data}, as the console's own factory does in these tests. */
  Session embedded(EngineProgress progress) {
    return Session.embedded(data, EngineLibrary.fromEnvironment(), ServerAccess.open(), progress);
  }

  /**
   * The console's factory: as {@link #embedded}, but while the test holds reconnects it waits first,
   * so that the test sees (and photographs) the console reconnecting before it is back.
   */
  private Session console(EngineProgress progress) {
    java.util.concurrent.CountDownLatch held = reconnects;
    try {
      if (held != null && !held.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never let the console reconnect");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return embedded(progress);
  }

  /** The console's next sessions wait until {@link #releaseReconnects()}. */
  void holdReconnects() {
    reconnects = new java.util.concurrent.CountDownLatch(1);
  }

  void releaseReconnects() {
    java.util.concurrent.CountDownLatch held = reconnects;
    reconnects = null;
    if (held != null) {
      held.countDown();
    }
  }

  /** The world and a repair of it whose cutover gate is open, made through the engine as another process would. */
  void openGate() throws Exception {
    setup = embedded(EngineProgress.NONE);
    try (Connection c = setup.database().dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS lost ENGINE = Atomic");
    }
    world = HourlyWorld.create(Database.open(ConnectionProfile.of(setup.embeddedServer().orElseThrow().jdbcUrl(), "default",
        PasswordSource.none(), "lost")), 3);
    Engine engine = new Engine(setup);
    TableSpec spec = world.spec();
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
    Procedure.backfill(engine, plan);
    world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000).verdict());
    assertTrue(engine.cutovers().gate(spec).open(), engine.cutovers().gate(spec).unmet().toString());
    specFile = Files.createTempFile("visits-", ".yaml");
    Files.writeString(specFile, world.specYaml());
    profiles = specFile.resolveSibling("profiles-lost-" + ProcessHandle.current().pid() + ".yaml");
  }

  /** A console window on this server with the world's spec loaded. */
  ConsoleWindow openConsole(FxRobot robot, DialogService dialogs) {
    CutoverConsole console = new CutoverConsole();
    Scene[] scene = new Scene[1];
    robot.interact(() -> {
      Stage stage = new Stage();
      ConsoleStartup startup = new ConsoleStartup("embedded ClickHouse (data: " + data + ")", this::console)
          .withDefaultSpec(specFile).withProfiles(new ProfileStore(profiles));
      scene[0] = console.createScene(startup, dialogs);
      stage.setScene(scene[0]);
      stage.show();
    });
    Fx fx = new Fx(robot, scene[0]);
    fx.waitFor(60, () -> console.workspace().spec() != null, () -> console.connection().errorProperty().get() + " "
        + console.connection().specLoading().error());
    return new ConsoleWindow(console, fx);
  }

  /** A server started on the data directory by someone else than the console (here, this test's own session). */
  Session startedElsewhere() {
    return embedded(EngineProgress.NONE);
  }

  /** Starts the server from another process ({@link ServerHolder}) and returns the server's process id. */
  long startHolder() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    holderErrors = Files.createTempFile("server-holder-", ".log");
    holder = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", System.getProperty("java.class.path"),
        ServerHolder.class.getName(), data.toString()).redirectError(holderErrors.toFile()).start();
    String line = new BufferedReader(new InputStreamReader(holder.getInputStream())).readLine();
    if (line == null || !line.startsWith("server ")) {
      throw new AssertionError("the holder did not start the server: " + line + "\n" + Files.readString(holderErrors));
    }
    String[] words = line.split(" ");
    assertEquals("true", words[3], "the holder started the server: " + line);
    return Long.parseLong(words[1]);
  }

  /** Kills the process that started the server (SIGKILL): it lets go of nothing. */
  void killHolder() throws InterruptedException {
    holder.destroyForcibly();
    assertTrue(holder.waitFor(30, TimeUnit.SECONDS), "the holder is gone");
  }

  /** Runs {@code action}, which ends process {@code pid}, and returns the nano time at which it was seen gone. */
  static long exitOf(long pid, ThrowingRunnable action) throws Exception {
    ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
    AtomicLong gone = new AtomicLong();
    Thread watcher = Thread.ofPlatform().name("exit-watch").start(() -> {
      while (process.isAlive()) {
        try {
          Thread.sleep(2);
        } catch (InterruptedException e) {
          return;
        }
      }
      gone.set(System.nanoTime());
    });
    action.run();
    watcher.join(60_000);
    assertTrue(gone.get() != 0, "process " + pid + " ended");
    return gone.get();
  }

  /** Whether the session's pool is closed. */
  static boolean closed(Session session) {
    return ((HikariDataSource) session.database().dataSource()).isClosed();
  }

  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Override
  public void close() throws Exception {
    releaseReconnects();
    if (holder != null) {
      holder.destroyForcibly();
      holder.waitFor(30, TimeUnit.SECONDS);
      Files.deleteIfExists(holderErrors);
    }
    if (world != null) {
      world.db.close();
    }
    if (setup != null) {
      setup.close();
    }
    EmbeddedServer.stopRunning(data, "the test is done");
    if (specFile != null) {
      Files.deleteIfExists(specFile);
      Files.deleteIfExists(profiles);
    }
    try (var paths = Files.walk(data)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
