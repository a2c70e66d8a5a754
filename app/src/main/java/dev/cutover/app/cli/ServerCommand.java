package dev.cutover.app.cli;

import dev.cutover.engine.EmbeddedEngine;
import dev.cutover.engine.ServerKeeping;
import dev.cutover.engine.api.InvalidInputException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
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
    subcommands = {ServerCommand.Stop.class, ServerCommand.Status.class, ServerCommand.Recover.class},
    description = {"Start the embedded ClickHouse (or join the one running on the data directory) and keep it up "
        + "while this command runs; Ctrl-C lets go of it. The server outlives whoever started it: it serves every "
        + "Cutover process on its data directory and stops by itself once none has used it for its idle period "
        + "(--idle, or CUTOVER_SERVER_IDLE; default 5m). Every start, join, leave and stop is a line of server.log "
        + "in the data directory.", "While it runs, it watches the server: when the server's process dies (killed, "
        + "crashed), it says why in server.log and here, withdraws server.properties at once and starts a new "
        + "server on the same port, at most 5 times within 10 minutes; with --no-restart it ends instead (exit 4). "
        + "A server stopped with 'server stop' stays stopped.",
        "'server stop' stops it now, gracefully; 'server status' says who uses it."})
public final class ServerCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin JsonOption output;
  @Spec CommandSpec spec;

  /** One line of {@code cutover server --json}: what happened to the server, as it happened. */
  record ServerEvent(String command, String event, Integer port, Long pid, String dataDirectory, String sentence) {}

  @Option(names = "--idle", paramLabel = "DURATION",
      description = "How long a server started here waits once no Cutover process uses it, e.g. 90s, 10m, 2h "
          + "(default: CUTOVER_SERVER_IDLE, else 5m).")
  String idle;

  @Option(names = "--no-restart",
      description = "When the server's process dies, end (exit 4) instead of starting a new server. Either way the "
          + "death is a line of server.log and server.properties is withdrawn at once.")
  boolean noRestart;

  @Override
  public Integer call() throws InterruptedException {
    requireEmbedded(connection);
    if (connection.shards != null) {
      return keepCluster();
    }
    Duration wait = idle == null ? EmbeddedEngine.idleFromEnvironment() : EmbeddedEngine.parseIdle("--idle", idle);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ServerKeeping keeper = ServerKeeping.start(connection.dataDirectory(), wait, !noRestart,
        ConnectionOptions.progressTo(err));
    // Ctrl-C lets go of the server, which goes on serving its other clients.
    Runtime.getRuntime().addShutdownHook(new Thread(keeper::close));
    EmbeddedEngine server = keeper.server();
    String started = server.owner() ? "started" : "joined";
    output.print(out, event(started, server, null), List.of(started + ": ClickHouse at 127.0.0.1:" + server.port()
        + " (process " + server.pid() + ", data " + server.dataDirectory() + ")", "Other Cutover commands on this "
        + "data directory use this server. Ctrl-C lets go of it; it stops by itself once no Cutover process has used "
        + "it for " + (server.owner() ? describe(wait) : "its idle period") + ", or now with: cutover server stop"));
    ServerKeeping.Ending end = keeper.keep(new ServerKeeping.Events() {
      @Override
      public void died(String sentence) {
        output.print(out, event("died", null, sentence), List.of(sentence));
      }

      @Override
      public void restarted(EmbeddedEngine next) {
        output.print(out, event("restarted", next, null), List.of("restarted: ClickHouse at 127.0.0.1:" + next.port()
            + " (process " + next.pid() + ", data " + next.dataDirectory() + ")"));
      }

      @Override
      public void silence(String sentence) {
        output.print(out, event("silent", null, sentence), List.of(sentence));
      }
    });
    return switch (end.kind()) {
      case RELEASED -> ExitCodes.OK;
      case STOPPED -> {
        output.print(out, event("stopped", null, end.sentence()), List.of(end.sentence()));
        yield ExitCodes.OK;
      }
      case DIED -> {
        if (output.on()) {
          output.print(out, event("died", null, end.sentence()), List.of());
        }
        err.println(end.sentence());
        err.flush();
        yield ExitCodes.EMBEDDED;
      }
    };
  }

  /**
   * {@code server --shards N}: starts or joins the local cluster in the data directory's folder cluster and keeps
   * every node up while this runs; each node stops by itself once no Cutover process has used it for its idle
   * period, as one server does. A node that dies is not restarted here: a command that needs it starts it again.
   */
  private int keepCluster() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    dev.cutover.engine.Session session = connection.open(spec.commandLine().getErr());
    Runtime.getRuntime().addShutdownHook(new Thread(session::close));
    var nodes = session.localNodes();
    for (var node : nodes) {
      output.print(out, new ServerEvent("server", "started", node.port(), node.pid(), node.dataDirectory().toString(),
          "shard " + node.shard() + " of cluster " + dev.cutover.engine.Session.LOCAL_CLUSTER), List.of("shard "
          + node.shard() + ": ClickHouse at " + node.host() + ":" + node.port() + " (process " + node.pid() + ", data "
          + node.dataDirectory() + ")"));
    }
    if (!output.on()) {
      out.println("The local cluster " + dev.cutover.engine.Session.LOCAL_CLUSTER + " of " + nodes.size()
          + " shards is up; Cutover commands with --shards " + nodes.size() + " on this data directory use it. "
          + "Ctrl-C lets go of it; stop it now with: cutover server stop --shards " + nodes.size());
      out.flush();
    }
    Thread.currentThread().join();
    return ExitCodes.OK;
  }

  private ServerEvent event(String what, EmbeddedEngine server, String sentence) {
    return new ServerEvent("server", what, server == null ? null : server.port(), server == null ? null : server.pid(),
        connection.dataDirectory().toString(), sentence);
  }

  static void requireEmbedded(ConnectionOptions connection) {
    if (!connection.embedded()) {
      throw new InvalidInputException("jdbc-url", "cutover server works on the embedded engine only; remove --jdbc-url "
          + "(and unset CUTOVER_JDBC_URL), or name the data directory with --data-dir.");
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
    @Mixin JsonOption output;
    @Spec CommandSpec spec;

    /** {@code cutover server stop --json}. */
    record StopDocument(String command, String dataDirectory, boolean stopped, String server, List<String> clients) {}

    @Override
    public Integer call() {
      requireEmbedded(connection);
      PrintWriter out = spec.commandLine().getOut();
      if (connection.shards != null) {
        List<String> lines = new java.util.ArrayList<>();
        for (int i = 1; i <= connection.shards; i++) {
          java.nio.file.Path node = dev.cutover.engine.Session.localClusterNode(connection.clusterRoot(), i);
          var stopped = EmbeddedEngine.stop(node, "cutover server stop --shards, by " + System.getProperty("user.name"));
          lines.add("shard " + i + ": " + stopped.map(where -> "stopped the server at " + where)
              .orElse("no server runs on " + node));
        }
        output.print(out, new StopDocument("server stop", connection.clusterRoot().toString(),
            true, String.join("; ", lines), List.of()), lines);
        return ExitCodes.OK;
      }
      List<String> users = EmbeddedEngine.clients(connection.dataDirectory());
      var stopped = EmbeddedEngine.stop(connection.dataDirectory(), "cutover server stop, by "
          + System.getProperty("user.name"));
      output.print(out, new StopDocument("server stop", connection.dataDirectory().toString(), stopped.isPresent(),
          stopped.orElse(null), users), List.of(stopped.map(where -> "stopped: the server at " + where
              + (users.isEmpty() ? "" : ", which " + String.join(", ", users) + " used"))
          .orElse("No server runs on " + connection.dataDirectory() + ".")));
      return ExitCodes.OK;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Say whether the embedded server of the data directory runs, and which Cutover processes use it.")
  static final class Status implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Mixin JsonOption output;
    @Spec CommandSpec spec;

    /** {@code cutover server status --json}. */
    record StatusDocument(String command, String dataDirectory, boolean running, String server,
        List<String> clients) {}

    @Override
    public Integer call() {
      requireEmbedded(connection);
      PrintWriter out = spec.commandLine().getOut();
      var running = EmbeddedEngine.describeRunning(connection.dataDirectory());
      List<String> users = EmbeddedEngine.clients(connection.dataDirectory());
      List<String> lines = new java.util.ArrayList<>(List.of(running.orElse("No server runs on "
          + connection.dataDirectory() + ".")));
      if (running.isPresent()) {
        lines.add(users.isEmpty() ? "No Cutover process uses it now; it stops once its idle period is over."
            : "Used by " + String.join(", ", users) + ".");
      }
      output.print(out, new StatusDocument("server status", connection.dataDirectory().toString(), running.isPresent(),
          running.orElse(null), users), lines);
      return running.isPresent() ? ExitCodes.OK : ExitCodes.CONNECTION;
    }
  }

  @Command(name = "recover", mixinStandardHelpOptions = true,
      description = {"Recover the store of the data directory after a full disk left table definitions empty (the "
          + "server then refuses to start and names them). With no server running: sets the empty definitions aside "
          + "under DIR/recovered/TIME/ (with set-aside.tsv saying where each came from), starts the server, attaches "
          + "each of Cutover's own tables (runs, ledger, reports, audit) to its data again, and creates the rest of "
          + "Cutover's tables anew. Nothing is deleted. A table of your own among them is named: its data stays in "
          + "the store, to attach by hand (docs/RELIABILITY.md, \"A full disk\")."})
  static final class Recover implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Mixin JsonOption output;
    @Spec CommandSpec spec;

    /** {@code cutover server recover --json}. */
    record RecoverDocument(String command, String dataDirectory, List<String> setAside, String folder,
        java.util.Map<String, String> restored, List<String> byHand) {}

    @Override
    public Integer call() {
      requireEmbedded(connection);
      PrintWriter out = spec.commandLine().getOut();
      var r = EmbeddedEngine.recover(connection.dataDirectory(), dev.cutover.engine.api.EngineProgress.NONE);
      List<String> lines = new java.util.ArrayList<>();
      if (!r.anything()) {
        lines.add("Nothing to recover: no table definition in " + connection.dataDirectory() + " is empty.");
      } else {
        lines.add("Set aside " + r.setAside().size() + " empty definition(s) in " + r.folder() + ": "
            + String.join(", ", r.setAside()) + ".");
        lines.add(r.restored().isEmpty() ? "No table of Cutover's had data to attach again."
            : "Attached " + String.join(", ", r.restored().keySet()) + " to their data again; Cutover's other tables "
                + "are there, those without data created anew.");
        if (!r.byHand().isEmpty()) {
          lines.add("Yours to attach by hand (their data is in the store, under clickhouse/store/): "
              + String.join(", ", r.byHand()) + ".");
        }
        lines.add("The server runs again: ./cutover status --spec … shows where the repair stands.");
      }
      output.print(out, new RecoverDocument("server recover", connection.dataDirectory().toString(), r.setAside(),
          r.folder() == null ? null : r.folder().toString(), r.restored(), r.byHand()), lines);
      return ExitCodes.OK;
    }
  }
}
