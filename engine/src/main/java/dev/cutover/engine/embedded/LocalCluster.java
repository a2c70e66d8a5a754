package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;

/**
 * Several embedded servers on this machine that form one ClickHouse cluster, {@value #NAME}: one data
 * directory per shard ({@code shard-1}, {@code shard-2}, … under the cluster's folder), each serving
 * HTTP as any embedded server does and, as a shard, the native protocol on a port of its own, so that
 * {@code Distributed} tables, {@code remote()} and {@code clusterAllReplicas()} reach every node. The
 * shards share the operator's password and the cluster's secret, with which a node forwards the user of
 * a distributed query to the others. A shard names itself in the macro {@code shard}.
 *
 * <p>The layout (how many shards, their native ports, the secret) is made once, in {@code
 * cluster.properties} (owner-only), and kept: a cluster started again has the same ports and data.
 * Each node is an ordinary embedded server, started or joined with a lease of its own; closing this
 * lets go of every lease.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.startOrJoin(dir, 3, library, Duration.ofMinutes(5), progress)) {
 *   Database entry = Database.open(cluster.entry().profile("cutover"));
 * }
 * }</pre>
 */
public final class LocalCluster implements AutoCloseable {

  /** The cluster's name in {@code system.clusters} on every node. */
  public static final String NAME = "cutover_local";
  public static final int MAX_SHARDS = 8;

  /** The file of the cluster's layout, in its folder. */
  static final String LAYOUT = "cluster.properties";
  /** The names of the shards' data directories, in its folder. */
  static final String SHARD_PATTERN = "shard-[1-9][0-9]*";

  private final Path root;
  private final List<EmbeddedServer> nodes;
  private final Layout layout;

  private LocalCluster(Path root, List<EmbeddedServer> nodes, Layout layout) {
    this.root = root;
    this.nodes = List.copyOf(nodes);
    this.layout = layout;
  }

  /**
   * Starts (or joins) the {@code shards} nodes of the local cluster in {@code root}, laying it out on
   * first use. A folder laid out for another number of shards is refused.
   */
  public static LocalCluster startOrJoin(Path root, int shards, EngineLibrary library, Duration idle,
      EngineProgress progress) {
    if (shards < 2 || shards > MAX_SHARDS) {
      throw new IllegalArgumentException("a local cluster has 2 to " + MAX_SHARDS + " shards, not " + shards);
    }
    DirectoryClaim.claim(root, DirectoryClaim.Kind.CLUSTER); // before anything is written there
    Layout layout = Layout.readOrMake(root, shards);
    List<EmbeddedServer> started = new ArrayList<>();
    try {
      char[] secret = null;
      for (int i = 1; i <= shards; i++) {
        ServerDirectory dir = new ServerDirectory(node(root, i));
        DirectoryClaim.claim(dir.root(), DirectoryClaim.Kind.DATA);
        if (i == 1) {
          if (!Files.isRegularFile(dir.secret())) {
            dir.writeAccess(ServerAccess.restricted());
          }
          secret = dir.readSecret();
        } else {
          dir.writeSecret(secret);
        }
        dir.writeCluster(layout.xml(i));
        progress.report("Starting or joining shard " + i + " of " + shards + " of the local cluster", i - 1, shards);
        started.add(EmbeddedServer.startOrJoin(dir.root(), library, ServerAccess.restricted(), idle, progress));
      }
      if (secret != null) {
        java.util.Arrays.fill(secret, '\0');
      }
      return new LocalCluster(root, started, layout);
    } catch (RuntimeException e) {
      started.forEach(EmbeddedServer::close);
      throw e;
    }
  }

  /** The data directory of shard {@code i} (from 1) of the cluster in {@code root}. */
  public static Path node(Path root, int i) {
    return root.resolve("shard-" + i);
  }

  /** The nodes, shard 1 first. */
  public List<EmbeddedServer> nodes() {
    return nodes;
  }

  /**
   * The HTTP address (a JDBC URL) of the node that serves the native protocol on {@code host}:{@code
   * tcpPort}, as {@code system.clusters} names it; empty when it is not a node of this cluster.
   */
  public java.util.Optional<String> jdbcUrl(String host, int tcpPort) {
    int i = layout.tcpPorts().indexOf(tcpPort);
    boolean local = host.equals("127.0.0.1") || host.equals("localhost");
    return i < 0 || !local ? java.util.Optional.empty() : java.util.Optional.of(nodes.get(i).jdbcUrl());
  }

  /** The node a client connects to first: shard 1. */
  public EmbeddedServer entry() {
    return nodes.getFirst();
  }

  public Path root() {
    return root;
  }

  /** Lets go of every node's lease; each node stops once idle, as any embedded server. */
  @Override
  public void close() {
    nodes.forEach(EmbeddedServer::close);
  }

  /** The shards' native ports and the cluster's secret, made once per cluster folder. */
  record Layout(List<Integer> tcpPorts, String secret) {

    static Layout readOrMake(Path root, int shards) {
      Path file = root.resolve(LAYOUT);
      try {
        PrivateFiles.createFolder(root);
        Properties p = new Properties();
        if (Files.isRegularFile(file)) {
          try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
          }
          int laidOut = Integer.parseInt(p.getProperty("shards"));
          if (laidOut != shards) {
            throw new EmbeddedEngineException("The local cluster in " + root + " was laid out with " + laidOut
                + " shards, not " + shards + "; start it with " + laidOut + " shards, or choose another data "
                + "directory for a cluster of " + shards + ".", null);
          }
          List<Integer> ports = new ArrayList<>();
          for (int i = 1; i <= shards; i++) {
            ports.add(Integer.parseInt(p.getProperty("tcp_port." + i)));
          }
          return new Layout(ports, p.getProperty("secret"));
        }
        List<Integer> ports = freePorts(shards);
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        Layout layout = new Layout(ports, HexFormat.of().formatHex(random));
        p.setProperty("shards", Integer.toString(shards));
        for (int i = 1; i <= shards; i++) {
          p.setProperty("tcp_port." + i, Integer.toString(ports.get(i - 1)));
        }
        p.setProperty("secret", layout.secret());
        java.io.StringWriter text = new java.io.StringWriter();
        try (Writer out = text) {
          p.store(out, "The local cluster's layout: made once, kept for its life.");
        }
        if (!PrivateFiles.create(file, text.toString())) {
          return readOrMake(root, shards); // another process laid it out at the same moment: its layout holds
        }
        return layout;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Shard {@code i}'s part of the configuration: its native port, its macro, and the whole cluster. */
    String xml(int i) {
      StringBuilder xml = new StringBuilder("<clickhouse>\n  <tcp_port>" + tcpPorts.get(i - 1) + "</tcp_port>\n"
          + "  <macros><shard>" + i + "</shard></macros>\n  <remote_servers>\n    <" + NAME + ">\n      <secret>"
          + secret + "</secret>\n");
      for (int port : tcpPorts) {
        xml.append("      <shard><replica><host>127.0.0.1</host><port>").append(port)
            .append("</port></replica></shard>\n");
      }
      return xml.append("    </").append(NAME).append(">\n  </remote_servers>\n</clickhouse>\n").toString();
    }

    /**
     * Free native ports below the system's ephemeral range (Linux starts it at 32768): a port the system
     * hands out for a connection or an HTTP port of another server would otherwise take a shard's port
     * between this layout and the shard's start, and the shard could not listen on it.
     */
    private static List<Integer> freePorts(int n) throws IOException {
      java.util.random.RandomGenerator random = new SecureRandom();
      List<Integer> ports = new ArrayList<>();
      for (int tries = 0; ports.size() < n; tries++) {
        if (tries > 2000) {
          throw new IOException("found no " + n + " free ports between 20000 and 32000 on the loopback address");
        }
        int port = 20_000 + random.nextInt(12_000);
        if (!ports.contains(port) && free(port)) {
          ports.add(port);
        }
      }
      return ports;
    }

    private static boolean free(int port) {
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return true;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
