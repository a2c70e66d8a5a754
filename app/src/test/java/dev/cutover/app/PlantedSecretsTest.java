package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.ServerAccess;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Marked secrets (PLANTED-…) are planted in every way an operator hands Cutover something that can
 * carry a credential: JDBC URLs (user information, {@code ?password=}, {@code &password=},
 * {@code #password=}, a mistyped scheme, a password pasted as the URL), a spec whose transform file,
 * or whose own path, names a password file, YAML that does not parse, saved profiles, a password typed
 * where its variable's name belongs or as an option, and CUTOVER_PASSWORD itself, given right, wrong
 * and pasted into the URL. The command line runs in this JVM and, where the environment matters, in
 * child JVMs; the engine reads the profiles. Then every output stream, every refusal and every file
 * written (the server's data directory with server.log, the embedded engine the command line starts,
 * the XDG folders, the working folder, the profiles file, the exported report) is searched for every
 * marked secret. Controls show that the searches find what is there.
 */
class PlantedSecretsTest {

  @TempDir Path dir;
  private final Set<String> planted = new LinkedHashSet<>();
  private final Map<String, String> streams = new LinkedHashMap<>();

  @AfterEach
  void stopServers() {
    EmbeddedServer.stopRunning(dir.resolve("server"), "the test is done");
    EmbeddedServer.stopRunning(dir.resolve("embedded"), "the test is done");
  }

  private String plant() {
    byte[] bytes = new byte[12];
    new SecureRandom().nextBytes(bytes);
    String token = "PLANTED-" + HexFormat.of().formatHex(bytes);
    planted.add(token);
    return token;
  }

  @Test
  void noPlantedSecretReachesAnOutputStreamOrAFile() throws Exception {
    String password = plant(); // the password of the user ops, handed over in CUTOVER_PASSWORD
    String control = "ctl_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
    Path home = Files.createDirectories(dir.resolve("home"));
    Path work = Files.createDirectories(dir.resolve("work"));
    Path inputs = Files.createDirectories(dir.resolve("inputs")); // what the test hands over: never searched
    Path serverData = dir.resolve("server");

    try (EmbeddedServer server = EmbeddedServer.startOrJoin(serverData, EngineLibrary.fromEnvironment(),
        ServerAccess.restricted().withUser("ops", password.toCharArray()), EngineProgress.NONE)) {
      try (var c = java.sql.DriverManager.getConnection(server.jdbcUrl(), server.user(),
          new String(server.password().resolve())); var s = c.createStatement()) {
        s.execute("CREATE DATABASE world ENGINE = Atomic");
      }
      String operatorSecret = Files.readString(serverData.resolve("access/operator.secret")).strip();
      String address = "127.0.0.1:" + server.port();
      HourlyWorld world;
      try (Database db = Database.open(server.profile("world"))) {
        world = HourlyWorld.create(db, 1);
      }
      Path spec = Files.writeString(inputs.resolve("visits.yaml"), world.specYaml());

      // 1. URLs, options and spec files, through the command line in this JVM: each refused.
      inProcess("a mistyped scheme with user information", ExitCodes.INPUT, "check", "--jdbc-url",
          "jdbc:clickhous://operator:" + plant() + "@" + address + "/" + control);
      inProcess("user information", ExitCodes.INPUT, "check", "--jdbc-url", "jdbc:clickhouse://ops:" + plant() + "@"
          + address);
      inProcess("?password=", ExitCodes.INPUT, "check", "--jdbc-url", "jdbc:clickhouse://" + address + "?password="
          + plant());
      inProcess("&password=", ExitCodes.INPUT, "check", "--jdbc-url", "jdbc:clickhouse://" + address
          + "/world?ssl=false&password=" + plant());
      inProcess("#password=", ExitCodes.INPUT, "check", "--jdbc-url", "jdbc:clickhouse://" + address + "/world"
          + "#password=" + plant());
      inProcess("a password pasted as the URL", ExitCodes.INPUT, "check", "--jdbc-url", plant());
      inProcess("a --password option", ExitCodes.INPUT, "check", "--jdbc-url", "jdbc:clickhouse://" + address,
          "--password", plant());
      inProcess("a password typed as --password-env", ExitCodes.INPUT, "check", "--jdbc-url",
          "jdbc:clickhouse://" + address, "--password-env", plant());
      Path secretFile = Files.writeString(Files.createDirectories(inputs.resolve("access")).resolve("operator.secret"),
          plant() + "\n");
      // A spec is read once connected: these connect to the tests' shared server, where default may read.
      List<String> shared = List.of("--jdbc-url", TestEngine.server().jdbcUrl(), "--database", "cutover");
      inProcess("a transform file that is a secret", ExitCodes.INPUT, concat(List.of("plan", "--spec",
          transformSpec(world, inputs.resolve("transform-file.yaml"), "access/operator.secret").toString()), shared));
      inProcess("the real operator.secret as a transform file", ExitCodes.INPUT, concat(List.of("plan", "--spec",
          transformSpec(world, inputs.resolve("real-secret.yaml"), serverData.resolve("access/operator.secret")
              .toString()).toString()), shared));
      inProcess("a secret file as the spec", ExitCodes.INPUT, concat(List.of("plan", "--spec", secretFile.toString()),
          shared));
      inProcess("a spec that is not YAML", ExitCodes.INPUT, concat(List.of("plan", "--spec", Files.writeString(
          inputs.resolve("broken.yaml"), "spec: 1\nname: visits\npassword: " + plant() + ": x\n").toString()), shared));

      // 2. The environment, in child JVMs: the password given right, wrong, and pasted into the URL too.
      List<String> connect = List.of("--jdbc-url", server.jdbcUrl(), "--user", "ops", "--database", "world");
      List<String> withSpec = concat(connect, List.of("--spec", spec.toString()));
      child("backfill with CUTOVER_PASSWORD", password, home, work, ExitCodes.OK, concat(List.of("backfill"),
          withSpec));
      child("reconcile with CUTOVER_PASSWORD, exporting a report", password, home, work, ExitCodes.OK,
          concat(List.of("reconcile", "--export", "html", work.resolve("report.html").toString()), withSpec));
      child("a wrong CUTOVER_PASSWORD", plant(), home, work, ExitCodes.CONNECTION, concat(List.of("check"), connect));
      child("CUTOVER_PASSWORD pasted into the URL too", password, home, work, ExitCodes.INPUT, List.of("check",
          "--jdbc-url", "jdbc:clickhous://ops:" + password + "@" + address, "--user", "ops"));
      child("the embedded engine started by the command line", password, home, work, ExitCodes.OK, List.of("check",
          "--data-dir", dir.resolve("embedded").toString()));
      assertTrue(Files.readString(work.resolve("report.html")).contains("visits_v2"), "the report was written");

      // 3. Saved profiles, read by the engine as the console reads them: good ones connect, bad ones are refused.
      Path passwordFile = Files.writeString(inputs.resolve("ops.password"), password + "\n");
      Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
      ProfileStore store = new ProfileStore(home.resolve("config/cutover/profiles.yaml"));
      store.save(SavedProfile.of(control, server.jdbcUrl(), "ops", "world", SavedProfile.Password.FILE,
          passwordFile.toString()), Optional.empty());
      try (Session session = Session.connect(store.find(control).orElseThrow().connectionProfile(() -> null))) {
        streams.put("a session from a saved profile", session.describe());
      }
      String good = "profiles:\n  - name: bad\n    jdbc_url: " + server.jdbcUrl() + "\n    user: ops\n"
          + "    database: world\n    password_from: none\n";
      for (String bad : List.of(
          good + "    password: " + plant() + "\n",
          good.replace("password_from: none", "password_from: " + plant()),
          good.replace("jdbc_url: jdbc:clickhouse://", "jdbc_url: jdbc:clickhous://ops:" + plant() + "@"),
          good.replace("jdbc_url: " + server.jdbcUrl(), "jdbc_url: " + server.jdbcUrl() + "?password=" + plant()),
          good.replace("password_from: none", "password_from: env\n    password_ref: " + plant()),
          good.replace("user: ops", "user: ops: " + plant()))) {
        Path file = Files.writeString(inputs.resolve("profiles-" + streams.size() + ".yaml"), bad);
        String what = "profiles file " + file.getFileName();
        try {
          new ProfileStore(file).list();
          streams.put(what, "accepted");
        } catch (CutoverException e) {
          streams.put(what, e.getMessage());
        }
        assertTrue(streams.get(what).startsWith("Profile 1 in ") || streams.get(what).startsWith("The profiles file "),
            what + ": " + streams.get(what));
      }
      assertEquals(planted.size(), planted.stream().distinct().count());

      // 4. The search: every stream and refusal, and every file written, for every planted secret.
      Set<String> secrets = new LinkedHashSet<>(planted);
      secrets.add(operatorSecret);
      List<String> leaks = new ArrayList<>();
      streams.forEach((what, text) -> secrets.stream().filter(s -> holds(text, s)).forEach(s -> leaks.add(what)));
      long[] files = {0, 0};
      boolean[] controlFound = {false};
      for (Path root : List.of(serverData, dir.resolve("embedded"), home, work)) {
        if (!Files.exists(root)) {
          continue;
        }
        try (Stream<Path> walk = Files.walk(root)) {
          for (Path f : walk.filter(Files::isRegularFile).toList()) {
            if (f.equals(serverData.resolve("access/operator.secret"))
                || f.equals(dir.resolve("embedded/access/operator.secret"))) {
              continue; // where the secret is kept on purpose
            }
            String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            files[0]++;
            files[1] += text.length();
            secrets.stream().filter(s -> holds(text, s)).forEach(s -> leaks.add(f.toString()));
            controlFound[0] |= f.equals(store.file()) && text.contains(control);
          }
        }
      }
      assertEquals(List.of(), leaks, "places that hold a planted secret");
      assertTrue(controlFound[0], "control: the file search finds the profile's name in the profiles file");
      assertTrue(streams.get("a mistyped scheme with user information").contains("jdbc:clickhous://***@" + address
          + "/" + control), "control: the stream search finds the URL's database, shown as the URL is masked");
      System.out.printf("[planted-secrets] %d secrets planted (and the server's operator secret); %d streams and "
          + "refusals and %d files (%,d bytes) searched: none holds a secret, nor 16 characters of one%n",
          planted.size(), streams.size(), files[0], files[1]);
    }
  }

  /**
   * Whether the text holds the secret or any 16 characters of it in a row: a sentence that quotes the
   * start of a file (as one did, 57 characters) leaks a 64-character secret without holding all of it.
   */
  static boolean holds(String text, String secret) {
    int window = Math.min(WINDOW, secret.length());
    for (int i = 0; i + window <= secret.length(); i++) {
      if (text.contains(secret.substring(i, i + window))) {
        return true;
      }
    }
    return false;
  }

  private static final int WINDOW = 16;

  private void inProcess(String what, int exit, String... args) {
    inProcess(what, exit, List.of(args));
  }

  private void inProcess(String what, int exit, List<String> args) {
    CommandRun run = CommandRun.of(args);
    assertEquals(exit, run.exit(), what + ": " + run.out() + run.err());
    streams.put(what, run.out() + run.err());
  }

  /** The world's spec with its transform read from {@code file}. */
  private static Path transformSpec(HourlyWorld world, Path spec, String file) throws IOException {
    return Files.writeString(spec, world.specYaml().replaceFirst("(?s)transform: \\|.*?(?=expected_differences:|"
        + "throttle:|$)", "transform: {file: " + file + "}\n"));
  }

  /** Runs the command line in a child JVM with {@code password} in CUTOVER_PASSWORD. */
  private void child(String what, String password, Path home, Path work, int exit, List<String> options)
      throws Exception {
    List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp",
        System.getProperty("java.class.path"), Main.class.getName()));
    args.addAll(options);
    ProcessBuilder builder = new ProcessBuilder(args).directory(work.toFile());
    builder.environment().put("CUTOVER_PASSWORD", password);
    builder.environment().put("XDG_DATA_HOME", home.resolve("data").toString());
    builder.environment().put("XDG_CONFIG_HOME", home.resolve("config").toString());
    builder.environment().put("XDG_STATE_HOME", home.resolve("state").toString());
    Process p = builder.start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), what + " ended");
    streams.put(what, out.get() + err.get());
    assertEquals(exit, p.exitValue(), what + ": " + streams.get(what));
  }

  private static String drain(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
