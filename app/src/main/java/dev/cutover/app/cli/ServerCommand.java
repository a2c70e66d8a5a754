package dev.cutover.app.cli;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.ServerAccess;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The embedded server as its own thing: start it and keep it up while this runs, stop it, or say who
 * uses it. It serves every Cutover process on its data directory, whoever started it, and stops by
 * itself once none has used it for its idle period.
 */
@Command(name = "server", mixinStandardHelpOptions = true,
    subcommands = {ServerCommand.Stop.class, ServerCommand.Status.class},
    description = {"Start the embedded ClickHouse (or join the one running on the data directory) and keep it up "
        + "while this command runs; Ctrl-C lets go of it. The server outlives whoever started it: it serves every "
        + "Cutover process on its data directory and stops by itself once none has used it for its idle period "
        + "(--idle, or CUTOVER_SERVER_IDLE; default 5m). Every start, join, leave and stop is a line of server.log "
        + "in the data directory.", "'server stop' stops it now, gracefully; 'server status' says who uses it."})
public final class ServerCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Option(names = "--idle", paramLabel = "DURATION",
      description = "How long a server started here waits once no Cutover process uses it, e.g. 90s, 10m, 2h "
          + "(default: CUTOVER_SERVER_IDLE, else 5m).")
  String idle;

  @Override
  public Integer call() throws InterruptedException {
    requireEmbedded(connection);
    Duration wait = idle == null ? EmbeddedServer.idleFromEnvironment() : EmbeddedServer.parseIdle("--idle", idle);
    PrintWriter out = spec.commandLine().getOut();
    EmbeddedServer server = EmbeddedServer.startOrJoin(connection.dataDirectory(), EngineLibrary.fromEnvironment(),
        ServerAccess.restricted(), wait, ConnectionOptions.progressTo(spec.commandLine().getErr()));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }));
    out.println((server.owner() ? "started" : "joined") + ": ClickHouse at 127.0.0.1:" + server.port() + " (process "
        + server.pid() + ", data " + server.dataDirectory() + ")");
    out.println("Other Cutover commands on this data directory use this server. Ctrl-C lets go of it; it stops by "
        + "itself once no Cutover process has used it for " + (server.owner() ? describe(wait) : "its idle period")
        + ", or now with: cutover server stop");
    out.flush();
    // Until Ctrl-C, or until the server stops (stop from elsewhere).
    while (!stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
      if (!server.running()) {
        out.println("The server stopped (see " + server.dataDirectory().resolve("server.log") + ").");
        out.flush();
        server.close();
        return ExitCodes.OK;
      }
    }
    return ExitCodes.OK;
  }

  static void requireEmbedded(ConnectionOptions connection) {
    if (!connection.embedded()) {
      throw new InvalidInputException("jdbc-url", "cutover server works on the embedded engine; remove --jdbc-url.");
    }
  }

  static String describe(Duration d) {
    return d.isZero() ? "a moment" : d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
  }

  @Command(name = "stop", mixinStandardHelpOptions = true,
      description = "Stop the embedded server of the data directory now, gracefully: it withdraws its record, cancels "
          + "the queries that run and waits for them, then shuts the engine down. Processes that used it see a lost "
          + "connection.")
  static final class Stop implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      requireEmbedded(connection);
      PrintWriter out = spec.commandLine().getOut();
      List<String> users = EmbeddedServer.clients(connection.dataDirectory());
      var stopped = EmbeddedServer.stopRunning(connection.dataDirectory(), "cutover server stop, by "
          + System.getProperty("user.name"));
      out.println(stopped.map(where -> "stopped: the server at " + where + (users.isEmpty() ? ""
          : ", which " + String.join(", ", users) + " used")).orElse("No server runs on " + connection.dataDirectory()
              + "."));
      out.flush();
      return ExitCodes.OK;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Say whether the embedded server of the data directory runs, and which Cutover processes use it.")
  static final class Status implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      requireEmbedded(connection);
      PrintWriter out = spec.commandLine().getOut();
      var running = EmbeddedServer.describeRunning(connection.dataDirectory());
      List<String> users = EmbeddedServer.clients(connection.dataDirectory());
      out.println(running.orElse("No server runs on " + connection.dataDirectory() + "."));
      if (running.isPresent()) {
        out.println(users.isEmpty() ? "No Cutover process uses it now; it stops once its idle period is over."
            : "Used by " + String.join(", ", users) + ".");
      }
      out.flush();
      return running.isPresent() ? ExitCodes.OK : ExitCodes.CONNECTION;
    }
  }
}
