package dev.cutover.engine.testing;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.Session;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.ServerAccess;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real embedded ClickHouse for tests: started once per test JVM in a fresh data directory, with
 * a fresh Atomic database for each test class that asks for one.
 */
public final class TestEngine {

  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static Session session;
  private static Path dataDirectory;

  private TestEngine() {}

  /** The shared session (working database {@code cutover}). */
  public static synchronized Session session() {
    if (session == null) {
      try {
        dataDirectory = Files.createTempDirectory("cutover-test-engine-");
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      long started = System.nanoTime();
      // Open: the tests connect as default with no password (the product's default is restricted).
      session = Session.embedded(dataDirectory, EngineLibrary.fromEnvironment(), ServerAccess.open(), (step, done, total) -> {
        if (total < 0 || done == total) {
          System.out.println("[test engine] " + step);
        }
      });
      System.out.printf("[test engine] %s, ready in %d ms%n", session.describe(), (System.nanoTime() - started) / 1_000_000);
      Runtime.getRuntime().addShutdownHook(new Thread(TestEngine::shutdown));
    }
    return session;
  }

  public static EmbeddedServer server() {
    return session().embeddedServer().orElseThrow();
  }

  /** Creates a new, empty Atomic database named after the test class and returns a connection to it. */
  public static Database freshDatabase(Class<?> owner) {
    String name = "t_" + owner.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_")
        + "_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
    execute("CREATE DATABASE " + name + " ENGINE = Atomic");
    return Database.open(ConnectionProfile.of(server().jdbcUrl(), "default", PasswordSource.none(), name));
  }

  /** Runs one statement on the shared session. */
  public static void execute(String sql) {
    try (Connection c = session().database().dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  private static synchronized void shutdown() {
    if (session != null) {
      // The server would outlive this JVM while any process used it: the tests are done, so it stops now.
      session.embeddedServer().ifPresent(server -> server.stop("the tests are done"));
      session.close();
      removeLater(dataDirectory);
    }
  }

  /**
   * Removes the server's data directory in a process of its own that outlives this JVM. By the end of
   * a module's tests it holds hundreds of thousands of part files; removing them here took up to 27 s,
   * and surefire kills a test JVM that has not exited 30 s after its last test.
   */
  private static void removeLater(Path directory) {
    try {
      new ProcessBuilder("rm", "-rf", "--", directory.toString())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      try (var paths = Files.walk(directory)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException | UncheckedIOException again) {
        // best effort: a temporary directory
      }
    }
  }
}
