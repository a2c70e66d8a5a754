package dev.cutover.engine.api;

import java.time.Instant;
import java.util.Objects;

/**
 * Whether the server answered a moment ago: what a status bar shows. A lost server is a sentence that
 * says why, as far as Cutover can tell (the embedded server's own log says why it stopped).
 *
 * @param answering whether the server answered within the probe's timeout
 * @param sentence what to show: where it answers, or why it does not
 * @param at when the probe ran
 * @param stopAsked an operator asked the embedded server to stop ({@code cutover server stop}): a
 *     console must not start it again behind the operator's back, only when asked to connect
 */
public record ServerHealth(boolean answering, String sentence, Instant at, boolean stopAsked) {

  public ServerHealth {
    Objects.requireNonNull(sentence);
    Objects.requireNonNull(at);
  }

  public static ServerHealth answering(String sentence) {
    return new ServerHealth(true, sentence, Instant.now(), false);
  }

  public static ServerHealth lost(String sentence) {
    return new ServerHealth(false, sentence, Instant.now(), false);
  }

  /** The embedded server stops, or stopped, because an operator asked it to. */
  public static ServerHealth stoppedOnRequest(String sentence) {
    return new ServerHealth(false, sentence, Instant.now(), true);
  }
}
