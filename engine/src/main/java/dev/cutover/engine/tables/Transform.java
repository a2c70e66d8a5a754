package dev.cutover.engine.tables;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.SqlLexer;
import dev.cutover.engine.sql.SqlText;
import java.util.ArrayList;
import java.util.List;

/**
 * A spec's transform with its window bound: each {@code {window_start:DateTime}} and {@code
 * {window_end:DateTime}} in code becomes a bound parameter, so the values never enter the SQL text.
 * Text in quotes and comments is never read for placeholders; comments go, and heredoc strings are
 * written in single quotes, which is all the JDBC driver's own reading of a statement knows.
 */
public record Transform(String sql, List<Object> values) {

  public static final String WINDOW_START = "{window_start:DateTime}";
  public static final String WINDOW_END = "{window_end:DateTime}";

  public Transform {
    values = List.copyOf(values);
    // A '?' more or less than the values would shift every value after it, or fail deep in the driver.
    int marks = SqlText.parameterMarks(sql);
    if (marks != values.size()) {
      throw new InvalidInputException("spec.transform", "The transform's statement has " + marks + " parameter "
          + "mark(s) '?' outside quotes but the engine binds " + values.size() + " value(s), so it would run with "
          + "the wrong window; write the transform without '?' and with {window_start} and {window_end} outside "
          + "quotes and comments.");
    }
  }

  public static Transform bind(TableSpec spec, HourPartition from, HourPartition to) {
    return bind(spec, spec.transform(), from, to);
  }

  /** {@code query} (the transform, or a corrected view's own query) bound to {@code [from, to)}, as the transform is. */
  public static Transform bind(TableSpec spec, String query, HourPartition from, HourPartition to) {
    String transform = query;
    StringBuilder out = new StringBuilder(transform.length());
    List<Object> values = new ArrayList<>();
    for (SqlLexer.Token t : SqlLexer.tokens(transform)) {
      String piece = transform.substring(t.start(), t.end());
      switch (t.kind()) {
        case CODE -> bindCode(spec, piece, out, values, from, to);
        case LINE_COMMENT -> { }
        case BLOCK_COMMENT -> out.append(' ');
        case HEREDOC -> out.append(SqlText.heredocAsString(piece));
        default -> out.append(piece);
      }
    }
    return new Transform(out.toString(), values);
  }

  private static void bindCode(TableSpec spec, String code, StringBuilder out, List<Object> values,
      HourPartition from, HourPartition to) {
    for (TableSpec.Source source : spec.sources()) {
      code = code.replace("{" + source.name() + "}", spec.qualified(source.table()));
    }
    int i = 0;
    while (i < code.length()) {
      if (code.startsWith(WINDOW_START, i)) {
        out.append("toDateTime(?, 'UTC')");
        values.add(from.epochSecond());
        i += WINDOW_START.length();
      } else if (code.startsWith(WINDOW_END, i)) {
        out.append("toDateTime(?, 'UTC')");
        values.add(to.epochSecond());
        i += WINDOW_END.length();
      } else {
        out.append(code.charAt(i++));
      }
    }
  }

  /** The statement as an operator reads it, values written in place; for display only, never executed. */
  public String display() {
    StringBuilder out = new StringBuilder();
    int v = 0;
    for (SqlLexer.Token t : SqlLexer.tokens(sql)) {
      for (int i = t.start(); i < t.end(); i++) {
        char c = sql.charAt(i);
        if (c == '?' && t.kind() == SqlLexer.Kind.CODE && v < values.size()) {
          Object value = values.get(v++);
          out.append(value instanceof Number ? value.toString() : "'" + value.toString().replace("'", "\\'") + "'");
        } else {
          out.append(c);
        }
      }
    }
    return out.toString();
  }

  /**
   * The statement with its values written in, for DDL, where the server binds no parameters (the query
   * of a materialized view). The window's values are whole numbers of seconds, never text, so what is
   * written in is exactly what would have been bound.
   */
  public String literal() {
    if (!values.stream().allMatch(v -> v instanceof Long || v instanceof Integer)) {
      throw new IllegalStateException("only whole numbers are written into DDL, not " + values);
    }
    return display();
  }

  /** Prefixes further bound values (for an outer statement around the transform). */
  public Transform wrap(String before, String after, List<Object> afterValues) {
    List<Object> all = new ArrayList<>(values);
    all.addAll(afterValues);
    return new Transform(before + sql + after, all);
  }
}
