package dev.cutover.app.demo;

import dev.cutover.engine.Session;
import dev.cutover.engine.Statements;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo world on every node a session reaches: the one server, or every shard of the embedded local
 * cluster ({@code --shards N}), each shard holding the world's part of its books (sharded by {@link
 * DemoWorld#SHARDING_KEY}) and every shard the whole reference data, marks and FX rates.
 */
public final class DemoNodes implements AutoCloseable {

  /** The world's part on one node, and the session that reaches that node. */
  public record Node(DemoWorld world, Session session) {
    public Statements statements() {
      return session.statements();
    }
  }

  private final List<Node> nodes;
  private final List<Session> opened;

  private DemoNodes(List<Node> nodes, List<Session> opened) {
    this.nodes = List.copyOf(nodes);
    this.opened = List.copyOf(opened);
  }

  public static DemoNodes of(Session session, DemoWorld world) {
    if (!session.clustered()) {
      return new DemoNodes(List.of(new Node(world, session)), List.of());
    }
    List<Session> others = session.otherShards();
    int count = others.size() + 1;
    List<Node> nodes = new ArrayList<>();
    nodes.add(new Node(world.onShard(1, count), session));
    for (int i = 0; i < others.size(); i++) {
      nodes.add(new Node(world.onShard(i + 2, count), others.get(i)));
    }
    return new DemoNodes(nodes, others);
  }

  public List<Node> all() {
    return nodes;
  }

  public boolean sharded() {
    return nodes.getFirst().world().shard().isPresent();
  }

  /**
   * On every shard: the Distributed tables over trades (and the view-fed world's fees), v1 and v2, sharded by book,
   * and the consumer view
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
      List<TableName> locals = new java.util.ArrayList<>(List.of(w.trades(), w.pnlV1(), w.pnlV2()));
      if (w.viewFed(node.statements())) {
        locals.add(w.fees()); // the view-fed world's second source, sharded by book as the trades are
      }
      for (TableName local : locals) {
        TableName shape = local.equals(w.pnlV2()) ? w.pnlV1() : local; // v2 does not exist before the backfill
        sql.execute("create " + w.distributed(local), "CREATE TABLE IF NOT EXISTS " + w.distributed(local).sql() + " AS "
            + shape.sql() + " ENGINE = Distributed(" + Session.LOCAL_CLUSTER + ", " + db + ", " + local.table().quoted()
            + ", " + DemoWorld.SHARDING_KEY + ")");
      }
      String query = node.statements().queryFirst("read the consumer view", dev.cutover.engine.api.Statement.of(
          "SELECT as_select FROM system.tables WHERE database = ? AND name = ?", w.database().name(),
          w.pnl().table().name()), row -> row.string(1)).orElseThrow();
      String all = w.distributed(w.pnlV1()).table().name();
      Pattern v1 = word(w.pnlV1().table().name());
      if (!word(all).matcher(query).find()) {
        sql.execute("make the consumer view read every shard", "CREATE OR REPLACE VIEW " + w.pnl().sql() + " AS "
            + v1.matcher(query).replaceAll("$1" + Matcher.quoteReplacement(all) + "$2"));
      }
    }
  }

  /** The table's name as a whole word of a query, quoted or not. */
  private static Pattern word(String table) {
    return Pattern.compile("(?<![A-Za-z0-9_])(`?)" + Pattern.quote(table) + "(`?)(?![A-Za-z0-9_])");
  }

  @Override
  public void close() {
    opened.forEach(Session::close);
  }
}
