package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.ServerAccess;
import dev.cutover.engine.embedded.ServerMain;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.HourlyWorld;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The password an operator gives in CUTOVER_PASSWORD never reaches disk, a log, the audit trail or
 * a process list. The command line runs in child JVMs against a server with a password user; while
 * each runs, the command lines of it and its children (and the environment of its children) are
 * read from /proc; afterwards its output, every file under the folders it used (the server's data
 * and log included) and every table on the server are searched for the password.
 */
class CredentialsTest {

  @TempDir Path dir;
  private final List<String> commandLines = new ArrayList<>();
  private final AtomicLong samples = new AtomicLong();
  private final AtomicLong childEnvironments = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicBoolean preloadSeen = new java.util.concurrent.atomic.AtomicBoolean();
  private final java.util.Set<String> leaks = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** The servers outlive the processes that started them; the test's folder goes once they have stopped. */
  @org.junit.jupiter.api.AfterEach
  void stopServers() {
    EmbeddedServer.stopRunning(dir.resolve("server"), "the test is done");
    EmbeddedServer.stopRunning(dir.resolve("embedded"), "the test is done");
  }

  @Test
  void thePasswordNeverReachesDiskLogsTheAuditTrailOrAProcessList() throws Exception {
    String secret = "pw-" + random();
    String wrong = "wrong-" + random();
    String reason = "reviewed-" + random(); // a control: typed data must be found where the password must not
    Path serverData = dir.resolve("server");
    Path home = Files.createDirectories(dir.resolve("home"));
    Path work = Files.createDirectories(dir.resolve("work"));
    Path embedded = dir.resolve("embedded");

    try (EmbeddedServer server = EmbeddedServer.startOrJoin(serverData, EngineLibrary.fromEnvironment(),
        ServerAccess.restricted().withUser("ops", secret.toCharArray()), EngineProgress.NONE)) {
      try (var c = java.sql.DriverManager.getConnection(server.jdbcUrl(), server.user(),
          new String(server.password().resolve())); var s = c.createStatement()) {
        s.execute("CREATE DATABASE world ENGINE = Atomic");
      }
      Database db = Database.open(server.profile("world"));
      HourlyWorld world = HourlyWorld.create(db, 2);
      Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
      List<String> connect = List.of("--jdbc-url", server.jdbcUrl(), "--user", "ops", "--database", "world",
          "--spec", spec.toString());
      List<Outcome> outcomes = new ArrayList<>();

      Outcome backfill = cutover(secret, home, work, "backfill", connect);
      assertEquals(0, backfill.exit(), backfill.err());
      outcomes.add(backfill);
      world.writeLiveV2(world.liveEdge.plusHours(-3), world.liveEdge.plusHours(1));
      // A retried append in v1, for the acknowledgement to accept.
      world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
          world.first.plusHours(1).epochSecond());
      for (List<String> step : List.of(List.of("ack", "--hour", world.first.plusHours(1).toString(), "--reason", reason),
          List.of("cutover", "--confirm", "visits"))) {
        if (step.getFirst().equals("cutover")) { // in this JVM: the gate needs one
          new Engine(db).reconciliations().reconcile(world.spec(), dev.cutover.engine.api.Reconciliation.Scope.REPAIR, 10_000);
        }
        Outcome o = cutover(secret, home, work, step.getFirst(), concat(step.subList(1, step.size()), connect));
        assertEquals(0, o.exit(), step + ": " + o.out() + o.err());
        outcomes.add(o);
      }
      Outcome refused = cutover(wrong, home, work, "check", connect.subList(0, 6));
      assertEquals(3, refused.exit(), refused.err());
      assertTrue(refused.err().startsWith("error: The server at 127.0.0.1:" + server.port() + " refused user 'ops'"),
          refused.err());
      outcomes.add(refused);
      // The embedded engine, started by the command line itself: its server child must not inherit the password.
      Outcome local = cutover(secret, home, work, "check", List.of("--verbose", "--data-dir",
          embedded.toString(), "--password-env", "ANOTHER_PASSWORD"));
      assertEquals(0, local.exit(), local.err());
      assertTrue(local.err().contains("Starting ClickHouse on 127.0.0.1:"), local.err());
      assertTrue(childEnvironments.get() > 0, "the server child's environment was read");
      outcomes.add(local);

      // Output, files and tables: searched for both passwords, and the control found where it belongs.
      for (Outcome o : outcomes) {
        assertFalse(o.out().contains(secret) || o.err().contains(secret) || o.out().contains(wrong)
            || o.err().contains(wrong), o.out() + o.err());
      }
      Sql sql = new Sql(db.dataSource());
      long rowsScanned = 0;
      for (String[] table : sql.query("list the tables", "SELECT database, name FROM system.tables WHERE "
          + "database NOT IN ('INFORMATION_SCHEMA', 'information_schema') AND engine NOT IN ('View', 'MaterializedView') "
          + "AND (database != 'system' OR name IN ('users', 'query_log', 'text_log', 'processes', 'settings_profiles'))",
          rs -> new String[] {rs.getString(1), rs.getString(2)})) {
        String name = "`" + table[0] + "`.`" + table[1] + "`";
        // Read back and searched here: a search term sent to the server would itself show in its query text.
        List<String> rows = sql.query("read " + name, "SELECT formatRowNoNewline('TSV', *) FROM " + name,
            rs -> rs.getString(1));
        rowsScanned += rows.size();
        assertTrue(rows.stream().noneMatch(r -> r.contains(secret) || r.contains(wrong)), "the password is in " + name);
        if (table[1].equals("acknowledgements") || table[1].equals("audit")) {
          assertTrue(rows.stream().anyMatch(r -> r.contains(reason)), "the typed reason is in " + name + ": the search works");
        }
      }
      assertTrue(sql.queryLong("audit rows", "SELECT count() FROM world.audit WHERE action IN ('start', 'cutover', "
          + "'acknowledge')") >= 3, "the audit trail recorded the runs");
      db.close();

      Files.writeString(work.resolve("control.txt"), "a file holding " + reason);
      long[] scanned = {0, 0};
      List<Path> leaks = new ArrayList<>();
      List<Path> controls = new ArrayList<>();
      for (Path root : List.of(serverData, home, work, embedded, dir.resolve("visits.yaml"))) {
        try (Stream<Path> files = Files.walk(root)) {
          for (Path f : files.filter(Files::isRegularFile).toList()) {
            String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            scanned[0]++;
            scanned[1] += text.length();
            if (text.contains(secret) || text.contains(wrong)) {
              leaks.add(f);
            }
            if (text.contains(reason)) {
              controls.add(f);
            }
          }
        }
      }
      assertEquals(List.of(), leaks, "files holding the password");
      assertTrue(controls.contains(work.resolve("control.txt")), "the file search finds what is there");
      assertTrue(Files.isRegularFile(serverData.resolve("server.log")) && Files.isRegularFile(embedded.resolve("server.log")));
      try (Stream<Path> saved = Files.walk(home.resolve("config"))) {
        assertEquals(List.of(), saved.filter(Files::isRegularFile).toList(), "no profile or setting was saved");
      }
      assertTrue(commandLines.stream().anyMatch(c -> c.contains(reason)), "the sampling sees what is on a command line");
      assertTrue(preloadSeen.get(), "the sampling reads the server child's environment");
      System.out.printf("[credentials] %d runs, %d process samples (%d of the server child's environment), %d distinct "
          + "command lines, %d files (%,d bytes) and %,d table rows searched: the password in none%n", outcomes.size(),
          samples.get(), childEnvironments.get(), commandLines.size(), scanned[0], scanned[1], rowsScanned);
    }
  }

  @Test
  void aUserNameWithAColonIsNeverPrintedBackNorSentToTheServer() throws Exception {
    // user:password typed into --user or CUTOVER_USER, against a real server: the text after the colon may be a
    // password. Refused before connecting (the server would keep it in its logs), and never repeated.
    String url = dev.cutover.engine.testing.TestEngine.server().jdbcUrl();
    String refused = "error: The user name you gave contains ':', so it is not repeated here: a password typed as "
        + "user:password? Give the user name alone; the password comes from an environment variable, a file or a "
        + "prompt. (option --user)";
    Map<String, String> env = new java.util.HashMap<>();
    env.put("CUTOVER_USER", null);
    Map<String, String> inVariable = new java.util.HashMap<>();
    inVariable.put("CUTOVER_USER", "operator:S3cr3t");
    List<List<String>> runs = List.of(
        List.of("check", "--jdbc-url", url, "--user", "operator:S3cr3t"),
        List.of("--user", "operator:S3cr3t", "check", "--jdbc-url", url),
        List.of("check", "--verbose", "--jdbc-url", url, "--user=operator:S3cr3t"),
        List.of("plan", "--jdbc-url", url, "--user", "operator:S3cr3t", "--spec", dir.resolve("none.yaml").toString()),
        List.of("check", "--jdbc-url", url, "--user", "it's operator:S3cr3t"));
    for (List<String> args : runs) {
      ChildRun run = ChildRun.of(dir, env, args);
      assertEquals(2, run.exit(), args + ": " + run.out() + run.err());
      assertTrue(run.err().strip().endsWith(refused), args + ": " + run.err());
      assertFalse(run.out().contains("S3cr3t") || run.err().contains("S3cr3t"), args + ": " + run.out() + run.err());
    }
    ChildRun variable = ChildRun.of(dir, inVariable, List.of("check", "--verbose", "--jdbc-url", url));
    assertEquals(2, variable.exit(), variable.err());
    assertFalse(variable.out().contains("S3cr3t") || variable.err().contains("S3cr3t"), variable.err());
    assertTrue(variable.err().contains("contains ':', so it is not repeated here"), variable.err());
    // The control: a user name without a colon is repeated, so the search above would see one.
    ChildRun plain = ChildRun.of(dir, env, List.of("check", "--jdbc-url", url, "--user", "operatorS3cr3t"));
    assertEquals(3, plain.exit(), plain.err());
    assertTrue(plain.err().contains("refused user 'operatorS3cr3t'"), plain.err());
  }

  private record Outcome(int exit, String out, String err) {}

  /**
   * Runs the command line in a child JVM with the password in CUTOVER_PASSWORD, sampling the command
   * lines of it and its children, and the environment of its children, until it ends.
   */
  private Outcome cutover(String password, Path home, Path work, String command, List<String> options) throws Exception {
    List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", System.getProperty("java.class.path"), Main.class.getName(), command));
    args.addAll(options);
    ProcessBuilder builder = new ProcessBuilder(args).directory(work.toFile());
    Map<String, String> env = builder.environment();
    env.put("CUTOVER_PASSWORD", password);
    env.put("ANOTHER_PASSWORD", password); // as if named with --password-env
    env.put("XDG_DATA_HOME", home.resolve("data").toString());
    env.put("XDG_CONFIG_HOME", home.resolve("config").toString());
    env.put("XDG_STATE_HOME", home.resolve("state").toString());
    Files.createDirectories(home.resolve("config"));
    Process p = builder.start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
    while (p.isAlive()) {
      sample(p.toHandle(), password, false);
      p.descendants().forEach(child -> sample(child, password, true));
      Thread.sleep(5);
    }
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(java.util.Set.of(), leaks, "the password showed in a process list or a child's environment");
    return new Outcome(p.exitValue(), out.get(), err.get());
  }

  private void sample(ProcessHandle process, String password, boolean child) {
    try {
      Path proc = Path.of("/proc", Long.toString(process.pid()));
      String commandLine = read(Files.readAllBytes(proc.resolve("cmdline"))).replace('\0', ' ').strip();
      samples.incrementAndGet();
      if (commandLine.contains(password)) {
        leaks.add("command line of " + process.pid() + ": " + commandLine);
      }
      if (!commandLine.isEmpty() && !commandLines.contains(commandLine)) {
        commandLines.add(commandLine);
      }
      // The command line's own environment holds the password by design; the server it starts must not
      // inherit it. (Between fork and exec a child still shows its parent's environment: only the
      // server, once it runs, counts.)
      if (child && commandLine.contains(ServerMain.class.getName())) {
        childEnvironments.incrementAndGet();
        String environment = read(Files.readAllBytes(proc.resolve("environ")));
        preloadSeen.compareAndSet(false, environment.contains("LD_PRELOAD="));
        if (environment.contains(password)) {
          leaks.add("environment of " + process.pid() + ": " + commandLine);
        }
      }
    } catch (IOException e) {
      // the process ended between the listing and the reading
    }
  }

  private static String drain(java.io.InputStream in) {
    try {
      return read(in.readAllBytes());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String read(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static String random() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
