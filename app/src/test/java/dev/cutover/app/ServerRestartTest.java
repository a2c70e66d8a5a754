package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.ServerHealth;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.sql.Sql;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cutover server} watches the server it keeps up: the server's process is killed under it,
 * and it says so in server.log, withdraws server.properties, and starts a new server on the same
 * port; or, with {@code --no-restart}, ends with exit 4. Clients read why their connection broke.
 */
class ServerRestartTest {

  private static final Pattern STARTED =
      Pattern.compile("started: ClickHouse at 127\\.0\\.0\\.1:(\\d+) \\(process (\\d+),");
  private static final Pattern CLOCK = Pattern.compile("\\d\\d:\\d\\d:\\d\\d UTC");

  @TempDir Path dir;
  /** Beside the data directory: a file of its own in it would make it a folder that is not Cutover's. */
  @TempDir Path output;
  private Process holder;

  @AfterEach
  void stopServer() throws InterruptedException {
    EmbeddedServer.stopRunning(dir, "the test is done");
    if (holder != null && holder.isAlive()) {
      holder.destroy();
      holder.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aKilledServerIsLoggedWithdrawnAndRestartedOnItsPortAndAClientWorksAgain() throws Exception {
    List<String> printed = new CopyOnWriteArrayList<>();
    Matcher started = startHolder(List.of(), printed);
    int port = Integer.parseInt(started.group(1));
    long dead = Long.parseLong(started.group(2));
    try (Session client = Session.embedded(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
      Sql sql = client.database().sql();
      sql.execute("create a table", "CREATE TABLE cutover.kept (x UInt32) ENGINE = MergeTree ORDER BY x");
      sql.execute("insert two rows", "INSERT INTO cutover.kept VALUES (1), (2)");

      // From the moment server.log names the death, server.properties must never name the dead process.
      RecordWatch watch = new RecordWatch(dir, "the server " + dead + " died", dead);
      Thread watcher = Thread.ofPlatform().start(watch);
      long killed = System.nanoTime();
      ProcessHandle.of(dead).orElseThrow().destroyForcibly();
      long deathLogged = await(() -> log().contains("the server " + dead + " died (signal 9, SIGKILL); its record is "
          + "withdrawn; starting a new server (restart 1, at most 5 restarts within 10 min)"), Duration.ofSeconds(5));
      long restartLogged = await(() -> log().contains("restarted the server: process "), Duration.ofSeconds(30));
      Thread.sleep(300);
      watch.stop = true;
      watcher.join();
      System.out.printf("[server restart] SIGKILL: death in server.log after %d ms, restart in server.log after %d ms "
          + "(%d looks at server.properties)%n", ms(deathLogged - killed), ms(restartLogged - killed),
          watch.looks.get());
      assertEquals(List.of(), watch.violations, "server.properties named the dead process after its death was logged");
      assertTrue(watch.looksAfterDeath.get() > 10,
          "the record was looked at after the death: " + watch.looksAfterDeath);

      long successor = readPid(dir.resolve("server.properties"));
      assertTrue(successor != dead && ProcessHandle.of(successor).map(ProcessHandle::isAlive).orElse(false));
      assertTrue(log().contains("restarted the server: process " + successor + " on 127.0.0.1:" + port + ", "),
          "the new server serves on the same port: " + log());
      await(() -> printed.stream().anyMatch(l -> l.startsWith("restarted: ClickHouse at 127.0.0.1:" + port
          + " (process " + successor + ", ")), Duration.ofSeconds(5));
      String death = printed.stream().filter(l -> l.startsWith("The embedded server's engine process " + dead))
          .findFirst().orElse(printed.toString());
      assertTrue(death.endsWith("(signal 9, SIGKILL); cutover server is starting a new one."), death);

      // The client that used the dead server: its health says what happened, and its pool works again.
      String restarted = "The embedded server restarted at ";
      String because = " (its engine process " + dead + " died: signal 9, SIGKILL).";
      ServerHealth health = client.health(Duration.ofSeconds(1));
      assertFalse(health.answering());
      assertTrue(health.sentence().startsWith(restarted) && health.sentence().endsWith(because), health.sentence());
      assertTrue(CLOCK.matcher(health.sentence()).find(), health.sentence());
      List<String> failures = new ArrayList<>();
      long rows = -1;
      for (int attempt = 0; attempt < 20 && rows < 0; attempt++) {
        try {
          rows = sql.queryLong("count the rows", "SELECT count() FROM cutover.kept");
        } catch (QueryFailedException e) {
          failures.add(e.getMessage());
          Thread.sleep(250);
        }
      }
      System.out.printf("[server restart] the client's first query after the restart: %s%n",
          failures.isEmpty() ? "answered"
              : failures.size() + " failure(s) first, then answered: " + failures.getFirst());
      assertEquals(2, rows, "the data outlived the server, and the client's pool reached the new one: " + failures);
      for (String failure : failures) {
        assertTrue(failure.startsWith("Could not count the rows: " + restarted) && failure.contains(because),
            failure);
      }
    }
    assertTrue(holder.isAlive(), "cutover server keeps the new server up");
  }

  @Test
  void withNoRestartADeadServerEndsTheCommandWithExit4AndItsRecordAndCrashFileAreNamed() throws Exception {
    List<String> printed = new CopyOnWriteArrayList<>();
    Matcher started = startHolder(List.of("--no-restart"), printed);
    long dead = Long.parseLong(started.group(2));
    try (Session client = Session.embedded(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
      Sql sql = client.database().sql();
      sql.execute("create a table", "CREATE TABLE cutover.kept (x UInt32) ENGINE = MergeTree ORDER BY x");

      // A crash: the JVM of the server writes its crash file into the data directory and aborts.
      new ProcessBuilder("kill", "-SEGV", Long.toString(dead)).start().waitFor();
      assertTrue(holder.waitFor(60, TimeUnit.SECONDS), "cutover server --no-restart ends once its server died");
      assertEquals(ExitCodes.EMBEDDED, holder.exitValue());
      assertFalse(Files.exists(dir.resolve("server.properties")), "its record is withdrawn");
      Path crash = dir.resolve("crashes").resolve("hs_err_pid" + dead + ".log");
      assertTrue(Files.isRegularFile(crash), "the JVM's crash file is in the data directory's crash folder");
      String cause = "signal 6, SIGABRT; its crash file is " + crash;
      assertTrue(log().contains("the server " + dead + " died (" + cause + "); its record is withdrawn; not "
          + "restarting it (--no-restart)"), log());
      String err = Files.readString(output.resolve("holder.err"));
      String sentence = "The embedded server's engine process " + dead + " died at ";
      String tail = " (" + cause + "), and cutover server runs with --no-restart: the next Cutover command starts "
          + "a new one.";
      assertTrue(err.contains(sentence) && err.strip().endsWith(tail), err);

      // A client of the dead server: its first error is that sentence, not the driver's words.
      QueryFailedException failed = null;
      try {
        sql.queryLong("count the rows", "SELECT count() FROM cutover.kept");
      } catch (QueryFailedException e) {
        failed = e;
      }
      assertTrue(failed != null, "no server runs, so the query fails");
      assertTrue(failed.getMessage().startsWith("Could not count the rows: " + sentence), failed.getMessage());
      assertTrue(failed.getMessage().endsWith(tail + " This can pass; Cutover retries it."), failed.getMessage());
      assertTrue(failed.retryable());
      assertTrue(client.health(Duration.ofSeconds(1)).sentence().endsWith(tail));
    }
  }

  /** Starts {@code cutover server} in a JVM of its own, as a terminal would; returns its first line, matched. */
  private Matcher startHolder(List<String> options, List<String> printed) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "server", "--data-dir", dir.toString(),
        "--idle", "10m"));
    command.addAll(options);
    holder = new ProcessBuilder(command).redirectError(output.resolve("holder.err").toFile()).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    Matcher started = first == null ? null : STARTED.matcher(first);
    assertTrue(started != null && started.lookingAt(), "cutover server printed " + first);
    printed.add(first);
    Thread.ofPlatform().daemon().start(() -> {
      try {
        for (String line; (line = out.readLine()) != null; ) {
          printed.add(line);
        }
      } catch (IOException e) {
        // the holder ended
      }
    });
    return started;
  }

  private String log() {
    try {
      return Files.readString(dir.resolve("server.log"), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }

  /** Waits until {@code condition} holds; returns when (System.nanoTime), or fails after {@code within}. */
  private static long await(BooleanSupplier condition, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not within " + within);
      Thread.sleep(5);
    }
    return System.nanoTime();
  }

  private static long ms(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  private static long readPid(Path record) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(record)) {
      p.load(in);
    }
    return Long.parseLong(p.getProperty("pid"));
  }

  /** Reads server.log, then server.properties, again and again; notes every record naming the dead after its death. */
  private static final class RecordWatch implements Runnable {
    private final Path dir;
    private final String deathLine;
    private final long dead;
    final List<String> violations = new CopyOnWriteArrayList<>();
    final AtomicInteger looks = new AtomicInteger();
    final AtomicInteger looksAfterDeath = new AtomicInteger();
    volatile boolean stop;

    RecordWatch(Path dir, String deathLine, long dead) {
      this.dir = dir;
      this.deathLine = deathLine;
      this.dead = dead;
    }

    @Override
    public void run() {
      while (!stop) {
        try {
          boolean deathSeen = Files.readString(dir.resolve("server.log"), StandardCharsets.ISO_8859_1)
              .contains(deathLine);
          Path record = dir.resolve("server.properties");
          if (Files.exists(record)) {
            long pid = readPid(record);
            if (deathSeen && pid == dead) {
              violations.add("server.properties named " + pid);
            }
          }
          looks.incrementAndGet();
          if (deathSeen) {
            looksAfterDeath.incrementAndGet();
          }
        } catch (IOException | RuntimeException e) {
          // replaced while read: look again
        }
        try {
          Thread.sleep(2);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }
}
