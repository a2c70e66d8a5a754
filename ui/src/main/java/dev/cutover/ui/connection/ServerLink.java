package dev.cutover.ui.connection;

import dev.cutover.ui.common.Formats;
import java.time.Instant;
import java.util.Objects;

/**
 * Whether the console's server answers, as its {@link ConnectionWatch} last found: what the status
 * bar, the connection screen and the line above every other screen say.
 *
 * <pre>{@code
 * ServerLink.lost("The embedded ClickHouse stopped: it was killed.", Instant.now()).words()
 * // "Server lost at 10:42:07 UTC: The embedded ClickHouse stopped: it was killed. Cutover reconnects by itself."
 * }</pre>
 *
 * @param state where the link stands
 * @param sentence where the server answers, or why it does not (the probe's own words)
 * @param since when it was last found answering after a loss, or when it was lost
 * @param attempt the reconnection attempt under way (from 1), or 0
 * @param lastFailure why the last reconnection attempt failed, or empty
 */
public record ServerLink(State state, String sentence, Instant since, int attempt, String lastFailure) {

  /** Where the link stands. */
  public enum State {
    /** No session is watched: before the first connection, or while the console connects elsewhere. */
    NONE,
    /** The server answered the last probe. */
    CONNECTED,
    /** The server stopped answering; the console waits before it reconnects. */
    LOST,
    /** The console tries to open a new session to the same server. */
    RECONNECTING,
    /**
     * An operator stopped the embedded server ({@code cutover server stop}): the console leaves it
     * stopped, joins a server someone else starts on the data directory, and starts one only when
     * asked to connect.
     */
    STOPPED
  }

  /** What the console does about a server an operator stopped. */
  static final String STAYS_STOPPED = "It stays stopped: Connect starts it again (Cutover joins one that another "
      + "process starts).";

  public ServerLink {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(sentence, "sentence");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(lastFailure, "lastFailure");
  }

  public static ServerLink none() {
    return new ServerLink(State.NONE, "", Instant.now(), 0, "");
  }

  public static ServerLink connected(String sentence, Instant since) {
    return new ServerLink(State.CONNECTED, sentence, since, 0, "");
  }

  public static ServerLink lost(String sentence, Instant since) {
    return new ServerLink(State.LOST, sentence, since, 0, "");
  }

  public static ServerLink stopped(String sentence, Instant since) {
    return new ServerLink(State.STOPPED, sentence, since, 0, "");
  }

  /** The same loss, with attempt {@code n} under way; {@code lastFailure} says why the one before failed. */
  public ServerLink reconnecting(int n, String failure) {
    return new ServerLink(State.RECONNECTING, sentence, since, n, failure);
  }

  /** Whether what was read from the server may no longer hold: it does not answer, or the console reconnects. */
  public boolean lost() {
    return state == State.LOST || state == State.RECONNECTING || state == State.STOPPED;
  }

  /** The status bar's sentence while the server is lost; empty otherwise (the connection says where it is). */
  public String words() {
    return switch (state) {
      case LOST -> "Server lost at " + Formats.clock(since) + ": " + sentence + " Cutover reconnects by itself.";
      case RECONNECTING -> "Reconnecting… (attempt " + attempt + "). Server lost at " + Formats.clock(since) + ": "
          + sentence + (lastFailure.isEmpty() ? "" : " The last attempt failed: " + lastFailure);
      case STOPPED -> "Server stopped at " + Formats.clock(since) + ": " + sentence + " " + STAYS_STOPPED;
      case NONE, CONNECTED -> "";
    };
  }
}
