package dev.cutover.engine;

import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.RestartPolicy;
import dev.cutover.engine.embedded.ServerAccess;
import dev.cutover.engine.embedded.ServerKeeper;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Keeping the embedded server of a data directory up for as long as this process runs
 * ({@code cutover server}): a server that dies is restarted, unless told not to, and every death,
 * restart and silence is told as it happens.
 */
public final class ServerKeeping implements AutoCloseable {

  /** What keeping the server tells whoever runs it, as it happens. */
  public interface Events {
    /** The server's process ended without being asked to: {@code sentence} says when, why and what comes next. */
    void died(String sentence);

    /** A new server serves, after a death. */
    void restarted(EmbeddedEngine server);

    /** The server's process runs, and it does not answer (or answers again): a sentence for people. */
    void silence(String sentence);
  }

  /** How keeping the server up ended, with a sentence for people. */
  public record Ending(Kind kind, String sentence) {
    public enum Kind {
      /** This process let go; the server goes on serving its other clients. */
      RELEASED,
      /** The server was asked to stop, or its data folder was deleted. */
      STOPPED,
      /** The server died and is not restarted: restarting was declined, or it died too often. */
      DIED
    }
  }

  private final ServerKeeper keeper;

  private ServerKeeping(ServerKeeper keeper) {
    this.keeper = keeper;
  }

  /**
   * Starts the server on {@code dataDirectory}, or joins the one that runs there, and keeps it from now on.
   *
   * @param idle how long a server started here waits once no process uses it
   * @param restart whether a server that dies is started again
   */
  public static ServerKeeping start(Path dataDirectory, Duration idle, boolean restart, EngineProgress progress) {
    return new ServerKeeping(ServerKeeper.start(dataDirectory, EngineLibrary.fromEnvironment(),
        ServerAccess.restricted(), idle, restart ? RestartPolicy.DEFAULT : RestartPolicy.NO_RESTART, progress));
  }

  /** The server kept up now; after a restart, the new one. */
  public EmbeddedEngine server() {
    return new EmbeddedEngine(keeper.server());
  }

  /** Watches the server until this process lets go, it is stopped, or it dies for good. */
  public Ending keep(Events events) {
    ServerKeeper.Ending end = keeper.keep(new ServerKeeper.Events() {
      @Override
      public void died(String sentence) {
        events.died(sentence);
      }

      @Override
      public void restarted(EmbeddedServer server) {
        events.restarted(new EmbeddedEngine(server));
      }

      @Override
      public void silence(String sentence) {
        events.silence(sentence);
      }
    });
    return new Ending(Ending.Kind.valueOf(end.kind().name()), end.sentence());
  }

  /** Lets go of the server; it goes on serving its other clients. */
  @Override
  public void close() {
    keeper.close();
  }
}
