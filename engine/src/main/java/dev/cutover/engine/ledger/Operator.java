package dev.cutover.engine.ledger;

import java.net.InetAddress;

/** Who is acting, for the run records and the audit trail: the OS user and the host. */
public final class Operator {

  private Operator() {}

  public static String user() {
    String user = System.getProperty("user.name");
    return user == null || user.isBlank() ? "unknown" : user;
  }

  public static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      String env = System.getenv("HOSTNAME");
      return env == null ? "unknown" : env;
    }
  }

  /** The tool version from the engine jar's manifest, or "development". */
  public static String toolVersion() {
    String v = Operator.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }
}
