package dev.cutover.engine.tables;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which of the spec's sources its transform reads, from ClickHouse's own parse of the bound query ({@code
 * EXPLAIN AST}): every table it names, in a join or a subquery too, whatever the text around it. A
 * materialized view fires only on inserts into the first table of its query, and reads every other table
 * whole at each insert: a corrected view over two time-stamped sources would add the second one's rows
 * since B again with every block of the first.
 */
public final class TransformSources {

  private static final String NODE = "TableIdentifier ";

  private final Sql sql;
  private final TableSpec spec;

  public TransformSources(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** The spec's sources that the transform reads, in the spec's order. */
  public List<TableSpec.Source> read() {
    HourPartition any = HourPartition.containing(java.time.Instant.EPOCH).plusHours(24);
    Transform bound = Transform.bind(spec, any, any.plusHours(1));
    List<String> ast = sql.query("read the tables of the transform of " + spec.name(), "EXPLAIN AST " + bound.sql(),
        rs -> rs.getString(1), bound.values().toArray());
    Set<String> named = new LinkedHashSet<>();
    for (String line : ast) {
      String node = line.strip();
      if (node.startsWith(NODE)) {
        String table = node.substring(NODE.length()).split(" ", 2)[0].replace("`", "");
        named.add(table.contains(".") ? table : spec.database().name() + "." + table);
      }
    }
    return spec.sources().stream().filter(s -> named.contains(spec.database().name() + "." + s.table().name()))
        .toList();
  }

  /**
   * Why one materialized view cannot be the corrected live writer of this transform, when it reads more
   * than one of the spec's sources: a sentence that says what would happen and what to do instead.
   */
  public Optional<String> whyNotOneView() {
    List<TableSpec.Source> read = read();
    if (read.size() < 2) {
      return Optional.empty();
    }
    List<String> names = read.stream().map(s -> s.table().name()).toList();
    return Optional.of("The transform reads " + read.size() + " sources (" + String.join(", ", names) + "), and a "
        + "materialized view fires only on inserts into the first table of its query (" + names.getFirst() + "): "
        + "at each of them it would read " + String.join(" and ", names.subList(1, names.size())) + " whole from B "
        + "on, so " + spec.targetTable() + " would count those rows again with every block inserted into "
        + names.getFirst() + ", and nothing would be written for inserts into the others. One view cannot be "
        + "this table's corrected live writer: point a writer outside the database at " + spec.targetTable()
        + " (declare-live), or create one view per source yourself, each a SELECT over one source writing "
        + "partial rows TO " + spec.targetTable() + " from B, as the views that feed " + spec.liveTable() + " are.");
  }
}
