package dev.cutover.engine.api;

import java.util.Arrays;
import java.util.List;

/**
 * One statement for ClickHouse: its text with a {@code ?} for each value, and the values, bound in
 * order and never spliced into the text. Names in the text come quoted from {@link Identifier}.
 */
public record Statement(String text, List<Object> values) {

  public Statement {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("A statement needs text");
    }
    values = List.copyOf(values);
  }

  public static Statement of(String text, Object... values) {
    return new Statement(text, Arrays.asList(values));
  }

  /** The same statement with {@code prefix} put before its text, e.g. {@code INSERT INTO t }. */
  public Statement prefixed(String prefix) {
    return new Statement(prefix + text, values);
  }

  /** The same statement with {@code suffix} put after its text, e.g. a {@code SETTINGS} clause. */
  public Statement suffixed(String suffix) {
    return new Statement(text + suffix, values);
  }

  /** The text alone, for people: what a confirmation or a log shows. Values stay out of it. */
  @Override
  public String toString() {
    return text;
  }
}
