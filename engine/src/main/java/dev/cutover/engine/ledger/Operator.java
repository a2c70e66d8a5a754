package dev.cutover.engine.ledger;

import java.net.InetAddress;

/** Who is acting, for the run records and the audit trail: the OS user and the host. */
public final class Operator {

  private Operator() {}

  public static String user() {
    String user = System.getProperty("user.name");
    return user == null || user.isBlank() ? "unknown" : user;
  }

  /** The host's name when it cannot be read: never taken for this host by {@link #gone}. */
  private static final String UNKNOWN_HOST = "unknown";

  public static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      String env = System.getenv("HOSTNAME");
      return env == null ? UNKNOWN_HOST : env;
    }
  }

  /** This process, as it signs the repair's state records. */
  public static dev.cutover.engine.api.Repair.Actor actor() {
    return new dev.cutover.engine.api.Repair.Actor(user(), host(), ProcessHandle.current().pid());
  }

  /**
   * Whether the process {@code actor} names is gone: on this host, when no such process runs; on
   * another host, or on one whose name could not be read, when it started its work longer ago than
   * {@code patience} (its host cannot be asked from here).
   */
  public static boolean gone(dev.cutover.engine.api.Repair.Actor actor, java.time.Instant since,
      java.time.Duration patience, java.time.Instant now) {
    if (actor.host().equals(host()) && !actor.host().equals(UNKNOWN_HOST)) {
      if (actor.pid() == ProcessHandle.current().pid()) {
        return false;
      }
      return ProcessHandle.of(actor.pid()).map(p -> !p.isAlive()).orElse(true);
    }
    return since.plus(patience).isBefore(now);
  }

  /**
   * What this process is, in a few words, for the embedded server's log: {@code cutover.command} when
   * the application set it ({@code cutover backfill}, {@code cutover console}), else its main class.
   */
  public static String command() {
    String set = System.getProperty("cutover.command");
    if (set != null && !set.isBlank()) {
      return set;
    }
    String main = System.getProperty("sun.java.command", "java").split(" ", 2)[0];
    return main.endsWith(".jar") ? java.nio.file.Path.of(main).getFileName().toString()
        : main.substring(main.lastIndexOf('.') + 1);
  }

  /** The tool version from the engine jar's manifest, or "development". */
  public static String toolVersion() {
    String v = Operator.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }
}
