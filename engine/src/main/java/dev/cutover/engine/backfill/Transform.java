package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.SqlText;
import java.util.ArrayList;
import java.util.List;

/**
 * A spec's transform with its window bound: each {@code {window_start:DateTime}} and {@code
 * {window_end:DateTime}} becomes a bound parameter, so the values never enter the SQL text.
 */
public record Transform(String sql, List<Object> values) {

  public static final String WINDOW_START = "{window_start:DateTime}";
  public static final String WINDOW_END = "{window_end:DateTime}";

  public static Transform bind(TableSpec spec, HourPartition from, HourPartition to) {
    // Comments go first: the driver cannot see past an apostrophe in one, and a placeholder in a comment binds nothing.
    String text = SqlText.withoutComments(spec.transform());
    for (TableSpec.Source source : spec.sources()) {
      text = text.replace("{" + source.name() + "}", spec.qualified(source.table()));
    }
    StringBuilder out = new StringBuilder(text.length());
    List<Object> values = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      if (text.startsWith(WINDOW_START, i)) {
        out.append("toDateTime(?, 'UTC')");
        values.add(from.epochSecond());
        i += WINDOW_START.length();
      } else if (text.startsWith(WINDOW_END, i)) {
        out.append("toDateTime(?, 'UTC')");
        values.add(to.epochSecond());
        i += WINDOW_END.length();
      } else {
        out.append(text.charAt(i++));
      }
    }
    return new Transform(out.toString(), values);
  }

  /** The statement as an operator reads it, values written in place; for display only, never executed. */
  public String display() {
    StringBuilder out = new StringBuilder();
    int v = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '?' && v < values.size()) {
        Object value = values.get(v++);
        out.append(value instanceof Number ? value.toString() : "'" + value.toString().replace("'", "\\'") + "'");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** Prefixes further bound values (for an outer statement around the transform). */
  public Transform wrap(String before, String after, List<Object> afterValues) {
    List<Object> all = new ArrayList<>(values);
    all.addAll(afterValues);
    return new Transform(before + sql + after, all);
  }
}
