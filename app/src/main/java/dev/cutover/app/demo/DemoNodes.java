package dev.cutover.app.demo;

import dev.cutover.engine.Session;
import dev.cutover.engine.Statements;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.LocalCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo world on every node a session reaches: the one server, or every shard of the embedded local
 * cluster ({@code --shards N}), each shard holding the world's part of its books (sharded by {@link
 * DemoWorld#SHARDING_KEY}) and every shard the whole reference data, marks and FX rates.
 */
public final class DemoNodes implements AutoCloseable {

  /** The world's part on one node, and the statements that reach that node. */
  public record Node(DemoWorld world, Statements statements, Database database) {}

  private final List<Node> nodes;
  private final List<Database> opened;

  private DemoNodes(List<Node> nodes, List<Database> opened) {
    this.nodes = List.copyOf(nodes);
    this.opened = List.copyOf(opened);
  }

  public static DemoNodes of(Session session, DemoWorld world) {
    Optional<LocalCluster> cluster = session.localCluster();
    if (cluster.isEmpty()) {
      return new DemoNodes(List.of(new Node(world, session.statements(), session.database())), List.of());
    }
    List<EmbeddedServer> servers = cluster.get().nodes();
    List<Node> nodes = new ArrayList<>();
    List<Database> opened = new ArrayList<>();
    try {
      nodes.add(new Node(world.onShard(1, servers.size()), session.statements(), session.database()));
      for (int i = 1; i < servers.size(); i++) {
        Database db = Database.open(servers.get(i).profile(Session.EMBEDDED_DATABASE));
        opened.add(db);
        nodes.add(new Node(world.onShard(i + 1, servers.size()), Statements.over(db), db));
      }
      return new DemoNodes(nodes, opened);
    } catch (RuntimeException e) {
      opened.forEach(Database::close);
      throw e;
    }
  }

  public List<Node> all() {
    return nodes;
  }

  public boolean sharded() {
    return nodes.getFirst().world().shard().isPresent();
  }

  /**
   * On every shard: the Distributed tables over trades, v1 and v2, sharded by book, and the consumer view
   * reading v1 through its Distributed table, as consumers of a sharded table do. Idempotent.
   */
  public void distribute() {
    if (!sharded()) {
      return;
    }
    for (Node node : nodes) {
      DemoWorld w = node.world();
      Sql sql = new Sql(node.statements());
      String db = w.database().quoted();
      for (TableName local : List.of(w.trades(), w.pnlV1())) {
        sql.execute("create " + w.distributed(local), "CREATE TABLE IF NOT EXISTS " + w.distributed(local).sql() + " AS "
            + local.sql() + " ENGINE = Distributed(" + LocalCluster.NAME + ", " + db + ", " + local.table().quoted() + ", "
            + DemoWorld.SHARDING_KEY + ")");
      }
      sql.execute("create " + w.distributed(w.pnlV2()), "CREATE TABLE IF NOT EXISTS " + w.distributed(w.pnlV2()).sql()
          + " AS " + w.pnlV1().sql() + " ENGINE = Distributed(" + LocalCluster.NAME + ", " + db + ", "
          + w.pnlV2().table().quoted() + ", " + DemoWorld.SHARDING_KEY + ")");
      String query = node.statements().queryFirst("read the consumer view", dev.cutover.engine.api.Statement.of(
          "SELECT as_select FROM system.tables WHERE database = ? AND name = ?", w.database().name(),
          w.pnl().table().name()), row -> row.string(1)).orElseThrow();
      Identifier all = w.distributed(w.pnlV1()).table();
      if (!dev.cutover.engine.repair.ConsumerView.mentions(query, all.name())) {
        sql.execute("make the consumer view read every shard", "CREATE OR REPLACE VIEW " + w.pnl().sql() + " AS "
            + dev.cutover.engine.repair.ConsumerView.replaceTable(query, w.pnlV1().table().name(), all.name()));
      }
    }
  }

  @Override
  public void close() {
    opened.forEach(Database::close);
  }
}
