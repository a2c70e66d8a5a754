package dev.cutover.engine.embedded;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Properties;

/**
 * The last death of an embedded server that {@code cutover server} saw, and what it did about it:
 * kept in {@code restart.properties} of the data directory, so that every client whose connection
 * broke can say why in a sentence rather than with the driver's words.
 *
 * @param pid the server process that died
 * @param port where it served; a new server comes back there when the port is free
 * @param at when its end was seen
 * @param ended {@code died}, or {@code stopped} when it stopped gracefully without being asked to by
 *     an operator (SIGTERM, its idle period)
 * @param cause what ended it, in words: {@code signal 9, SIGKILL}, {@code exit status 1}, with its
 *     crash file when the JVM wrote one; or the reason it gave as it stopped
 * @param plan what {@code cutover server} does about it
 * @param restarted when a new server answered, or null
 * @param successor the process of that new server, or 0
 */
record ServerRestart(long pid, int port, Instant at, String ended, String cause, Plan plan, Instant restarted,
    long successor) {

  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  /** What {@code cutover server} does about a server that died. */
  enum Plan {
    /** It starts a new one. */
    RESTARTING,
    /** It was started with {@code --no-restart}: it ends instead. */
    NOT_RESTARTING,
    /** The server died too often in a short time: it ends instead. */
    GAVE_UP
  }

  /** The death, now that a new server (process {@code successor}) answers. */
  ServerRestart restartedBy(long successor, Instant at) {
    return new ServerRestart(pid, port, this.at, ended, cause, plan, at, successor);
  }

  /** What a client whose connection broke reads: one sentence with the time and the cause. */
  String sentence(Path log) {
    if (restarted != null) {
      return "The embedded server restarted at " + clock(restarted) + " (its engine process " + pid + " " + ended + ": "
          + cause + ").";
    }
    String died = "The embedded server's engine process " + pid + " " + ended + " at " + clock(at) + " (" + cause + ")";
    return switch (plan) {
      case RESTARTING -> died + "; cutover server is starting a new one.";
      case NOT_RESTARTING -> died + ", and cutover server runs with --no-restart: the next Cutover command starts a "
          + "new one.";
      case GAVE_UP -> died + ", too often for cutover server, which gave up restarting it: read " + log
          + ", then start it again with cutover server.";
    };
  }

  /**
   * How the process of {@code server} ended, seen at {@code at}: the signal or exit status when this
   * process started it, the JVM's crash file when one was written, or the reason it gave as it
   * stopped; a process that left none of these was killed (its exit status went to its parent).
   */
  static ServerRestart of(EmbeddedServer server, Instant at, Plan plan) {
    ServerDirectory dir = server.directory();
    Path crash = dir.crashes().resolve("hs_err_pid" + server.pid() + ".log");
    String crashFile = Files.isRegularFile(crash) ? "; its crash file is " + crash : "";
    java.util.OptionalInt status = server.exitStatus();
    Optional<String> stopping = server.stoppingReason();
    boolean signalled = status.isPresent() && status.getAsInt() > 128;
    if (stopping.isPresent() && !signalled && crashFile.isEmpty()) {
      return new ServerRestart(server.pid(), server.port(), at, "stopped", stopping.get(), plan, null, 0);
    }
    String cause = status.isPresent() ? cause(status.getAsInt())
        : crashFile.isEmpty() ? "killed: it left no word in its log and no crash file" : "crashed";
    return new ServerRestart(server.pid(), server.port(), at, "died", cause + crashFile, plan, null, 0);
  }

  static String clock(Instant at) {
    return CLOCK.format(at) + " UTC";
  }

  /**
   * What ended a process, from the exit status its parent saw: a status above 128 is a signal (the
   * server itself only exits with 0, 1 or 3).
   */
  static String cause(int exitStatus) {
    if (exitStatus > 128) {
      int signal = exitStatus - 128;
      return "signal " + signal + signalName(signal).map(name -> ", SIG" + name).orElse("");
    }
    return "exit status " + exitStatus;
  }

  private static Optional<String> signalName(int signal) {
    return Optional.ofNullable(switch (signal) {
      case 1 -> "HUP";
      case 2 -> "INT";
      case 3 -> "QUIT";
      case 4 -> "ILL";
      case 6 -> "ABRT";
      case 7 -> "BUS";
      case 8 -> "FPE";
      case 9 -> "KILL";
      case 11 -> "SEGV";
      case 13 -> "PIPE";
      case 15 -> "TERM";
      default -> null;
    });
  }

  static Optional<ServerRestart> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      p.load(in);
      String restarted = p.getProperty("restarted", "");
      return Optional.of(new ServerRestart(Long.parseLong(p.getProperty("pid")),
          Integer.parseInt(p.getProperty("port")),
          Instant.parse(p.getProperty("at")), p.getProperty("ended"), p.getProperty("cause"),
          Plan.valueOf(p.getProperty("plan")),
          restarted.isEmpty() ? null : Instant.parse(restarted), Long.parseLong(p.getProperty("successor", "0"))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // being replaced, or not ours
    }
  }

  void write(Path file) {
    Properties p = new Properties();
    p.setProperty("pid", Long.toString(pid));
    p.setProperty("port", Integer.toString(port));
    p.setProperty("at", at.toString());
    p.setProperty("ended", ended);
    p.setProperty("cause", cause);
    p.setProperty("plan", plan.name());
    p.setProperty("restarted", restarted == null ? "" : restarted.toString());
    p.setProperty("successor", Long.toString(successor));
    try {
      StringWriter text = new StringWriter();
      p.store(text, "The last death of the embedded server that cutover server saw");
      PrivateFiles.write(file, text.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
