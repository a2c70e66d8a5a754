package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Launches the server of a data directory as a process of its own ({@link ServerMain} in a JVM of
 * its own), detached from the process that launches it: in a session of its own, with an owner-only
 * umask, with only the environment it needs, and with its output appended to {@code server.log}.
 */
final class ServerSpawn {

  private static final long LOG_ROTATE_BYTES = 8L << 20;
  /** The environment the server process keeps; everything else is dropped. */
  private static final Set<String> INHERITED = Set.of("PATH", "HOME", "USER", "LOGNAME", "LANG",
      "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR");

  /** A server this process started, once it serves: its process (only a parent sees its exit status) and its record. */
  record Started(Process process, ServerRecord record) {}

  private ServerSpawn() {}

  /**
   * Starts a server on {@code dir}, on {@code preferredPort} when it is free, and waits until it
   * serves; tries another free port when another program takes the chosen one first.
   */
  static Started start(ServerDirectory dir, Path lib, boolean restricted, Duration idle, int preferredPort,
      EngineProgress progress) throws IOException {
    EmptyDefinitions.refuseToStart(dir);
    rotateLog(dir);
    String lastFailure = null;
    for (int attempt = 1; attempt <= 3; attempt++) {
      int port = attempt == 1 && portFree(preferredPort) ? preferredPort : freePort();
      progress.report("Starting ClickHouse on 127.0.0.1:" + port, -1, -1);
      Process process = spawn(dir, lib, port, restricted, idle);
      try {
        ServerRecord record = RunningServer.awaitRunning(dir, process);
        return new Started(process, record);
      } catch (RunningServer.PortTakenException e) {
        lastFailure = e.getMessage(); // another program took the port between our check and its bind
      }
    }
    throw new EmbeddedEngineException("ClickHouse could not bind a free port on 127.0.0.1 after three tries ("
        + lastFailure + "). Check what is listening with ss -ltnp.");
  }

  private static Process spawn(ServerDirectory dir, Path lib, int port, boolean restricted, Duration idle)
      throws IOException {
    Path javaHome = Path.of(System.getProperty("java.home"));
    String classpath = codeSource();
    PrivateFiles.createFolder(dir.crashes());
    PrivateFiles.touch(dir.log());
    // Through a shell that sets the umask and then becomes the server (exec: the same process): a JVM
    // cannot set its own, and everything ClickHouse creates later (parts, merges, metadata) inherits it.
    List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "umask " + PrivateFiles.UMASK
        + " && exec \"$@\"", "cutover-server"));
    // A session of its own: a Ctrl-C or a hang-up of the terminal that started it does not reach the server.
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid");
    }
    command.addAll(List.of(
        javaHome.resolve("bin").resolve("java").toString(),
        "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        "--enable-native-access=ALL-UNNAMED",
        // Should the JVM ever crash, its report lands in the data directory, and the next server names it.
        "-XX:ErrorFile=" + dir.crashes().resolve("hs_err_pid%p.log"),
        "-cp", classpath,
        ServerMain.class.getName(),
        lib.toString(), dir.root().toString(), Integer.toString(port), restricted ? "restricted" : "open",
        Long.toString(idle.toSeconds())));
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(dir.root().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.log().toFile()));
    // The server inherits no variable it does not need: a password in CUTOVER_PASSWORD, or in whatever
    // --password-env names, stays with the process the operator started.
    builder.environment().keySet().retainAll(INHERITED);
    // ClickHouse installs signal handlers inside the child JVM; the JDK's signal-chaining library keeps both working.
    Path jsig = javaHome.resolve("lib").resolve("libjsig.so");
    if (Files.isRegularFile(jsig)) {
      builder.environment().put("LD_PRELOAD", jsig.toString());
    }
    return builder.start();
  }

  private static String codeSource() {
    try {
      return Path.of(ServerMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean portFree(int port) {
    if (port <= 0) {
      return false;
    }
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void rotateLog(ServerDirectory dir) throws IOException {
    if (Files.isRegularFile(dir.log()) && Files.size(dir.log()) > LOG_ROTATE_BYTES) {
      Files.move(dir.log(), dir.rotatedLog(), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
