package dev.cutover.engine;

import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.StoreRecovery;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.UserDirectories;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The embedded ClickHouse as the console and the command line see it: one detached server per data
 * directory, shared by every Cutover process that uses that directory. An instance is the server a
 * {@link Session} uses; the static methods answer about a data directory without joining its server,
 * so asking never starts one.
 */
public final class EmbeddedEngine {

  private final EmbeddedServer server;

  EmbeddedEngine(EmbeddedServer server) {
    this.server = server;
  }

  /** The data directory Cutover uses when none is named: the user's own, under their data folder. */
  public static Path defaultDataDirectory() {
    return UserDirectories.embeddedData();
  }

  /**
   * Makes {@code dataDirectory} Cutover's before anything is written there, as starting a server does:
   * creates it owner-only when missing, marks an empty one, and refuses a relative path or a folder that
   * holds what Cutover did not make ({@code InvalidInputException}, field {@code data-dir}), changing
   * nothing in it. The local cluster, kept in a folder of the data directory, needs it done first.
   */
  public static void claim(Path dataDirectory) {
    EmbeddedServer.claimDataDirectory(dataDirectory);
  }

  /** The folder of {@code dataDirectory} that holds its local cluster ({@code cutover --shards N}). */
  public static Path localClusterFolder(Path dataDirectory) {
    return EmbeddedServer.localClusterFolder(dataDirectory);
  }

  /** The user's Cutover data folder, where exported specs and reports go by default. */
  public static Path userDataFolder() {
    return UserDirectories.data();
  }

  /** How long a server started now waits once no process uses it: CUTOVER_SERVER_IDLE, else the default. */
  public static Duration idleFromEnvironment() {
    return EmbeddedServer.idleFromEnvironment();
  }

  /**
   * Reads an idle period such as {@code 90s}, {@code 10m} or {@code 2h}.
   *
   * @param field the name of the field the text came from, for the sentence that refuses it
   */
  public static Duration parseIdle(String field, String text) {
    return EmbeddedServer.parseIdle(field, text);
  }

  /** The process id of the server that serves {@code dataDirectory} now, if one does. */
  public static OptionalLong serving(Path dataDirectory) {
    return EmbeddedServer.serving(dataDirectory);
  }

  /** One line about the server that serves {@code dataDirectory}, if one does. */
  public static Optional<String> describeRunning(Path dataDirectory) {
    return EmbeddedServer.describeRunning(dataDirectory);
  }

  /** The Cutover processes that hold a lease on the server of {@code dataDirectory}, one line each. */
  public static List<String> clients(Path dataDirectory) {
    return EmbeddedServer.clients(dataDirectory);
  }

  /**
   * Stops the server of {@code dataDirectory} gracefully, for {@code reason} (written to server.log).
   *
   * @return where the stopped server listened, or empty when none ran
   */
  public static Optional<String> stop(Path dataDirectory, String reason) {
    return EmbeddedServer.stopRunning(dataDirectory, reason);
  }

  /**
   * Recovers the store of {@code dataDirectory} after a full disk left table definitions empty (a server then
   * refuses to start, and says so): with no server running, sets the empty definitions aside under
   * {@code recovered/}, starts the server, gives Cutover's own tables their data back and creates the rest anew.
   * Nothing is deleted; a table of the operator's is named, its data left in the store.
   */
  public static StoreRecovery recover(Path dataDirectory, EngineProgress progress) {
    return Recovery.recover(dataDirectory, EngineLibrary.fromEnvironment(), progress);
  }

  public Path dataDirectory() {
    return server.dataDirectory();
  }

  public int port() {
    return server.port();
  }

  public long pid() {
    return server.pid();
  }

  /** Whether this process started the server (rather than joined one that ran). */
  public boolean owner() {
    return server.owner();
  }

  /** Whether the server's process is alive. */
  public boolean running() {
    return server.running();
  }

  /** Why the server is stopping, while it is; empty when it is not. */
  public Optional<String> whyStopping() {
    return server.whyStopping();
  }

  @Override
  public String toString() {
    return server.toString();
  }
}
