package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.Readable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The proof after a swap that the consumer view returns exactly the rows of the version it now reads,
 * hour by hour over the window: both sides hashed by the view's own columns, compared again through a
 * cluster before a difference counts, and a table of partial rows compared as its engine folds it.
 */
final class SwapVerification {

  /** Comparisons of the view with its version through a cluster before a difference counts. */
  private static final int COMPARISONS = 4;

  private final Sql sql;
  private final TableSpec spec;

  SwapVerification(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** What the check found, and the sentence that says so or names the first hour that differs. */
  record Verification(SwapResult.Check check, String sentence) {
    boolean verified() {
      return check == SwapResult.Check.VERIFIED;
    }
  }

  /**
   * Does the consumer view return exactly what {@code expected} holds, hour by hour over the window?
   * Both sides hash the view's own columns, so a view that selects fewer columns still compares.
   */
  Verification verify(HourRange window, Identifier expected) {
    List<Identifier> columns = sql.query("read the columns of " + spec.consumerView(), "SELECT name FROM system.columns "
        + "WHERE database = ? AND table = ? ORDER BY position", rs -> Identifier.of(rs.getString(1)),
        spec.database().name(), spec.consumerView().name());
    String hashed = columns.stream().map(Identifier::quoted).collect(Collectors.joining(", "));
    String time = spec.timeColumn().quoted();
    boolean byHour = columns.contains(spec.timeColumn());
    String side = "SELECT " + (byHour ? "toUnixTimestamp(toStartOfHour(" + time + "))" : "toUInt32(0)") + " AS h, "
        + "count() AS n, reinterpretAsInt64(sum(cityHash64(" + hashed + "))) AS c FROM %s"
        + (byHour ? " WHERE " + time + " >= toDateTime(?, 'UTC') AND " + time + " < toDateTime(?, 'UTC')" : "")
        + " GROUP BY h";
    Object[] values = byHour ? new Object[] {window.from().epochSecond(), window.to().epochSecond(),
        window.from().epochSecond(), window.to().epochSecond()} : new Object[0];
    long[] result = compare(side, spec.qualified(expected), expected, values);
    // Through a Distributed table the two sides are read from every shard one after the other, not in one snapshot:
    // an hour the live writer replaces in between differs for a moment. The view's definition does not change
    // between two comparisons, so one comparison without a difference proves it returns the table's rows.
    for (int attempt = 1; result[1] != 0 && attempt < COMPARISONS && spec.cluster().isPresent(); attempt++) {
      Swap.pause(300L * attempt);
      result = compare(side, spec.qualified(expected), expected, values);
    }
    String folded = new Readable(sql, spec).from(expected);
    boolean byKey = false;
    if (result[1] != 0 && !folded.equals(spec.qualified(expected))) {
      // A table of partial rows is read by consumers as it means: a view that sums per hour and key returns
      // its folded rows, which is what it must return.
      long[] asFolded = compare(side, folded, expected, values);
      if (asFolded[1] == 0) {
        result = asFolded;
        byKey = true;
      }
    }
    long hours = result[0];
    long differing = result[1];
    if (differing == 0) {
      return new Verification(SwapResult.Check.VERIFIED, "verified: " + spec.consumerView() + " returns " + expected
          + "'s rows for all " + Figures.count(hours) + " hour(s) with rows in " + window + " ("
          + Figures.count(result[2]) + " rows" + (byKey ? ", folded per hour and key as its "
          + "engine merges them" : "") + ", same checksums)");
    }
    return new Verification(SwapResult.Check.DIFFERS, "NOT verified: " + spec.consumerView() + " does not return "
        + expected + "'s rows in " + Figures.count(differing) + " of "
        + Figures.count(hours) + " hour(s) with rows in " + window + ", first "
        + HourPartition.ofEpochSecond(result[3]) + "; the view filters or changes rows, or something else changed it. Investigate before anything else");
  }

  /** Hours compared, hours that differ, the view's rows, and the first hour that differs. */
  private long[] compare(String side, String expectedFrom, Identifier expected, Object[] values) {
    return sql.queryOne("compare " + spec.consumerView() + " with " + expected, "SELECT count(), "
            + "countIf(a.n != b.n OR a.c != b.c), sum(a.n), toUnixTimestamp(minIf(toDateTime(if(a.h = 0, b.h, a.h)), "
            + "a.n != b.n OR a.c != b.c)) FROM (" + side.formatted(spec.qualified(spec.consumerView())) + ") AS a FULL "
            + "OUTER JOIN (" + side.formatted(expectedFrom) + ") AS b ON a.h = b.h",
        rs -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)}, values);
  }
}
