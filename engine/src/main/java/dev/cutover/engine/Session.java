package dev.cutover.engine;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.ServerHealth;
import dev.cutover.engine.api.ServerInfo;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.LocalCluster;
import dev.cutover.engine.embedded.ServerAccess;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One operator's connection to ClickHouse: either the embedded default (which this session may have
 * started) or a server named by a profile. Closing it closes the pool and stops an embedded server
 * this session started.
 */
public final class Session implements AutoCloseable {

  /** The working database of the embedded default. */
  public static final String EMBEDDED_DATABASE = "cutover";

  /** The name of the embedded local cluster in {@code system.clusters}. */
  public static final String LOCAL_CLUSTER = LocalCluster.NAME;

  /** The most shards a local cluster may have. */
  public static final int MAX_LOCAL_SHARDS = LocalCluster.MAX_SHARDS;

  private final Database database;
  private final EmbeddedServer embedded;
  private final LocalCluster cluster;

  private Session(Database database, EmbeddedServer embedded) {
    this(database, embedded, null);
  }

  private Session(Database database, EmbeddedServer embedded, LocalCluster cluster) {
    this.database = database;
    this.embedded = embedded;
    this.cluster = cluster;
  }

  /** Connects to a server described by a profile. */
  public static Session connect(ConnectionProfile profile) {
    return new Session(Database.open(profile), null);
  }

  /**
   * Starts or joins the embedded ClickHouse on {@code dataDirectory} with the engine library this
   * machine names (CUTOVER_ENGINE_LIB, else the one Cutover fetches), in restricted mode.
   */
  public static Session embedded(Path dataDirectory, EngineProgress progress) {
    return embedded(dataDirectory, EngineLibrary.fromEnvironment(), progress);
  }

  /**
   * Starts or joins the embedded ClickHouse on {@code dataDirectory} and connects to it, creating
   * the Atomic working database {@value #EMBEDDED_DATABASE} on first use.
   */
  public static Session embedded(Path dataDirectory, EngineLibrary library, EngineProgress progress) {
    return embedded(dataDirectory, library, ServerAccess.restricted(), progress);
  }

  /** As {@link #embedded(Path, EngineLibrary, EngineProgress)}, starting a server with {@code access} if none runs. */
  public static Session embedded(Path dataDirectory, EngineLibrary library, ServerAccess access, EngineProgress progress) {
    EmbeddedServer server = EmbeddedServer.startOrJoin(dataDirectory, library, access, progress);
    try {
      progress.report("Connecting to " + server, -1, -1);
      bootstrap(server);
      return new Session(Database.open(server.profile(EMBEDDED_DATABASE), server::whyLost), server);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /**
   * Starts or joins the embedded local cluster of {@code shards} nodes in {@code root} (see {@link
   * LocalCluster}), creates the Atomic working database {@value #EMBEDDED_DATABASE} on every node, and
   * connects to shard 1, the entry through which the cluster is seen. Closing the session lets go of
   * every node.
   */
  public static Session cluster(Path root, int shards, EngineLibrary library, EngineProgress progress) {
    LocalCluster nodes = LocalCluster.startOrJoin(root, shards, library, EmbeddedServer.idleFromEnvironment(),
        progress);
    try {
      nodes.nodes().forEach(Session::bootstrap);
      EmbeddedServer entry = nodes.entry();
      progress.report("Connecting to " + entry, -1, -1);
      return new Session(Database.open(entry.profile(EMBEDDED_DATABASE), entry::whyLost), entry, nodes);
    } catch (RuntimeException e) {
      nodes.close();
      throw e;
    }
  }

  /** As {@link #cluster(Path, int, EngineLibrary, EngineProgress)}, with the engine the environment names. */
  public static Session cluster(Path root, int shards, EngineProgress progress) {
    return cluster(root, shards, EngineLibrary.fromEnvironment(), progress);
  }

  /** The data directory of shard {@code shard} (from 1) of the local cluster in {@code root}. */
  public static Path localClusterNode(Path root, int shard) {
    return LocalCluster.node(root, shard);
  }

  /** Whether this session reaches the embedded local cluster (through its shard 1). */
  public boolean clustered() {
    return cluster != null;
  }

  /** The servers of the local cluster this session reaches, shard 1 first; empty when it reaches none. */
  public java.util.List<dev.cutover.engine.api.LocalNode> localNodes() {
    if (cluster == null) {
      return java.util.List.of();
    }
    java.util.List<dev.cutover.engine.api.LocalNode> out = new java.util.ArrayList<>();
    for (int i = 0; i < cluster.nodes().size(); i++) {
      EmbeddedServer node = cluster.nodes().get(i);
      out.add(new dev.cutover.engine.api.LocalNode(i + 1, node.host(), node.port(), node.pid(), node.dataDirectory()));
    }
    return out;
  }

  /**
   * A session on each shard of the local cluster after shard 1, in its working database, as the same operator:
   * for work that runs on every shard's own tables. The caller closes them; they leave the cluster running.
   */
  public java.util.List<Session> otherShards() {
    if (cluster == null) {
      return java.util.List.of();
    }
    java.util.List<Session> out = new java.util.ArrayList<>();
    try {
      for (EmbeddedServer node : cluster.nodes().subList(1, cluster.nodes().size())) {
        out.add(new Session(Database.open(node.profile(EMBEDDED_DATABASE), node::whyLost), null));
      }
      return out;
    } catch (RuntimeException e) {
      out.forEach(Session::close);
      throw e;
    }
  }

  /** The embedded local cluster this session connects to through its shard 1; empty otherwise. */
  public Optional<LocalCluster> localCluster() {
    return Optional.ofNullable(cluster);
  }

  private static void bootstrap(EmbeddedServer server) {
    // The embedded default database is an Overlay; EXCHANGE TABLES needs Atomic.
    Database.createAtomicDatabase(server.jdbcUrl() + "/default", server.profile("default"), EMBEDDED_DATABASE);
  }


  /** The pool and statement runner of this session: the engine's own; outside it, open an {@link Engine}. */
  public Database database() {
    return database;
  }

  /** The statement runner of this session, for tables of the caller's own beside a repair. */
  public Statements statements() {
    return new Statements(database.sql());
  }

  public ServerInfo server() {
    return database.server();
  }

  /** The embedded server, when this session uses the embedded default. */
  public Optional<EmbeddedEngine> embedded() {
    return Optional.ofNullable(embedded).map(EmbeddedEngine::new);
  }

  /** The embedded server itself, for the engine's own steps and tests; empty for a remote server. */
  public Optional<EmbeddedServer> embeddedServer() {
    return Optional.ofNullable(embedded);
  }

  /** One line for people: {@code ClickHouse 26.7.2.1 at 127.0.0.1:PORT (embedded, data: DIR)}. */
  public String describe() {
    ServerInfo info = server();
    String where = embedded == null
        ? "(database " + info.database() + ", user " + info.user() + (info.tls() ? ", TLS" : "") + ")"
        : cluster != null ? "(embedded cluster " + LocalCluster.NAME + " of " + cluster.nodes().size()
            + " shards, data: " + cluster.root() + ")" : "(embedded, data: " + embedded.dataDirectory() + ")";
    return "ClickHouse " + info.version() + " at " + info.address() + " " + where;
  }

  /**
   * Asks the server whether it is there, within {@code timeout}, without the connection pool (whose
   * connections a long backfill may hold): the embedded server's process first, then ClickHouse's
   * {@code /ping} over plain HTTP, or a TCP connect for a TLS endpoint. Never throws; a server that
   * does not answer in time counts as lost, and so does an embedded server that is stopping: it
   * cancels the queries it runs and closes its listener moments later.
   */
  public ServerHealth health(java.time.Duration timeout) {
    Optional<ServerHealth> gone = embeddedGone();
    if (gone.isPresent()) {
      return gone.get();
    }
    ServerHealth pinged = database.ping(timeout);
    // The process may have ended while the ping ran: its reason is the truer sentence.
    return pinged.answering() ? pinged : embeddedGone().orElse(pinged);
  }

  /** The embedded server's own word that it stopped or is stopping; empty for a remote server or one that runs. */
  private Optional<ServerHealth> embeddedGone() {
    if (embedded == null) {
      return Optional.empty();
    }
    Optional<String> why = embedded.whyStopped();
    if (why.isPresent()) {
      // Died under cutover server, which says when it restarted it (or why it did not).
      Optional<String> restart = embedded.restart();
      if (restart.isPresent()) {
        return Optional.of(ServerHealth.lost(restart.get()));
      }
      String sentence = "The embedded ClickHouse stopped: " + why.get() + ".";
      return Optional.of(embedded.stopRequested() ? ServerHealth.stoppedOnRequest(sentence)
          : ServerHealth.lost(sentence));
    }
    Optional<String> stopping = embedded.whyStopping();
    if (stopping.isPresent()) {
      String sentence = "The embedded ClickHouse is stopping (" + stopping.get() + ").";
      return Optional.of(embedded.stopRequested() ? ServerHealth.stoppedOnRequest(sentence)
          : ServerHealth.lost(sentence));
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    try {
      database.close();
    } finally {
      if (cluster != null) {
        cluster.close();
      } else if (embedded != null) {
        embedded.close();
      }
    }
  }
}
