package dev.cutover.engine.embedded;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.EngineProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Keeps the embedded server of a data directory up for as long as this process wants it: what
 * {@code cutover server} runs. The server is a process of its own, shared by every Cutover process
 * on the directory; the keeper holds a lease on it like any client, and watches it: its process
 * about ten times a second, its port every {@link #PING}.
 *
 * <p>When the server's process ends without having been asked to stop, the keeper says why in
 * {@code server.log} (the exit status or signal when this process started the server, and the JVM's
 * crash file when one was written), withdraws {@code server.properties} at once, so that nobody
 * looks for the dead server, records the death in {@code restart.properties} (which clients read to
 * say why their connection broke), and starts a new server on the same port, within its {@link
 * RestartPolicy}; or it ends, and says so. A server stopped by {@code cutover server stop} stays
 * stopped.
 *
 * <pre>{@code
 * try (ServerKeeper keeper = ServerKeeper.start(dir, EngineLibrary.fromEnvironment(), ServerAccess.restricted(),
 *     EmbeddedServer.IDLE, RestartPolicy.DEFAULT, EngineProgress.NONE)) {
 *   ServerKeeper.Ending end = keeper.keep(events); // blocks
 * }
 * }</pre>
 */
public final class ServerKeeper implements AutoCloseable {

  /** How often the server's process is looked at. */
  static final Duration LOOK = Duration.ofMillis(100);
  /** How often the server is asked {@code /ping}. */
  static final Duration PING = Duration.ofSeconds(2);
  /** How long a server whose process runs may leave {@code /ping} unanswered before the log says so. */
  static final Duration SILENCE = Duration.ofSeconds(6);

  /** What the keeper tells whoever runs it, as it happens. */
  public interface Events {
    /** The server's process ended without being asked to: {@code sentence} says when, why and what comes next. */
    void died(String sentence);

    /** A new server serves, after a death. */
    void restarted(EmbeddedServer server);

    /** The server's process runs, and it does not answer (or answers again): a sentence for people. */
    void silence(String sentence);
  }

  /** How keeping the server up ended. */
  public record Ending(Kind kind, String sentence) {
    /** Why it ended. */
    public enum Kind {
      /** This process let go ({@link #close()}); the server goes on serving its other clients. */
      RELEASED,
      /** The server was asked to stop ({@code cutover server stop}), or its data folder was deleted. */
      STOPPED,
      /** The server died and is not restarted: the policy forbids it, or it died too often. */
      DIED
    }
  }

  private final Path dataDirectory;
  private final EngineLibrary library;
  private final ServerAccess access;
  private final Duration idle;
  private final RestartPolicy policy;
  private final EngineProgress progress;
  private final RestartPolicy.Budget budget;
  private volatile EmbeddedServer server;
  private volatile boolean released;

  private ServerKeeper(Path dataDirectory, EngineLibrary library, ServerAccess access, Duration idle,
      RestartPolicy policy, EngineProgress progress, EmbeddedServer server) {
    this.dataDirectory = dataDirectory;
    this.library = library;
    this.access = access;
    this.idle = idle;
    this.policy = policy;
    this.progress = progress;
    this.budget = policy.budget();
    this.server = server;
  }

  /** Starts the server on {@code dataDirectory}, or joins the one that runs there, and keeps it from now on. */
  public static ServerKeeper start(Path dataDirectory, EngineLibrary library, ServerAccess access, Duration idle,
      RestartPolicy policy, EngineProgress progress) {
    EmbeddedServer first = EmbeddedServer.startOrJoin(dataDirectory, library, access, idle, progress);
    return new ServerKeeper(dataDirectory, library, access, idle, policy, progress, first);
  }

  /** The server kept up now; after a restart, the new one. */
  public EmbeddedServer server() {
    return server;
  }

  /**
   * Watches the server, restarting it when it dies, until this process lets go ({@link #close()}),
   * the server is stopped, or it died and is not restarted. Blocking.
   */
  public Ending keep(Events events) {
    while (true) {
      EmbeddedServer current = server;
      if (!awaitEnd(current, events) || released) {
        return new Ending(Ending.Kind.RELEASED, "This process let go of the server.");
      }
      ServerDirectory dir = current.directory();
      if (current.stopRequested() || !Files.isDirectory(dir.root())) {
        current.close();
        return new Ending(Ending.Kind.STOPPED, "The server stopped (see " + dir.log() + ").");
      }
      Instant ended = Instant.now();
      boolean again = budget.take(ended);
      ServerRestart.Plan plan = again ? ServerRestart.Plan.RESTARTING
          : policy.restart() ? ServerRestart.Plan.GAVE_UP : ServerRestart.Plan.NOT_RESTARTING;
      ServerRestart death = ServerRestart.of(current, ended, plan);
      // Withdrawn first: from the moment the death is written anywhere, no record names the dead process.
      dir.clearRecordIfOwnedBy(current.pid());
      death.write(dir.restartRecord());
      log(dir, "the server " + current.pid() + " " + death.ended() + " (" + death.cause() + "); its record is "
          + "withdrawn; " + switch (plan) {
            case RESTARTING -> "starting a new server (restart " + budget.used() + ", " + policy.describe() + ")";
            case NOT_RESTARTING -> "not restarting it (--no-restart)";
            case GAVE_UP -> "giving up: that is more than " + policy.describe();
          });
      events.died(death.sentence(dir.log()));
      current.close();
      if (!again) {
        String sentence = death.sentence(dir.log());
        return new Ending(Ending.Kind.DIED, plan == ServerRestart.Plan.GAVE_UP
            ? sentence.substring(0, sentence.length() - 1) + " (" + policy.describe() + ")." : sentence);
      }
      EmbeddedServer next;
      try {
        next = EmbeddedServer.startOrJoin(dataDirectory, library, access, idle, progress);
      } catch (CutoverException | java.io.UncheckedIOException e) {
        log(dir, "could not start a new server: " + e.getMessage());
        return new Ending(Ending.Kind.DIED, "The embedded server's engine process " + current.pid() + " "
            + death.ended() + " (" + death.cause() + "), and a new one could not be started: " + e.getMessage());
      }
      Instant back = Instant.now();
      death.restartedBy(next.pid(), back).write(dir.restartRecord());
      log(dir, (next.owner() ? "restarted the server: process " : "a new server, started by another Cutover process, "
          + "serves: process ") + next.pid() + " on 127.0.0.1:" + next.port() + ", "
          + Duration.between(ended, back).toMillis() + " ms after the server " + current.pid() + " " + death.ended());
      server = next;
      if (released) {
        next.close();
        return new Ending(Ending.Kind.RELEASED, "This process let go of the server.");
      }
      events.restarted(next);
    }
  }

  /**
   * Waits until the server's process ends (true) or this process lets go (false), asking its port
   * every {@link #PING} and saying once when it stays silent while its process runs.
   */
  private boolean awaitEnd(EmbeddedServer watched, Events events) {
    ServerDirectory dir = watched.directory();
    Instant nextPing = Instant.now().plus(PING);
    Instant silentSince = null;
    boolean said = false;
    while (!released) {
      if (!watched.running()) {
        return true;
      }
      Instant now = Instant.now();
      if (!now.isBefore(nextPing)) {
        boolean answers = ServerMain.answersPing(watched.port()) || watched.whyStopping().isPresent();
        now = Instant.now();
        nextPing = now.plus(PING);
        if (answers) {
          if (said) {
            say(dir, events, "the server " + watched.pid() + " answers on 127.0.0.1:" + watched.port() + " again");
          }
          silentSince = null;
          said = false;
        } else if (watched.running()) {
          silentSince = silentSince == null ? now : silentSince;
          if (!said && !now.isBefore(silentSince.plus(SILENCE))) {
            say(dir, events, "the server " + watched.pid() + " has not answered on 127.0.0.1:" + watched.port()
                + " for " + Duration.between(silentSince, now).toSeconds() + " s, although its process runs");
            said = true;
          }
        }
      }
      try {
        Thread.sleep(LOOK);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  private static void say(ServerDirectory dir, Events events, String line) {
    log(dir, line);
    events.silence("The embedded server" + line.substring("the server".length()) + ".");
  }

  /** One line of {@code server.log}, as this process writes it. */
  private static void log(ServerDirectory dir, String line) {
    ServerLease.log(dir, "cutover server " + ProcessHandle.current().pid() + ": " + line);
  }

  /** Lets go of the server: it goes on serving its other clients, and stops by itself once none is left. */
  @Override
  public void close() {
    released = true;
    server.close();
  }
}
