package dev.cutover.engine.api;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ClickHouse server version such as {@code 26.7.2.1}, and the oldest one Cutover works with.
 *
 * <pre>{@code
 * ServerVersion.parse("24.3.5.47").requireSupported(); // throws: 24.3 is older than 24.8
 * }</pre>
 */
public record ServerVersion(int major, int minor, int patch, int build) implements Comparable<ServerVersion> {

  /** The oldest release that has everything Cutover relies on. */
  public static final ServerVersion MINIMUM = new ServerVersion(24, 8, 0, 0);

  private static final Pattern FORM = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?.*");

  public static ServerVersion parse(String text) {
    Matcher m = text == null ? null : FORM.matcher(text.strip());
    if (m == null || !m.matches()) {
      throw new ConnectionFailedException(ConnectionFailedException.Reason.OTHER,
          "The server reported version '" + text + "', which is not a ClickHouse version; check that the URL "
              + "points at a ClickHouse server.", null);
    }
    return new ServerVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
        m.group(3) == null ? 0 : Integer.parseInt(m.group(3)), m.group(4) == null ? 0 : Integer.parseInt(m.group(4)));
  }

  /** Refuses a server older than {@link #MINIMUM}, naming what it lacks. */
  public ServerVersion requireSupported() {
    if (compareTo(MINIMUM) < 0) {
      throw new ConnectionFailedException(ConnectionFailedException.Reason.SERVER_TOO_OLD,
          "The server runs ClickHouse " + this + ", and Cutover needs " + MINIMUM.major() + "." + MINIMUM.minor()
              + " or newer: it relies on REPLACE PARTITION between tables of one structure, EXCHANGE TABLES "
              + "on Atomic databases, the HTTP interface of the current JDBC driver, and query settings "
              + "such as priority and max_threads. Upgrade the server, or point Cutover at a newer one.", null);
    }
    return this;
  }

  @Override
  public int compareTo(ServerVersion o) {
    int c = Integer.compare(major, o.major);
    if (c == 0) c = Integer.compare(minor, o.minor);
    if (c == 0) c = Integer.compare(patch, o.patch);
    if (c == 0) c = Integer.compare(build, o.build);
    return c;
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch + "." + build;
  }
}
